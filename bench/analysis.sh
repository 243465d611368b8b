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

# Stored run summaries (issue 18): gen_db writes none, as a database migrated from
# before them has none. The first writing command computes every run's summaries once
# (timed once, it is one-time); the next ones pay a check; check-db recomputes and compares.
printf 'workload,value,unit\nunixbench.pipe,1234,lps\n' >"$dir/one.csv"
printf 'workload,value,unit\nunixbench.pipe,1235,lps\n' >"$dir/two.csv"
once() { # once LABEL CMD...: one wall time and peak RSS
	label=$1
	shift
	/usr/bin/time -f '%e %M' -o "$dir/t" "$@" >/dev/null 2>&1 || true
	read -r t m <"$dir/t"
	printf '%-62s %6s s %8s KiB\n' " $label" "$t" "$m"
}
if [ -x /usr/bin/time ]; then
	once "sysab import (first writing command: all summaries)" "$SYSAB" import --db "$db" csv "$dir/one.csv"
	once "sysab import (next writing command)" "$SYSAB" import --db "$db" csv "$dir/two.csv"
	measure "$SYSAB" check-db --db "$db"
fi
