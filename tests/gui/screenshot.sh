#!/bin/sh
# Opens a capture in wireshark-qt under Xvfb as an unprivileged user with this build's
# plugins, selects a frame, expands its last top-level tree (J2735 for a J2735 frame) and
# saves a PNG of the window.
#   screenshot.sh PLUGIN_DIR CAPTURE FRAME OUT.png
# Exit 1 when Wireshark shows a dialog (a plugin that does not load is reported in one),
# writes a plugin error or a dissector bug on stderr, does not show the capture, or does not
# quit cleanly on Ctrl+Q; 77 (skip) when wireshark, tshark, Xvfb, xdotool or ImageMagick's
# import is missing.
set -eu
plugin_dir=$1
capture=$2
frame=$3
out=$4

for tool in wireshark tshark Xvfb xdotool import; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: $tool not installed (Debian: wireshark-qt tshark xvfb xdotool imagemagick)"
		exit 77
	fi
done

# Root ignores WIRESHARK_PLUGIN_DIR: root runs Wireshark as nobody, with copies of the
# plugins and the capture it can read (as tests/run-tshark does).
work=$(mktemp -d "${TMPDIR:-/tmp}/v2x-gui.XXXXXX")
xvfb_pid=
ws_pid=
cleanup() {
	[ -n "$ws_pid" ] && kill "$ws_pid" 2>/dev/null
	[ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
home=$work/home
mkdir -p "$home/.config/wireshark" "$home/run"
cp -R "$plugin_dir" "$home/plugins"
name=$(basename "$capture")
cp "$capture" "$home/$name"
# A window of known size (no window manager places it), a short packet list, no bytes pane:
# the J2735 tree gets the height.
cat >"$home/.config/wireshark/recent_common" <<EOF
gui.geometry_main_x: 0
gui.geometry_main_y: 0
gui.geometry_main_width: 1200
gui.geometry_main_height: 900
gui.geometry_main_maximized: FALSE
EOF
cat >"$home/.config/wireshark/recent" <<EOF
gui.byte_view_show: FALSE
gui.geometry_main_upper_pane: 160
EOF
chmod 700 "$home/run"
if [ "$(id -u)" = 0 ]; then
	chown -R 65534:65534 "$home"
	chmod 755 "$work"
fi
user_env() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups env -i PATH=/usr/bin:/bin "$@"
	else
		env "$@"
	fi
}

# The same user and plugin folder in tshark: both plugins must be listed, or the picture
# would silently show a Wireshark without them.
plugins=$(user_env HOME="$home" WIRESHARK_PLUGIN_DIR="$home/plugins" tshark -G plugins \
	2>"$work/tshark.err")
if [ -s "$work/tshark.err" ]; then
	echo "FAIL: tshark -G plugins reports:"
	cat "$work/tshark.err"
	exit 1
fi
for so in wsmp.so j2735.so; do
	if ! printf '%s\n' "$plugins" | grep -q "^$so"; then
		echo "FAIL: $so not loaded from $plugin_dir (tshark -G plugins):"
		printf '%s\n' "$plugins"
		exit 1
	fi
done

# Xvfb picks a free display and writes its number to fd 3.
Xvfb -displayfd 3 -screen 0 1280x920x24 -nolisten tcp -ac 3>"$work/display" \
	>"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
i=0
while [ ! -s "$work/display" ]; do
	i=$((i + 1))
	if [ "$i" -gt 100 ] || ! kill -0 "$xvfb_pid" 2>/dev/null; then
		echo "FAIL: Xvfb did not start:"
		cat "$work/xvfb.log"
		exit 1
	fi
	sleep 0.1
done
DISPLAY=:$(cat "$work/display")
export DISPLAY

user_env HOME="$home" XDG_RUNTIME_DIR="$home/run" DISPLAY="$DISPLAY" LC_ALL=C.UTF-8 \
	WIRESHARK_PLUGIN_DIR="$home/plugins" \
	wireshark -r "$home/$name" -g "$frame" >"$work/wireshark.out" 2>"$work/wireshark.err" &
ws_pid=$!

fail() {
	echo "FAIL: $*"
	import -window root "$out" 2>/dev/null && echo "screen saved in $out"
	echo "--- wireshark stderr:"
	cat "$work/wireshark.err"
	exit 1
}

# Any visible window besides the main one is a dialog: a plugin that does not load is
# reported in one, before the file is read.
no_dialog() {
	windows=$(xdotool search --onlyvisible --class wireshark 2>/dev/null || true)
	[ "$(printf '%s\n' "$windows" | grep -c .)" -gt 1 ] || return 0
	for w in $windows; do
		echo "window: \"$(xdotool getwindowname "$w")\""
	done
	fail "Wireshark shows a dialog besides its main window"
}

# The main window is named after the file once it is read.
i=0
while :; do
	window=$(xdotool search --onlyvisible --name "$name" 2>/dev/null | head -n 1)
	[ -z "$window" ] || break
	i=$((i + 1))
	kill -0 "$ws_pid" 2>/dev/null || fail "wireshark exited before showing $name"
	[ "$i" -le 120 ] || fail "no window showing $name after 60 s"
	no_dialog
	sleep 0.5
done
sleep 2 # the packet list and details are filled after the title is set
no_dialog

# Focus the packet details (a click below its items), select its last top-level item, expand
# it with all its subtrees (View > Expand Subtrees). Keys sent too soon after the click are
# lost, hence the pauses.
xdotool mousemove --window "$window" 500 820 click 1
sleep 1
xdotool key End
sleep 1
xdotool key shift+Right
sleep 2
import -window "$window" "$out"

xdotool key ctrl+q
i=0
while kill -0 "$ws_pid" 2>/dev/null; do
	i=$((i + 1))
	[ "$i" -le 60 ] || fail "wireshark did not quit on Ctrl+Q"
	sleep 0.5
done
rc=0
wait "$ws_pid" || rc=$?
ws_pid=
[ "$rc" = 0 ] || fail "wireshark exited with status $rc"
# "nl80211 not found." only says this machine has no Wi-Fi interfaces to capture on.
if grep -Ei "plugin|couldn't|error|critical|dissector bug" "$work/wireshark.err"; then
	fail "wireshark reported errors on stderr"
fi
echo "frame $frame of $name: screenshot in $out"
