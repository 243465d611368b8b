#!/bin/sh
# envpad.sh - what the environment's padding changes (`make bench-envpad`; issue 51 item 4):
# runs with the padding (the default: 0-4095 bytes drawn from each run's seed) and without it
# (--no-randomize-env), alternating, all under `setarch -R` so that ASLR does not move the
# stack anyway and the padding is the only layout that varies. Per workload: the median over
# runs of each run's median rate, each side's run-to-run CV, and the range of the run medians.
#   PAIRS      pairs of runs (default 10)
#   WORKLOADS  the workloads (default cpu.int, cpu.float, kernel.syscall.null, unixbench.pipe)
set -u
SYSAB=${SYSAB:-build/sysab}
DIR=${BENCH_DIR:-build/bench}
PAIRS=${PAIRS:-10}
WORKLOADS=${WORKLOADS:-cpu.int cpu.float kernel.syscall.null unixbench.pipe}
mkdir -p "$DIR"
DB="$DIR/envpad.db"
rm -f "$DB" "$DB-wal" "$DB-shm"
export SYSAB_DB="$DB"
command -v setarch >/dev/null || { echo "envpad: setarch (util-linux) is missing" >&2; exit 2; }
setarch "$(uname -m)" -R true 2>/dev/null || { echo "envpad: setarch -R is not allowed here" >&2; exit 2; }
W=""
for w in $WORKLOADS; do W="$W -w $w"; done
echo "# environment padding: $PAIRS pairs, ASLR off for sysab (setarch -R), $(uname -srm), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ $i -lt "$PAIRS" ]; do
	if [ $((i % 2)) = 0 ]; then set -- padded fixed; else set -- fixed padded; fi
	for m in "$@"; do
		opt=""
		[ "$m" = fixed ] && opt=--no-randomize-env
		setarch "$(uname -m)" -R "$SYSAB" run -q $W -c 1 --samples 20 --cpus 0 --no-probe --counters none \
			--no-host-ref --seed $((1000 + i)) $opt -l pad="$m" --json >"$DIR/envpad-$i-$m.json" || exit 1
	done
	i=$((i + 1))
done
printf '%-22s %-7s %14s %8s %24s\n' workload side "median ops/s" "run CV" "range of run medians"
for w in $WORKLOADS; do
	for m in padded fixed; do
		jq -r --arg w "$w" '.results[] | select(.workload == $w) | .median_ops_per_s' "$DIR"/envpad-*-"$m".json |
			sort -g | awk -v w="$w" -v m="$m" '{ v[NR] = $1; s += $1; ss += $1 * $1 }
			END { mean = s / NR; sd = sqrt((ss - NR * mean * mean) / (NR - 1));
			      printf "%-22s %-7s %14.4g %7.2f%% %11.4g-%-11.4g\n", w, m, (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2,
				100 * sd / mean, v[1], v[NR] }'
	done
done
