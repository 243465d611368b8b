#!/bin/sh
# import.sh - the cost of `sysab import csv` on large files (`make bench-import`): ROWS rows
# (default 1,000,000) in runs of RUN_ROWS rows (default 1,000: 20 workloads x 50 samples),
# ROWS/25 rows with no run column (every row its own run), and NOBOOT_ROWS rows (default
# 80,000) with neither a run nor a boot column (every row its own run on its own boot).
# Wall time and peak RSS.
# Issue 16 item 13's target is checked on the first file: at most 30 s per million rows and
# 500 MB (500,000 kB) of peak RSS; the script exits 1 when it is missed (the quadratic import
# took 42 s for 1M rows), so it is the test of that item outside make check (which may not
# depend on the machine's speed). Issue 34 item 6's target is checked on the last file: 80,000
# rows in at most 10 s (the boot list was scanned per row: 117 s). TARGET=0 only measures.
set -u
SYSAB=${SYSAB:-build/sysab}
DIR=${BENCH_DIR:-build/bench}
ROWS=${ROWS:-1000000}
RUN_ROWS=${RUN_ROWS:-1000}
NOBOOT_ROWS=${NOBOOT_ROWS:-80000}
mkdir -p "$DIR"
[ -x /usr/bin/time ] || { echo "bench-import: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
echo "# import csv: $(uname -srm), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
gen() { # rows columns: 2 run and boot, 1 boot only, 0 neither
	awk -v n="$1" -v rr="$RUN_ROWS" -v runcol="$2" 'BEGIN {
		srand(1); print runcol == 2 ? "workload,unit,value,run,boot,cfg" : runcol == 1 ? "workload,unit,value,boot,cfg" : "workload,unit,value,cfg"
		for (i = 0; i < n; i++) {
			r = int(i / rr); w = int((i % rr) / 50)
			if (runcol == 2) printf "w%d,ops/s,%.3f,run%d,boot%d,%s\n", w, 1000 + rand() * 10, r, int(r / 2), r % 2 ? "a" : "b"
			else if (runcol == 1) printf "w%d,ops/s,%.3f,boot%d,%s\n", w, 1000 + rand() * 10, int(r / 2), r % 2 ? "a" : "b"
			else printf "w%d,ops/s,%.3f,%s\n", w, 1000 + rand() * 10, r % 2 ? "a" : "b"
		}
	}'
}
one() { # name csv
	rm -f "$DIR/import.db" "$DIR/import.db-wal" "$DIR/import.db-shm"
	/usr/bin/time -o "$DIR/import.time" -f "%e %M %U %S" "$SYSAB" import --db "$DIR/import.db" csv "$2" >/dev/null || exit 1
	read -r wall rss user sys <"$DIR/import.time"
	echo "$1: $wall s wall ($user s user, $sys s system), $rss KB peak RSS"
}
missed=0
gen "$ROWS" 2 >"$DIR/import-runs.csv"
gen $((ROWS / 25)) 1 >"$DIR/import-norun.csv"
gen "$NOBOOT_ROWS" 0 >"$DIR/import-noboot.csv"
one "$ROWS rows, runs of $RUN_ROWS" "$DIR/import-runs.csv"
if [ "${TARGET:-1}" = 1 ]; then
	if awk -v w="$wall" -v r="$rss" -v n="$ROWS" 'BEGIN { exit !(w <= 30 * n / 1e6 && r <= 500000) }'; then
		echo "target (30 s per million rows, 500 MB): met"
	else
		echo "target (30 s per million rows, 500 MB): MISSED"
		missed=1
	fi
fi
one "$((ROWS / 25)) rows, no run column" "$DIR/import-norun.csv"
one "$NOBOOT_ROWS rows, no run or boot column" "$DIR/import-noboot.csv"
if [ "${TARGET:-1}" = 1 ]; then
	if awk -v w="$wall" -v n="$NOBOOT_ROWS" 'BEGIN { exit !(w <= 10 * n / 80000) }'; then
		echo "target (80,000 rows without run or boot columns in 10 s): met"
	else
		echo "target (80,000 rows without run or boot columns in 10 s): MISSED"
		missed=1
	fi
fi
rm -f "$DIR/import.db" "$DIR/import.db-wal" "$DIR/import.db-shm" "$DIR/import-runs.csv" "$DIR/import-norun.csv" \
	"$DIR/import-noboot.csv"
rm -f "$DIR/import.time"
exit $missed
