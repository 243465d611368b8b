#!/bin/sh
# counters.sh - the cost of per-sample counters (`make bench-counters`): harness.null and
# kernel.syscall.null with counters on (--counters all) and off (--counters none), in
# alternating pairs of runs on one CPU, so slow drift of the machine hits both sides alike.
#   PAIRS    pairs of runs (default 10)
set -u
SYSAB=${SYSAB:-build/sysab}
DIR=${BENCH_DIR:-build/bench}
PAIRS=${PAIRS:-10}
mkdir -p "$DIR"
DB="$DIR/counters.db"
rm -f "$DB" "$DB-wal" "$DB-shm"
export SYSAB_DB="$DB"
echo "# counter overhead: $PAIRS pairs, $(uname -srm), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ $i -lt "$PAIRS" ]; do
	# alternate which side goes first
	if [ $((i % 2)) = 0 ]; then set -- all none; else set -- none all; fi
	for m in "$@"; do
		"$SYSAB" run -q -w harness.null -w kernel.syscall.null -c 1 --samples 20 --cpus 0 --no-probe \
			--counters "$m" -l counters="$m" --json >"$DIR/counters-$i-$m.json" || exit 1
	done
	i=$((i + 1))
done
# per workload: the median over runs of each run's median ns/op, on and off; the change, and
# the smallest and largest per-pair change
med() { sort -n | awk '{ v[NR] = $1 } END { print (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2 }'; }
for w in harness.null kernel.syscall.null; do
	for f in "$DIR"/counters-*-all.json; do
		on=$(jq --arg w "$w" '.results[] | select(.workload == $w) | 1e9 / .median_ops_per_s' "$f")
		off=$(jq --arg w "$w" '.results[] | select(.workload == $w) | 1e9 / .median_ops_per_s' "${f%-all.json}-none.json")
		echo "$on $off"
	done >"$DIR/counters-$w.txt"
	on=$(cut -d' ' -f1 "$DIR/counters-$w.txt" | med)
	off=$(cut -d' ' -f2 "$DIR/counters-$w.txt" | med)
	lo=$(awk '{ print 100 * ($1 / $2 - 1) }' "$DIR/counters-$w.txt" | sort -n | head -1)
	hi=$(awk '{ print 100 * ($1 / $2 - 1) }' "$DIR/counters-$w.txt" | sort -n | tail -1)
	awk -v w="$w" -v on="$on" -v off="$off" -v lo="$lo" -v hi="$hi" -v n="$(wc -l <"$DIR/counters-$w.txt")" 'BEGIN {
		printf "| %s | %.3f ns/op | %.3f ns/op | %+.2f%% | %+.1f%% .. %+.1f%% (%d pairs) |\n", w, on, off,
			100 * (on / off - 1), lo, hi, n }'
done
