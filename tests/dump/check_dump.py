#!/usr/bin/python3
"""Tests of `v2xcap dump`: runs it and checks its lines and exit code.

  check_dump.py --v2xcap BIN capture CAPTURE.expect.json
      the capture named in the expect file: one line per frame, with the PSID, WSMP
      version, 1609.2 content (and PSID) and J2735 message id of the expect file;
      exit 0. Expect files with "error": true (not a readable capture) must give exit
      1; frames whose PSID is unreadable (psid null) or whose WSM length field lies
      are marked malformed and named on stderr with exit 0, and exit 1 with --strict.
  check_dump.py --v2xcap BIN --api API_FRAMES capture CAPTURE.expect.json
      the same values read through libv2x's public API (tests/api/api_frames).
  check_dump.py --v2xcap BIN exit CODE ARGS...   the exit code and, for 1, a message
      naming the first file argument.
  check_dump.py --v2xcap BIN timeline A B        B and a copy of A moved 10 s earlier
      (a classic pcap) read as one timeline: every line prefixed with its file, the
      earlier file first although named last.
  check_dump.py --v2xcap BIN stdin CAPTURE        `dump -` reading CAPTURE from stdin
      prints what `dump CAPTURE` prints.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

WSMP = re.compile(r"^WSMP v(\d+)(?: TPID (\d+))?(?: PSID 0x([0-9a-f]+))?"
                  r"(?: LPP 0x([0-9a-f]+))?(?: ports (\d+)>(\d+))?(?: ext (\S+))? len (\d+)$")
DOT2 = re.compile(r"^1609\.2 (\S+)(?: psid 0x([0-9a-f]+))?$")
J2735 = re.compile(r"^J2735 (\S+) \((\d+)\) (\d+) B(?: \+(\d+) octets after the MessageFrame)?$")
FREQ = re.compile(r" (\d+)MHz")
RSSI = re.compile(r" (-?\d+)dBm")
ENCAP = re.compile(r"^(udp_\w+|c2p|tzsp)\b(?: after (\d+) octets)?")  # "IPv4 UDP a>b" alone: "udp"
MAC = re.compile(r" ((?:[0-9a-f]{2}:){5}[0-9a-f]{2})")
LLC = re.compile(r"^802\.11 .*data.* (EPD|SNAP)")


def run(v2xcap, args, stdin=None):
    return subprocess.run([v2xcap, "dump", *args], stdin=stdin, capture_output=True,
                          text=True, timeout=60)


def layers(line):
    """The fields of one dump line: frame number and what each layer says."""
    segs = line.split(" | ")
    out = {"frame": int(segs[0].split()[0].rsplit(":", 1)[-1])}
    # radio values: radiotap's (first segment) or a forwarder record's (c2p, tzsp)
    radio = " ".join(s for s in segs if s is segs[0] or s.startswith(("c2p", "tzsp")))
    if m := FREQ.search(radio):
        out["freq_mhz"] = int(m[1])
    if m := RSSI.search(radio):
        out["rssi_dbm"] = int(m[1])
    # the sender: the last address before the WSMP/1609.2/J2735 layers (inside a
    # forwarder's record, the 802.11 frame's)
    link = [s for s in segs if not s.startswith(("WSMP", "1609.2", "J2735", "malformed"))]
    if macs := MAC.findall(" | ".join(link)):
        out["src"] = macs[-1]
    for seg in segs[1:]:
        if seg.startswith(("IPv4 UDP", "IPv6 UDP")):
            out.setdefault("encap", "udp")
        if m := ENCAP.match(seg):
            out["encap"] = m[1]
            if m[2]:
                out["udp_prefix"] = int(m[2])
        if m := LLC.match(seg):
            out["llc"] = m[1].lower()
        elif m := WSMP.match(seg):
            out.update(wsmp_version=int(m[1]), tpid=int(m[2] or 0),
                       psid=int(m[3], 16) if m[3] else None, wsm_length=int(m[8]))
            if m[4]:
                out["lpp"] = int(m[4], 16)
            if m[5]:
                out["ports"] = (int(m[5]), int(m[6]))
            out["elements"] = elements(m[7])
        elif m := DOT2.match(seg):
            out["dot2"] = m[1]
            if m[2]:
                out["dot2_psid"] = int(m[2], 16)
        elif m := J2735.match(seg):
            out["msgid"] = int(m[2])
            if m[4]:
                out["trailing_octets"] = int(m[4])
        elif seg.startswith("malformed"):
            out["malformed"] = seg
    return out


def elements(text):
    """"15=172,99:0102" as {15: 172, 99: "0102"}: decoded values, else the octets."""
    out = {}
    for item in text.split(",") if text else []:
        ident, sep, value = item.partition("=")
        if not sep:
            ident, _, value = item.partition(":")
        out[int(ident)] = int(value) if sep else value
    return out


def malformed(frame):
    """Frames v2xcap must report: an unreadable PSID, a WSM length that lies, a bad FCS
    flag, a MessageFrame cut short."""
    return (frame.get("psid", 0) is None and frame.get("tpid", 0) < 2) or \
        frame.get("wsm_length_field", 0) > frame.get("wsm_length", 0) or \
        frame.get("bad_fcs", False) or frame.get("j2735_truncated", False)


def check_capture(v2xcap, expect_path, api=None):
    """api: a program of libv2x's public API (tests/api/api_frames) read instead of
    `v2xcap dump`, its JSON lines held to the same expected values (and to each frame's
    time and link type, which it prints too)."""
    with open(expect_path) as f:
        exp = json.load(f)
    path = os.path.join(os.path.dirname(expect_path), os.path.basename(exp["capture"]))
    if api:
        r = subprocess.run([api, path], capture_output=True, text=True, timeout=60)
    else:
        r = run(v2xcap, [path])
    errors = []
    frames = exp.get("frames", [])
    # The exit policy (README "Exit codes"): a file that is not a readable capture exits
    # 1; malformed frames are marked and reported but exit 0, and 1 with --strict.
    has_malformed = any(malformed(fr) for fr in frames)
    if exp.get("error", False):
        if r.returncode != 1:
            errors.append(f"exit {r.returncode}, expected 1 (file-level error)")
    elif r.returncode != 0:
        errors.append(f"exit {r.returncode}, expected 0; stderr {r.stderr!r}")
    if (exp.get("error", False) or (has_malformed and not api)) and path not in r.stderr:
        errors.append(f"stderr does not name {path}: {r.stderr!r}")
    if has_malformed and not exp.get("error", False) and not api:
        strict = run(v2xcap, ["--strict", path])
        if strict.returncode != 1:
            errors.append(f"--strict: exit {strict.returncode}, expected 1")
    if api:
        got = [json.loads(line) for line in r.stdout.splitlines()]
    else:
        got = [layers(line) for line in r.stdout.splitlines()]
    if frames and len(got) != len(frames):
        errors.append(f"{len(got)} lines for {len(frames)} frames")
    for fr, g in zip(frames, got):
        n = fr["frame"]
        if g["frame"] != n:
            errors.append(f"line for frame {g['frame']}, expected {n}")
        # a bad FCS stops v2xcap at the radiotap header: no 802.11 fields after it
        link = {k: fr[k] for k in ("freq_mhz", "rssi_dbm", "src", "llc")
                if fr.get(k) and not (fr.get("bad_fcs") and k in ("src", "llc"))}
        if api:
            link.update({k: fr[k] for k in ("time_us", "linktype", "dot2_generation_time")
                         if k in fr})
        # what carried the frame, and a forwarder record's channel and RSSI
        if "encap" in fr:
            link["encap"] = fr["encap"]
            link["udp_prefix"] = fr.get("udp_prefix")
        rec = fr.get("c2p") or fr.get("tzsp")
        if rec:
            channel = rec.get("primary_channel", rec.get("channel"))  # C-V2X has none
            if channel:
                link["freq_mhz"] = 5000 + 5 * channel
            if "rssi_dbm" in rec:
                link["rssi_dbm"] = rec["rssi_dbm"]
        for key, value in link.items():
            if g.get(key) != value:
                errors.append(f"frame {n}: {key} {g.get(key)!r}, expected {value!r}")
        if malformed(fr):
            reported = "error" in g if api else \
                "malformed" in g and f"frame {n}" in r.stderr
            if not reported:
                errors.append(f"frame {n}: not reported malformed")
            continue
        if fr.get("wsmp_version") is None:
            if "wsmp_version" in g:
                errors.append(f"frame {n}: WSMP found where the capture has none")
            # J2735 over UDP: a MessageFrame taken by content, with its id
            if fr.get("encap") in ("udp_j2735", "udp_dot2", "udp_rsu"):
                for key in ("msgid", "trailing_octets"):
                    if g.get(key) != fr.get(key):
                        errors.append(f"frame {n}: {key} {g.get(key)!r}, expected {fr.get(key)!r}")
            continue
        want = {"wsmp_version": fr["wsmp_version"], "psid": fr["psid"],
                "dot2": fr["dot2"] if fr["dot2"] != "none" else None,
                "msgid": fr.get("msgid"), "trailing_octets": fr.get("trailing_octets")}
        if not api:  # the WSMP T-header's details: dump's alone
            want.update(tpid=fr.get("tpid", 0), lpp=fr.get("lpp"))
        if "dot2_psid" in fr:
            want["dot2_psid"] = fr["dot2_psid"]
        for key, value in want.items():
            if g.get(key) != value:
                errors.append(f"frame {n}: {key} {g.get(key)!r}, expected {value!r}")
    return errors


def check_exit(v2xcap, code, args):
    r = run(v2xcap, args, stdin=subprocess.DEVNULL)
    errors = []
    if r.returncode != code:
        errors.append(f"exit {r.returncode}, expected {code}; stderr {r.stderr!r}")
    if code == 1 and args and args[0] not in r.stderr:
        errors.append(f"stderr does not name {args[0]}: {r.stderr!r}")
    if code == 2 and "usage: v2xcap dump" not in r.stderr:
        errors.append(f"no usage on stderr: {r.stderr!r}")
    return errors


def shifted_copy(src, dst, seconds):
    """A classic pcap with every timestamp moved by `seconds`."""
    with open(src, "rb") as f:
        data = bytearray(f.read())
    end = "<" if data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    off = 24
    while off + 16 <= len(data):
        sec, _, caplen, _ = struct.unpack_from(end + "IIII", data, off)
        struct.pack_into(end + "I", data, off, sec + seconds)
        off += 16 + caplen
    with open(dst, "wb") as f:
        f.write(data)


def check_timeline(v2xcap, files):
    with tempfile.TemporaryDirectory() as tmp:
        early = os.path.join(tmp, "early.pcap")
        shifted_copy(files[0], early, -10)
        r = run(v2xcap, [files[1], early])
    if r.returncode != 0:
        return [f"exit {r.returncode}: {r.stderr!r}"]
    names = [line.split(":", 1)[0] for line in r.stdout.splitlines()]
    order = [n for i, n in enumerate(names) if i == 0 or names[i - 1] != n]
    want = [early, files[1]]
    return [] if order == want else [f"files read as {order}, expected {want}"]


def check_stdin(v2xcap, capture):
    with open(capture, "rb") as f:
        r = run(v2xcap, ["-"], stdin=f)
    want = run(v2xcap, [capture])
    if r.returncode != 0 or not r.stdout or r.stdout != want.stdout:
        return [f"exit {r.returncode}, stdout {r.stdout!r}, expected {want.stdout!r}"]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--v2xcap", required=True)
    ap.add_argument("--api", help="tests/api/api_frames: capture mode reads it instead")
    ap.add_argument("mode", choices=["capture", "exit", "timeline", "stdin"])
    ap.add_argument("args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    if a.mode == "capture":
        if not os.path.exists(a.args[0]):
            print(f"SKIP: {a.args[0]} not found")
            return 77
        errors = check_capture(a.v2xcap, a.args[0], a.api)
    elif a.mode == "exit":
        errors = check_exit(a.v2xcap, int(a.args[0]), a.args[1:])
    elif a.mode == "timeline":
        errors = check_timeline(a.v2xcap, a.args)
    else:
        errors = check_stdin(a.v2xcap, a.args[0])
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
