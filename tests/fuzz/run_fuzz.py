#!/usr/bin/python3
"""Runs a libFuzzer harness for a bounded number of runs over a seed corpus made from the
sample captures: --seeds frames (fuzz_frame: each frame of the classic pcap files prefixed
with the harness's link type index) or --seeds files (fuzz_capreader: every pcap and pcapng
file whole). Exit 77 (SKIP) when the fuzzer could not be built (no clang)."""
import argparse
import glob
import os
import shutil
import struct
import subprocess
import sys
import tempfile

LINKTYPES = [127, 105, 1, 113, 276]  # the index order of fuzz_frame.c


def pcap_frames(path):
    """(linktype, frame) of a classic pcap; nothing for other formats."""
    with open(path, "rb") as f:
        data = f.read()
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


def make_seeds(captures, out):
    n = 0
    for path in sorted(glob.glob(os.path.join(captures, "*.pcap"))):
        for linktype, frame in pcap_frames(path):
            if linktype in LINKTYPES:
                with open(os.path.join(out, f"seed{n}"), "wb") as f:
                    f.write(bytes([LINKTYPES.index(linktype)]) + frame)
                n += 1
    return n


def copy_files(captures, out):
    paths = sorted(glob.glob(os.path.join(captures, "**", "*.pcap*"), recursive=True))
    for n, path in enumerate(paths):
        shutil.copy(path, os.path.join(out, f"seed{n}"))
    return len(paths)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fuzzer", required=True)
    ap.add_argument("--captures", required=True)
    ap.add_argument("--seeds", choices=("frames", "files"), default="frames")
    ap.add_argument("--runs", type=int, default=200000)
    ap.add_argument("--max-time", type=int, default=60)
    a = ap.parse_args()
    if not os.path.exists(a.fuzzer):
        print(f"SKIP: {a.fuzzer} not built (clang with libFuzzer not found)")
        return 77
    with tempfile.TemporaryDirectory() as corpus:
        n = (make_seeds if a.seeds == "frames" else copy_files)(a.captures, corpus)
        print(f"{n} seed {a.seeds} from {a.captures}")
        r = subprocess.run([a.fuzzer, f"-runs={a.runs}", f"-max_total_time={a.max_time}",
                            "-print_final_stats=1", corpus])
    return 0 if r.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
