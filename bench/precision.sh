#!/bin/sh
# precision.sh - precision per machine-minute (`make bench-precision`, issue 38): RUNS default
# runs of `sysab run -c 1` and, when UNIXBENCH names a built UnixBench 6.0.0 directory (a tool
# run beside sysab, never part of this tree), a pass of its index tests (`./Run -c 1 -i 1`)
# before each run, alternating which goes first. bench/precision.py then prints the index CV,
# CV x sqrt(wall), the ratio to UnixBench, the variance decomposition (one common run factor
# against each workload's own) and the machine time a 1% difference needs.
# Beside each run, PAIRED paired A/A runs (`sysab run --arm A=true --arm B=true` over four
# of the index members, syscall, pipe, context1 and fstime, at one copy): the precision of a difference B - A when both share a boot,
# against UnixBench's difference of successive passes (an A/B user alternating passes).
#   RUNS       runs (default 6)
#   PAIRED     paired A/A runs per run (default 2; 0: none)
#   UNIXBENCH  a built UnixBench directory (optional; `make bench-precision` leaves it empty here and
#              runs bench/likeforlike.sh instead, the like-for-like comparisons of issue 51)
set -u
SYSAB=${SYSAB:-build/sysab}
DIR=${BENCH_DIR:-build/bench}/precision
RUNS=${RUNS:-6}
PAIRED=${PAIRED:-2}
MEMBERS="-w unixbench.syscall -w unixbench.pipe -w unixbench.context1 -w unixbench.fstime"
rm -rf "$DIR"
mkdir -p "$DIR"
export SYSAB_DB="$DIR/runs.db"
echo "# precision: $RUNS runs, $PAIRED paired A/A runs each, $(uname -srm), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)${UNIXBENCH:+, UnixBench in $UNIXBENCH}"
sysab_run() {
	t0=$(date +%s.%N)
	"$SYSAB" run -c 1 -q -l pass="$1" >/dev/null || exit 1
	t1=$(date +%s.%N)
	"$SYSAB" show "$(sqlite3 "$SYSAB_DB" 'SELECT max(id) FROM run')" --json >"$DIR/sysab-$1.json" || exit 1
	echo "$1 $t0 $t1" >>"$DIR/sysab.wall"
}
paired_run() {
	t0=$(date +%s.%N)
	"$SYSAB" run -c 1 -q $MEMBERS --arm A=true --arm B=true -l pass="$1" >/dev/null || exit 1
	t1=$(date +%s.%N)
	for id in $(sqlite3 "$SYSAB_DB" 'SELECT id FROM run ORDER BY id DESC LIMIT 2'); do
		"$SYSAB" show "$id" --json >"$DIR/paired-$1-$id.json" || exit 1
	done
	echo "$1 $t0 $t1" >>"$DIR/paired.wall"
}
ub_pass() {
	t0=$(date +%s.%N)
	(cd "$UNIXBENCH" && ./Run -c 1 -i 1) >"$DIR/ub-$1.log" 2>&1 || exit 1
	t1=$(date +%s.%N)
	echo "$1 $t0 $t1" >>"$DIR/ub.wall"
}
i=0
while [ "$i" -lt "$RUNS" ]; do
	if [ -n "${UNIXBENCH:-}" ] && [ $((i % 2)) = 1 ]; then ub_pass "$i"; fi
	sysab_run "$i"
	j=0
	while [ "$j" -lt "$PAIRED" ]; do
		paired_run "$i.$j"
		j=$((j + 1))
	done
	if [ -n "${UNIXBENCH:-}" ] && [ $((i % 2)) = 0 ]; then ub_pass "$i"; fi
	echo "  pass $((i + 1)) of $RUNS done ($(cut -d' ' -f1 /proc/loadavg))"
	i=$((i + 1))
done
exec /usr/bin/python3 "$(dirname "$0")/precision.py" "$DIR"
