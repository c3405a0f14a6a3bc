#!/bin/sh
# libv2x as an application's build meets it: installed into a temporary prefix (the
# libv2x and libv2x-dev components), pkg-config finds it, the examples build out of tree
# against the shared library and against libv2x.a (which carries the J2735 decoder) with
# the project's warnings as errors; count_types prints the message counts `v2xcap stats`
# gives, capture_json the lines `v2xcap decode` writes; the Python module, installed
# where Debian's python3 looks, reads as many messages over the installed libv2x.so.0.
#   installed.sh BUILD_DIR SOURCE_DIR V2XCAP VERSION CAPTURE...
set -eu
build=$1 src=$2 v2xcap=$3 version=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for c in libv2x libv2x-dev python3-v2x; do
	cmake --install "$build" --prefix "$tmp/usr" --component $c >"$tmp/install.log" ||
		fail "cmake --install --component $c: $(cat "$tmp/install.log")"
done
pc=$(find "$tmp/usr" -name v2x.pc)
[ -n "$pc" ] || fail "no v2x.pc installed"
export PKG_CONFIG_PATH=${pc%/v2x.pc}
[ "$(pkg-config --modversion v2x)" = "$version" ] ||
	fail "pkg-config --modversion v2x: $(pkg-config --modversion v2x), expected $version"
libdir=$(pkg-config --variable=libdir v2x)
[ -e "$libdir/libv2x.so.0" ] && [ -e "$libdir/libv2x.a" ] ||
	fail "libv2x.so.0 or libv2x.a not in $libdir"
for h in v2x.h base.h frame.h capture.h j2735.h ocb.h priority.h stats.h tx.h; do
	[ -f "$(pkg-config --variable=includedir v2x)/v2x/$h" ] || fail "<v2x/$h> not installed"
done

cflags="-std=c11 -Wall -Wextra -Werror -pedantic"
incdir=$(pkg-config --variable=includedir v2x)
for example in count_types capture_json live_bsm bsm_beacon; do
	src_c=$src/examples/$example.c
	[ -n "$(find "$tmp/usr" -name "$example.c")" ] || fail "$example.c not installed"
	# shellcheck disable=SC2046,SC2086 # pkg-config's words are meant to split
	cc $cflags $(pkg-config --cflags v2x) "$src_c" $(pkg-config --libs v2x) \
		-o "$tmp/$example.shared" || fail "$example.c does not build against libv2x.so"
	readelf -d "$tmp/$example.shared" | grep -q 'NEEDED.*libv2x\.so\.0' ||
		fail "$example: no NEEDED libv2x.so.0"
	# libv2x.a (the J2735 decoder inside it), its dependencies (Requires.private) shared
	# shellcheck disable=SC2046,SC2086
	cc $cflags -I"$incdir" "$src_c" "$libdir/libv2x.a" \
		$(pkg-config --libs $(pkg-config --print-requires-private v2x)) \
		-lm -pthread -o "$tmp/$example.static" ||
		fail "$example.c does not build against libv2x.a"
	readelf -d "$tmp/$example.static" | grep -q 'libv2x' && fail "$example static: linked to libv2x.so"
done

"$v2xcap" stats --format json "$@" | python3 -c '
import json, sys
for t in sorted(json.load(sys.stdin)["by_type"], key=lambda t: t["value"]):
    print(t["key"], t["frames"])' >"$tmp/want"
for kind in shared static; do
	LD_LIBRARY_PATH=$libdir "$tmp/count_types.$kind" "$@" >"$tmp/got" || fail "$kind: exit $?"
	diff -u "$tmp/want" "$tmp/got" || fail "count_types $kind: counts differ from v2xcap stats'"
	for cap in "$@"; do
		"$v2xcap" decode -j 1 "$cap" >"$tmp/want.json" 2>/dev/null || true
		LD_LIBRARY_PATH=$libdir "$tmp/capture_json.$kind" "$cap" >"$tmp/got.json" 2>/dev/null ||
			fail "capture_json $kind $cap: exit $?"
		cmp -s "$tmp/want.json" "$tmp/got.json" ||
			fail "capture_json $kind $cap: its lines differ from v2xcap decode's"
	done
done
# The Python module where Debian's python3 looks, over the installed libv2x.so.0
py=$tmp/usr/lib/python3/dist-packages
[ -f "$py/v2x/__init__.py" ] || fail "the Python module is not in lib/python3/dist-packages"
n=$(cd / && LD_LIBRARY_PATH=$libdir PYTHONPATH=$py python3 -c '
import sys, v2x
print(sum(1 for _ in v2x.read(sys.argv[1])))' "$1") || fail "python3 -c 'import v2x': exit $?"
want=$("$v2xcap" decode -j 1 "$1" 2>/dev/null | wc -l)
[ "$n" = "$want" ] || fail "v2x.read($1): $n messages, v2xcap decode: $want"
echo "installed in a temporary prefix; pkg-config v2x $version; count_types and capture_json" \
	"built against libv2x.so.0 and libv2x.a; capture_json writes v2xcap decode's lines" \
	"($(cat "$@" | wc -c) octets of captures); count_types prints what v2xcap stats counts:"
cat "$tmp/want"
