#!/bin/sh
# Runs pytest over a test file of the Python module (python/v2x): pytest.sh FILE [ARGS].
# SKIP (77), saying why, where it cannot run; conftest.py makes a file whose every test
# skipped a SKIP too. Debian's pytest-3 runs the python3 python3-v2x is installed for.
if [ -n "${V2X_SANITIZE:-}" ]; then
	# python3 loads no ASan/UBSan-instrumented library without their runtimes preloaded
	echo "SKIP: libv2x.so of a sanitizer build (V2X_SANITIZE); the plain build runs this"
	exit 77
fi
pytest=$(command -v pytest-3 || command -v pytest) || {
	echo "SKIP: pytest is not installed (Debian: apt-get install python3-pytest)"
	exit 77
}
# Nothing written into the source tree: no bytecode, no .pytest_cache.
PYTHONDONTWRITEBYTECODE=1 exec "$pytest" -p no:cacheprovider -v -rs "$@"
