#!/bin/sh
# Prints the J2735 plugin's figures for one build directory: edition, generated field
# count, generation and compile time, and tshark run times with and without the plugin on
# the largest sample capture repeated N times. No assertion: numbers for the record.
# usage: j2735_bench.sh BUILD_DIR [REPEAT (default 400)]
set -eu
build=$(cd "$1" && pwd)
repeat=${2:-400}
src=$(cd "$(dirname "$0")/../.." && pwd)
run_tshark=$src/tests/run-tshark
epan=$(ls -d "$build"/plugins/*/epan)
release=$(basename "$(dirname "$epan")") # the Wireshark release: 4.0, 4.4 ...
work=$(mktemp -d "${TMPDIR:-/tmp}/j2735-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
chmod 755 "$work"

seconds() { # seconds COMMAND...: wall-clock time of one run
	start=$(date +%s.%N)
	status=ok
	"$@" > /dev/null 2>&1 || status=failed
	end=$(date +%s.%N)
	echo "$start $end $status" | awk '{printf "%.2f%s", $2 - $1, $3 == "ok" ? "" : " (failed)"}'
}

gen=$build/plugins/epan/j2735/asn2wrs
echo "build: $build, plugin $("$run_tshark" "$build/plugins" -G plugins | grep j2735.so)"
if [ -d "$gen" ]; then
	rm -f "$gen/packet-j2735.c"
	echo "generation (prep + asn2wrs) + compile + link: $(seconds cmake --build "$build" --target j2735) s"
	echo "generated fields: $(grep -c '^static int hf_j2735_' "$gen/packet-j2735.c")"
	echo "generated lines: $(wc -l < "$gen/packet-j2735.c")"
	touch "$gen/packet-j2735.c"
	echo "compile + link only: $(seconds cmake --build "$build" --target j2735) s"
fi

largest=$(ls -S "$src"/captures/*.pcap | head -1)
caps=""
i=0
while [ $i -lt "$repeat" ]; do caps="$caps $largest"; i=$((i + 1)); done
# shellcheck disable=SC2086 # one word per copy
mergecap -a -w "$work/big.pcap" $caps
chmod 644 "$work/big.pcap"
frames=$(capinfos -c -M "$work/big.pcap" | awk '/Number of packets/ {print $NF}')
mkdir -p "$work/with/$release/epan" "$work/without/$release/epan"
cp "$epan"/*.so "$work/with/$release/epan/"
cp "$epan"/wsmp.so "$work/without/$release/epan/" 2>/dev/null || true
chmod -R a+rX "$work"
echo "capture: $(basename "$largest") x $repeat = $frames frames"
for mode in without with; do
	echo "tshark -r, WSMP only / $mode J2735: $(seconds "$run_tshark" "$work/$mode" -r "$work/big.pcap") s"
	echo "tshark -V, $mode J2735: $(seconds "$run_tshark" "$work/$mode" -r "$work/big.pcap" -V) s"
done
echo "tshark -z j2735,tree -q: $(seconds "$run_tshark" "$work/with" -r "$work/big.pcap" -q -z j2735,tree) s"
