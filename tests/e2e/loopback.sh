#!/bin/sh
# Host-side send -> capture over the loopback interface (no radio, no qemu): v2xcap send
# replays a capture's WSMP frames on lo, v2xcap capture keeps exactly those, and
# v2xcap stats finds the same message types, and the same PSIDs: the replay's own, or
# WANT_PSIDS ("PSID,frames ...") for inputs whose messages came without WSMP (send
# puts each in a WSM of its PSID). Needs CAP_NET_RAW: SKIP (77) without.
# usage: [WANT_PSIDS=...] loopback.sh V2XCAP REPLAY [SEND-OPTION...]
set -u
v2xcap=$1
replay=$2
shift 2
dir=$(mktemp -d /tmp/v2x-loopback.XXXXXX)
trap 'rm -rf "$dir"' EXIT
chmod 777 "$dir"
if ! "$v2xcap" send -i lo --force --count 1 --rate 1000 "$@" "$replay" >"$dir/probe" 2>&1; then
	echo "SKIP: cannot send on lo (needs root or CAP_NET_RAW): $(cat "$dir/probe")"
	exit 77
fi
want=$("$v2xcap" stats --format csv "$replay" | awk -F, 'NR > 1 { print $1 "," $2 }')
n=$(echo "$want" | awk -F, '{ s += $2 } END { print s }')
by_psid() { "$v2xcap" stats --format csv --by psid "$1" | awk -F, 'NR > 1 { print $1 "," $2 }' | sort; }
if [ -n "${WANT_PSIDS:-}" ]; then
	want_psids=$(printf '%s\n' $WANT_PSIDS | sort) # "PSID,frames PSID,frames"
else
	want_psids=$(by_psid "$replay")
fi
"$v2xcap" capture -i lo -w "$dir/lo.pcapng" --stats --count "$n" --duration 20 >"$dir/capture.out" 2>&1 &
pid=$!
i=0
while ! grep -q "privileges:" "$dir/capture.out" && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
"$v2xcap" send -i lo --force --rate 200 "$@" "$replay" || exit 1
wait $pid || { cat "$dir/capture.out"; exit 1; }
got=$("$v2xcap" stats --format csv "$dir/lo.pcapng" | awk -F, 'NR > 1 { print $1 "," $2 }')
cat "$dir/capture.out"
if [ "$got" != "$want" ]; then
	printf 'captured per type:\n%s\nsent per type:\n%s\n' "$got" "$want"
	exit 1
fi
got_psids=$(by_psid "$dir/lo.pcapng")
if [ "$got_psids" != "$want_psids" ]; then
	printf 'captured per PSID:\n%s\nwanted:\n%s\n' "$got_psids" "$want_psids"
	exit 1
fi
echo "ok: $n frames sent on lo, captured and counted per type: $(echo $got); per PSID: $(echo $got_psids)"
