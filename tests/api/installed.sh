#!/bin/sh
# libv2x as an application's build meets it: installed into a temporary prefix (the
# libv2x and libv2x-dev components), pkg-config finds it, examples/count_types.c builds
# out of tree against the shared library and against libv2x.a with the project's
# warnings as errors, and both print the message counts `v2xcap stats` gives.
#   installed.sh BUILD_DIR SOURCE_DIR V2XCAP VERSION CAPTURE...
set -eu
build=$1 src=$2 v2xcap=$3 version=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for c in libv2x libv2x-dev; do
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
for h in v2x.h base.h frame.h capture.h; do
	[ -f "$(pkg-config --variable=includedir v2x)/v2x/$h" ] || fail "<v2x/$h> not installed"
done

cflags="-std=c11 -Wall -Wextra -Werror -pedantic"
example=$src/examples/count_types.c
# shellcheck disable=SC2046,SC2086 # pkg-config's words are meant to split
cc $cflags $(pkg-config --cflags v2x) "$example" $(pkg-config --libs v2x) -o "$tmp/shared" ||
	fail "count_types.c does not build against the installed libv2x.so"
readelf -d "$tmp/shared" | grep -q 'NEEDED.*libv2x\.so\.0' || fail "shared: no NEEDED libv2x.so.0"
# libv2x.a, its dependencies (Requires.private) shared
# shellcheck disable=SC2046,SC2086
cc $cflags $(pkg-config --cflags v2x) "$example" "$libdir/libv2x.a" \
	$(pkg-config --libs zlib libpcap) -o "$tmp/static" ||
	fail "count_types.c does not build against the installed libv2x.a"
readelf -d "$tmp/static" | grep -q 'libv2x' && fail "static: linked to libv2x.so"

"$v2xcap" stats --format json "$@" | python3 -c '
import json, sys
for t in sorted(json.load(sys.stdin)["by_type"], key=lambda t: t["value"]):
    print(t["key"], t["frames"])' >"$tmp/want"
for kind in shared static; do
	LD_LIBRARY_PATH=$libdir "$tmp/$kind" "$@" >"$tmp/got" || fail "$kind: exit $?"
	diff -u "$tmp/want" "$tmp/got" || fail "$kind: counts differ from v2xcap stats'"
done
echo "installed in a temporary prefix; pkg-config v2x $version; count_types built against" \
	"libv2x.so.0 and libv2x.a prints what v2xcap stats counts:"
cat "$tmp/want"
