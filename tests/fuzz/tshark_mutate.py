#!/usr/bin/python3
"""The plugins in tshark over editcap-mutated captures: every capture under captures/
(bad/ and c2p/ too) mutated by `editcap -E RATE --seed SEED`, round-robin over the
captures and the rates, so each capture gets the same number of mutations; batches of
mutated files merged into one pcapng and read by tshark (run-tshark, this build's plugins)
three ways: -V -z j2735,tree (the whole tree and the statistics tap), -T fields on the key
fields (the fields-only tree) and the summary lines (no tree). With strict wmem
(WIRESHARK_DEBUG_WMEM_OVERRIDE=strict) and WIRESHARK_ABORT_ON_DISSECTOR_BUG; with plugins
built with ASan/UBSan, run-tshark preloads the sanitizer runtime (--require-asan SKIPs,
exit 77, when they are not). A run fails on a non-zero exit, a signal, a timeout, a
sanitizer report or a dissector bug; a failing batch is then halved until the files that
fail alone are found, each kept in --keep with tshark's stderr and the editcap command
that makes it again. Exit 0 pass, 1 fail, 77 skip."""
import argparse
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77
RATES = (0.001, 0.003, 0.01, 0.03, 0.1)  # editcap -E: the chance each byte is changed
# Read with -T fields when this tshark and plugins register them (a header-only J2735
# plugin has no message fields; tshark 4.0 does not list _ws.col.info).
KEY_FIELDS = ("frame.protocols", "ieee1609dot3.version", "ieee1609dot3.psid",
              "ieee1609dot3.length", "ieee1609dot3.ext.id", "ieee1609dot3.wave_element_id",
              "j2735.msgid", "j2735.BSMcoreData.id", "j2735.BSMcoreData.lat",
              "j2735.BSMcoreData.speed", "j2735.IntersectionReferenceID.id",
              "_ws.expert.message", "_ws.col.info")
# What tshark or a runtime prints on stderr when something went wrong, whatever the exit
# code; stdout (which shows decoded strings of the mutated bytes) only for the first.
FAILURE_MARKS = ("Dissector bug", "AddressSanitizer", "LeakSanitizer", "runtime error:",
                 "CRITICAL", "ERROR **", "Assertion", "should be TRUE")
ENV = {"WIRESHARK_DEBUG_WMEM_OVERRIDE": "strict", "WIRESHARK_ABORT_ON_DISSECTOR_BUG": "1",
       "ASAN_OPTIONS": "halt_on_error=1:detect_stack_use_after_return=1",
       "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"}


class Tshark:
    def __init__(self, a):
        self.a = a
        self.env = dict(os.environ, **ENV)
        why, out, err = self.run(["-G", "fields"], 120, dissected=False)
        if why:
            sys.exit("tshark -G fields with the plugins of %s: %s\n%s" % (a.plugins, why, err))
        present = {l.split("\t")[2] for l in out.splitlines() if l.count("\t") >= 2}
        self.fields = [f for f in KEY_FIELDS if f in present]

    def run(self, args, timeout, dissected=True):
        """(failure or None, stdout, stderr); `dissected`: stdout shows packets."""
        cmd = [self.a.run_tshark, self.a.plugins] + args
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             errors="replace", env=self.env, start_new_session=True)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)  # tshark runs as another user below run-tshark
            out, err = p.communicate()
            return "timeout after %d s" % timeout, out, err
        if p.returncode != 0:
            return "exit %d" % p.returncode, out, err
        for mark in FAILURE_MARKS:
            if mark in err or dissected and mark == FAILURE_MARKS[0] and mark in out:
                return "'%s' in the output" % mark, out, err
        return None, out, err

    def views(self, path):
        """The three ways of reading one file."""
        fields = ["-T", "fields", "-E", "occurrence=a"]
        for f in self.fields:
            fields += ["-e", f]
        return (("-V -z j2735,tree", ["-r", path, "-V", "-z", "j2735,tree"]),
                ("-T fields", ["-r", path] + fields),
                ("summary", ["-r", path]))


def sources(captures):
    """Every capture editcap reads with at least one frame; the others, with why."""
    paths = sorted(glob.glob(os.path.join(captures, "**", "*.pcap*"), recursive=True))
    good, skipped = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            out = os.path.join(tmp, "copy.pcapng")
            p = subprocess.run(["editcap", path, out], capture_output=True)
            frames = subprocess.run(["capinfos", "-c", "-M", out], capture_output=True,
                                    text=True).stdout if p.returncode == 0 else ""
            count = frames.split()[-1] if frames.split() else "0"
            if p.returncode == 0 and count != "0":
                good.append(path)
            else:
                skipped.append((path, "editcap exit %d, %s frames" % (p.returncode, count)))
    return good, skipped


def mutate(src, rate, seed, out):
    cmd = ["editcap", "-E", str(rate), "--seed", str(seed), src, out]
    subprocess.run(cmd, check=True, capture_output=True)
    return " ".join(cmd[:-1] + ["OUT.pcapng"])


def keep(a, case, view, why, err):
    """Saves a reproducer (the mutated file, tshark's stderr, how to make it again)."""
    os.makedirs(a.keep, exist_ok=True)
    name = "%s-E%s-seed%d" % (os.path.basename(case["src"]).split(".")[0], case["rate"],
                              case["seed"])
    dst = os.path.join(a.keep, name + ".pcapng")
    shutil.copy(case["file"], dst)
    with open(os.path.join(a.keep, name + ".txt"), "w") as f:
        f.write("%s\ntshark %s: %s\n\n%s" % (case["cmd"], view, why, err))
    return dst


def merge(cases, path):
    subprocess.run(["mergecap", "-a", "-w", path] + [c["file"] for c in cases], check=True,
                   capture_output=True)
    os.chmod(path, 0o644)
    return path


def culprits(a, ts, view, cases, tmp):
    """The cases that fail `view` alone, found by halving; [] when only together."""
    path = cases[0]["file"] if len(cases) == 1 else merge(cases, os.path.join(
        tmp, "part-%d-%d.pcapng" % (cases[0]["seed"], len(cases))))
    name, args = ts.views(path)[view]
    why, _, err = ts.run(args, a.timeout * len(cases))
    if why is None:
        return []
    if len(cases) == 1:
        return [(cases[0], name, why, keep(a, cases[0], name, why, err))]
    half = len(cases) // 2
    return culprits(a, ts, view, cases[:half], tmp) + culprits(a, ts, view, cases[half:], tmp)


def run_batch(a, ts, batch, tmp, reached):
    """Failures of one batch, [(case, view, why, kept file)]. A failing view is narrowed
    down to the files that fail alone; those leave the batch for the next views. When
    none fails alone, the merged batch is the reproducer. Counts in `reached` the frames
    and how many of them reached each plugin (frame.protocols of the -T fields view)."""
    failures = []
    for view in range(len(ts.views(""))):
        if not batch:
            break
        merged = merge(batch, os.path.join(tmp, "batch.pcapng"))
        name, args = ts.views(merged)[view]
        why, out, err = ts.run(args, a.timeout * len(batch))
        if why is None:
            if name == "-T fields":
                for line in out.splitlines():
                    protocols = line.split("\t")[0].split(":")
                    for key in ("frames", "ieee1609dot3", "j2735"):
                        reached[key] += key == "frames" or key in protocols
            continue
        found = culprits(a, ts, view, batch, tmp)
        if not found:
            whole = dict(batch[0], file=merged, cmd="mergecap -a of: " +
                         "; ".join(c["cmd"] for c in batch))
            found = [(whole, name, why, keep(a, whole, name, why, err))]
        failures += found
        batch = [c for c in batch if all(c is not f[0] for f in found)]
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run-tshark", required=True)
    ap.add_argument("--plugins", required=True, help="this build's plugin folder")
    ap.add_argument("--captures", required=True)
    ap.add_argument("--count", type=int, default=200, help="mutated captures to run")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--rates", default=",".join(map(str, RATES)))
    ap.add_argument("--batch", type=int, default=50, help="mutated captures per tshark run")
    ap.add_argument("--timeout", type=int, default=30, help="seconds per mutated capture")
    ap.add_argument("--max-time", type=int, default=0, help="stop after a batch past it (s)")
    ap.add_argument("--keep", default="tshark-mutate-failures",
                    help="where reproducers are saved")
    ap.add_argument("--require-asan", action="store_true",
                    help="SKIP unless the plugins are built with AddressSanitizer")
    a = ap.parse_args()
    for tool in ("tshark", "editcap", "mergecap", "capinfos"):
        if not shutil.which(tool):
            print("SKIP: %s not installed" % tool)
            return SKIP
    sos = glob.glob(os.path.join(a.plugins, "*", "epan", "*.so"))
    if not sos:
        print("SKIP: no plugins built in %s" % a.plugins)
        return SKIP
    if a.require_asan and not all(b"libasan.so" in open(so, "rb").read() for so in sos):
        print("SKIP: the plugins in %s are not built with ASan (configure with "
              "-DV2X_SANITIZE=address,undefined -DV2X_PLUGINS=ON)" % a.plugins)
        return SKIP
    srcs, skipped = sources(a.captures)
    for path, why in skipped:
        print("not mutated: %s (%s)" % (os.path.relpath(path, a.captures), why))
    rates = [float(r) for r in a.rates.split(",")]
    ts = Tshark(a)
    started = time.time()
    done, failures = 0, []
    reached = {"frames": 0, "ieee1609dot3": 0, "j2735": 0}
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        while done < a.count:
            batch = []
            for i in range(done, min(done + a.batch, a.count)):
                src = srcs[i % len(srcs)]
                rate = rates[(i // len(srcs)) % len(rates)]
                seed = a.first_seed + i
                f = os.path.join(tmp, "m%d.pcapng" % (i - done))
                batch.append({"src": src, "rate": rate, "seed": seed, "file": f,
                              "cmd": mutate(src, rate, seed, f)})
                os.chmod(f, 0o644)
            failures += run_batch(a, ts, batch, tmp, reached)
            done += len(batch)
            elapsed = time.time() - started
            print("%d/%d mutated captures, %d failures, %.0f s" % (done, a.count,
                                                                  len(failures), elapsed),
                  flush=True)
            if a.max_time and elapsed > a.max_time:
                break
    print("%d mutated captures of %d sources (rates %s, seeds %d..%d) through tshark "
          "(%s) in %.0f s: %d failures"
          % (done, len(srcs), a.rates, a.first_seed, a.first_seed + done - 1,
             ", ".join(v for v, _ in ts.views("x")), time.time() - started, len(failures)))
    print("%(frames)d frames (-T fields), %(ieee1609dot3)d reached WSMP, %(j2735)d J2735"
          % reached)
    for case, view, why, kept in failures:
        print("FAIL: %s (tshark %s: %s), kept as %s" % (case["cmd"], view, why, kept))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
