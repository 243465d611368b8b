#!/bin/sh
# analysis.sh - time `sysab compare` and `sysab analyze` on a synthetic database of
# 1,000 runs x 30 workloads x 20 samples (bench/gen_db) and report wall time and peak RSS.
# usage: SYSAB=build/sysab GEN_DB=build/bench/gen_db sh bench/analysis.sh
set -eu
: "${SYSAB:?set SYSAB to the sysab binary}"
: "${GEN_DB:?set GEN_DB to the gen_db binary}"
dir=$(mktemp -d "${TMPDIR:-/tmp}/sysab-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
db="$dir/bench.db"
start=$(date +%s.%N)
"$GEN_DB" "$db" 1000 30 20
echo "generated 1000 runs x 30 workloads x 20 samples in $(echo "$(date +%s.%N) - $start" | bc) s ($(du -m "$db" | cut -f1) MB)"

# measure CMD...: best wall time of 3 and the peak RSS, via /usr/bin/time when present
measure() {
	best=""
	rss=""
	for i in 1 2 3; do
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f '%e %M' -o "$dir/t" "$@" >/dev/null
			read -r t m <"$dir/t"
		else
			s=$(date +%s.%N)
			"$@" >/dev/null
			t=$(echo "$(date +%s.%N) - $s" | bc)
			m=?
		fi
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
		rss=$m
	done
	shown=""
	for a in "$@"; do
		case "$a" in *" "*) shown="$shown '$a'" ;; *) shown="$shown $a" ;; esac
	done
	printf '%-62s %6s s %8s KiB\n' "$shown" "$best" "$rss" | sed "s|$db|DB|; s|$SYSAB|sysab|"
}
printf '%-62s %8s %12s\n' " command" "wall" "peak RSS"
measure "$SYSAB" compare --db "$db" 'c=no' 'c=yes'
measure "$SYSAB" compare --db "$db" 'a=no b=no c=no' 'a=no b=no c=yes' --json
measure "$SYSAB" analyze --db "$db" --factors a,b,c
measure "$SYSAB" analyze --db "$db" --factors a,b,c --json
measure "$SYSAB" plan --db "$db" 'c=no' 'c=yes'
