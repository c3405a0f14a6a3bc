#!/usr/bin/python3
"""A schema asn1c rejects does not break the build: a copy of a J2735 schema (any edition)
with a syntax error inserted in BasicSafetyMessage, configured in a build of its own, must
configure (exit 0), say once which file and line asn1c rejected, build v2xcap, and that
v2xcap reports "no schema".

usage: broken_schema.py SOURCE_DIR SCHEMA_DIR WORK_DIR CAPTURE
Exit 0 pass, 1 fail, 77 skip (no schema or no asn1c).
"""
import os
import re
import shutil
import subprocess
import sys


def main(src, schema_dir, work, capture):
    if not os.path.isdir(schema_dir) or not shutil.which("asn1c"):
        print("SKIP: no J2735 schema (J2735_ASN1_DIR=%r) or no asn1c" % schema_dir)
        return 77
    shutil.rmtree(work, ignore_errors=True)
    broken = os.path.join(work, "schema")
    shutil.copytree(schema_dir, broken, copy_function=shutil.copyfile)  # writable copies
    bsm = re.compile(rb"\s*BasicSafetyMessage\s*::=")
    for name in sorted(os.listdir(broken)):
        path = os.path.join(broken, name)
        if name.lower().endswith((".asn", ".asn1")):
            lines = open(path, "rb").read().split(b"\n")
            at = next((i for i, l in enumerate(lines) if bsm.match(l)), None)
            if at is not None:
                break
    else:
        print("FAIL: no BasicSafetyMessage ::= in %s" % schema_dir)
        return 1
    lines.insert(at + 2, b"   coreData BSMcoreData ) ( ,")  # the broken line: at + 3
    open(path, "wb").write(b"\n".join(lines))

    build = os.path.join(work, "build")
    cfg = subprocess.run(["cmake", "-S", src, "-B", build, "-DJ2735_ASN1_DIR=" + broken,
                          "-DV2X_PLUGINS=OFF"], capture_output=True, text=True)
    out = cfg.stdout + cfg.stderr
    where = "%s:%d" % (path, at + 3)
    failed = []
    if cfg.returncode != 0:
        failed.append("configure exit %d" % cfg.returncode)
    flat = " ".join(out.split())
    if flat.count("asn1c") == 0 or flat.count(where) != 1:
        failed.append("the message naming %s once" % where)
    if flat.count("v2xcap is built without full J2735 decoding") != 1:
        failed.append("one note saying what is built and what to do")
    bld = subprocess.run(["cmake", "--build", build, "-j2", "--target", "v2xcap"],
                         capture_output=True, text=True)
    v2xcap = os.path.join(build, "analyzer", "v2xcap")
    if bld.returncode != 0 or not os.access(v2xcap, os.X_OK):
        failed.append("v2xcap built (%s)" % bld.stdout[-2000:])
    else:
        version = subprocess.run([v2xcap, "--version"], capture_output=True, text=True).stdout
        dec = subprocess.run([v2xcap, "decode", capture], capture_output=True, text=True)
        if "decoder: none" not in version:
            failed.append("--version says no decoder: %r" % version)
        if dec.returncode != 0 or "built without a J2735 schema" not in dec.stderr \
                or '"messageId"' not in dec.stdout:
            failed.append("decode: ids only and the no-schema note (%d, %r)" %
                          (dec.returncode, dec.stderr))
    print(out)
    for f in failed:
        print("FAIL:", f)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
