#!/bin/sh
# history.sh - time `sysab history` on a synthetic series of BOOTS boots (default 10,000; 2 runs x
# 10 samples each, one 3% step; examples/gen-history.py --boots): wall and CPU time, peak RSS.
# The target (issue 36): under 2 s. usage: SYSAB=build/sysab [BOOTS=10000] sh bench/history.sh
set -eu
: "${SYSAB:?set SYSAB to the sysab binary}"
boots=${BOOTS:-10000}
here=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/sysab-bench-history.XXXXXX")
trap 'rm -rf "$dir"' EXIT
python3 "$here/examples/gen-history.py" --boots "$boots" >"$dir/series.csv"
"$SYSAB" --db "$dir/h.db" import csv "$dir/series.csv" >/dev/null
for i in 1 2 3; do
	/usr/bin/time -f '%e %U %S %M' -o "$dir/t" "$SYSAB" --db "$dir/h.db" history -w kernel.syscall.null --by kernel \
		--json >"$dir/out.json"
	read -r wall user sys rss <"$dir/t"
	n=$(grep -c '"index_lo"' "$dir/out.json" || true)
	printf 'history of %s boots: %s s wall, %s s CPU (user %s, sys %s), %s KiB, %s change(s)\n' "$boots" "$wall" \
		"$(echo "$user + $sys" | bc)" "$user" "$sys" "$rss" "$n"
done
