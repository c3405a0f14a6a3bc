#!/usr/bin/python3
"""Test driver for `v2xcap decode`: runs it on captures and asserts on its JSON Lines.

  check_decode.py V2XCAP xer CAPTURE XML [OLD=NEW...] [!PATH...]
      every message equals the XER MessageFrame(s) of an independent asn1c decode, field
      by field; OLD=NEW: a member another edition names differently; !PATH: a member whose
      XER text is known to be damaged in the vector (compared nowhere else)
  check_decode.py V2XCAP fields CAPTURE N JQ_PATH=VALUE...   values in message N
  check_decode.py V2XCAP hexfile FILE JQ_PATH=VALUE...   the MessageFrame in hex FILE (a
      carma-messenger test's byte vector), sent as one WSMP frame, decodes to those values
  check_decode.py V2XCAP payload HEX JQ_PATH=VALUE...   the MessageFrame HEX, sent as one
      WSMP frame, decodes to those values
  check_decode.py V2XCAP noschema CAPTURE      a build without schema: messageId and name
      of every message, one note on stderr saying how to enable full decoding
  check_decode.py V2XCAP bad CAPTURE [REGEX]    exit 1, file (and REGEX) named on stderr
  check_decode.py V2XCAP truncations CAPTURE     every truncation: exit 0/1, no crash
  check_decode.py V2XCAP corruptions CAPTURE N   N seeded random corruptions: same
Exit 0 pass, 1 fail, 77 skip (vectors or captures missing).
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


def skip_unless(path):
    if not os.path.exists(path):
        print("SKIP: %s not found" % path)
        sys.exit(77)


def skip_without_decoder(v2xcap):
    out = subprocess.run([v2xcap, "--version"], capture_output=True, text=True).stdout
    if "decoder: edition" not in out:
        print("SKIP: v2xcap built without a J2735 schema (-DJ2735_ASN1_DIR)")
        sys.exit(77)


def run(v2xcap, *files):
    p = subprocess.run([v2xcap, "decode", *files], capture_output=True, timeout=60)
    if p.returncode < 0 or p.returncode > 2:
        raise AssertionError("v2xcap decode %s: died (status %d): %s" %
                             (" ".join(files), p.returncode, p.stderr.decode(errors="replace")))
    return p.returncode, [json.loads(l) for l in p.stdout.decode().splitlines()], \
        p.stderr.decode(errors="replace")


def xer_frames(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    text = re.sub(r"<\?xml[^>]*\?>", "", text)
    root = ET.fromstring("<root>%s</root>" % text)
    return list(root.iter("MessageFrame"))


def compare(e, j, path, errors, renames, ignored):
    """XER element e against the JSON value j; differences appended to errors."""
    if path in ignored:
        return
    kids, text = list(e), re.sub(r"\s+", "", e.text or "")
    for k in kids:
        k.tag = renames.get(k.tag, k.tag)

    def fail(why):
        errors.append("%s: %s (XER %r, JSON %r)" % (path, why, text or [k.tag for k in kids],
                                                    j))
    # An open type's XER names the type it holds: <value><BasicSafetyMessage>...
    if isinstance(j, dict) and len(kids) == 1 and kids[0].tag[0].isupper() \
            and kids[0].tag not in j:
        return compare(kids[0], j, path + "/" + kids[0].tag, errors, renames, ignored)
    if isinstance(j, dict) and not kids and re.fullmatch(r"[01]*", text):
        bits = [b == "1" for b in text]                      # named BIT STRING flags
        for i, (name, flag) in enumerate(j.items()):
            if flag != (bits[i] if i < len(bits) else False):
                fail("bit %s" % name)
    elif isinstance(j, dict):
        if {k.tag for k in kids if path + "/" + k.tag not in ignored} != \
                {k for k in j if path + "/" + k not in ignored}:
            return fail("members differ")
        for k in kids:
            if path + "/" + k.tag not in ignored:
                compare(k, j[k.tag], path + "/" + k.tag, errors, renames, ignored)
    elif isinstance(j, list):
        if len(kids) != len(j):
            return fail("%d elements, expected %d" % (len(j), len(kids)))
        for i, (k, v) in enumerate(zip(kids, j)):
            compare(k, v, "%s[%d]" % (path, i), errors, renames, ignored)
    elif isinstance(j, bool):
        if [k.tag for k in kids] != ["true" if j else "false"]:
            fail("boolean")
    elif isinstance(j, int):
        if kids or not re.fullmatch(r"-?\d+", text) or int(text) != j:
            fail("integer")
    elif isinstance(j, str):
        if kids:
            if len(kids) != 1 or kids[0].tag != j or len(kids[0]):
                fail("enumerated")
        elif text.lower() != re.sub(r"\s+", "", j).lower():
            fail("string")
    elif j is None:
        if kids or text:
            fail("NULL")


def cmd_xer(v2xcap, capture, xml, *options):
    skip_unless(capture)
    return xer_check(v2xcap, [capture], xml, options)


def message_hex(source):
    """The hex of a vector: a .hex file (wrapped lines joined) or a jpo-ode decoder
    output's <asn1>."""
    text = open(source, encoding="utf-8").read()
    if source.endswith(".xml"):
        text = re.search(r"<asn1>([0-9A-Fa-f\s]+)</asn1>", text)[1]
    return re.sub(r"\s+", "", text)


def cmd_hexlines(v2xcap, source, xml, *options):
    """`decode --hex` of a file holding a comment, a blank line and the vector's message
    on one line: the one message, equal to the XER."""
    skip_unless(source)
    with tempfile.TemporaryDirectory() as d:
        lines = os.path.join(d, "messages.hex")
        with open(lines, "w") as f:
            f.write("# one message per line\n\n%s\n" % message_hex(source))
        return xer_check(v2xcap, ["--hex", lines], xml, options)


def cmd_raw(v2xcap, source, xml, *options):
    skip_unless(source)
    return xer_check(v2xcap, ["--raw", source], xml, options)


def cmd_hexbad(v2xcap, source):
    """A line that is not hex and one that is no message: both named on stderr by line
    number, the good line still decoded; exit 0, 1 with --strict."""
    skip_unless(source)
    with tempfile.TemporaryDirectory() as d:
        lines = os.path.join(d, "messages.hex")
        with open(lines, "w") as f:
            f.write("not hex\n%s\n0014ff00\n" % message_hex(source))
        rc, msgs, err = run(v2xcap, "--hex", lines)
        strict = subprocess.run([v2xcap, "decode", "--strict", "--hex", lines],
                                capture_output=True, timeout=60).returncode
    want = [("exit", rc, 0), ("--strict exit", strict, 1),
            ("lines decoded", [m["frame"] for m in msgs], [2, 3]),
            ("line 3 has an error", "error" in msgs[-1], True),
            ("line 1 named", "line 1: not hex" in err, True),
            ("line 3 named", "line 3:" in err, True)]
    bad = [w for w in want if w[1] != w[2]]
    for what, got, exp in want:
        print("%s %s: %r (expected %r)" % ("FAIL" if (what, got, exp) in bad else "ok  ",
                                           what, got, exp))
    return 1 if bad else 0


def xer_check(v2xcap, decode_args, xml, options):
    """Every message `v2xcap decode DECODE_ARGS` prints against the XER's MessageFrames."""
    renames = dict(o.split("=", 1) for o in options if "=" in o)
    ignored = {o[1:] for o in options if o.startswith("!")}
    skip_without_decoder(v2xcap)
    skip_unless(xml)
    rc, msgs, err = run(v2xcap, *decode_args)
    frames = xer_frames(xml)
    errors = [] if rc == 0 else ["exit status %d: %s" % (rc, err)]
    if len(msgs) != len(frames):
        errors.append("%d messages decoded, %d in %s" % (len(msgs), len(frames), xml))
    for i, (m, f) in enumerate(zip(msgs, frames)):
        j = m["j2735"]
        if "value" not in j:
            errors.append("message %d not decoded: %s" % (i + 1, j))
            continue
        compare(f, {"messageId": j["messageId"], "value": j["value"]}, "msg%d" % (i + 1),
                errors, renames, ignored)
    for e in errors[:20]:
        print("FAIL:", e)
    print("%d messages, %d differences" % (len(msgs), len(errors)))
    return 1 if errors else 0


def get(obj, path):
    for part in path.split("."):
        obj = obj[int(part)] if isinstance(obj, list) else obj[part]
    return obj


def cmd_fields(v2xcap, capture, n, *assertions):
    skip_unless(capture)
    if any(a.startswith(("j2735.value", "j2735.note")) for a in assertions):
        skip_without_decoder(v2xcap)
    rc, msgs, err = run(v2xcap, capture)
    failed = rc != 0
    if failed:
        print("FAIL: exit status %d: %s" % (rc, err))
    msg = msgs[int(n) - 1]
    for a in assertions:
        path, want = a.split("=", 1)
        got = get(msg, path)
        ok = json.dumps(got) == want
        print("%s %s = %s (expected %s)" % ("ok  " if ok else "FAIL", path, json.dumps(got),
                                              want))
        failed |= not ok
    return 1 if failed else 0


def wsmp_pcap(path, payload):
    """One Ethernet frame (mkcap, EtherType 0x88DC): WSMP v3, PSID 0x20, the payload."""
    subprocess.run([os.environ["MKCAP"], "-o", path, "--link", "ether", "--src",
                    "02:00:00:00:00:99", "--psid", "20", payload.hex()], check=True)


def cmd_hexfile(v2xcap, path, *assertions):
    skip_unless(path)
    with open(path) as f:
        return cmd_payload(v2xcap, f.read(), *assertions)


def cmd_payload(v2xcap, hex_frame, *assertions):
    with tempfile.TemporaryDirectory() as d:
        cap = os.path.join(d, "payload.pcap")
        wsmp_pcap(cap, bytes.fromhex(hex_frame))
        return cmd_fields(v2xcap, cap, "1", *assertions)


def cmd_noschema(v2xcap, capture):
    skip_unless(capture)
    out = subprocess.run([v2xcap, "--version"], capture_output=True, text=True).stdout
    if "decoder: none" not in out:
        print("SKIP: this v2xcap has a J2735 decoder")
        sys.exit(77)
    rc, msgs, err = run(v2xcap, capture)
    bad = [m["frame"] for m in msgs if "value" in m["j2735"] or "name" not in m["j2735"]]
    print("exit %d, %d messages, stderr: %s" % (rc, len(msgs), err.strip()))
    ok = rc == 0 and msgs and not bad and err.count("-DJ2735_ASN1_DIR") == 1
    return 0 if ok else 1


def cmd_bad(v2xcap, capture, regex=""):
    rc, _, err = run(v2xcap, capture)
    print("exit %d, stderr: %s" % (rc, err.strip()))
    return 0 if rc == 1 and capture in err and re.search(regex, err) else 1


def cmd_malformed(v2xcap, capture, regex=""):
    """A malformed frame: reported, exit 0; --strict: 1. A line it has (when the frame
    reached J2735) is marked "error"."""
    rc, msgs, err = run(v2xcap, capture)
    strict, _, _ = run(v2xcap, "--strict", capture)
    print("exit %d (--strict %d), stderr: %s" % (rc, strict, err.strip()))
    marked = all("error" in m for m in msgs)
    return 0 if rc == 0 and strict == 1 and marked and capture in err and \
        re.search(regex, err) else 1


def fuzz(v2xcap, variants):
    """Every variant must give exit 0 or 1 (run() raises on a crash)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "x.pcap")
        n = 0
        for data in variants:
            with open(path, "wb") as f:
                f.write(data)
            rc, _, _ = run(v2xcap, path)
            if rc not in (0, 1):
                print("FAIL: exit %d for variant %d" % (rc, n))
                return 1
            n += 1
    print("%d variants, no crash" % n)
    return 0


def cmd_truncations(v2xcap, capture):
    skip_unless(capture)
    data = open(capture, "rb").read()
    return fuzz(v2xcap, (data[:i] for i in range(len(data))))


def cmd_corruptions(v2xcap, capture, count):
    skip_unless(capture)
    data = open(capture, "rb").read()
    rnd = random.Random(2735)

    def variants():
        for _ in range(int(count)):
            b = bytearray(data)
            for _ in range(rnd.randint(1, 8)):
                b[rnd.randrange(24, len(b))] = rnd.randrange(256) # keep the file header
            yield bytes(b)
    return fuzz(v2xcap, variants())


def main():
    v2xcap, cmd, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    commands = {"xer": cmd_xer, "fields": cmd_fields, "bad": cmd_bad, "malformed": cmd_malformed,
                "truncations": cmd_truncations, "hexfile": cmd_hexfile, "payload": cmd_payload,
                "hexlines": cmd_hexlines, "raw": cmd_raw, "hexbad": cmd_hexbad,
                "noschema": cmd_noschema, "corruptions": cmd_corruptions}
    sys.exit(commands[cmd](v2xcap, *args))


if __name__ == "__main__":
    main()
