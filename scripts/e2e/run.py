#!/usr/bin/python3
"""End-to-end test on a real Linux kernel: Debian's 6.1 kernel with mac80211_hwsim
(radios=3, regtest=5) booted under qemu (TCG), the static v2xcap in a busybox initramfs.

  run.py boot  --work DIR --v2xcap-static BIN --replay PCAP   builds the guest, boots it
  run.py check NAME --work DIR --v2xcap BIN [--run-tshark SH --plugin-dir D]
                                                              asserts on the results

Every guest piece is a Debian package fetched with `apt-get download` and unpacked with
`dpkg-deb -x` into DIR (nothing is installed on the host). A missing qemu, package or
network makes `boot` exit 77 (SKIP) with the reason, and every check SKIPs after it.
"""
import argparse
import base64
import csv
import io
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
GUEST_PACKAGES = ["busybox-static", "wireless-regdb"]
BOOT_TIMEOUT_S = 170     # the host-side limit; the guest's own watchdog fires earlier
GUEST_WATCHDOG_S = 140
BSM = {"id": "0A0B0C0D", "count": 5, "lat": 422817000, "lon": -837433000,
       "speed": 675, "heading": 7200}  # as guest-test.sh sends them, in J2735 units


def skip(reason):
    print(f"SKIP: {reason}", flush=True)
    sys.exit(SKIP)


def fail(reason):
    print(f"FAIL: {reason}", flush=True)
    sys.exit(1)


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# ---------------------------------------------------------------- guest build

def kernel_package():
    out = sh(["apt-cache", "depends", "linux-image-amd64"])
    m = re.search(r"Depends: (linux-image-\S+-amd64)\b", out.stdout)
    if out.returncode != 0 or not m:
        skip("no linux-image-amd64 in the apt cache (run apt-get update): "
             + out.stderr.strip())
    return m.group(1)


def fetch(debs, packages):
    os.makedirs(debs, exist_ok=True)
    missing = [p for p in packages
               if not any(f.startswith(p + "_") for f in os.listdir(debs))]
    if not missing:
        return
    out = sh(["apt-get", "download"] + missing, cwd=debs)
    if out.returncode != 0:
        lines = out.stderr.strip().splitlines() or [""]
        skip(f"cannot download {' '.join(missing)} (no network or no apt source?): "
             f"{lines[-1]}")


# Of the kernel package only what the guest needs: unpacking all its modules takes
# longer than booting.
KERNEL_PARTS = ["./boot/vmlinuz-*", "./lib/modules/*/kernel/net/*",
                "./lib/modules/*/kernel/lib/*", "./lib/modules/*/kernel/drivers/virtio/*",
                "./lib/modules/*/kernel/drivers/net/wireless/*"]


def unpack(debs, root):
    stamp = os.path.join(root, ".unpacked")
    if os.path.exists(stamp):
        return
    os.makedirs(root, exist_ok=True)
    for deb in sorted(f for f in os.listdir(debs) if f.endswith(".deb")):
        path = os.path.join(debs, deb)
        if deb.startswith("linux-image-"):
            cmd = (f"dpkg-deb --fsys-tarfile '{path}' | tar -x -C '{root}' --wildcards "
                   + " ".join(f"'{p}'" for p in KERNEL_PARTS))
            rc = subprocess.run(cmd, shell=True).returncode
        else:
            rc = sh(["dpkg-deb", "-x", path, root]).returncode
        if rc != 0:
            skip(f"dpkg-deb cannot unpack {deb}")
    open(stamp, "w").close()


def module_index(root):
    index = {}
    for d, _, files in os.walk(os.path.join(root, "lib", "modules")):
        for f in files:
            if f.endswith(".ko"):
                index[f[:-3].replace("-", "_")] = os.path.join(d, f)
    return index


def depends_of(path):
    with open(path, "rb") as f:
        m = re.search(rb"depends=([\w,-]*)\x00", f.read())
    return [d.replace("-", "_") for d in m.group(1).decode().split(",") if d] if m else []


def load_order(index, top):
    """Modules top needs, dependencies first (read from each .ko's depends=)."""
    order = []

    def visit(name):
        if name in order:
            return
        if name not in index:
            skip(f"kernel package has no module {name}")
        for dep in depends_of(index[name]):
            visit(dep)
        order.append(name)
    visit(top)
    return order


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


def build_initramfs(root, work, v2xcap_static, replay):
    index = module_index(root)
    order = load_order(index, "mac80211_hwsim")
    fw = os.path.join(root, "lib", "firmware")
    dirs = ["bin", "dev", "proc", "sys", "tmp", "results", "modules", "lib",
            "lib/firmware"]
    entries = [(d, 0o40755, None) for d in dirs]
    entries += [
        ("bin/busybox", 0o100755, read(os.path.join(root, "bin", "busybox"))),
        ("init", 0o100755, read(os.path.join(HERE, "init"))),
        ("guest-test.sh", 0o100755, read(os.path.join(HERE, "guest-test.sh"))),
        ("bin/v2xcap", 0o100755, read(v2xcap_static)),
        ("replay.pcap", 0o100644, read(replay)),
        ("modules.order", 0o100644,
         "\n".join(m for m in order if m != "mac80211_hwsim").encode() + b"\n"),
        ("lib/firmware/regulatory.db", 0o100644,
         read(os.path.join(fw, "regulatory.db-debian"))),
        ("lib/firmware/regulatory.db.p7s", 0o100644,
         read(os.path.join(fw, "regulatory.db.p7s-debian"))),
    ]
    entries += [(f"modules/{m}.ko", 0o100644, read(index[m])) for m in order]
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
    if not os.path.exists(args.v2xcap_static):
        skip_boot(status, f"no static v2xcap at {args.v2xcap_static} (needs the static "
                  "archives of libpcap0.8-dev, libnl-genl-3-dev, libdbus-1-dev)")
    for tool in ("apt-get", "dpkg-deb"):
        if not shutil.which(tool):
            skip_boot(status, f"{tool} not found: the guest is built from Debian packages")
    kpkg = kernel_package()
    debs = os.path.join(work, "debs")
    root = os.path.join(work, "root")
    try:
        fetch(debs, [kpkg] + GUEST_PACKAGES)
        unpack(debs, root)
        initramfs = build_initramfs(root, work, args.v2xcap_static, args.replay)
    except SystemExit as e:
        if e.code == SKIP:
            skip_boot(status, "guest packages unavailable (see above)")
        raise
    kernels = [f for f in os.listdir(os.path.join(root, "boot")) if f.startswith("vmlinuz")]
    t_built = time.monotonic()
    console = os.path.join(results, "console.log")
    serial = os.path.join(work, "results.b64")
    for f in (console, serial):
        if os.path.exists(f):
            os.remove(f)
    cmd = ["qemu-system-x86_64", "-accel", "tcg", "-m", "512", "-smp", "1",
           "-kernel", os.path.join(root, "boot", kernels[0]), "-initrd", initramfs,
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
    print(f"e2e wall time: {times}")


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
            skip("the guest was not booted (run the e2e_guest_boot test first)")
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
    expect("5890 MHz" in out and "width 10 MHz" in out, "status reports 5890 MHz / 10 MHz")
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
    return want


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


CHECKS = {
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
}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("action", choices=["boot", "check"])
    ap.add_argument("name", nargs="?", choices=sorted(CHECKS))
    ap.add_argument("--work", required=True)
    ap.add_argument("--v2xcap-static")
    ap.add_argument("--v2xcap")
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
