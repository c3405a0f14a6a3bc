#!/usr/bin/python3
"""Runs the libFuzzer harnesses of tests/fuzz (built in BUILD/tests/fuzz/clang).

  run_fuzz.py --bin DIR --captures DIR [--vectors DIR] smoke HARNESS [--seconds N]
      a bounded run over the seed corpus (ctest label fuzz-smoke)
  run_fuzz.py --bin DIR ... replay HARNESS FILE...
      each reproducer run once (ctest label fuzz-regression)
  run_fuzz.py --bin DIR ... long [HARNESS...] [--seconds N] [--work DIR]
      hours-long runs one harness after the other (tests/fuzz/long-run)

Seeds are extracted from captures/ and the vectors when a run starts (nothing generated
is kept in git): frames (link type index + frame), whole capture files, WSMP headers,
1609.2 envelopes and J2735 MessageFrames, each for the harness that reads it. Each run
prints executions, coverage (libFuzzer's cov: edges, ft: features) and the reproducers it
wrote. Exit 77 (SKIP) when the harness was not built (no clang with libFuzzer)."""
import argparse
import glob
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LINKTYPES = [127, 105, 1, 113, 276, 252]  # the index order of fuzz_frame.c and fuzz_v2xcap.c
LINK_WYDOT = 6  # fuzz_frame.c only: its index of V2X_LINK_WYDOT (no capture file has it)
LINK_RSU = 7  # fuzz_frame.c only: V2X_LINK_RSU_TEXT, a record of an RSU records file
HARNESSES = ["fuzz_frame", "fuzz_api", "fuzz_wsmp", "fuzz_dot2", "fuzz_j2735dec", "fuzz_capreader",
             "fuzz_v2xcap", "fuzz_encode"]
# fuzz_v2xcap writes per-frame errors on stderr: libFuzzer keeps its own and the
# sanitizers' reports and drops the harness's.
OPTIONS = {"fuzz_v2xcap": ["-close_fd_mask=3"]}
ETHERTYPE_WSMP = b"\x88\xdc"


def capture_files(captures):
    return sorted(glob.glob(os.path.join(captures, "**", "*.pcap*"), recursive=True))


def pcap_frames(data):
    if data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        end = "<"
    elif data[:4] in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        end = ">"
    else:
        return
    linktype = struct.unpack_from(end + "I", data, 20)[0]
    off = 24
    while off + 16 <= len(data):
        caplen = struct.unpack_from(end + "I", data, off + 8)[0]
        yield linktype, data[off + 16:off + 16 + caplen]
        off += 16 + caplen


def pcapng_frames(data):
    """Enhanced packet blocks, with the link type of their interface."""
    if data[:4] != b"\x0a\x0d\x0d\x0a" or len(data) < 12:
        return
    end = "<" if data[8:12] == b"\x4d\x3c\x2b\x1a" else ">"
    links, off = [], 0
    while off + 12 <= len(data):
        btype, blen = struct.unpack_from(end + "II", data, off)
        if blen < 12 or off + blen > len(data):
            return
        body = data[off + 8:off + blen - 4]
        if btype == 1 and len(body) >= 2:
            links.append(struct.unpack_from(end + "H", body, 0)[0])
        elif btype == 6 and len(body) >= 20:
            iface, _, _, caplen = struct.unpack_from(end + "IIII", body, 0)
            if iface < len(links):
                yield links[iface], body[20:20 + caplen]
        off += blen


def frames(captures):
    for path in capture_files(captures):
        with open(path, "rb") as f:
            data = f.read()
        yield from pcap_frames(data)
        yield from pcapng_frames(data)


def message_frame(buf):
    """The UPER J2735 MessageFrame at the start of buf, or None: extension bit 0, 15-bit
    messageId, then the open type's length (one octet below 128, two up to 16383)."""
    if len(buf) < 4 or buf[0] & 0x80 or not 18 <= buf[1] <= 255 or buf[0]:
        return None
    if buf[2] < 0x80:
        n, head = buf[2], 3
    elif buf[2] < 0xc0:
        n, head = (buf[2] & 0x3f) << 8 | buf[3], 4
    else:
        return None
    if n < 2 or head + n > len(buf):
        return None
    return buf[:head + n], buf[1], buf[head:head + n]


def rsu_files(captures):
    """Files of USDOT RSU text records (captures/rsu)."""
    return sorted(glob.glob(os.path.join(captures, "**", "*.txt"), recursive=True))


def rsu_records(captures):
    """Each record of those files: from a "Version=" line to the next."""
    out = []
    for path in rsu_files(captures):
        with open(path, "rb") as f:
            out += [b"Version=" + r for r in f.read().split(b"Version=")[1:]]
    return out


def wydot_logs(vectors):
    """jpo-ode's sample WYDOT logs (tests/vectors/jpo-ode), plain and gzip."""
    return sorted(glob.glob(os.path.join(vectors or "", "jpo-ode", "*.bin")) +
                  glob.glob(os.path.join(vectors or "", "jpo-ode", "*.gz")))


def wydot_frames(vectors):
    """Pseudo-link frames (kind octet, record) of the BSM (kind 1, 26-octet header) and
    dnMsg (kind 3, 25) logs: the header ends with the payload length, little-endian."""
    out = []
    for name, kind, hdr in (("bsmTx.bin", 1, 26), ("dnMsg.bin", 3, 25)):
        path = os.path.join(vectors or "", "jpo-ode", name)
        if not os.path.exists(path):
            continue
        with open(path, "rb") as f:
            data = f.read()
        at = 0
        while at + hdr <= len(data):
            n = hdr + struct.unpack_from("<H", data, at + hdr - 2)[0]
            out.append(bytes([kind]) + data[at:at + n])
            at += n
    return out


def seeds(harness, captures, vectors):
    """The seed inputs of a harness, deduplicated."""
    out = set()
    all_frames = list(frames(captures))
    if harness in ("fuzz_frame", "fuzz_api", "fuzz_v2xcap"):
        for lt, fr in all_frames:
            if lt in LINKTYPES:
                out.add(bytes([LINKTYPES.index(lt)]) + fr)
        # exported PDUs as v2xcap convert writes them: the WYDOT records' payloads
        upper = LINKTYPES.index(252)
        for fr in wydot_frames(vectors):
            payload = fr[1 + (26 if fr[0] == 1 else 25):]
            out.add(bytes([upper]) + b"\x00\x0c\x00\x05j2735\x00\x00\x00\x00" + payload)
            if harness in ("fuzz_frame", "fuzz_api"):
                out.add(bytes([LINK_WYDOT]) + fr)
        # RSU records as v2xcap convert writes them (exported PDUs) and, to fuzz_frame,
        # as the records file's pseudo link
        for rec in rsu_records(captures):
            out.add(bytes([upper]) + b"\x00\x0c\x00\x09usdot_rsu\x00\x00\x00\x00" + rec)
            if harness in ("fuzz_frame", "fuzz_api"):
                out.add(bytes([LINK_RSU]) + rec)
    elif harness == "fuzz_capreader":
        for path in capture_files(captures) + wydot_logs(vectors) + rsu_files(captures):
            with open(path, "rb") as f:
                out.add(f.read())
    elif harness == "fuzz_wsmp":
        for _, fr in all_frames:
            at = fr.find(ETHERTYPE_WSMP)
            if at >= 0:
                out.add(fr[at + 2:])
    else:
        payloads = [fr for _, fr in all_frames]
        vec = []
        if vectors and os.path.isdir(vectors):
            for pat in ("**/*.coer", "**/*.uper", "**/*.bin"):
                for path in sorted(glob.glob(os.path.join(vectors, pat), recursive=True)):
                    with open(path, "rb") as f:
                        vec.append(f.read())
        if harness == "fuzz_dot2":
            for p in payloads:
                for magic in (b"\x03\x80", b"\x03\x81", b"\x03\x82"):
                    at = p.find(magic)
                    if at >= 0:
                        out.add(p[at:])
            out.update(v for v in vec if v[:1] == b"\x03")
        elif harness in ("fuzz_j2735dec", "fuzz_encode"):
            # fuzz_encode: the MessageFrames only (mode 0, decoded to its JSON); its JSON
            # seeds are in corpus/fuzz_encode
            for p in payloads + vec:
                for at in range(len(p)):
                    mf = message_frame(p[at:])
                    if mf:
                        whole, msg_id, value = mf
                        out.add(b"\x00" + whole)
                        if harness == "fuzz_j2735dec":
                            out.add(b"\x01" + struct.pack(">H", msg_id) + value)
                        break
    return sorted(out)


def write_corpus(harness, a, corpus):
    """Seeds plus the minimised corpus kept in git (corpus/<harness>/)."""
    items = seeds(harness, a.captures, a.vectors)
    for n, data in enumerate(items):
        with open(os.path.join(corpus, f"seed{n}"), "wb") as f:
            f.write(data)
    kept = sorted(glob.glob(os.path.join(HERE, "corpus", harness, "*")))
    for path in kept:
        shutil.copy(path, corpus)
    return len(items) + len(kept)


def fuzzer_args(harness, a):
    return ([os.path.join(a.bin, harness), "-dict=" + os.path.join(HERE, "v2x.dict")] +
            OPTIONS.get(harness, []))


STATS = re.compile(r"^#(\d+)\s+(?:DONE|INITED|pulse|NEW|REDUCE|RELOAD).*?cov: (\d+) ft: (\d+)")


def fuzz(harness, a, seconds, corpus, artifacts, seed=0):
    """One run; returns (ok, executions, cov, ft, reproducers). seed 0: libFuzzer picks one."""
    args = fuzzer_args(harness, a) + ([f"-seed={seed}"] if seed else []) + [
        f"-max_total_time={seconds}", "-print_final_stats=1", "-timeout=10",
        "-rss_limit_mb=2048", "-artifact_prefix=" + artifacts + "/", corpus]
    print("$ " + " ".join(args), flush=True)
    p = subprocess.Popen(args, stderr=subprocess.PIPE, text=True, errors="replace")
    execs = cov = ft = 0
    for line in p.stderr:
        sys.stderr.write(line)
        m = STATS.match(line)
        if m:
            execs, cov, ft = (int(x) for x in m.groups())
        m = re.match(r"stat::number_of_executed_units: (\d+)", line)
        if m:
            execs = int(m.group(1))
    p.wait()
    repro = sorted(glob.glob(os.path.join(artifacts, "*")))
    return p.returncode == 0 and not repro, execs, cov, ft, repro


def report(harness, seconds, ok, execs, cov, ft, repro):
    print(f"{harness}: {'ok' if ok else 'FINDING'}, {execs} executions in {seconds} s, "
          f"cov {cov} ft {ft}", flush=True)
    for r in repro:
        print(f"  reproducer: {r}  (replay: {harness} {r})")


def built(harness, a):
    if os.path.exists(os.path.join(a.bin, harness)):
        return True
    print(f"SKIP: {harness} not built in {a.bin} (configure with -DV2X_FUZZ=ON, the default "
          "with V2X_SANITIZE; needs clang with libFuzzer; fuzz_j2735dec needs a J2735 schema)")
    return False


def cmd_smoke(a):
    if not built(a.harness, a):
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        corpus, artifacts = os.path.join(tmp, "corpus"), os.path.join(tmp, "artifacts")
        os.mkdir(corpus)
        os.mkdir(artifacts)
        print(f"{write_corpus(a.harness, a, corpus)} seeds")
        # A fixed seed: the smoke run in CI explores the same inputs every time (a finding
        # is a change in the code, not luck); long runs (long-run) take fresh seeds.
        ok, *rest = fuzz(a.harness, a, a.seconds, corpus, artifacts, seed=1)
        report(a.harness, a.seconds, ok, *rest)
        for r in rest[3]:  # keep them where ctest users can find them
            shutil.copy(r, os.getcwd())
    return 0 if ok else 1


def cmd_replay(a):
    if not built(a.harness, a):
        return 77
    r = subprocess.run(fuzzer_args(a.harness, a) + ["-runs=1"] + a.files)
    return 0 if r.returncode == 0 else 1


def cmd_long(a):
    names = a.harnesses or HARNESSES
    unknown = [h for h in names if h not in HARNESSES]
    if unknown:
        print(f"unknown harness {' '.join(unknown)}; known: {' '.join(HARNESSES)}")
        return 2
    work = a.work or tempfile.mkdtemp(prefix="v2x-fuzz-")
    results = []
    for h in names:
        if not built(h, a):
            continue
        corpus, artifacts = os.path.join(work, h, "corpus"), os.path.join(work, h, "crashes")
        os.makedirs(corpus, exist_ok=True)
        os.makedirs(artifacts, exist_ok=True)
        print(f"{h}: {write_corpus(h, a, corpus)} seeds, corpus {corpus}", flush=True)
        results.append((h, *fuzz(h, a, a.seconds, corpus, artifacts)))
    print(f"\n== summary (work dir {work})")
    for h, *rest in results:
        report(h, a.seconds, *rest)
    return 0 if all(r[1] for r in results) else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="the folder of the built harnesses")
    ap.add_argument("--captures", required=True)
    ap.add_argument("--vectors")
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("smoke")
    s.add_argument("harness", choices=HARNESSES)
    s.add_argument("--seconds", type=int, default=30)
    s = sub.add_parser("replay")
    s.add_argument("harness", choices=HARNESSES)
    s.add_argument("files", nargs="+")
    s = sub.add_parser("long")
    s.add_argument("harnesses", nargs="*", metavar="HARNESS", help=" ".join(HARNESSES))
    s.add_argument("--seconds", type=int, default=3600, help="per harness")
    s.add_argument("--work", help="corpus and crashes kept here (default: a new temp dir)")
    a = ap.parse_args()
    return {"smoke": cmd_smoke, "replay": cmd_replay, "long": cmd_long}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
