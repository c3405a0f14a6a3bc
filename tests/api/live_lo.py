#!/usr/bin/env python3
"""Live capture through the public API (v2x_capture_open_live) on the loopback: what
`v2xcap send --force` transmits of a capture is what api_frames -i lo reads, frame by
frame (the layers above the link: PSID, 1609.2, J2735 message, lengths); with no traffic,
v2x_capture_breakloop from SIGALRM ends the capture with 0 frames and exit 0.
SKIP (77) without CAP_NET_RAW.
  live_lo.py API_FRAMES V2XCAP CAPTURE"""
import json
import subprocess
import sys
import time

# What the link changes (time, link type, addresses, radio) is left out.
KEYS = ("wsmp_version", "psid", "dot2", "dot2_psid", "dot2_generation_time", "msgid",
        "message_len", "trailing_octets", "error")


def project(lines):
    return [{k: v for k, v in json.loads(l).items() if k in KEYS} for l in lines if l]


def start(api, count, seconds):
    """api_frames -i lo, returned once it says the interface is open (or has exited)."""
    p = subprocess.Popen([api, "-i", "lo", str(count), str(seconds)], text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = p.stderr.readline()
    if not first.startswith("capturing"):
        p.wait(timeout=30)
        err = first + p.stderr.read()
        if "ermission" in err or "not permitted" in err:
            print("SKIP: no CAP_NET_RAW for a live capture on lo: " + err.strip())
            sys.exit(77)
        sys.exit("api_frames -i lo did not start: " + err.strip())
    return p


def main():
    api, v2xcap, capture = sys.argv[1:4]
    want = project(subprocess.run([api, capture], check=True, text=True,
                                  capture_output=True).stdout.splitlines())
    wsmp = [w for w in want if "psid" in w]

    p = start(api, len(wsmp), 30)
    send = subprocess.run([v2xcap, "send", "-i", "lo", "--force", capture, "--rate", "200"],
                          text=True, capture_output=True, timeout=60)
    out, err = p.communicate(timeout=60)
    if send.returncode != 0:
        sys.exit("v2xcap send failed: " + send.stderr)
    got = project(out.splitlines())
    if got != wsmp:
        for i, (w, g) in enumerate(zip(wsmp, got)):
            if w != g:
                print(f"frame {i + 1}: file {w}\n        live {g}")
        sys.exit(f"live: {len(got)} frames, the file's WSMP: {len(wsmp)}; they differ "
                 f"(stderr: {err.strip()})")
    if p.returncode != 0:
        sys.exit(f"api_frames -i lo exited {p.returncode}: {err}")
    print(f"{len(got)} frames sent on lo read back as in {capture}; {err.strip()}")

    # No traffic: breakloop from the alarm after 1 s ends the capture, no frame, exit 0.
    t = time.monotonic()
    p = start(api, 0, 1)
    out, err = p.communicate(timeout=30)
    took = time.monotonic() - t
    if p.returncode != 0 or out:
        sys.exit(f"idle capture: exit {p.returncode}, {len(out.splitlines())} frames: {err}")
    print(f"idle capture ended by v2x_capture_breakloop after {took:.1f} s, no frame")


main()
