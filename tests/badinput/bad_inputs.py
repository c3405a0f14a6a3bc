#!/usr/bin/env python3
"""The bad-input matrix: one row per kind of bad input, run through `v2xcap dump`, `stats`
and `decode`. Each row states the message on stderr, the exit code (one policy for every
command, README "Exit codes": a file that is not a readable capture exits 1, a malformed
frame is reported and exits 0, or 1 with --strict) and how many good frames around the
bad one each command still reads (nothing good lost). Inputs are built at test time from
captures/ (good frames: bsm-128.pcap) with mkcap, gencap and a few lines of byte editing.

usage: bad_inputs.py ROW     (env: V2XCAP, MKCAP, GENCAP, CAPTURES)
       bad_inputs.py --list"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading

V2XCAP = os.environ.get("V2XCAP", "")
MKCAP = os.environ.get("MKCAP", "")
GENCAP = os.environ.get("GENCAP", "")
CAPTURES = os.environ.get("CAPTURES", "")
SKIP = 77
RADIOTAP = 127
COMMANDS = ("dump", "stats", "decode")
# Sanitizer reports get exit codes of their own, so they never pass as 0 or 1.
ENV = dict(os.environ, ASAN_OPTIONS="exitcode=66", UBSAN_OPTIONS="exitcode=67")


class Skip(Exception):
    pass


# Capture building blocks

def pcap_header(linktype=RADIOTAP):
    return struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, linktype)


def record(data, t=0, origlen=None):
    return struct.pack("<IIII", 1700000000 + t, 0, len(data),
                       len(data) if origlen is None else origlen) + data


def frames_of(path):
    """The frames of a little-endian microsecond pcap."""
    d = open(path, "rb").read()
    off, out = 24, []
    while off + 16 <= len(d):
        n = struct.unpack_from("<I", d, off + 8)[0]
        out.append(d[off + 16:off + 16 + n])
        off += 16 + n
    return out


def good(n):
    """n BSMs over radiotap, from the repository's captures."""
    return frames_of(os.path.join(CAPTURES, "bsm-128.pcap"))[:n]


def bsm_payload():
    """The MessageFrame of the first good frame (WSMP v3, TPID 0, PSID 0x20, 2-octet
    length: 03 00 20 8x xx)."""
    f = good(1)[0]
    i = f.index(b"\x88\xdc") + 2
    assert f[i:i + 3] == b"\x03\x00\x20" and f[i + 3] & 0x80, f[i:i + 5].hex()
    n = (f[i + 3] & 0x7f) << 8 | f[i + 4]
    return f[i + 5:i + 5 + n]


def mkcap(d, *args):
    """The frames mkcap builds (radiotap, pcap)."""
    if not MKCAP:
        raise Skip("mkcap not built")
    out = os.path.join(d, "mk.pcap")
    subprocess.run([MKCAP, "-o", out, "--link", "radiotap", *args], check=True)
    return frames_of(out)


def pcap(d, frames, linktype=RADIOTAP, origlen=None):
    """A pcap of frames; origlen: {index: original length} for frames the snap length
    cut."""
    path = os.path.join(d, "in.pcap")
    with open(path, "wb") as f:
        f.write(pcap_header(linktype))
        for i, fr in enumerate(frames):
            f.write(record(fr, i, (origlen or {}).get(i)))
    return path


def between(d, bad, n=2):
    """n good frames, the bad ones, n good frames."""
    g = good(2 * n)
    return pcap(d, g[:n] + list(bad) + g[n:])


def write(d, data, name="in.pcap"):
    path = os.path.join(d, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def pcapng_block(btype, body):
    body += b"\0" * (-len(body) % 4)
    n = 12 + len(body)
    return struct.pack("<II", btype, n) + body + struct.pack("<I", n)


def pcapng_with_unknown_block(d):
    shb = pcapng_block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    idb = pcapng_block(1, struct.pack("<HHI", RADIOTAP, 0, 65535))
    epbs = [pcapng_block(6, struct.pack("<IIIII", 0, 0, i, len(f), len(f)) + f)
            for i, f in enumerate(good(4))]
    unknown = pcapng_block(0x0BAD0000, b"not a block v2xcap knows")
    return write(d, shb + idb + epbs[0] + epbs[1] + unknown + epbs[2] + epbs[3], "in.pcapng")


# Bad frames, made from a good one

def radiotap_lies(f):
    b = bytearray(f)
    struct.pack_into("<H", b, 2, 0xFFF0)  # it_len beyond the frame
    return bytes(b)


def radiotap_bitmaps_without_end(f):
    # it_len 40: the header and eight present words, each saying another one follows
    return struct.pack("<BBH", 0, 0, 40) + struct.pack("<I", 0x80000000) * 9 + f[40:]


def dot2_length_lies(d):
    f = mkcap(d, "--psid", "20", "--dot2", "unsecured", bsm_payload().hex())[0]
    b = bytearray(f)
    i = b.index(b"\x03\x80", b.index(b"\x88\xdc"))  # protocolVersion 3, unsecuredData
    assert b[i + 2] == 0x81, b[i:i + 4].hex()  # COER length in one more octet
    b[i + 3] = 0xFF
    return bytes(b)


# The matrix. rc: the exit code of every command; strict: with --strict (default rc);
# msg: a regex stderr must match (every command); good: frames each command still reads
# without an error (an int for all, or per command; None: not counted).

def row_empty_file(d):
    return write(d, b"")


def row_not_a_capture(d):
    return write(d, b"this is a text file, not a capture\n" * 4)


def row_header_only(d):
    return write(d, pcap_header())


def row_truncated_in_record_header(d):
    return write(d, open(pcap(d, good(3)), "rb").read() + record(good(1)[0])[:9])


def row_truncated_in_record(d):
    return write(d, open(pcap(d, good(3)), "rb").read() + record(good(1)[0])[:100])


def row_pcapng_unknown_blocks(d):
    return pcapng_with_unknown_block(d)


def row_unsupported_link_type(d):
    return pcap(d, good(3), linktype=228)


def row_snaplen_truncated_frame(d):
    g = good(5)
    return pcap(d, g[:2] + [g[2][:70]] + g[3:], origlen={2: len(g[2])})


def row_radiotap_it_len_beyond_frame(d):
    return between(d, [radiotap_lies(good(1)[0])])


def row_radiotap_bitmaps_without_end(d):
    return between(d, [radiotap_bitmaps_without_end(good(1)[0])])


def row_psid_of_5_octets(d):
    return between(d, mkcap(d, "--psid-raw", "F000000000", bsm_payload().hex()))


def row_wsm_length_lies(d):
    return between(d, mkcap(d, "--psid", "20", "--wsm-len", "300", bsm_payload().hex()))


def row_dot2_length_lies(d):
    return between(d, [dot2_length_lies(d)])


def row_messageframe_length_lies(d):
    # messageId 20, a value of 127 octets announced, 5 there
    return between(d, mkcap(d, "--psid", "20", "0014" + "7F" + "0102030405"))


def row_unknown_message_id(d):
    return between(d, mkcap(d, "--psid", "20", "7FFF" + "03" + "010203"))


def row_sender_table_past_cap(d):
    if not GENCAP:
        raise Skip("gencap not built")
    path = os.path.join(d, "in.pcap")
    subprocess.run([GENCAP, "--frames", "9000", "--senders", "9000", path], check=True,
                   stdout=subprocess.DEVNULL)
    return path


def row_garbage_run(d):
    return between(d, [bytes(64)] * 5000)


def row_stdin(d):
    return pcap(d, good(3))


def row_fifo(d):
    return pcap(d, good(3))


def row_directory(d):
    return d


def row_no_permission(d):
    path = pcap(d, good(3))
    os.chmod(path, 0)
    os.chmod(d, 0o755)
    return path


MALFORMED = dict(rc=0, strict=1, good=4)
ROWS = {
    "empty_file": dict(rc=1, msg=r"in\.pcap: .*(empty|short|not a pcap)", good=0),
    "not_a_capture": dict(rc=1, msg=r"in\.pcap: .*not a pcap", good=0),
    "header_only": dict(rc=0, good=0),
    "truncated_in_record_header": dict(rc=1, msg=r"in\.pcap: .*truncated", good=3),
    "truncated_in_record": dict(rc=1, msg=r"in\.pcap: frame 4: truncated", good=3),
    "pcapng_unknown_blocks": dict(rc=0, good=4),
    "unsupported_link_type": dict(rc=1, msg=r"in\.pcap: .*link type 228", good=0),
    "snaplen_truncated_frame": dict(MALFORMED,
                                    msg=r"frame 3: malformed .*captured 70 of \d+ octets"),
    "radiotap_it_len_beyond_frame": dict(MALFORMED, msg=r"frame 3: malformed link"),
    "radiotap_bitmaps_without_end": dict(MALFORMED, msg=r"frame 3: malformed link"),
    "psid_of_5_octets": dict(MALFORMED, msg=r"frame 3: malformed WSMP"),
    "wsm_length_lies": dict(MALFORMED, msg=r"frame 3: malformed WSMP"),
    "dot2_length_lies": dict(MALFORMED, msg=r"frame 3: malformed 1609\.2"),
    "messageframe_length_lies": dict(MALFORMED, msg=r"frame 3: malformed J2735"),
    # a message id no edition defines is no error: read, named "unknown", counted
    "unknown_message_id": dict(rc=0, good=5),
    # more BSM senders than the table holds: every frame still counted, the excess noted
    "sender_table_past_cap": dict(rc=0, good={"dump": 9000, "stats": 9000, "decode": None},
                                  check="bsm_overflow"),
    # 5000 malformed frames: the first 10 on stderr, then one line with the total
    "garbage_run": dict(rc=0, strict=1, good=4, check="quiet",
                        msg=r"in\.pcap: 5000 malformed frames \(the first 10 shown\): "
                            r"5000 link: "),
    "stdin": dict(rc=0, good=3, input="stdin"),
    "fifo": dict(rc=0, good=3, input="fifo"),
    "directory": dict(rc=1, msg=r"[Ii]s a directory", good=0),
    "no_permission": dict(rc=1, msg=r"in\.pcap: .*[Pp]ermission denied", good=0,
                          input="nobody"),
}


# Running

def as_nobody():
    if os.geteuid() != 0:
        return []  # the file is unreadable to this user already
    if not shutil.which("setpriv"):
        raise Skip("running as root without setpriv")
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def run(cmd, path, how, strict=False):
    opts = (["--format", "json"] if cmd == "stats" else []) + (["--strict"] if strict else [])
    prefix, stdin, arg = [], None, path
    if how == "stdin":
        stdin, arg = open(path, "rb"), "-"
    elif how == "nobody":
        prefix = as_nobody()
    elif how == "fifo":
        arg = path + ".fifo"
        if not os.path.exists(arg):
            os.mkfifo(arg)

        def feed():
            with open(arg, "wb") as w, open(path, "rb") as r:
                w.write(r.read())
        threading.Thread(target=feed, daemon=True).start()
    p = subprocess.run(prefix + [V2XCAP, cmd, *opts, arg], stdin=stdin, capture_output=True,
                       timeout=120, env=ENV)
    if stdin:
        stdin.close()
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def good_frames(cmd, out):
    """Frames a command read without an error, from its output."""
    if cmd == "dump":
        return sum(1 for line in out.splitlines() if "| malformed" not in line)
    if cmd == "stats":
        s = json.loads(out)
        return s["frames"] - s["malformed"]
    msgs = [json.loads(line) for line in out.splitlines()]
    return sum(1 for m in msgs if "error" not in m and "error" not in m["j2735"])


def check_row(name):
    spec = ROWS[name]
    failures = []
    with tempfile.TemporaryDirectory() as d:
        path = globals()["row_" + name](d)
        for cmd in COMMANDS:
            rc, out, err = run(cmd, path, spec.get("input"))
            print(f"{name}: {cmd}: exit {rc}; stderr: {err.strip()[:300]!r}")
            if rc != spec["rc"]:
                failures.append(f"{cmd}: exit {rc}, expected {spec['rc']}")
            if spec.get("msg") and not re.search(spec["msg"], err):
                failures.append(f"{cmd}: stderr does not match {spec['msg']!r}")
            if not spec.get("msg") and err.strip() and cmd != "decode":
                failures.append(f"{cmd}: unexpected stderr {err.strip()[:200]!r}")
            want = spec["good"]
            want = want.get(cmd) if isinstance(want, dict) else want
            if want is not None and rc in (0, 1) and (out or want):
                got = good_frames(cmd, out)
                if got != want:
                    failures.append(f"{cmd}: {got} good frames, expected {want}")
            if spec.get("check") == "quiet" and len(err.splitlines()) > 12:
                failures.append(f"{cmd}: {len(err.splitlines())} lines on stderr, not capped")
            if spec.get("check") == "bsm_overflow" and cmd == "stats" and \
                    json.loads(out)["bsm_overflow"] == 0:
                failures.append("stats: no BSM sender counted beyond the cap")
            strict = spec.get("strict", spec["rc"])
            rc, _, _ = run(cmd, path, spec.get("input"), strict=True)
            if rc != strict:
                failures.append(f"{cmd} --strict: exit {rc}, expected {strict}")
    return failures


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(ROWS))
        return 0
    name = sys.argv[1]
    try:
        failures = check_row(name)
    except Skip as e:
        print(f"SKIP: {e}")
        return SKIP
    for f in failures:
        print(f"FAIL: {name}: {f}")
    if not failures:
        print(f"ok: {name}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
