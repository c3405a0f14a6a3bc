#!/bin/sh
# libv2x.so's ABI against the committed baseline (abi/libv2x.abi, written by abidw from
# the public headers' view): abidiff (abigail-tools) must find no change but added
# functions. A changed function or type fails, even one the API's rules allow (a member
# added at the end of a struct with a size field): such a change is made on purpose, and
# the commit that makes it writes the baseline anew (the command this prints), so that it
# is reviewed. A change that breaks callers needs a new SONAME (lib/CMakeLists.txt
# V2X_SOVERSION); the baseline is then the old library's and is written anew too.
#   abi.sh LIBV2X_SO BASELINE INCLUDE_DIR
set -eu
so=$1 baseline=$2 inc=$3
if ! command -v abidiff >/dev/null 2>&1; then
	echo "SKIP: abidiff not found (Debian: apt-get install abigail-tools)"
	exit 77
fi
renew="abidw --headers-dir $inc/v2x --no-corpus-path --out-file $baseline $so"
old=$(sed -n "1s/.*soname='\([^']*\)'.*/\1/p" "$baseline")
new=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if [ "$old" != "$new" ]; then
	echo "SONAME moved from $old to $new: the baseline is the old library's; write the new one:"
	echo "  $renew"
	exit 0
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
abidiff --no-added-syms --headers-dir2 "$inc/v2x" "$baseline" "$so" >"$out" 2>&1 || rc=$?
cat "$out"
# abidiff's status bits: 1 error, 2 usage, 4 ABI change, 8 incompatible change
if [ "$rc" != 0 ]; then
	echo "FAIL: abidiff exit $rc: libv2x.so ($new) differs from $baseline."
	echo "On purpose and compatible (docs/api.md, 'The promise'): write the baseline anew:"
	echo "  $renew"
	exit 1
fi
echo "libv2x.so ($new): the ABI of $baseline (functions added since: not counted)"
