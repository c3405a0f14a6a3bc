#!/usr/bin/python3
"""decode --partition hour -o DIR, read back with DuckDB (npm @duckdb/node-api, installed
under the build tree): messages per type and hour equal `v2xcap stats --interval 60m`,
a few decoded values equal `v2xcap decode`'s, the manifest counts the files' records.
usage: partition.py V2XCAP GENCAP VECTORS_DIR NODE_MODULES_PARENT CAPTURE..."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

v2xcap, gencap, vectors, node_dir, *captures = sys.argv[1:]
here = os.path.dirname(os.path.abspath(__file__))
if 'decoder: edition' not in subprocess.run([v2xcap, '--version'], capture_output=True,
                                             text=True).stdout:
    print('SKIP: built without a J2735 schema')
    sys.exit(77)
if not shutil.which('node') or not shutil.which('npm'):
    print('SKIP: no Node.js/npm for DuckDB (@duckdb/node-api)')
    sys.exit(77)
if not os.path.isdir(os.path.join(node_dir, 'node_modules', '@duckdb', 'node-api')):
    os.makedirs(node_dir, exist_ok=True)
    p = subprocess.run(['npm', 'install', '--no-save', '--no-audit', '--no-fund',
                        '@duckdb/node-api'], cwd=node_dir, capture_output=True, text=True)
    if p.returncode != 0:
        print('SKIP: npm could not install @duckdb/node-api:', p.stderr.strip()[-300:])
        sys.exit(77)
failures = 0


def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print('FAIL', what)


def duck(dir_, sql):
    q = os.path.join(node_dir, 'duckdb_query.mjs')  # beside its node_modules
    shutil.copy(os.path.join(here, 'duckdb_query.mjs'), q)
    p = subprocess.run(['node', q, dir_, sql], capture_output=True, text=True, check=True)
    return json.loads(p.stdout)


with tempfile.TemporaryDirectory() as tmp:
    # a BSM capture of ~2.2 hours (one sender: 12.5 frames/s), beside the real ones
    gen = os.path.join(tmp, 'hours.pcap')
    subprocess.run([gencap, '--frames', '100000', '--senders', '1', '--vectors', vectors,
                    gen], check=True, capture_output=True)
    inputs = [*captures, gen]
    out = os.path.join(tmp, 'out')
    p = subprocess.run([v2xcap, 'decode', '--partition', 'hour', '-o', out, *inputs],
                       capture_output=True, text=True)
    check(p.returncode == 0, f'decode --partition: exit {p.returncode} {p.stderr}')
    check(not glob.glob(out + '/**/*.tmp', recursive=True), 'a .tmp file was left')

    # per type and hour: DuckDB on the partitions == stats' hourly series
    rows = duck(out, "SELECT type, strftime(date, '%Y-%m-%d') AS d, hour, count(*) AS n "
                     "FROM v2x GROUP BY ALL")
    got = {(r['type'], r['d'], int(r['hour'])): int(r['n']) for r in rows}
    series = json.loads(subprocess.run([v2xcap, 'stats', '--interval', '60m', '--format',
                                        'json', *inputs], capture_output=True, text=True,
                                       check=True).stdout)['series']
    want = {}
    import datetime
    for iv in series:
        t = datetime.datetime.fromtimestamp(iv['start'], datetime.timezone.utc)
        for typ, n in iv['by_type'].items():
            if n and typ not in ('-', 'no-J2735'):
                want[(typ, t.strftime('%Y-%m-%d'), t.hour)] = n
    check(got == want, f'per type and hour: DuckDB {got} vs stats {want}')
    hours = {h for (_, _, h) in got}
    check(len(hours) >= 3, f'the generated capture spans 3 hours: {sorted(hours)}')

    # decoded values: DuckDB reads the same as decode prints
    lines = [json.loads(l) for l in subprocess.run(
        [v2xcap, 'decode', '-j', '1', *inputs], capture_output=True, text=True).stdout.splitlines()]
    probes = [l for l in lines if l['j2735'].get('name') in ('BSM', 'SPAT', 'MAP')][::997][:8]
    for l in probes:
        v = l['j2735']['value']
        if l['j2735']['name'] == 'BSM':
            path, want_v = '$.value.coreData.speed', v['coreData']['speed']
        else:
            path, want_v = '$.value.intersections[0].id.id', v['intersections'][0]['id']['id']
        r = duck(out, f"SELECT CAST(json_extract(j2735, '{path}') AS BIGINT) AS x FROM v2x "
                      f"WHERE file = '{l['file']}' AND frame = {l['frame']}")
        check(len(r) == 1 and int(r[0]['x']) == want_v,
              f"{l['file']} frame {l['frame']} {path}: {r} vs {want_v}")

    # the manifest: every input, records per partition file summing to decode's lines
    man = [json.load(open(m)) for m in glob.glob(out + '/_manifests/*.json')]
    check(len(man) == 1, f'{len(man)} manifests')
    if man:
        m = man[0]
        check(m['inputs'] == inputs, 'manifest inputs')
        check(m['records'] == len(lines) == sum(got.values()),
              f"manifest {m['records']} records, decode {len(lines)}, DuckDB {sum(got.values())}")
        check(all(os.path.exists(os.path.join(out, p['path'])) for p in m['partitions']),
              'manifest paths exist')
    print(f'{len(lines)} messages, {len(got)} type/hour partitions, {len(probes)} values '
          f'checked; DuckDB = stats = decode')
sys.exit(1 if failures else 0)
