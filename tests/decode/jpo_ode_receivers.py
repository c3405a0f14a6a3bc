#!/usr/bin/python3
"""jpo-ode's own UDP receiver test payloads (captures/jpo-ode-receivers.pcap, each to its
receiver's port) read as jpo-ode reads them, by v2xcap and by tshark with the plugins.
For every frame, against what jpo-ode's receiver test expects it to put out (metadata.asn1
of the test's expected JSON: the octets from the message's start flag to the datagram's
end) and the frame's expect.json (captures/make-expect):
- `v2xcap decode --octets`: the messageId and encapsulation; "octets" (the MessageFrame)
  followed by "trailing" is jpo-ode's output, octet for octet; "trailing_octets" counts
  what follows the MessageFrame; the value equals, member by member, the XER of jpo-ode's
  decoder test holding the same MessageFrame (every type but TIM, whose is in none);
- `v2xcap stats`: one frame of each type, the PSM counted with trailing octets;
- tshark: the J2735 layer's messageId, its octets where jpo-ode's output starts (the
  MessageFrame), j2735.trailing the rest.

usage: jpo_ode_receivers.py v2xcap|tshark V2XCAP RUN_TSHARK PLUGIN_DIR CAPTURE EXPECT
       VECTORS [!PATH...]
v2xcap: decode and stats; tshark: the plugins. !PATH: a member whose XER text is damaged
in the vector (check_decode.py's xer, with msgN the frame number). Exit 0 pass, 1 fail,
77 skip (no decoder, vectors missing; tshark or its J2735 plugin missing)."""
import json
import os
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True
from check_decode import compare, skip_unless, skip_without_decoder, xer_frames  # noqa: E402


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True, timeout=300)


def jpo_ode_output(vectors, frame):
    with open(os.path.join(vectors, frame["jpo_ode_output"]), encoding="utf-8") as f:
        return json.load(f)["metadata"]["asn1"].lower()


def pcap_frames(path):
    """The frames' octets of a classic pcap (what mkcap writes here)."""
    with open(path, "rb") as f:
        data = f.read()
    endian = "<" if data[:4] == b"\xd4\xc3\xb2\xa1" else ">"
    out, off = [], 24
    while off + 16 <= len(data):
        caplen = struct.unpack(endian + "I", data[off + 8:off + 12])[0]
        out.append(data[off + 16:off + 16 + caplen])
        off += 16 + caplen
    return out


def check_decode(v2xcap, capture, frames, vectors, ignored):
    p = run([v2xcap, "decode", "--octets", capture])
    lines = {m["frame"]: m for m in map(json.loads, p.stdout.splitlines())}
    errors = [] if p.returncode == 0 else ["decode exit %d: %s" % (p.returncode, p.stderr)]
    for fr in frames:
        n, line = fr["frame"], lines.get(fr["frame"])
        if not line:
            errors.append("frame %d: no line" % n)
            continue
        j = line["j2735"]
        got = (j["messageId"], line["link"].get("encapsulation"),
               j.get("octets", "") + j.get("trailing", ""), j.get("trailing_octets"))
        want = (fr["msgid"], fr["encap"], jpo_ode_output(vectors, fr), fr.get("trailing_octets"))
        for what, g, w in zip(("messageId", "encapsulation", "octets + trailing",
                               "trailing_octets"), got, want):
            if g != w:
                errors.append("frame %d: %s %r, jpo-ode %r" % (n, what, g, w))
        if "vector" not in fr:
            continue
        if "value" not in j and j.get("note") == "not in this edition":
            print("frame %d: %s not in this edition: its value not compared" % (n, j["name"]))
            continue
        xer = xer_frames(os.path.join(vectors, fr["vector"]))[0]
        compare(xer, {"messageId": j["messageId"], "value": j.get("value")}, "msg%d" % n,
                errors, {}, ignored)
        print("frame %d: %s %d octets + %d, its value against %s" % (
            n, j["name"], len(j["octets"]) // 2, fr.get("trailing_octets", 0), fr["vector"]))
    return errors


def check_stats(v2xcap, capture, frames):
    p = run([v2xcap, "stats", "--format", "json", capture])
    groups = {g["value"]: g for g in json.loads(p.stdout)["by_type"]}
    errors = []
    for fr in frames:
        g = groups.get(fr["msgid"], {})
        got = (g.get("frames"), g.get("trailing"))
        want = (1, 1 if fr.get("trailing_octets") else 0)
        if got != want:
            errors.append("stats type %d: frames, trailing %s, want %s" % (fr["msgid"], got, want))
    return errors


def check_tshark(run_tshark, plugins, capture, frames, vectors):
    if run([run_tshark, plugins, "-G", "protocols"]).returncode != 0:
        print("SKIP: tshark does not run")
        sys.exit(77)
    p = run([run_tshark, plugins, "-r", capture, "-T", "pdml"])
    if "j2735.msgid" not in p.stdout:
        print("SKIP: no J2735 plugin")
        sys.exit(77)
    octets, errors = pcap_frames(capture), []
    for fr, packet in zip(frames, ET.fromstring(p.stdout).iter("packet")):
        n = fr["frame"]
        proto = next((e for e in packet.iter("proto") if e.get("name") == "j2735"), None)
        if proto is None:
            errors.append("tshark frame %d: no J2735 layer" % n)
            continue
        fields = {e.get("name"): e.get("value") for e in proto.iter("field")}
        pos, size = int(proto.get("pos")), int(proto.get("size"))
        taken = jpo_ode_output(vectors, fr)
        got = (int(fields.get("j2735.msgid", "0"), 16) & 0x7FFF,
               octets[n - 1][pos:pos + size].hex() + (fields.get("j2735.trailing") or ""))
        if got != (fr["msgid"], taken):
            errors.append("tshark frame %d: msgid, octets + trailing %s, jpo-ode %s" % (
                n, got, (fr["msgid"], taken)))
    print("tshark: %d frames compared" % len(frames))
    return errors


def main():
    part, v2xcap, run_tshark, plugins, capture, expect, vectors = sys.argv[1:8]
    ignored = {o[1:] for o in sys.argv[8:] if o.startswith("!")}
    skip_unless(capture)
    skip_unless(os.path.join(vectors, "jpo-ode", "receivers"))
    skip_without_decoder(v2xcap)
    with open(expect, encoding="utf-8") as f:
        frames = json.load(f)["frames"]
    if part == "v2xcap":
        errors = check_decode(v2xcap, capture, frames, vectors, ignored)
        errors += check_stats(v2xcap, capture, frames)
    else:
        errors = check_tshark(run_tshark, plugins, capture, frames, vectors)
    for e in errors:
        print("FAIL:", e)
    print("%d jpo-ode receiver payloads, %d differences" % (len(frames), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
