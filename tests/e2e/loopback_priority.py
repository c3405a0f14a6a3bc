#!/usr/bin/env python3
"""`v2xcap capture --stats` lists priority messages first, as `stats` does: loopback.sh
sends report_test.py's priority capture (frame 1 a plain BSM, 2 a BSM with eventHardBraking,
3 and 5 an ambulance's BSMs with its siren in use, 4 jpo-ode's SRM) on lo while capture
runs with --stats (stderr not a terminal: one line a second, then the summary). Each
second's line names its priority messages by kind before the message types; the summary
has stats' priority section, emergency first, before the per-type table; so does the
refreshing table on a terminal (script(1)). SKIP (77) without CAP_NET_RAW, as
loopback.sh. Usage: loopback_priority.py LOOPBACK_SH.
Env: V2XCAP, MKCAP, CAPTURES (as report_test.py)."""
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "report"))
import report_test as rt  # noqa: E402 (the priority capture)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        try:
            cap = rt.priority_capture(tmp)
        except rt.Skip as e:
            print(f"SKIP: {e}")
            return rt.SKIP
        return check(cap)


def check(cap):
    p = subprocess.run(["sh", sys.argv[1], rt.V2XCAP, cap], capture_output=True, text=True,
                       timeout=60)
    out = p.stdout
    print(out, p.stderr, sep="")
    if p.returncode != 0:
        return p.returncode
    # Per second: "HH:MM:SS N frames  priority: KIND N, KIND N  TYPE N (R/s) ..."
    lines = [l for l in out.splitlines() if re.match(r"\d\d:\d\d:\d\d \d+ frames", l)]
    assert lines, "no per-second line"
    live = {}
    for l in lines:
        m = re.match(r"\d\d:\d\d:\d\d \d+ frames(?:  priority: ([^A-Z]*?))?  [A-Z]", l)
        assert m, f"priority not first: {l!r}"
        for kind, n in re.findall(r"([a-z_]+) (\d+)", m.group(1) or ""):
            live[kind] = live.get(kind, 0) + int(n)
    rt.check_eq("per-second priority", live, {"bsm_emergency": 2, "srm": 1, "bsm_events": 1})
    # The summary: stats' section, emergency first, before the per-type table.
    assert "Priority messages (emergency first)" in out, out
    section = out[out.index("Priority messages"):out.index("\ntype ")]
    # kind, sender, messages, frames, events; the SRM's sender is the MAC send gives it
    # on lo, not the file's
    rows = [re.fullmatch(r"(\S+) +(\S+) +(\d+) +([\d ]+?) +(\S+)", r)
            for r in section.splitlines()[2:] if r.strip()]
    assert all(rows), section
    rt.check_eq("summary", [r.groups() if r[1] != "srm" else ("srm", r[3], r[4], r[5])
                            for r in rows],
                [("bsm_emergency", "0E0E0E0E", "2", "3 5", "-"), ("srm", "1", "4", "-"),
                 ("bsm_events", "0A0B0C0D", "1", "2", "eventHardBraking")])
    table = live_table(cap)
    first = table.index("Priority messages (emergency first)")
    assert first < table.index("\ntype ") < table.index("v2xcap capture: lo:"), table
    assert re.search(r"^bsm_emergency +0E0E0E0E +2 +3 5 +-\r?$", table[first:], re.M), table
    print("ok: priority first in the live lines, the live table and the capture's summary")
    return 0


def live_table(cap):
    """The refreshing table, stderr a terminal (script(1) gives it one): capture runs 3 s
    while send replays cap on lo; the table drawn once the frames are in, before the
    summary, opens with the priority section."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "tty.out")
        with open(out, "wb") as o:
            cmd = f"'{rt.V2XCAP}' capture -i lo --stats --duration 3"
            capture = subprocess.Popen(["script", "-qc", cmd, "/dev/null"], stdout=o,
                                       stdin=subprocess.DEVNULL)
            for _ in range(100):
                if b"privileges:" in open(out, "rb").read():
                    break
                time.sleep(0.1)
            subprocess.run([rt.V2XCAP, "send", "-i", "lo", "--force", "--rate", "200", cap],
                           check=True, capture_output=True)
            capture.wait(timeout=30)
        text = open(out, "rb").read().decode("utf-8", "replace")
    # the last refresh before the summary
    return text[text.rindex("\033[H\033[J"):]


if __name__ == "__main__":
    sys.exit(main())
