#!/usr/bin/env python3
"""J2735 decoding through the public API (tests/api/api_decode.c) against v2xcap:
  - every capture in CAPTURES (and bad/, c2p/): v2x_decode_record_json's lines are
    `v2xcap decode -j 1`'s stdout, byte for byte, with and without --octets, and the
    lines rebuilt from v2x_decode_record_walk's visits are what json.loads reads of them:
    the same members in the same order, each value of the same type and value;
  - every hex vector in VECTORS: v2x_decode_json's object is the "j2735" member
    `v2xcap decode --hex` writes, and the tree v2x_decode_walk visits is its "value".
  check_decode.py API_DECODE V2XCAP CAPTURES VECTORS"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

api, v2xcap, captures, vectors = sys.argv[1:5]
failures = []


def typed(v):
    """v with each value's type beside it and each object's members in order: 1, 1.0 and
    True differ, and so do {"a":1,"b":2} and {"b":2,"a":1}."""
    if isinstance(v, dict):
        return ("object", [(k, typed(x)) for k, x in v.items()])
    if isinstance(v, list):
        return ("array", [typed(x) for x in v])
    return (type(v).__name__, v)


def run(*args):
    return subprocess.run(args, capture_output=True, timeout=300)


files = sorted(f for d in ("", "bad", "c2p") for f in glob.glob(os.path.join(captures, d, "*"))
               if os.path.isfile(f) and not f.endswith((".json", ".md", ".txt", ".py")))
lines = 0
for f in files:
    for opt in ([], ["--octets"]):
        want = run(v2xcap, "decode", "-j", "1", *opt, f)
        got = run(api, *opt, f)
        if got.stdout != want.stdout:
            w, g = want.stdout.splitlines(), got.stdout.splitlines()
            first = next((i for i, (a, b) in enumerate(zip(w, g)) if a != b), min(len(w), len(g)))
            failures.append(f"{f} {' '.join(opt)}: v2xcap {len(w)} lines, API {len(g)}; first "
                            f"difference at line {first + 1}\n  v2xcap: "
                            f"{w[first][:300] if first < len(w) else b'(none)'}\n  API:    "
                            f"{g[first][:300] if first < len(g) else b'(none)'}")
        lines += len(want.stdout.splitlines())
        walked = run(api, "--walk", *opt, f).stdout.splitlines()
        w = want.stdout.splitlines()
        for i, (a, b) in enumerate(zip(w, walked)):
            if typed(json.loads(a)) != typed(json.loads(b)):
                failures.append(f"{f} {' '.join(opt)}: line {i + 1}: the walk's\n  "
                                f"{b[:300]}\n  is not the line's\n  {a[:300]}")
                break
        if len(walked) != len(w):
            failures.append(f"{f} {' '.join(opt)}: v2xcap {len(w)} lines, walk {len(walked)}")
if lines == 0:
    failures.append(f"{len(files)} captures gave no line: nothing was compared")
print(f"{len(files)} captures, {lines} lines: the API's lines are v2xcap decode's, and so are "
      "the record walk's visits")

# A vector file is one message, its hex wrapped over lines: joined into one line here.
hexes = sorted(glob.glob(os.path.join(vectors, "**", "*.hex"), recursive=True))
tmp = tempfile.mkdtemp()
for vec in hexes:
    h = os.path.join(tmp, os.path.basename(vec))
    with open(vec) as i, open(h, "w") as o:
        o.write("".join(i.read().split()) + "\n")
    want = [json.loads(l)["j2735"] for l in run(v2xcap, "decode", "--hex", h).stdout.splitlines()]
    out = [json.loads(l) for l in run(api, "--hex", h).stdout.splitlines()]
    objs, walks = out[0::2], [o["walk"] for o in out[1::2]]
    if objs != want:
        failures.append(f"{vec}: v2x_decode_json {objs!r:.300} != v2xcap decode --hex {want!r:.300}")
    for i, (o, wk) in enumerate(zip(objs, walks)):
        if wk != o.get("value"):
            failures.append(f"{vec} line {i + 1}: walk {wk!r:.300} != value {o.get('value')!r:.300}")
    if not want:
        failures.append(f"{vec}: no message")
print(f"{len(hexes)} vectors: v2x_decode_json is decode --hex's, v2x_decode_walk its value")

shutil.rmtree(tmp)
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
