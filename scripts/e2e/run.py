#!/usr/bin/python3
"""End-to-end test on a real Linux kernel: a Debian kernel with mac80211_hwsim (radios=3,
regtest=5) booted under qemu (TCG), v2xcap and its shared libraries in a busybox initramfs.

  run.py boot --kernel LABEL --suite SUITE --work DIR --v2xcap BIN --replay PCAP
        builds the guest from SUITE's packages ("host": this machine's apt, e.g. Debian
        12's 6.1; "sid": Debian unstable's 7.x, from the root scripts/debian-root makes)
        and boots it; LABEL (6.1, 7.x) is the kernel version the guest must report
  run.py check NAME --kernel LABEL --work DIR --v2xcap BIN [--widths 5,10,20]
                [--run-tshark SH --plugin-dir D]
        asserts on the results; --widths: the OCB widths this kernel is expected to join

Every guest piece is a Debian package fetched with `apt-get download` (for another suite
inside its root, scripts/in-root) and unpacked here (nothing is installed on the host).
A missing qemu, package, root or network makes `boot` exit 77 (SKIP) with the reason,
and every check SKIPs after it.
"""
import argparse
import base64
import csv
import gzip
import io
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))
IN_ROOT = os.path.join(HERE, "..", "in-root")
GUEST_PACKAGES = ["busybox-static", "wireless-regdb"]
BOOT_TIMEOUT_S = 170     # the host-side limit; the guest's own watchdog fires earlier
GUEST_WATCHDOG_S = 140
BEACON = {"id": "1A2B3C4D", "count": 10, "lat": 422817000, "lon": -837433000}  # bsm_beacon's
BSM = {"id": "0A0B0C0D", "count": 5, "lat": 422817000, "lon": -837433000,
       "speed": 675, "heading": 7200}  # as guest-test.sh sends them, in J2735 units


def skip(reason):
    print(f"SKIP: {reason}", flush=True)
    skip.reason = reason
    sys.exit(SKIP)


def fail(reason):
    print(f"FAIL: {reason}", flush=True)
    sys.exit(1)


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# ---------------------------------------------------------------- guest build

class Apt:
    """apt of the host, or of another suite's root (through scripts/in-root)."""

    def __init__(self, suite):
        self.prefix = [] if suite == "host" else [IN_ROOT, suite]
        if self.prefix and os.geteuid() != 0:
            skip(f"the {suite} kernel comes from a {suite} root (scripts/debian-root), "
                 "which needs root")

    def depends(self, package, pattern):
        """The dependencies of package whose names match pattern."""
        out = sh(self.prefix + ["apt-cache", "depends", package], cwd="/")
        if out.returncode != 0:
            skip(f"apt-cache depends {package}: {out.stderr.strip()}")
        return re.findall(rf"^  Depends: ({pattern})$", out.stdout, re.M)

    def download(self, debs, packages):
        out = sh(self.prefix + ["apt-get", "download"] + packages, cwd=debs)
        if out.returncode != 0 and os.geteuid() == 0:
            # Package lists older than the mirror: refresh once and retry.
            sh(self.prefix + ["apt-get", "update", "-qq"], cwd="/")
            out = sh(self.prefix + ["apt-get", "download"] + packages, cwd=debs)
        if out.returncode != 0:
            lines = [l for l in out.stderr.strip().splitlines() if not l.startswith("W:")]
            skip(f"cannot download {' '.join(packages)} (no network or no apt source?): "
                 f"{(lines or [''])[-1]}")


def kernel_packages(apt):
    """The kernel linux-image-amd64 depends on, and the packages that carry its image and
    modules where Debian splits them (linux-binary-*, linux-modules-*, since 7.x)."""
    image = apt.depends("linux-image-amd64", r"linux-image-\S+-amd64")
    if not image:
        skip("no linux-image-amd64 in the apt cache (run apt-get update)")
    version = image[0][len("linux-image-"):]
    return image + apt.depends(image[0], rf"linux-(?:binary|modules)-{re.escape(version)}")


def fetch(apt, debs, packages):
    """The .deb files of packages in debs, downloading the ones not there yet."""
    os.makedirs(debs, exist_ok=True)

    def have(p):
        return sorted(f for f in os.listdir(debs) if f.startswith(p + "_"))
    missing = [p for p in packages if not have(p)]
    if missing:
        apt.download(debs, missing)
    return [have(p)[-1] for p in packages]


# Of the kernel packages only what the guest needs: unpacking all modules takes longer
# than booting. Debian 12 has /boot/vmlinuz-*, 7.x /usr/lib/modules/*/vmlinuz.
KERNEL_PARTS = re.compile(r"(\./)?(boot/vmlinuz-.*|(usr/)?lib/modules/[^/]+/(vmlinuz|kernel/"
                          r"(net|lib|drivers/virtio|drivers/net/wireless)/.*))")


def unpack(debs, files, root):
    """Unpacks the .deb files into root, unless root holds exactly these already."""
    stamp = os.path.join(root, ".unpacked")
    if os.path.exists(stamp) and read(stamp).decode().split() == files:
        return
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    for deb in files:
        path = os.path.join(debs, deb)
        if deb.startswith("linux-"):
            proc = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", path],
                                    stdout=subprocess.PIPE)
            with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
                for m in tar:
                    if m.isfile() and KERNEL_PARTS.fullmatch(m.name):
                        tar.extract(m, root)
            rc = proc.wait()
        else:
            rc = sh(["dpkg-deb", "-x", path, root]).returncode
        if rc != 0:
            skip(f"dpkg-deb cannot unpack {deb}")
    with open(stamp, "w") as f:
        f.write("\n".join(files) + "\n")


def find_one(root, pattern, what):
    """The file under root whose path (relative to root) matches pattern."""
    for d, _, files in os.walk(root):
        for f in sorted(files):
            path = os.path.join(d, f)
            if re.fullmatch(pattern, os.path.relpath(path, root)):
                return path
    skip(f"the guest packages have no {what}")


def module_index(root):
    """Module name -> path of its .ko (plain, or .ko.xz/.ko.gz as Debian 13 on ship them)."""
    index = {}
    for d, _, files in os.walk(root):
        for f in files:
            m = re.fullmatch(r"(.+)\.ko(\.xz|\.gz)?", f)
            if m:
                index[m.group(1).replace("-", "_")] = os.path.join(d, f)
    return index


def module_data(path):
    """A module's ELF image: the guest's busybox insmod loads uncompressed modules only."""
    data = read(path)
    if path.endswith(".xz"):
        return lzma.decompress(data)
    if path.endswith(".gz"):
        return gzip.decompress(data)
    return data


def depends_of(data):
    m = re.search(rb"depends=([\w,-]*)\x00", data)
    return [d.replace("-", "_") for d in m.group(1).decode().split(",") if d] if m else []


def load_order(index, top):
    """Modules top needs, dependencies first (read from each .ko's depends=), with their
    uncompressed images."""
    order = {}

    def visit(name):
        if name in order:
            return
        if name not in index:
            skip(f"kernel package has no module {name}")
        data = module_data(index[name])
        for dep in depends_of(data):
            visit(dep)
        order[name] = data
    visit(top)
    return order


def shared_libraries(binary):
    """The shared objects binary loads (its ELF interpreter too), as ldd resolves them."""
    out = sh(["ldd", binary])
    if out.returncode != 0:
        return []  # a static binary ("not a dynamic executable")
    return re.findall(r"^\s*(?:\S+ => )?(/\S+) \(0x", out.stdout, re.M)


def cpio_newc(entries):
    """entries: (name, mode, data or None for a directory) -> an uncompressed newc cpio."""
    out = io.BytesIO()

    def put(name, mode, data, ino):
        name_b = name.encode() + b"\0"
        hdr = "070701" + "".join(f"{v:08X}" for v in (
            ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name_b), 0))
        out.write(hdr.encode() + name_b)
        out.write(b"\0" * ((4 - (110 + len(name_b)) % 4) % 4))
        out.write(data)
        out.write(b"\0" * ((4 - len(data) % 4) % 4))
    for ino, (name, mode, data) in enumerate(entries, 1):
        put(name, mode, data if data is not None else b"", ino)
    put("TRAILER!!!", 0, b"", 0)
    return out.getvalue()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def replay_json(v2xcap, replay):
    """The "j2735" objects of the replay's decoded messages, one per line."""
    out = subprocess.run([v2xcap, "decode", "--octets", replay], capture_output=True).stdout
    lines = [json.loads(l)["j2735"] for l in out.splitlines()]
    return "".join(json.dumps(j) + "\n" for j in lines if "value" in j).encode()


def build_initramfs(root, work, v2xcap, replay, examples):
    order = load_order(module_index(root), "mac80211_hwsim")
    files = {
        "bin/busybox": (0o755, read(find_one(root, r"(usr/)?bin/busybox", "busybox"))),
        "init": (0o755, read(os.path.join(HERE, "init"))),
        "guest-test.sh": (0o755, read(os.path.join(HERE, "guest-test.sh"))),
        "bin/v2xcap": (0o755, read(v2xcap)),
        "replay.pcap": (0o644, read(replay)),
        # the replay's messages as JSON Lines, for send --json (none without a schema)
        "replay.jsonl": (0o644, replay_json(v2xcap, replay)),
        "modules.order": (0o644, "\n".join(m for m in order if m != "mac80211_hwsim")
                          .encode() + b"\n"),
        "lib/firmware/regulatory.db": (0o644, read(find_one(
            root, r"(usr/)?lib/firmware/regulatory\.db-debian", "regulatory.db"))),
        "lib/firmware/regulatory.db.p7s": (0o644, read(find_one(
            root, r"(usr/)?lib/firmware/regulatory\.db\.p7s-debian", "regulatory.db.p7s"))),
    }
    files.update({f"modules/{m}.ko": (0o644, data) for m, data in order.items()})
    # libv2x's examples over its public API, run by the scenario beside v2xcap
    files.update({f"bin/{os.path.basename(e)}": (0o755, read(e)) for e in examples})
    # The host's binaries run as they are, with the host's libraries at the same paths.
    for binary in [v2xcap] + examples:
        files.update({lib.lstrip("/"): (0o755, read(lib)) for lib in shared_libraries(binary)})
    dirs = {"dev", "proc", "sys", "tmp", "results"}
    for name in files:
        parts = name.split("/")[:-1]
        dirs.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    entries = [(d, 0o40755, None) for d in sorted(dirs)]
    entries += [(name, 0o100000 | mode, data) for name, (mode, data) in files.items()]
    path = os.path.join(work, "initramfs.cpio")
    with open(path, "wb") as f:
        f.write(cpio_newc(entries))
    return path


def boot(args):
    t0 = time.monotonic()
    work = os.path.abspath(args.work)
    results = os.path.join(work, "results")
    shutil.rmtree(results, ignore_errors=True)
    os.makedirs(results)
    status = os.path.join(results, "STATUS")
    with open(status, "w") as f:
        f.write("SKIP: the boot did not finish\n")
    if not shutil.which("qemu-system-x86_64"):
        skip_boot(status, "qemu-system-x86_64 not installed (Debian: qemu-system-x86)")
    for tool in ("apt-get", "dpkg-deb", "ldd"):
        if not shutil.which(tool):
            skip_boot(status, f"{tool} not found: the guest is built from Debian packages")
    debs = os.path.join(work, "debs")
    root = os.path.join(work, "root")
    try:
        apt = Apt(args.suite)
        unpack(debs, fetch(apt, debs, kernel_packages(apt) + GUEST_PACKAGES), root)
        initramfs = build_initramfs(root, work, args.v2xcap, args.replay, args.example)
        kernel = find_one(root, r"boot/vmlinuz-.*|(usr/)?lib/modules/[^/]+/vmlinuz",
                          "kernel image (vmlinuz)")
    except SystemExit as e:
        if e.code == SKIP:  # the reason is printed; the checks show it too
            with open(status, "w") as f:
                f.write(f"SKIP: {skip.reason}\n")
        raise
    t_built = time.monotonic()
    console = os.path.join(results, "console.log")
    serial = os.path.join(work, "results.b64")
    for f in (console, serial):
        if os.path.exists(f):
            os.remove(f)
    cmd = ["qemu-system-x86_64", "-accel", "tcg", "-m", "512", "-smp", "1",
           "-kernel", kernel, "-initrd", initramfs,
           "-append", f"console=ttyS0 panic=-1 quiet V2X_WATCHDOG={GUEST_WATCHDOG_S}",
           "-no-reboot", "-display", "none", "-monitor", "none", "-nic", "none",
           "-serial", f"file:{console}", "-serial", f"file:{serial}"]
    try:
        subprocess.run(cmd, timeout=BOOT_TIMEOUT_S, capture_output=True)
    except subprocess.TimeoutExpired:
        fail(f"qemu did not power off within {BOOT_TIMEOUT_S} s (see {console})")
    t_booted = time.monotonic()
    try:
        blob = base64.b64decode(read(serial).replace(b"\r", b""))
        with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
            tar.extractall(results)
            # File owners in the guest (an unprivileged host user cannot restore them).
            with open(os.path.join(results, "OWNERS"), "w") as f:
                f.writelines(f"{m.name.lstrip('./')} {m.uid}\n" for m in tar.getmembers()
                             if m.name.lstrip("./"))
    except (OSError, ValueError, tarfile.TarError) as e:
        fail(f"no results from the guest ({e}); console: {console}")
    times = (f"guest build {t_built - t0:.1f} s, boot+test+poweroff "
             f"{t_booted - t_built:.1f} s, total {t_booted - t0:.1f} s")
    with open(status, "w") as f:
        f.write(f"BOOTED: {times}\n")
    with open(os.path.join(results, "guest.log")) as f:
        print(f.read())
    print(f"e2e wall time ({os.path.basename(kernel)}): {times}")


def skip_boot(status, reason):
    with open(status, "w") as f:
        f.write(f"SKIP: {reason}\n")
    skip(reason)


# ---------------------------------------------------------------- checks

class Results:
    def __init__(self, args):
        self.dir = os.path.join(os.path.abspath(args.work), "results")
        self.args = args
        try:
            status = open(os.path.join(self.dir, "STATUS")).read().strip()
        except OSError:
            skip("the guest was not booted (run the e2e_<kernel>_guest_boot test first)")
        if not status.startswith("BOOTED"):
            skip(f"guest boot: {status}")

    def text(self, name):
        try:
            with open(os.path.join(self.dir, name), errors="replace") as f:
                return f.read()
        except OSError:
            fail(f"the guest left no {name}")

    def rc(self, name):
        return int(self.text(name + ".rc").strip() or -1)

    def path(self, name):
        return os.path.join(self.dir, name)

    def stats(self, path, by):
        """v2xcap stats --by BY as {key: frames}; fails unless it reads the file cleanly."""
        out = sh([self.args.v2xcap, "stats", "--format", "csv", "--by", by, path])
        if out.returncode != 0:
            fail(f"v2xcap stats {path}: rc {out.returncode}: {out.stderr.strip()}")
        rows = list(csv.reader(io.StringIO(out.stdout)))
        return {r[0]: int(r[1]) for r in rows[1:] if r}


def expect(cond, what):
    if not cond:
        fail(what)
    print(f"ok: {what}")


def check_kernel_version(r):
    release = r.text("uname").strip()
    label = r.args.kernel
    prefix = label[:-1] if label.endswith(".x") else label + "."
    expect(release.startswith(prefix), f"the guest runs kernel {label} ({release})")


def check_ocb_widths(r):
    """Each width either joins, or fails with the kernel's text and a hint offering 20."""
    if not r.args.widths:
        fail("ocb_widths needs --widths (the widths this kernel joins)")
    allowed = [int(w) for w in r.args.widths.split(",")]
    for w in (5, 10, 20):
        out = r.text(f"ocb-width-{w}.out").strip()
        status = r.text(f"ocb-width-{w}-status.out")
        if w in allowed:
            expect(r.rc(f"ocb-width-{w}") == 0 and f"{w} MHz wide" in out,
                   f"{w} MHz: joins ({out})")
            expect(f"width {w} MHz" in status, f"{w} MHz: status reports width {w} MHz")
        else:
            expect(r.rc(f"ocb-width-{w}") == 1 and "Invalid argument (kernel: " in out,
                   f"{w} MHz: refused with the kernel's text: {out.splitlines()[0]}")
            expect(f"hint: phy2 offers no {w} MHz channels" in out and "--width 20" in out,
                   f"{w} MHz: the hint names the missing width and offers --width 20")
        if w < 20:
            said = f"{w} MHz supported" if w in allowed else f"{w} MHz not reported"
            expect(said in status, f"status says '{said}'")
    want = 10 if 10 in allowed else 20
    expect(r.text("width").strip() == str(want),
           f"the rest of the test runs at {want} MHz (10 where the kernel allows it)")


def check_ocb_join(r):
    for name in ("ocb-join-wlan0", "ocb-join-wlan1"):
        expect(r.rc(name) == 0, f"{name} exits 0 ({r.text(name + '.out').strip()})")
    expect("178" in r.text("ocb-join-wlan1.out") and "5890" in r.text("ocb-join-wlan1.out"),
           "channel 178 is accepted as 5890 MHz")
    expect(r.rc("ocb-rejoin-wlan0") == 0 and "already" in r.text("ocb-rejoin-wlan0.out"),
           "joining again on the same channel is a success (idempotent)")


def check_ocb_switch_and_leave(r):
    expect(r.rc("ocb-switch-wlan2") == 0, "joining another channel while joined succeeds")
    expect("5910 MHz" in r.text("ocb-status-switched.out"),
           "the interface moved from 5900 to 5910 MHz")
    expect(r.rc("ocb-leave-wlan2") == 0 and "left OCB" in r.text("ocb-leave-wlan2.out"),
           "ocb leave exits 0")
    expect("no channel" in r.text("ocb-status-left.out"), "after leave: no channel")


def check_ocb_status(r):
    out = r.text("ocb-status-wlan0.out")
    expect(r.rc("ocb-status-wlan0") == 0, "ocb status wlan0 exits 0")
    expect("type ocb" in out, f"status reports OCB mode: {out.splitlines()[0]}")
    width = r.text("width").strip()
    expect("5890 MHz" in out and f"width {width} MHz" in out,
           f"status reports 5890 MHz / {width} MHz")
    expect("OCB supported" in out, "status reports the phy's OCB support")


def check_ocb_monitor(r):
    expect(r.rc("ocb-monitor") == 0, f"ocb monitor exits 0 ({r.text('ocb-monitor.out')})")
    expect(r.text("mon1.type").strip() == "803", "mon1 is a radiotap interface (ARPHRD 803)")


def check_ocb_regulatory_hint(r):
    out = r.text("ocb-join-disabled.out")
    expect(r.rc("ocb-join-disabled") == 1, "joining a disabled channel (5500 MHz) fails")
    expect("regulatory" in out and "regtest" in out, f"with the regulatory hint: {out}")


def expected_types(r):
    want = r.stats(os.path.abspath(r.args.replay), "type")
    if r.rc("send-bsm") == 0:
        want["BSM"] = want.get("BSM", 0) + BSM["count"]
    if os.path.exists(r.path("example-bsm-beacon.rc")) and r.rc("example-bsm-beacon") == 0:
        want["BSM"] = want.get("BSM", 0) + BEACON["count"]
    if os.path.exists(r.path("send-json.rc")) and r.rc("send-json") == 0:
        for m in replay_messages(r):
            want[m["name"]] = want.get(m["name"], 0) + 1
    return want


def replay_messages(r):
    return [json.loads(l) for l in replay_json(r.args.v2xcap, r.args.replay).splitlines()]


def check_capture_counts(r, capture):
    expect(r.rc("send-replay") == 0, "send of the replay file exits 0")
    expect(r.rc("capture-" + capture.split(".")[0]) == 0, f"capture {capture} exits 0")
    want = expected_types(r)
    got = r.stats(r.path(capture), "type")
    expect(got == want, f"{capture}: frames per message type {got} == sent {want}")
    mac = r.text("wlan0.mac").strip().lower()
    senders = r.stats(r.path(capture), "sender")
    expect(senders == {mac: sum(want.values())},
           f"{capture}: every frame comes from wlan0 ({mac}): {senders}")


def check_far_channel(r):
    expect(r.rc("capture-wlan2") == 0, "capture on wlan2 (5900 MHz) exits 0")
    got = r.stats(r.path("wlan2.pcapng"), "type")
    expect(got == {}, f"a radio on 5900 MHz sees no WSMP frames: {got}")


def tshark_frames(r, path):
    if not r.args.run_tshark or not shutil.which("tshark"):
        skip("tshark not installed")
    # tshark may run as nobody (tests/run-tshark): give it a readable copy; reading a
    # capture needs no plugin, so an empty plugin folder does when none was built.
    tmp = tempfile.mkdtemp(prefix="v2x-e2e-")
    try:
        os.chmod(tmp, 0o755)
        copy = shutil.copy(path, tmp)
        os.chmod(copy, 0o644)
        plugins = r.args.plugin_dir if os.path.isdir(r.args.plugin_dir or "") else tmp
        out = sh([r.args.run_tshark, plugins, "-r", copy, "-T", "fields",
                  "-e", "frame.number"])
    finally:
        shutil.rmtree(tmp)
    if out.returncode != 0:
        fail(f"tshark cannot read {path} completely: {out.stderr.strip()}")
    return len(out.stdout.split())


def check_sigint_files(r):
    want = sum(expected_types(r).values())
    for capture in ("mon1.pcapng", "wlan1.pcap"):
        out = r.text("capture-" + capture.split(".")[0] + ".out")
        expect(f"{want} frames kept" in out, f"{capture}: capture's own summary after SIGINT")
        expect("dropped by the kernel" in out, f"{capture}: libpcap drop counters printed")
        n = tshark_frames(r, r.path(capture))
        expect(n == want, f"{capture}: tshark reads all {want} frames ({n})")
        expect(sum(r.stats(r.path(capture), "type").values()) == want,
               f"{capture}: v2xcap stats reads all {want} frames")


def check_live_stats(r):
    out = r.text("capture-wlan1.out")
    lines = [l for l in out.splitlines() if re.match(r"\d\d:\d\d:\d\d \d+ frames", l)]
    expect(lines, "capture --stats prints one line per interval (stderr not a terminal)")
    total = sum(int(re.match(r"\d\d:\d\d:\d\d (\d+) frames", l).group(1)) for l in lines)
    want = sum(expected_types(r).values())
    expect(total == want, f"the interval lines add up to the {want} frames captured ({total})")
    expect(any(" BSM " in l for l in lines), "the interval lines name the message types")


def check_privilege_drop(r):
    for capture in ("mon1", "wlan1", "wlan2"):
        out = r.text(f"capture-{capture}.out")
        expect("privileges: uid 65534 gid 65534" in out,
               f"capture on {capture} as root without SUDO_UID becomes nobody")
    owners = dict(line.split() for line in r.text("OWNERS").splitlines() if line.strip())
    for f in ("mon1.pcapng", "wlan1.pcap"):
        expect(owners.get(f) == "65534",
               f"{f} was created after the drop (owned by uid 65534 in the guest)")


def bsm_sent(r):
    if r.rc("send-bsm") != 0:
        skip(f"send --bsm unavailable: {r.text('send-bsm.out').strip()}")


def check_send_checks_interface(r):
    out = r.text("send-replay.out")
    expect("OCB on 5890 MHz (channel 178)" in out,
           f"send states the channel before sending: {out}")
    out = r.text("send-monitor-refused.out")
    expect(r.rc("send-monitor-refused") == 1 and "monitor interface" in out
           and "--force" in out, f"send refuses a monitor interface: {out}")


def check_bsm_senders(r):
    bsm_sent(r)
    for capture in ("mon1.pcapng", "wlan1.pcap"):
        out = sh([r.args.v2xcap, "stats", "--format", "csv", "--by", "bsm", r.path(capture)])
        rows = {row["temporary_id"]: row for row in csv.DictReader(io.StringIO(out.stdout))}
        row = rows.get(BSM["id"])
        expect(row is not None and int(row["messages"]) == BSM["count"],
               f"{capture}: {BSM['count']} BSMs from TemporaryID {BSM['id']}: {rows}")
        expect(row["msgcnt_lost"] == "0" and row["duplicates"] == "0",
               f"{capture}: msgCnt increments by one (no gap, no duplicate)")
        expect(row["clock"] != "unsync",
               f"{capture}: secMark follows the clock (message age {row['age_mean_ms']} ms)")


def check_bsm_fields(r):
    bsm_sent(r)
    if "decoder: none" in sh([r.args.v2xcap, "--version"]).stdout:
        skip("v2xcap is built without a J2735 schema: BSM fields are not decoded")
    out = sh([r.args.v2xcap, "decode", r.path("wlan1.pcap")])
    if out.returncode == 2:
        skip(f"v2xcap decode unavailable: {out.stderr.strip()}")
    if out.returncode != 0:
        fail(f"v2xcap decode: rc {out.returncode}: {out.stderr.strip()}")
    sent = [line for line in out.stdout.splitlines()
            if BSM["id"].lower() in line.lower() and '"msgCnt"' in line]
    expect(len(sent) == BSM["count"], f"{BSM['count']} BSMs with id {BSM['id']} decoded")
    for key in ("lat", "long", "speed", "heading"):
        value = BSM["lon" if key == "long" else key]
        expect(all(re.search(rf'"{key}": ?{value}\b', line) for line in sent),
               f"decoded {key} == {value} in every BSM")
    counts = [int(m) for line in sent for m in re.findall(r'"msgCnt": ?(\d+)', line)]
    expect(counts == list(range(BSM["count"])), f"msgCnt counts 0..{BSM['count'] - 1}: {counts}")


def check_example_live_bsm(r):
    """examples/live_bsm (libv2x's OCB control, live capture and decoder walk) on mon1
    prints every BSM v2xcap's capture on mon1 kept, and the sent ones' core data."""
    if not os.path.exists(r.path("example-live-bsm.rc")):
        skip("the guest was booted without examples/live_bsm (--example)")
    out = r.text("example-live-bsm.out")
    expect(r.rc("example-live-bsm") == 0 and "BSMs heard by wlan1" in out,
           f"live_bsm wlan1 mon1 ran and ended on SIGINT with 0: {out[:200]}")
    lines = [line for line in out.splitlines() if " dBm" in line]
    want = r.stats(r.path("mon1.pcapng"), "type").get("BSM", 0)
    expect(want > 0 and len(lines) == want,
           f"live_bsm printed {len(lines)} BSMs, v2xcap capture kept {want} on mon1")
    if "decoder: none" in sh([r.args.v2xcap, "--version"]).stdout:
        skip("built without a J2735 schema: the BSMs' core data is not decoded")
    mac = r.text("wlan0.mac").strip()
    sent = [line for line in lines if f"id {BSM['id'].lower()} " in line]
    core = (f"lat {BSM['lat'] / 1e7:.7f} lon {BSM['lon'] / 1e7:.7f} "
            f"speed {BSM['speed'] * 0.02:.2f} m/s")
    expect(len(sent) == BSM["count"] and all(line.startswith(mac) and core in line
                                              for line in sent),
           f"{BSM['count']} BSMs from {mac} with id {BSM['id']}, {core}: {sent}")


def check_example_bsm_beacon(r):
    """examples/bsm_beacon (libv2x's transmitter, v2x_bsm_build) on wlan0: its 10 BSMs
    heard on mon1 and wlan1, msgCnt one by one, its TemporaryID and position."""
    if not os.path.exists(r.path("example-bsm-beacon.rc")):
        skip("the guest was booted without examples/bsm_beacon (--example)")
    out = r.text("example-bsm-beacon.out")
    expect(r.rc("example-bsm-beacon") == 0 and f"{BEACON['count']} BSMs sent on wlan0" in out,
           f"bsm_beacon sent {BEACON['count']} BSMs: {out}")
    for capture in ("mon1.pcapng", "wlan1.pcap"):
        got = sh([r.args.v2xcap, "stats", "--format", "csv", "--by", "bsm", r.path(capture)])
        rows = {row["temporary_id"]: row for row in csv.DictReader(io.StringIO(got.stdout))}
        row = rows.get(BEACON["id"])
        expect(row is not None and int(row["messages"]) == BEACON["count"]
               and row["msgcnt_lost"] == "0" and row["duplicates"] == "0",
               f"{capture}: {BEACON['count']} BSMs from {BEACON['id']}, msgCnt one by one: {row}")
    if "decoder: none" in sh([r.args.v2xcap, "--version"]).stdout:
        skip("built without a J2735 schema: the beacon's position is not decoded")
    lines = [json.loads(line) for line in
             sh([r.args.v2xcap, "decode", r.path("wlan1.pcap")]).stdout.splitlines()]
    core = [l["j2735"]["value"]["coreData"] for l in lines
            if l.get("j2735", {}).get("value", {}).get("coreData", {}).get("id", "").upper()
            == BEACON["id"]]
    expect(len(core) == BEACON["count"] and all(c["lat"] == BEACON["lat"] and
                                                 c["long"] == BEACON["lon"] for c in core),
           f"decoded: {BEACON['count']} BSMs at lat {BEACON['lat']} long {BEACON['lon']}")


# The PSID send --json puts each message type under (v2x_message_psid).
DEFAULT_PSID = {"BSM": 0x20, "MAP": 0x82, "SPAT": 0x82, "SRM": 0x82, "SSM": 0x82, "TIM": 0x83,
                "RSA": 0x83, "PSM": 0x27}


def check_send_json(r):
    """send --json on wlan0: each message of the replay, encoded from its JSON, is heard
    on wlan1 with the octets it had in the replay (so twice: replayed and encoded), under
    its message type's PSID."""
    msgs = replay_messages(r)
    if not msgs:
        skip("built without a J2735 schema: no JSON to encode")
    expect(r.rc("send-json") == 0 and f"{len(msgs)} frames sent" in r.text("send-json.out"),
           f"send --json sent the {len(msgs)} messages: {r.text('send-json.out')}")
    out = sh([r.args.v2xcap, "decode", "--octets", r.path("wlan1.pcap")]).stdout
    heard = [json.loads(l) for l in out.splitlines()]
    for m in msgs:
        same = [h for h in heard if h["j2735"]["octets"] == m["octets"]]
        times = 2 * sum(x["octets"] == m["octets"] for x in msgs)  # the replay repeats some
        psids = {h.get("wsmp", {}).get("psid") for h in same}
        expect(len(same) == times and psids == {DEFAULT_PSID[m["name"]]},
               f"{m['name']} heard {times} times (replayed, encoded) under PSID "
               f"{DEFAULT_PSID[m['name']]:#x}: {len(same)} times, PSIDs {psids}")


def check_api_ocb_errors(r):
    """tests/api/test_api's OCB case on hwsim radios: every check passes."""
    if not os.path.exists(r.path("api-ocb-errors.rc")):
        skip("the guest was booted without tests/api/test_api (--example)")
    out = r.text("api-ocb-errors.out")
    expect(r.rc("api-ocb-errors") == 0 and "checked on wlan2, one of 4 " in out,
           f"test_api ocb_arguments_and_errors_name_the_interface on wlan2: {out}")


CHECKS = {
    "kernel_version": check_kernel_version,
    "send_json": check_send_json,
    "ocb_widths": check_ocb_widths,
    "ocb_join": check_ocb_join,
    "ocb_status": check_ocb_status,
    "ocb_switch_and_leave": check_ocb_switch_and_leave,
    "ocb_monitor": check_ocb_monitor,
    "ocb_regulatory_hint": check_ocb_regulatory_hint,
    "capture_monitor_counts": lambda r: check_capture_counts(r, "mon1.pcapng"),
    "capture_ocb_counts": lambda r: check_capture_counts(r, "wlan1.pcap"),
    "capture_far_channel": check_far_channel,
    "capture_sigint_files": check_sigint_files,
    "capture_live_stats": check_live_stats,
    "capture_privilege_drop": check_privilege_drop,
    "send_bsm_senders": check_bsm_senders,
    "send_bsm_fields": check_bsm_fields,
    "send_checks_interface": check_send_checks_interface,
    "example_live_bsm": check_example_live_bsm,
    "api_ocb_errors": check_api_ocb_errors,
    "example_bsm_beacon": check_example_bsm_beacon,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("action", choices=["boot", "check"])
    ap.add_argument("name", nargs="?", choices=sorted(CHECKS))
    ap.add_argument("--work", required=True)
    ap.add_argument("--kernel", required=True,
                    help="the kernel version the guest runs (6.1, 7.x: any 7.*)")
    ap.add_argument("--suite", default="host", help="boot: whose packages (host, sid, ...)")
    ap.add_argument("--widths", default="",
                    help="check: the OCB widths (MHz) this kernel is expected to join")
    ap.add_argument("--v2xcap")
    ap.add_argument("--example", action="append", default=[],
                    help="boot: a program over libv2x the scenario runs (live_bsm, "
                         "bsm_beacon, test_api)")
    ap.add_argument("--replay", required=True)
    ap.add_argument("--run-tshark")
    ap.add_argument("--plugin-dir")
    args = ap.parse_args()
    if args.action == "boot":
        boot(args)
    else:
        CHECKS[args.name](Results(args))


if __name__ == "__main__":
    main()
