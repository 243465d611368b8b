#!/bin/sh
# analysis.sh - time `sysab compare`, `analyze` and `plan` on a synthetic database of
# RUNS runs x 30 workloads x 20 samples (bench/gen_db) and report wall time and peak RSS,
# each command once from the stored run summaries and once from the raw samples
# (SYSAB_TEST_SAMPLES=1), interleaved, 3 rounds: the best and the worst wall time.
# usage: SYSAB=build/sysab GEN_DB=build/bench/gen_db [BENCH_DB_RUNS=1000] [BENCH_DB=PATH]
#        [OLD_SYSAB=path/to/an/older/sysab] sh bench/analysis.sh
# BENCH_DB keeps the generated database at PATH (made once, reused: 10,000 runs take
# minutes to generate); OLD_SYSAB adds a third column, an older binary on a copy of the
# database as generated (give GEN_DB of the same older build, so the copy has a schema it
# reads; sysab migrates the original on its first writing command).
set -eu
: "${SYSAB:?set SYSAB to the sysab binary}"
: "${GEN_DB:?set GEN_DB to the gen_db binary}"
runs=${BENCH_DB_RUNS:-1000}
dir=$(mktemp -d "${TMPDIR:-/tmp}/sysab-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
db=${BENCH_DB:-$dir/bench.db}
if [ ! -f "$db" ]; then
	start=$(date +%s.%N)
	"$GEN_DB" "$db" "$runs" 30 20
	echo "generated $runs runs x 30 workloads x 20 samples in $(echo "$(date +%s.%N) - $start" | bc) s ($(du -m "$db" | cut -f1) MB)"
fi
old=""
if [ -n "${OLD_SYSAB:-}" ]; then
	old="$dir/old.db"
	cp "$db" "$old"
fi

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
	printf '%-58s %6s s %8s KiB\n' " $label" "$t" "$m"
}
[ -x /usr/bin/time ] || { echo "analysis.sh: /usr/bin/time is needed (apt-get install time)" >&2; exit 2; }
if [ "$(sqlite3 "$db" 'SELECT count(*) FROM sqlite_master WHERE name = "summary_meta"' 2>/dev/null || echo 0)" = 0 ] ||
	[ "$(sqlite3 "$db" 'SELECT coalesce(max(method), 0) FROM summary_meta' 2>/dev/null || echo 0)" = 0 ]; then
	once "sysab import (first writing command: all summaries)" "$SYSAB" import --db "$db" csv "$dir/one.csv"
	once "sysab import (next writing command)" "$SYSAB" import --db "$db" csv "$dir/two.csv"
	[ -z "$old" ] || "$OLD_SYSAB" import --db "$old" csv "$dir/one.csv" >/dev/null
	[ -z "$old" ] || "$OLD_SYSAB" import --db "$old" csv "$dir/two.csv" >/dev/null
fi

# time one command: "wall rss" into $dir/t
one() {
	/usr/bin/time -f '%e %M' -o "$dir/t" "$@" >/dev/null 2>&1 || true
	cat "$dir/t"
}
# measure ARGS...: the command from the summaries, from the samples (and by OLD_SYSAB),
# interleaved over 3 rounds; prints best-worst wall and the peak RSS of each
measure() {
	cmd=$1
	shift
	: >"$dir/sum"
	: >"$dir/smp"
	: >"$dir/old"
	for i in 1 2 3; do
		one "$SYSAB" "$cmd" --db "$db" "$@" >>"$dir/sum"
		one env SYSAB_TEST_SAMPLES=1 "$SYSAB" "$cmd" --db "$db" "$@" >>"$dir/smp"
		[ -z "$old" ] || one "$OLD_SYSAB" "$cmd" --db "$old" "$@" >>"$dir/old"
	done
	shown=" $cmd"
	for a in "$@"; do
		case "$a" in *" "*) shown="$shown '$a'" ;; *) shown="$shown $a" ;; esac
	done
	row=$(printf '%-44s' "$shown")
	for f in sum smp old; do
		[ -s "$dir/$f" ] || continue
		row="$row $(sort -n "$dir/$f" | awk 'NR == 1 { lo = $1 } { hi = $1; if ($2 > m) m = $2 }
			END { printf "%5.2f-%5.2f s %4d MB", lo, hi, m / 1024 }')"
	done
	echo "$row"
}
printf '%-44s %-21s %-21s%s\n' " command" " summaries" " samples" "${old:+  older binary}"
measure compare 'c=no' 'c=yes'
measure compare 'a=no b=no c=no' 'a=no b=no c=yes' --json
measure analyze --factors a,b,c
measure analyze --factors a,b,c --json
measure plan 'c=no' 'c=yes'
if [ "$runs" -le 1000 ]; then
	once "sysab check-db (recompute every summary, compare)" "$SYSAB" check-db --db "$db"
fi
