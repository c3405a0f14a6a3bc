#!/bin/sh
# libv2x.so exports exactly the API: its dynamic symbols (nm -D --defined-only), the
# version script's globals and the functions the public headers declare V2X_API are one
# list; the SONAME is libv2x.so.<SOVERSION>.
#   exports.sh LIBV2X_SO VERSION_SCRIPT INCLUDE_DIR SOVERSION
set -eu
so=$1 map=$2 inc=$3 soversion=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ { sub(/@.*/, "", $3); print $3 }' | sort >"$tmp/exported"
sed -n '/global:/,/local:/p' "$map" | grep -E '^[[:space:]]+v2x_[a-z0-9_]+;' |
	tr -d ' \t;' | sort >"$tmp/map"
# a declaration starts its line with V2X_API, its name and '(' on that line
grep -hE '^V2X_API ' "$inc"/v2x/*.h | sed -E 's/\(.*//; s/.*[ *]//' | sort >"$tmp/headers"

rc=0
for pair in "exported map" "map headers"; do
	set -- $pair
	if ! diff -u "$tmp/$1" "$tmp/$2" >"$tmp/diff"; then
		echo "FAIL: the $1 and $2 lists differ:"
		cat "$tmp/diff"
		rc=1
	fi
done
soname=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if [ "$soname" != "libv2x.so.$soversion" ]; then
	echo "FAIL: SONAME '$soname', expected libv2x.so.$soversion"
	rc=1
fi
[ $rc = 0 ] && echo "libv2x.so exports $(wc -l <"$tmp/exported") functions, all of the API and only them; SONAME $soname"
exit $rc
