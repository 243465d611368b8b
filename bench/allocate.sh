#!/bin/sh
# allocate.sh - run --allocate against the default design (issue 38 item 4): PILOT default runs
# of `sysab run -c 1` (the history), then RUNS pairs of one plain run and one run with
# `--allocate pass=pilot`, alternating which goes first; bench/precision.py prints the index
# CV and CV x sqrt(wall) of each arm. The allocation is planned from the pilot alone, so the
# allocated runs do not feed each other.
#   PILOT  pilot runs (default 3)     RUNS  pairs (default 3)
set -u
SYSAB=${SYSAB:-build/sysab}
DIR=${BENCH_DIR:-build/bench}/allocate
PILOT=${PILOT:-3}
RUNS=${RUNS:-3}
rm -rf "$DIR"
mkdir -p "$DIR/plain" "$DIR/alloc"
export SYSAB_DB="$DIR/runs.db"
echo "# allocate: $PILOT pilot runs, $RUNS pairs, $(uname -srm), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
one() { # ARM INDEX ARGS...
	arm=$1 i=$2
	shift 2
	t0=$(date +%s.%N)
	"$SYSAB" run -c 1 -q "$@" >"$DIR/$arm-$i.txt" || exit 1
	t1=$(date +%s.%N)
	[ "$arm" = pilot ] && return 0
	"$SYSAB" show "$(sqlite3 "$SYSAB_DB" 'SELECT max(id) FROM run')" --json >"$DIR/$arm/sysab-$i.json" || exit 1
	echo "$i $t0 $t1" >>"$DIR/$arm/sysab.wall"
}
i=0
while [ "$i" -lt "$PILOT" ]; do
	one pilot "$i" -l pass=pilot
	i=$((i + 1))
done
i=0
while [ "$i" -lt "$RUNS" ]; do
	if [ $((i % 2)) = 0 ]; then
		one plain "$i" -l pass=plain
		one alloc "$i" -l pass=alloc --allocate pass=pilot
	else
		one alloc "$i" -l pass=alloc --allocate pass=pilot
		one plain "$i" -l pass=plain
	fi
	echo "  pair $((i + 1)) of $RUNS done (load $(cut -d' ' -f1 /proc/loadavg))"
	i=$((i + 1))
done
sed -n '1,/^$/p' "$DIR/alloc-0.txt"
for arm in plain alloc; do
	echo "## $arm"
	/usr/bin/python3 "$(dirname "$0")/precision.py" "$DIR/$arm" | sed -n 1,2p
done
