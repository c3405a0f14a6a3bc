#!/usr/bin/python3
"""The J2735 plugin's display-filter names across schema editions.

j2735_fields.py dump RUN_TSHARK PLUGIN_SO EDITION OUT
    writes OUT: every j2735 field of the plugin (`tshark -G fields`, tshark run unprivileged
    by tests/run-tshark with this plugin only) as "name<TAB>type" lines, sorted, after a
    "# edition E" line. Each build does it after linking the plugin
    (<build>/plugins/j2735-fields.txt).
j2735_fields.py compare DOC LIST...
    for every two lists of different editions, every name of the older one must be in the
    newer one or be listed in DOC (plugins/epan/j2735/FILTER-NAMES.md, `| `name` | edition
    | reason |` rows) as explained by a schema change. Fewer than two editions: exit 77.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


def dump(run_tshark, plugin_so, edition, out):
    if not shutil.which('tshark'):
        print('j2735_fields: tshark not installed, %s not written' % out)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        # only this plugin: the build may still be writing the others
        ver = os.path.basename(os.path.dirname(os.path.dirname(plugin_so)))
        epan = os.path.join(tmp, ver, 'epan')
        os.makedirs(epan)
        shutil.copy(plugin_so, epan)
        p = subprocess.run([run_tshark, tmp, '-G', 'fields'], capture_output=True, text=True)
    if p.returncode != 0:
        print('j2735_fields: tshark -G fields failed (%d): %s' % (p.returncode, p.stderr))
        return 1
    rows = sorted({(c[2], c[3]) for c in (l.split('\t') for l in p.stdout.splitlines())
                   if len(c) > 3 and c[0] == 'F' and c[2].startswith('j2735.')})
    with open(out + '.tmp', 'w') as f:
        f.write('# edition %s\n' % (edition or 'none'))
        f.writelines('%s\t%s\n' % r for r in rows)
    os.replace(out + '.tmp', out)
    print('j2735_fields: %d j2735 fields listed in %s' % (len(rows), out))
    return 0


def read_list(path):
    """(edition, {name})."""
    edition, names = 'none', set()
    for line in open(path):
        if line.startswith('# edition '):
            edition = line.split()[2]
        elif line.strip() and not line.startswith('#'):
            names.add(line.split('\t')[0])
    return edition, names


def explained(doc):
    """{name: reason} from the `| `name` | editions | reason |` rows of the doc."""
    out = {}
    for line in open(doc):
        m = re.match(r'\|\s*`(j2735\.[^`]+)`\s*\|[^|]*\|\s*(.*?)\s*\|\s*$', line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def compare(doc, paths):
    lists = {}
    for path in paths:
        if not os.path.exists(path):
            print('FAIL: field list %s missing (a build writes <build>/plugins/j2735-fields.txt '
                  'after linking j2735.so)' % path)
            return 1
        edition, names = read_list(path)
        if edition.isdigit():
            lists[edition] = (path, names)
    if len(lists) < 2:
        print('SKIP: field lists of fewer than two editions (%s); give the other editions\' '
              'lists with -DV2X_FIELDS_2016=... -DV2X_FIELDS_2020=...' % ', '.join(lists))
        return SKIP
    why = explained(doc)
    bad = 0
    editions = sorted(lists)
    for i, old in enumerate(editions):
        for new in editions[i + 1:]:
            missing = sorted(lists[old][1] - lists[new][1])
            unexplained = [n for n in missing if n not in why]
            print('%s: %d names, %d not in %s: %d explained in %s'
                  % (old, len(lists[old][1]), len(missing), new,
                     len(missing) - len(unexplained), os.path.basename(doc)))
            for n in missing:
                print('  %s %s' % (n, ('(%s)' % why[n]) if n in why else 'UNEXPLAINED'))
            bad += len(unexplained)
    if bad:
        print('FAIL: %d filter name(s) lost without a schema change explaining it' % bad)
        return 1
    return 0


def main():
    if len(sys.argv) == 6 and sys.argv[1] == 'dump':
        return dump(*sys.argv[2:])
    if len(sys.argv) >= 3 and sys.argv[1] == 'compare':
        return compare(sys.argv[2], sys.argv[3:])
    print(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main())
