#!/bin/sh
# Where `cmake --install --component wireshark-plugins` puts the plugins, checked against
# the folders tshark itself reports (tshark -G folders) and loads them from (-G plugins).
#
#   check_install.sh release BUILD_DIR FLAVOUR
#     installed into a DESTDIR: exactly wsmp.so and j2735.so, in <Global Plugins>/epan;
#     tshark given that folder lists both from there, j2735 with FLAVOUR (j2735-2016 ...).
#   check_install.sh personal SOURCE_DIR [CMAKE_ARG...]
#     a header-only build configured with -DV2X_PLUGIN_USER_INSTALL=ON, installed by an
#     unprivileged user: both in that user's <Personal Plugins>/epan, where the user's
#     tshark finds them with no WIRESHARK_PLUGIN_DIR.
set -eu
mode=$1
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/v2x-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
chmod 755 "$tmp"

fail() {
	echo "FAIL: $*"
	exit 1
}

# as_user HOME CMD...: CMD as an unprivileged user (nobody, when run as root: tshark as
# root loads no plugins from outside its own folders) with that HOME.
as_user() {
	user_home=$1
	shift
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			env -i PATH=/usr/bin:/bin HOME="$user_home" LC_ALL=C.UTF-8 "$@"
	else
		env -u WIRESHARK_PLUGIN_DIR HOME="$user_home" LC_ALL=C.UTF-8 "$@"
	fi
}

# folder HOME NAME: the folder tshark -G folders names NAME ("Global Plugins" ...).
folder() {
	as_user "$1" tshark -G folders | awk -F '\t' -v name="$2:" \
		'{sub(/ +$/, "", $1)} $1 == name {print $2}'
}

# check_files ROOT DIR: ROOT holds wsmp.so and j2735.so in ROOT/DIR/<release>/epan only.
check_files() {
	case $2 in
	*/plugins/[0-9]*.[0-9]*) ;;
	*) fail "plugin folder $2 does not end in plugins/<major.minor>" ;;
	esac
	got=$(cd "$1" && find . -type f | sort | tr '\n' ' ')
	want=".${2#"$1"}/epan/j2735.so .${2#"$1"}/epan/wsmp.so "
	[ "$got" = "$want" ] || fail "installed: $got; expected: $want"
	echo "installed: $got"
}

# check_listed PLUGINS_OUTPUT DIR FLAVOUR: tshark -G plugins lists wsmp.so and j2735.so
# from DIR/epan, j2735's version ending in -FLAVOUR.
check_listed() {
	printf '%s\n' "$1" | awk -F '\t' -v dir="$2/epan" -v flavour="$3" '
		{sub(/ +$/, "", $1)}
		$1 == "wsmp.so" && $4 == dir "/wsmp.so" {wsmp = 1; print}
		$1 == "j2735.so" && $4 == dir "/j2735.so" && $2 ~ ("-" flavour "$") {j2735 = 1; print}
		END {exit !(wsmp && j2735)}' ||
		fail "tshark -G plugins does not list wsmp.so and j2735.so ($3) from $2/epan:
$1"
}

case $mode in
release)
	build=$1 flavour=$2
	DESTDIR=$tmp/root cmake --install "$build" --component wireshark-plugins >/dev/null
	chmod -R a+rX "$tmp"
	global=$(folder "$tmp" "Global Plugins")
	[ -n "$global" ] || fail "tshark -G folders names no Global Plugins folder"
	check_files "$tmp/root" "$tmp/root$global"
	check_listed "$(as_user "$tmp" env WIRESHARK_PLUGIN_DIR="$tmp/root${global%/*}" \
		tshark -G plugins)" "$tmp/root$global" "$flavour"
	;;
personal)
	src=$1
	shift
	home=$tmp/home
	mkdir "$home"
	# configured by whoever runs the test, installed by the user whose HOME it names
	HOME=$home cmake -S "$src" -B "$tmp/build" -DV2X_PLUGIN_USER_INSTALL=ON \
		-DJ2735_ASN1_DIR= "$@" >/dev/null
	cmake --build "$tmp/build" -j2 --target wsmp j2735 >/dev/null
	chmod -R a+rX "$tmp"
	[ "$(id -u)" != 0 ] || chown -R 65534:65534 "$home" "$tmp/build"
	as_user "$home" cmake --install "$tmp/build" --component wireshark-plugins >/dev/null
	personal=$(folder "$home" "Personal Plugins")
	[ -n "$personal" ] || fail "tshark -G folders names no Personal Plugins folder"
	check_files "$home" "$personal"
	check_listed "$(as_user "$home" tshark -G plugins)" "$personal" header-only
	;;
*)
	fail "unknown mode $mode"
	;;
esac
