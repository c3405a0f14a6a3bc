#!/usr/bin/env python3
"""v2xcap encode against v2xcap decode (tests/encode/CMakeLists.txt).

  roundtrip: every J2735 message of the bundled captures and the vectors, decoded with
    --octets and encoded back: the octets are the received ones bit for bit, or the case
    is one of the listed non-canonical senders (noncanonical.txt: the same first different
    bit); decoding the encoding gives the same JSON value, for every message.
  error: one line of a capture, edited (a Python statement on `j`, the j2735 object),
    fails with the expected message; the lines around it still encode.
  strict: --strict stops at the first bad line; without it every good line is encoded.
  raw: --format raw writes the octets of the hex lines, one message after another.
Exit 0 pass, 1 fail, 77 skip (no J2735 schema in this build)."""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile


def run(cmd, data=None):
    return subprocess.run(cmd, input=data, capture_output=True)


def decoded_lines(v2xcap, mode, path):
    """The decode --octets lines of path holding a decoded value."""
    args = {"capture": [], "hex": ["--hex"], "raw": ["--raw"]}[mode]
    out = run([v2xcap, "decode", "--octets"] + args + [path]).stdout.decode()
    lines = [json.loads(l) for l in out.splitlines() if l.strip()]
    return [l for l in lines if "value" in l.get("j2735", {})]


def sources(captures, vectors):
    """(mode, path) of every input that holds J2735 messages."""
    for p in sorted(glob.glob(os.path.join(captures, "**", "*.pcap*"), recursive=True)):
        yield "capture", p
    for p in sorted(glob.glob(os.path.join(vectors, "**", "*"), recursive=True)):
        name = os.path.basename(p)
        if name.endswith(".hex") or "/receivers/" in p and name.endswith(".txt"):
            yield "hex", p
        elif name.endswith((".uper", ".coer")):
            yield "raw", p
        elif "/jpo-ode/" in p and name.endswith((".gz", ".bin")):
            yield "capture", p


def has_schema(v2xcap):
    out = run([v2xcap, "--version"]).stdout.decode()
    return "no J2735 schema" not in out and "schema: none" not in out


def encode(v2xcap, lines, *extra):
    text = "".join(json.dumps(l) + "\n" for l in lines).encode()
    return run([v2xcap, "encode"] + list(extra), text)


def roundtrip(a):
    allowed = {}
    for line in open(a.noncanonical):
        line = line.split("#")[0].split()
        if line and line[0] in ("*", a.edition):
            allowed[(line[1], int(line[2]))] = int(line[3])
    root = os.path.dirname(os.path.abspath(a.captures))
    total = same = 0
    seen, failed = {}, []
    for mode, path in sources(a.captures, a.vectors):
        lines = decoded_lines(a.v2xcap, mode, path)
        if not lines:
            continue
        rel = os.path.relpath(path, root)
        r = encode(a.v2xcap, lines)
        hexes = r.stdout.decode().split()
        if len(hexes) != len(lines):
            failed.append(f"{rel}: {len(lines)} messages, {len(hexes)} encoded: "
                          f"{r.stderr.decode().strip()}")
            continue
        back = run([a.v2xcap, "decode", "--hex", "-"], r.stdout).stdout.decode().splitlines()
        for i, (l, h, b) in enumerate(zip(lines, hexes, back), 1):
            total += 1
            if json.loads(b).get("j2735", {}).get("value") != l["j2735"]["value"]:
                failed.append(f"{rel} message {i}: decode(encode(json)) is not json")
            received = l["j2735"]["octets"]
            if h == received:
                same += 1
                continue
            # the first differing bit of the common part, else where the shorter ends
            n = min(len(h), len(received))
            x = int(h[:n], 16) ^ int(received[:n], 16)
            bit = 4 * n - x.bit_length() if x else 4 * n
            seen[(rel, i)] = bit
            print(f"non-canonical: {rel} message {i} ({l['j2735'].get('name')}): first "
                  f"different bit {bit}, {len(received) // 2} octets received, "
                  f"{len(h) // 2} encoded")
    for k, bit in seen.items():
        if allowed.get(k) != bit:
            failed.append(f"{k[0]} message {k[1]}: not the received octets (bit {bit}) "
                          f"and not listed in {os.path.basename(a.noncanonical)}")
    for k in allowed:
        if k not in seen:
            failed.append(f"{k[0]} message {k[1]}: listed as non-canonical, but encodes "
                          f"to the received octets (or is not there)")
    print(f"{total} messages: {same} bit for bit the received octets, "
          f"{len(seen)} non-canonical senders (listed), decode(encode) = decode for all "
          f"but {sum('decode(encode' in f for f in failed)}")
    for f in failed:
        print("FAIL:", f)
    return 1 if failed or not total else 0


def first_message(a):
    lines = decoded_lines(a.v2xcap, "capture", a.capture)
    return [l["j2735"] for l in lines]


def error(a):
    msgs = first_message(a)
    j = json.loads(json.dumps(msgs[0]))
    exec(a.edit, {"j": j})
    r = encode(a.v2xcap, [msgs[0], j, msgs[0]])
    err = r.stderr.decode()
    hexes = r.stdout.decode().split()
    want = f"line 2: {a.expect}"
    ok = r.returncode == 1 and want in err and len(hexes) == 2
    print(err.strip())
    if not ok:
        print(f"FAIL: wanted exit 1, '{want}' and 2 lines encoded; got exit "
              f"{r.returncode}, {len(hexes)} lines")
    return 0 if ok else 1


def strict(a):
    msgs = first_message(a)[:3]
    bad = {"messageId": 20, "value": {"coreData": {}}}
    r = encode(a.v2xcap, [msgs[0], bad] + msgs[1:])
    r_strict = encode(a.v2xcap, [msgs[0], bad] + msgs[1:], "--strict")
    n, n_strict = len(r.stdout.split()), len(r_strict.stdout.split())
    print(f"without --strict: exit {r.returncode}, {n} encoded; with: exit "
          f"{r_strict.returncode}, {n_strict} encoded")
    ok = (r.returncode, n, r_strict.returncode, n_strict) == (1, len(msgs), 1, 1)
    ok = ok and b"1 did not encode" in r.stderr
    return 0 if ok else 1


def raw(a):
    msgs = first_message(a)[:5]
    hexes = encode(a.v2xcap, msgs).stdout.split()
    octets = encode(a.v2xcap, msgs, "--format", "raw").stdout
    ok = octets == bytes.fromhex(b"".join(hexes).decode()) and len(hexes) == len(msgs)
    print(f"{len(msgs)} messages, {len(octets)} octets raw")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("check", choices=["roundtrip", "error", "strict", "raw"])
    ap.add_argument("--v2xcap", required=True)
    ap.add_argument("--edition", default="")
    ap.add_argument("--captures")
    ap.add_argument("--vectors")
    ap.add_argument("--noncanonical")
    ap.add_argument("--capture")
    ap.add_argument("--edit")
    ap.add_argument("--expect")
    a = ap.parse_args()
    if not a.edition:
        print("SKIP: no J2735 schema in this build: nothing to encode")
        return 77
    return {"roundtrip": roundtrip, "error": error, "strict": strict, "raw": raw}[a.check](a)


if __name__ == "__main__":
    sys.exit(main())
