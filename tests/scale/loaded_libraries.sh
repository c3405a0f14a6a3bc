#!/bin/sh
# Which optional libraries a v2xcap command makes the dynamic loader initialise
# (LD_DEBUG=libs: "calling init: /path/lib..."), as analyzer/dynlib.h promises.
#   loaded_libraries.sh V2XCAP none REGEX CAPTURE   --version, stats and report --no-verify
#                                                   initialise no library matching REGEX
#   loaded_libraries.sh V2XCAP report LIB CAPTURE   report initialises LIB
set -u
v2xcap=$1 mode=$2 libs=$3 capture=$4
inits() {
	LD_DEBUG=libs "$v2xcap" "$@" 2>&1 >/dev/null | grep -E "calling init: .*($libs)"
}
if [ "$mode" = none ]; then
	for args in --version "stats $capture" "report --no-verify $capture"; do
		# shellcheck disable=SC2086 # the arguments, split
		if inits $args; then
			echo "FAIL: v2xcap $args initialises it"
			exit 1
		fi
		echo "ok: v2xcap $args initialises no $libs"
	done
else
	inits report "$capture" || { echo "FAIL: v2xcap report initialises no $libs"; exit 1; }
	echo "ok: v2xcap report initialises $libs"
fi
