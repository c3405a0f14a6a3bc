#!/usr/bin/python3
"""`v2xcap decode` shows progress on stderr when stderr is a terminal and the read takes
more than a second, and never when stderr is not a terminal.
usage: progress_on_tty.py V2XCAP GENCAP VECTORS_DIR"""
import os
import pty
import subprocess
import sys
import tempfile
import time

v2xcap, gencap, vectors = sys.argv[1:4]
if 'decoder: edition' not in subprocess.run([v2xcap, '--version'], capture_output=True,
                                             text=True).stdout:
    print('SKIP: built without a J2735 schema, decode is too fast to need progress')
    sys.exit(77)



def make_capture(path, frames):
    subprocess.run([gencap, '--frames', str(frames), '--vectors', vectors, path], check=True,
                   capture_output=True)


def decode_seconds(path):
    t = time.monotonic()
    subprocess.run([v2xcap, 'decode', path], stdout=subprocess.DEVNULL, check=True)
    return time.monotonic() - t


with tempfile.TemporaryDirectory() as tmp:
    # A capture that takes ~2.5 s to decode here, whatever this machine's speed: progress
    # shows after the first second.
    cap = os.path.join(tmp, 'big.pcap')
    frames = 20000
    make_capture(cap, frames)
    frames = max(frames, min(int(frames * 2.5 / decode_seconds(cap)), 5000000))
    make_capture(cap, frames)

    master, slave = pty.openpty()
    p = subprocess.Popen([v2xcap, 'decode', cap], stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    seen = b''
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO once the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    rc = p.wait()
    tty_text = seen.decode(errors='replace')

    piped = subprocess.run([v2xcap, 'decode', cap], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)

failures = []
if rc != 0:
    failures.append('decode on a terminal exited %d' % rc)
if '/ ' not in tty_text or 'MB/s' not in tty_text or '100%' not in tty_text:
    failures.append('no progress line on the terminal: %r' % tty_text[-300:])
if piped.returncode != 0 or piped.stderr:
    failures.append('stderr not a terminal, yet it printed: %r' % piped.stderr[:300])
for f in failures:
    print('FAIL:', f)
print('progress on a terminal: %r' % tty_text.strip().split('\r')[-1])
sys.exit(1 if failures else 0)
