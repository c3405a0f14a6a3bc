#!/usr/bin/env python3
"""Statistics and priority through the public API (tests/api/api_stats.c) against v2xcap:
for every capture in CAPTURES (and bad/, c2p/), v2x_stats_json's document is
`v2xcap stats --format json`'s stdout byte for byte, and the frames v2x_priority_of
gives each kind are the messages of that kind the document lists.
  check_stats.py API_STATS V2XCAP CAPTURES"""
import glob
import json
import os
import subprocess
import sys

api, v2xcap, captures = sys.argv[1:4]
failures = []
files = sorted(f for d in ("", "bad", "c2p") for f in glob.glob(os.path.join(captures, d, "*"))
               if os.path.isfile(f) and not f.endswith((".json", ".md", ".txt", ".py")))
prio = refused = 0
for f in files:
    v = subprocess.run([v2xcap, "stats", "--format", "json", f], capture_output=True,
                       timeout=300)
    a = subprocess.run([api, f], capture_output=True, timeout=300)
    want, got = v.stdout, a.stdout.splitlines(True)
    if a.returncode == 1 and not got and v.returncode != 0:
        refused += 1  # no capture: v2x_capture_open refuses it, v2xcap stats fails
        continue
    if len(got) != 2 or got[0] != want:
        failures.append(f"{f}: the API's document differs from v2xcap stats'\n  v2xcap: "
                        f"{want[:300]!r}\n  API:    {got[0][:300] if got else b'(none)'!r}")
        continue
    doc, of = json.loads(got[0]), json.loads(got[1])["priority_of"]
    listed = {k: sum(e["messages"] for e in doc["priority"] if e["kind"] == k) for k in of}
    if listed != of and not doc["priority_overflow"]:
        failures.append(f"{f}: v2x_priority_of {of} != the listed messages {listed}")
    prio += sum(of.values())
if not files or prio == 0:
    failures.append(f"{len(files)} captures, {prio} priority messages: nothing was compared")
print(f"{len(files) - refused} captures ({prio} priority messages): v2x_stats_json is "
      f"v2xcap stats' document, v2x_priority_of the kinds it lists; {refused} files that "
      "are no capture refused by both")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
