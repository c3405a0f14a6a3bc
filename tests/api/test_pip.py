"""`pip install --no-build-isolation ./python` (Debian's pip and setuptools, nothing
downloaded) installs a module that imports and runs over this build's libv2x.so, as the
project's version (the top CMakeLists.txt's), with its extension v2x._v2x built against
the headers and library V2X_INCLUDE_DIR and V2X_LIBRARY_DIR name. SKIP without pip or
setuptools.
  V2X_LIBRARY=libv2x.so V2X_SOURCE_DIR=. V2X_VERSION=0.1.0 V2X_INCLUDE_DIR=lib/include \
  V2X_LIBRARY_DIR=build/lib pytest.sh test_pip.py"""
import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

SOURCE, VERSION = os.environ["V2X_SOURCE_DIR"], os.environ["V2X_VERSION"]


def test_installs_and_imports(tmp_path):
    for m in ("pip", "setuptools"):
        if not importlib.util.find_spec(m):
            pytest.skip(f"no {m} for {sys.executable} (Debian: apt-get install python3-{m})")
    # A copy of the tree's parts pip reads, so that its build leaves the source as it was.
    src = tmp_path / "src"
    shutil.copytree(os.path.join(SOURCE, "python"), src / "python",
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    shutil.copy(os.path.join(SOURCE, "CMakeLists.txt"), src)
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation",
                    "--no-cache-dir", "--disable-pip-version-check", "--target", str(site),
                    "./python"], cwd=src, check=True)
    assert (site / f"v2x-{VERSION}.dist-info").is_dir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", "import v2x; print(v2x.version(), v2x.__file__, "
                          "v2x._v2x.__file__)"],
                         env={**env, "PYTHONPATH": str(site)}, cwd=tmp_path, check=True,
                         capture_output=True, text=True).stdout.split()
    assert out[:3] == ["libv2x", VERSION, str(site / "v2x" / "__init__.py")]
    assert out[3].startswith(str(site / "v2x" / "_v2x.")) and out[3].endswith(".so")
