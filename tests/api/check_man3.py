#!/usr/bin/env python3
"""libv2x's man(3) pages (docs/man3.py): every function lib/libv2x.map exports has one,
and no other function; each has a DESCRIPTION with text, and man -l renders it naming
the function, without a warning (groff's, all kinds: -ww); groff when man is missing.
SKIP (77) without either.
  check_man3.py lib/libv2x.map BUILD/docs/man3"""
import os
import re
import shutil
import subprocess
import sys


def render_command(page):
    if shutil.which("man"):
        return ["man", "--warnings=w", "-l", page]
    return ["groff", "-man", "-Tutf8", "-ww", page]


def main():
    map_path, man3 = sys.argv[1:3]
    if not shutil.which("man") and not shutil.which("groff"):
        print("SKIP: neither man nor groff (Debian: apt-get install man-db)")
        sys.exit(77)
    with open(map_path) as f:
        names = re.findall(r"^\s*(v2x_\w+);", f.read(), re.M)
    pages = sorted(p[:-2] for p in os.listdir(man3) if p.endswith(".3"))
    failed = []
    if pages != sorted(names):
        failed.append(f"pages {pages}\n  are not the exports {sorted(names)}")
    env = {**os.environ, "MANWIDTH": "80", "LC_ALL": "C.UTF-8"}
    for name in names:
        page = os.path.join(man3, name + ".3")
        if not os.path.exists(page):
            continue
        with open(page) as f:
            text = f.read()
        m = re.search(r"^\.SH DESCRIPTION\n(.*?)(^\.SH |\Z)", text, re.S | re.M)
        if not m or not re.search(r"^[^.\n].*\w", m[1], re.M):
            failed.append(f"{name}: no DESCRIPTION text")
        r = subprocess.run(render_command(page), capture_output=True, text=True, env=env)
        if r.returncode != 0 or r.stderr or name not in r.stdout:
            failed.append(f"{name}: rendering: exit {r.returncode}, {r.stderr.strip()!r}")
    for f in failed:
        print(f)
    if failed:
        sys.exit(1)
    print(f"{len(names)} pages, one per export, each with a description, rendered cleanly "
          f"by {render_command('')[0]}")


main()
