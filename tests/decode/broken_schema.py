#!/usr/bin/python3
"""A schema the generators reject does not break the build: a copy of the build's J2735
schema (any edition) with a syntax error inserted in BasicSafetyMessage, configured with the
plugins in a build of its own, must configure (exit 0); each generator (asn1c for v2xcap,
asn2wrs for the plugin) says once which file and line it rejected; v2xcap is built and its
`decode` says it has no schema; wsmp.so and the header-only j2735.so are built, and tshark
with that j2735.so describes it as header-only.

usage: broken_schema.py SOURCE_DIR SCHEMA_DIR WORK_DIR CAPTURE RUN_TSHARK
Exit 0 pass, 1 fail, 77 skip (no schema, asn1c, Wireshark's dev files or tshark).
"""
import glob
import os
import re
import shutil
import subprocess
import sys

SKIP = 77


def main(src, schema_dir, work, capture, run_tshark):
    missing = [what for what, ok in [
        ('J2735 schema (J2735_ASN1_DIR=%r)' % schema_dir, os.path.isdir(schema_dir)),
        ('asn1c', shutil.which('asn1c')), ('tshark', shutil.which('tshark'))] if not ok]
    if missing:
        print('SKIP: no %s' % ', no '.join(missing))
        return SKIP
    shutil.rmtree(work, ignore_errors=True)
    broken = os.path.join(work, 'schema')
    shutil.copytree(schema_dir, broken, copy_function=shutil.copyfile)  # writable copies
    bsm = re.compile(rb'\s*BasicSafetyMessage\s*::=')
    for name in sorted(os.listdir(broken)):
        path = os.path.join(broken, name)
        if name.lower().endswith(('.asn', '.asn1')):
            lines = open(path, 'rb').read().split(b'\n')
            at = next((i for i, l in enumerate(lines) if bsm.match(l)), None)
            if at is not None:
                break
    else:
        print('FAIL: no BasicSafetyMessage ::= in %s' % schema_dir)
        return 1
    lines.insert(at + 2, b'   coreData BSMcoreData ) ( ,')  # the broken line: at + 3
    open(path, 'wb').write(b'\n'.join(lines))

    build = os.path.join(work, 'build')
    cfg = subprocess.run(['cmake', '-S', src, '-B', build, '-DJ2735_ASN1_DIR=' + broken,
                          '-DV2X_PLUGINS=ON'], capture_output=True, text=True, timeout=600)
    out = cfg.stdout + cfg.stderr
    print(out)
    cache = open(os.path.join(build, 'CMakeCache.txt')).read() \
        if os.path.exists(os.path.join(build, 'CMakeCache.txt')) else ''
    if cfg.returncode == 0 and 'J2735_ASN2WRS_OK' not in cache:
        print('SKIP: the plugins are not built here (no Wireshark dev files)')
        return SKIP
    flat = ' '.join(out.split())
    where = '%s:%d' % (path, at + 3)
    failed = []
    if cfg.returncode != 0:
        failed.append('configure exit %d' % cfg.returncode)
    # asn1c's message, then asn2wrs's, each naming the user's file and line once
    if flat.count(where) != 2 or flat.count(where + ': ASN.1 grammar parse error') != 1 or \
            flat.count(where + ': asn2wrs: Unexpected token') != 1:
        failed.append('one message from each generator naming %s' % where)
    if flat.count('v2xcap is built without full J2735 decoding') != 1 or \
            flat.count('The J2735 plugin is built header-only') != 1:
        failed.append('one note from each generator saying what is built and what to do')
    if 'J2735_ASN1C_OK:INTERNAL=FALSE' not in cache or \
            'J2735_ASN2WRS_OK:INTERNAL=FALSE' not in cache:
        failed.append('J2735_ASN1C_OK and J2735_ASN2WRS_OK FALSE')

    bld = subprocess.run(['cmake', '--build', build, '-j2', '--target', 'v2xcap', 'wsmp',
                          'j2735'], capture_output=True, text=True, timeout=1200)
    if bld.returncode != 0:
        failed.append('v2xcap, wsmp.so and j2735.so built:\n%s' % bld.stdout[-3000:])
    v2xcap = os.path.join(build, 'analyzer', 'v2xcap')
    if os.access(v2xcap, os.X_OK):
        version = subprocess.run([v2xcap, '--version'], capture_output=True, text=True).stdout
        dec = subprocess.run([v2xcap, 'decode', capture], capture_output=True, text=True)
        if 'decoder: none' not in version:
            failed.append('--version says no decoder: %r' % version)
        if dec.returncode != 0 or 'built without a J2735 schema' not in dec.stderr \
                or '"messageId"' not in dec.stdout:
            failed.append('decode: ids only and the no-schema note (%d, %r)' %
                          (dec.returncode, dec.stderr))
    plugins = os.path.join(build, 'plugins')
    built = sorted(os.path.basename(p) for p in glob.glob(os.path.join(plugins, '*', 'epan',
                                                                        '*.so')))
    if built != ['j2735.so', 'wsmp.so']:
        failed.append('wsmp.so and j2735.so built: %s' % built)
    else:
        described = subprocess.run([run_tshark, plugins, '-G', 'plugins'], capture_output=True,
                                   text=True).stdout
        protocols = subprocess.run([run_tshark, plugins, '-G', 'protocols'],
                                   capture_output=True, text=True).stdout
        plugin = next((l for l in described.splitlines() if 'j2735.so' in l), '')
        # the filter name is the third column (4.4 added columns after it)
        proto = next((l for l in protocols.splitlines() if l.split('\t')[2:3] == ['j2735']), '')
        if 'header-only' not in plugin or 'message ids only' not in proto:
            failed.append('tshark describes j2735.so as header-only: %r, %r' % (plugin, proto))
        else:
            print('tshark: %s | %s' % (' '.join(plugin.split()), proto.split('\t')[0]))
    for f in failed:
        print('FAIL:', f)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(*sys.argv[1:]))
