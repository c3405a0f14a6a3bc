#!/bin/sh
# The e2e test inside the guest, with v2xcap only: OCB set-up on three mac80211_hwsim
# radios, captures on a monitor vif, an OCB netdev and a radio on another channel while
# wlan0 transmits; every output lands in /results for the host to assert on.
R=/results
run() { # run NAME CMD...: output in $R/NAME.out, exit code in $R/NAME.rc
	name=$1
	shift
	"$@" >"$R/$name.out" 2>&1
	echo $? >"$R/$name.rc"
	echo "== $name (rc $(cat "$R/$name.rc")): $*"
	cat "$R/$name.out"
}
wait_for() { # wait_for FILE TEXT: until TEXT appears in FILE (at most 20 s)
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.2
		i=$((i + 1))
	done
}

i=0
while [ ! -e /sys/class/net/wlan2 ] && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
# No IPv6 MLD frames on the air: only what v2xcap sends.
echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6
echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6
cat /sys/class/net/wlan0/address >$R/wlan0.mac
uname -r >$R/uname

# What this kernel does with each OCB channel width; Linux dropped 5/10 MHz in 2026.
for w in 5 10 20; do
	run ocb-width-$w v2xcap ocb join wlan2 5900 --width $w
	run ocb-width-$w-status v2xcap ocb status wlan2
done
run ocb-width-leave v2xcap ocb leave wlan2
# The rest at 10 MHz, the ITS channel width, where the kernel still has it; else 20.
W=20
[ "$(cat $R/ocb-width-10.rc)" = 0 ] && W=10
echo $W >$R/width

run ocb-join-wlan0 v2xcap ocb join wlan0 5890 --width $W
run ocb-join-wlan1 v2xcap ocb join wlan1 178 --width $W
run ocb-rejoin-wlan0 v2xcap ocb join wlan0 5890 --width $W
run ocb-join-disabled v2xcap ocb join wlan2 5500 --width $W
run ocb-join-wlan2 v2xcap ocb join wlan2 5900 --width $W
run ocb-status-wlan0 v2xcap ocb status wlan0
run ocb-monitor v2xcap ocb monitor wlan1 --name mon1
cat /sys/class/net/mon1/type >$R/mon1.type 2>&1
run ocb-status-all v2xcap ocb status

# mac80211 drops the first frame from an unknown OCB peer (it adds the station
# instead): one frame before the captures start makes wlan0 known to every radio.
v2xcap send -i wlan0 /replay.pcap --count 1 >/dev/null 2>&1

v2xcap capture -i mon1 -w $R/mon1.pcapng >$R/capture-mon1.out 2>&1 &
p1=$!
v2xcap capture -i wlan1 -w $R/wlan1.pcap --stats >$R/capture-wlan1.out 2>&1 &
p2=$!
v2xcap capture -i wlan2 -w $R/wlan2.pcapng >$R/capture-wlan2.out 2>&1 &
p3=$!
for f in mon1 wlan1 wlan2; do wait_for $R/capture-$f.out "privileges:"; done
# libv2x's example on the same monitor (mon1 exists: live_bsm keeps it)
if [ -x /bin/live_bsm ]; then
	live_bsm wlan1 mon1 >$R/example-live-bsm.out 2>&1 &
	p4=$!
	wait_for $R/example-live-bsm.out "BSMs heard"
fi

run send-replay v2xcap send -i wlan0 /replay.pcap --rate 50
run send-bsm v2xcap send -i wlan0 --bsm --count 5 --rate 20 --id 0A0B0C0D \
	--lat 42.2817 --lon -83.7433 --speed 13.5 --heading 90 --dot2
# The replay's messages again, encoded from their JSON (none without a schema)
[ -s /replay.jsonl ] && run send-json v2xcap send -i wlan0 --json /replay.jsonl --rate 50
# libv2x's example: a 10 Hz BSM beacon through <v2x/tx.h>
[ -x /bin/bsm_beacon ] && run example-bsm-beacon bsm_beacon wlan0 1A2B3C4D 42.2817 -83.7433 10
# Not an OCB interface: refused before anything is sent.
run send-monitor-refused v2xcap send -i mon1 --count 1 /replay.pcap
sleep 1
kill -INT $p1 $p2 $p3 ${p4:-}
[ -n "${p4:-}" ] && { wait $p4; echo $? >$R/example-live-bsm.rc; }
wait $p1; echo $? >$R/capture-mon1.rc
wait $p2; echo $? >$R/capture-wlan1.rc
wait $p3; echo $? >$R/capture-wlan2.rc
run ocb-switch-wlan2 v2xcap ocb join wlan2 5910 --width $W
run ocb-status-switched v2xcap ocb status wlan2
run ocb-leave-wlan2 v2xcap ocb leave wlan2
run ocb-status-left v2xcap ocb status wlan2
# libv2x's OCB calls on a real kernel: what it refuses before asking, and what it refuses
[ -x /bin/test_api ] && run api-ocb-errors env V2X_TEST_OCB_IFACE=wlan2 \
	test_api ocb_arguments_and_errors_name_the_interface
for f in mon1 wlan1 wlan2; do echo "== capture-$f (rc $(cat $R/capture-$f.rc))"; cat $R/capture-$f.out; done
[ -e $R/example-live-bsm.out ] && { echo "== example-live-bsm"; cat $R/example-live-bsm.out; }
ls -l $R
