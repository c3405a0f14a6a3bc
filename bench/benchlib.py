"""What the benchmark scripts share (bench/README.md): where tests/run-tshark is, a
timed run, and gencap. Imported by run-bench, report-bench, scale-bench, startup-bench
and compare-builds, which sit beside it."""
import os
import resource
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_TSHARK = os.path.join(HERE, "..", "tests", "run-tshark")


def timed(cmd, runs=2, stdin_path=None):
    """(wall, CPU) seconds of the fastest of the runs; CPU = user + system of the child
    (and its children), the steadier figure when the machine is shared."""
    best = None
    for _ in range(runs):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        with open(stdin_path or os.devnull, "rb") as stdin:
            p = subprocess.run(cmd, stdin=stdin, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
        dt = time.perf_counter() - t
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        if p.returncode != 0:
            raise RuntimeError(f"exit {p.returncode}: "
                               f"{p.stderr.decode(errors='replace').strip()[:200]}")
        best = (dt, cpu) if best is None else (min(best[0], dt), min(best[1], cpu))
    return best


def gencap(build, path, frames, senders=500, mix=None):
    """A gencap capture at path (bench/gencap: frames, BSM senders, the message mix); its
    size."""
    subprocess.run([os.path.join(build, "bench", "gencap"), "--frames", str(frames),
                    "--senders", str(senders), *(["--mix", mix] if mix else []), path],
                   check=True)
    return os.path.getsize(path)
