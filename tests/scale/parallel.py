#!/usr/bin/python3
"""decode -j N and stats --decode -j N give what -j 1 gives: stdout, stderr and exit code,
octet for octet, in capture order; and memory stays bounded on a larger capture.
usage: parallel.py V2XCAP GENCAP VECTORS_DIR CAPTURES_DIR captures|generated|stats|memory"""
import difflib
import glob
import os
import resource
import struct
import subprocess
import sys
import tempfile

v2xcap, gencap, vectors, captures, what = sys.argv[1:6]
if 'decoder: edition' not in subprocess.run([v2xcap, '--version'], capture_output=True,
                                             text=True).stdout:
    print('SKIP: built without a J2735 schema (nothing to decode in parallel)')
    sys.exit(77)
failures = 0


def run(args, merged=False):
    """Exit code, stdout, stderr; merged: stderr into stdout (their interleaving)."""
    p = subprocess.run([v2xcap, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT if merged else subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr


def same(label, cmd, jobs_opt, threads=(2, 3, 5), merged=False):
    """cmd with jobs_opt + '1' vs each of threads."""
    global failures
    ref = run(cmd(jobs_opt + ['1']), merged)
    for n in threads:
        got = run(cmd(jobs_opt + [str(n)]), merged)
        if got != ref:
            failures += 1
            print(f'FAIL {label} -j {n}: exit {got[0]} vs {ref[0]}, stdout '
                  f'{len(got[1])} vs {len(ref[1])} octets, '
                  f'same={got[1] == ref[1]}, stderr same={got[2] == ref[2]}')
            for out in (1, 2) if not merged else (1,):  # what differs, a few lines
                diff = difflib.unified_diff(ref[out].decode(errors='replace').splitlines(),
                                            got[out].decode(errors='replace').splitlines(),
                                            f'-j 1 {("stdout", "stderr")[out - 1]}',
                                            f'-j {n}', lineterm='', n=0)
                print('\n'.join(list(diff)[:12]))
    return ref


def gen(path, frames, mix):
    subprocess.run([gencap, '--frames', str(frames), '--mix', mix, '--vectors', vectors,
                    path], check=True, capture_output=True)


def cut_frames(path, every):
    """Cuts every `every`th record of a pcap to half its captured length (the original
    length kept: truncated layers, "captured X of Y" in the messages) and garbles the last
    octets of every (every + 4)th (messages that do not decode, marked in their line)."""
    with open(path, 'rb') as f:
        data = f.read()
    out, pos, n = [data[:24]], 24, 0
    while pos + 16 <= len(data):
        sec, usec, incl, orig = struct.unpack_from('<IIII', data, pos)
        frame = data[pos + 16:pos + 16 + incl]
        if n % every == every - 1:
            frame = frame[:incl // 2]
        elif n % (every + 4) == every + 3:
            frame = frame[:-12] + b'\xff' * 12
        out.append(struct.pack('<IIII', sec, usec, len(frame), orig) + frame)
        pos += 16 + incl
        n += 1
    with open(path, 'wb') as f:
        f.write(b''.join(out))


files = sorted(glob.glob(os.path.join(captures, '*.pcap*')) +
               glob.glob(os.path.join(captures, 'bad', '*.pcap*')))
if what == 'captures':
    for f in files:
        same(os.path.basename(f), lambda j, f=f: ['decode', *j, f], ['-j'])
    # all of them as one timeline, with the read errors and malformed frames between lines
    rc, out, err = same('all captures', lambda j: ['decode', *j, *files], ['-j'])
    assert rc == 1 and err.count(b'\n') >= 4, (rc, err)
    lines, errors = out.count(b'\n'), err.count(b'\n')
    print(f'{len(files) + 1} inputs: -j 2, 3, 5 = -j 1 ({lines} lines, {errors} errors)')
    # malformed frames over many batches: the first of each file shown between the lines,
    # the per-file totals at the end, --strict's exit code
    with tempfile.TemporaryDirectory() as tmp:
        caps = [os.path.join(tmp, f'cut{k}.pcap') for k in (1, 2)]
        for k, cap in enumerate(caps):
            gen(cap, 3000, ('bsm', 'intersection')[k])
            cut_frames(cap, every=37 + k)
        for strict in ([], ['--strict']):
            rc, out, err = same(f'cut frames {strict}',
                                lambda j: ['decode', *strict, *j, *caps, *files], ['-j'])
            assert rc == 1 and b'malformed frames (the first 10 shown)' in err, (rc, err)
            assert b'malformed J2735' in err and b'"error"' in out, err
            rc, _, _ = same(f'cut frames {strict}, stdout and stderr interleaved',
                            lambda j: ['decode', *strict, *j, *caps], ['-j'], merged=True)
            assert rc == (1 if strict else 0), (strict, rc)
            same(f'stats cut frames {strict}',
                 lambda j: ['stats', '--decode', *strict, *j, *caps], ['-j'])
        print(f'cut frames: -j 2, 3, 5 = -j 1, with and without --strict '
              f'({err.count(b"malformed")} malformed messages)')
elif what == 'generated':
    with tempfile.TemporaryDirectory() as tmp:
        for mix in ('bsm', 'intersection'):
            cap = os.path.join(tmp, mix + '.pcap')
            gen(cap, 60000, mix)
            rc, out, _ = same(mix, lambda j: ['decode', *j, cap], ['-j'], threads=(2, 4))
            lines = out.count(b'\n')
            assert rc == 0 and lines == 60000, (rc, lines)
            print(f'{mix}: 60000 messages, -j 2, 4 = -j 1 ({len(out)} octets)')
elif what == 'stats':
    for opts in (['--format', 'json'], ['--format', 'csv', '--by', 'bsm'],
                 ['--interval', '1s', '--format', 'json'], []):
        same(' '.join(opts), lambda j: ['stats', '--decode', *opts, *j, *files], ['-j'])
    with tempfile.TemporaryDirectory() as tmp:
        cap = os.path.join(tmp, 'mixed.pcap')
        gen(cap, 30000, 'intersection')
        same('generated', lambda j: ['stats', '--decode', '--format', 'json', *j, cap],
             ['-j'])
    print('stats --decode -j N = -j 1 for json, csv, bsm, interval, table')
elif what == 'memory':
    # Peak RSS with 4 threads on a capture and on one 4 times as large: a fixed number
    # of batches in flight, so the larger one must not need much more.
    def peak(cap):
        p = subprocess.run(['/usr/bin/time', '-f', '%M', v2xcap, 'decode', '-j', '4', cap],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           check=True)
        return int(p.stderr.strip().splitlines()[-1])
    if not os.access('/usr/bin/time', os.X_OK):
        print('SKIP: no /usr/bin/time')
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        small, large = os.path.join(tmp, 's.pcap'), os.path.join(tmp, 'l.pcap')
        gen(small, 40000, 'intersection')
        gen(large, 160000, 'intersection')
        a, b = peak(small), peak(large)
        print(f'peak RSS -j 4: {a} KB for 40000 frames, {b} KB for 160000')
        if b > a * 1.3 + 4096:
            failures += 1
            print('FAIL: memory grows with the input')
sys.exit(1 if failures else 0)
