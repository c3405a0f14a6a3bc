"""The module's version is the project's: project(... VERSION ...) of the top
CMakeLists.txt, which also versions libv2x. The extension v2x._v2x is built against the
installed libv2x (libv2x-dev: <v2x/v2x.h>, -lv2x), or the headers and library that
V2X_INCLUDE_DIR and V2X_LIBRARY_DIR name (a build tree, as tests/api/test_pip.py does)."""
import os
import pathlib
import re

from setuptools import Extension, setup

top = pathlib.Path(__file__).resolve().parent.parent / "CMakeLists.txt"
given = {k: [os.environ[v]] if os.environ.get(v) else []
         for k, v in (("include_dirs", "V2X_INCLUDE_DIR"), ("library_dirs", "V2X_LIBRARY_DIR"))}
setup(version=re.search(r"project\(\S+ VERSION (\S+)", top.read_text())[1],
      ext_modules=[Extension("v2x._v2x", ["v2x/_v2x.c"], libraries=["v2x"], **given)])
