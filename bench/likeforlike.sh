#!/bin/sh
# likeforlike.sh - sysab against UnixBench 6.0.0 like for like (`make bench-precision UNIXBENCH=DIR`,
# issue 51): for each SET (four: syscall pipe context1 fstime; twelve: UnixBench's whole index),
# PAIRS interleaved pairs of a UnixBench pass (`./Run -c 1 -i 1 TESTS`) and `sysab run -c 1` of
# the same workloads, alternating which goes first, the load recorded beside each; then
# bench/likeforlike.py prints per set the index ratio, CV*sqrt(wall) of both, their ratio with
# its 95% range, and each test's value ratio and CV*sqrt(its own time).
#   UNIXBENCH  a built UnixBench directory (required; a tool run beside sysab, never part of this tree)
#   PAIRS      pairs per set (default 10)
#   SETS       which sets, in order (default "four twelve")
set -u
SYSAB=${SYSAB:-build/sysab}
DIR=${BENCH_DIR:-build/bench}/likeforlike
PAIRS=${PAIRS:-10}
SETS=${SETS:-four twelve}
[ -n "${UNIXBENCH:-}" ] && [ -x "$UNIXBENCH/Run" ] || {
	echo "likeforlike.sh: UNIXBENCH must name a built UnixBench directory (with its Run script)" >&2
	exit 2
}
tests_of() {
	case $1 in
	four) echo "syscall pipe context1 fstime" ;;
	twelve) echo "dhry2reg whetstone-double execl fstime fsbuffer fsdisk pipe context1 spawn shell1 shell8 syscall" ;;
	*) echo "likeforlike.sh: unknown set $1 (four or twelve)" >&2; exit 2 ;;
	esac
}
# the sysab workload of each UnixBench test
wl_of() {
	case $1 in
	dhry2reg) echo cpu.int ;;
	whetstone-double) echo cpu.float ;;
	*) echo "unixbench.$1" ;;
	esac
}
load() { cut -d' ' -f1-3 /proc/loadavg; }
for set in $SETS; do
	tests=$(tests_of "$set") || exit 2
	ws=""
	for t in $tests; do ws="$ws -w $(wl_of "$t")"; done
	d="$DIR/$set"
	rm -rf "$d"
	mkdir -p "$d"
	export SYSAB_DB="$d/runs.db"
	echo "# $set: $PAIRS pairs, $(uname -srm), $(nproc) CPUs, load $(load), $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "#   UnixBench: ./Run -c 1 -i 1 $tests"
	echo "#   sysab:     sysab run -c 1$ws"
	i=0
	while [ "$i" -lt "$PAIRS" ]; do
		for side in ub sy; do
			[ $((i % 2)) = 1 ] && side=$([ "$side" = ub ] && echo sy || echo ub)
			l0=$(load)
			t0=$(date +%s.%N)
			if [ "$side" = ub ]; then
				# shellcheck disable=SC2086
				(cd "$UNIXBENCH" && ./Run -c 1 -i 1 $tests) >"$d/ub-$i.log" 2>&1 || exit 1
			else
				# shellcheck disable=SC2086
				"$SYSAB" run -c 1 -q $ws -l pass="$i" >/dev/null || exit 1
				"$SYSAB" show "$(sqlite3 "$SYSAB_DB" 'SELECT max(id) FROM run')" --json >"$d/sysab-$i.json" || exit 1
			fi
			t1=$(date +%s.%N)
			echo "$i $t0 $t1 $l0" >>"$d/$side.wall"
		done
		echo "  $set pair $((i + 1)) of $PAIRS done (load $(load))"
		i=$((i + 1))
	done
	/usr/bin/python3 "$(dirname "$0")/likeforlike.py" "$d" || exit 1
done
