#!/bin/sh
# selfbench.sh - the self-benchmark (`make bench`): how fast and how precise sysab is on this
# machine. Prints a table; writes the raw JSON it used under $BENCH_DIR (default build/bench).
#   BENCH_RUNS   consecutive default runs for the precision and A/A parts (default 10)
#   BENCH_FULL   1 to also time one --full run (default 1)
set -u
SYSAB=${SYSAB:-build/sysab}
DIR=${BENCH_DIR:-build/bench}
RUNS=${BENCH_RUNS:-10}
FULL=${BENCH_FULL:-1}
mkdir -p "$DIR"
DB="$DIR/bench.db"
rm -f "$DB" "$DB-wal" "$DB-shm"
export SYSAB_DB="$DB"

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc; }
say() { printf '%s\n' "$*"; }

say "# sysab self-benchmark"
say "machine: $(uname -srm), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
say "load before: $(cut -d' ' -f1-3 /proc/loadavg)   date: $(date -u '+%Y-%m-%d %H:%M UTC')"
say ""

# 1. Harness overhead.
"$SYSAB" run -q -w harness.null --samples 30 --json >"$DIR/null.json" || exit 1
null_ns=$(jq '.results[0] | 1e9 / .median_ops_per_s' "$DIR/null.json")
empty_ns=$(jq '.run.empty_batch_ns' "$DIR/null.json")
say "## 1. Harness overhead"
printf '| harness.null | %.3f ns/op |\n| empty timed batch (timer + call) | %.0f ns |\n\n' "$null_ns" "$empty_ns"

# 2. Wall time of the profiles.
say "## 2. Wall time per profile"
t0=$(now); "$SYSAB" run -q --quick --json >"$DIR/quick.json" || exit 1; t1=$(now)
printf '| --quick | %.1f s |\n' "$(secs "$t0" "$t1")"
t0=$(now); "$SYSAB" run -q -l bench=precision --json >"$DIR/default-1.json" || exit 1; t1=$(now)
printf '| default | %.1f s |\n' "$(secs "$t0" "$t1")"
if [ "$FULL" = 1 ]; then
	t0=$(now); "$SYSAB" run -q --full --json >"$DIR/full.json" || exit 1; t1=$(now)
	printf '| --full | %.1f s |\n' "$(secs "$t0" "$t1")"
fi
say ""

# 3. Precision: run-to-run CV over RUNS consecutive default runs, and the CI a single run achieves.
i=2
while [ $i -le "$RUNS" ]; do
	"$SYSAB" run -q -l bench=precision --json >"$DIR/default-$i.json" || exit 1
	i=$((i + 1))
done
say "## 3. Precision over $RUNS consecutive default runs"
say "| workload | copies | run-to-run CV | median single-run 95% CI half-width |"
say "|---|---|---|---|"
jq -s -r '
  [ .[] | .results[] | select(.samples > 0) ] | group_by(.workload + "/" + (.copies|tostring))[] |
  (map(.median_ops_per_s | log)) as $v | ($v | length) as $n | ($v | add / $n) as $m |
  (if $n > 1 then (($v | map((. - $m) * (. - $m)) | add) / ($n - 1) | sqrt) else 0 end) as $sd |
  ([.[].ci95_rel_halfwidth | select(. != null)] | sort) as $h |
  "| \(.[0].workload) | \(.[0].copies) | \(($sd * 10000 | round) / 100)% | \(if ($h|length) > 0 then (($h[($h|length)/2|floor] * 10000 | round) / 100 | tostring) + "%" else "-" end) |"
' $(seq 1 "$RUNS" | sed "s|^|$DIR/default-|; s|\$|.json|") | tee "$DIR/precision.md"
total=$(grep -c '^| [a-z]' "$DIR/precision.md")
under=$(awk -F'|' '{gsub(/[ %]/, "", $5); if ($5 != "" && $5 != "-" && $5 + 0 <= 1.0) n++} END {print n + 0}' "$DIR/precision.md")
say ""
say "single-run 95% CI half-width ≤ 1%: $under of $total (workload, copies)"
say ""

# 4. A/A honesty: the first half of the default runs against the second half (same machine and boot).
ids=$("$SYSAB" list --json | jq -r '[.runs[] | select(.labels.bench == "precision") | .id] | map(tostring) | join(",")')
half=$(echo "$ids" | tr ',' '\n' | wc -l)
half=$((half / 2))
a=$(echo "$ids" | tr ',' '\n' | head -n "$half" | paste -sd,)
b=$(echo "$ids" | tr ',' '\n' | tail -n +"$((half + 1))" | head -n "$half" | paste -sd,)
say "## 4. A/A: default runs $a against $b"
if "$SYSAB" compare "run:$a" "run:$b" --json >"$DIR/aa.json" 2>"$DIR/aa.err"; then
	jq -r '[.rows[]? // .results[]? | .verdict] | group_by(.) | map("\(.[0]): \(length)") | join(", ")' "$DIR/aa.json"
	jq -r '[.rows[]? // .results[]? | select(.workload == "index") | "index verdict: \(.verdict)"] | .[]' "$DIR/aa.json"
else
	say "compare failed: $(cat "$DIR/aa.err")"
fi
say ""

# 5. Cross-checks against perf bench, pinned the same way, as ratios (perf / sysab, time per op).
say "## 5. Cross-checks against perf bench (time per op, perf / sysab)"
if command -v perf >/dev/null 2>&1 && perf bench syscall basic -l 1000 >/dev/null 2>&1; then
	p=$(taskset -c 0 perf bench syscall basic -l 2000000 2>/dev/null | awk '/usecs\/op/ {print $1 * 1000}')
	s=$("$SYSAB" run -q --cpus 0 -w kernel.syscall.null --samples 20 --json | jq '1e9 / .results[0].median_ops_per_s')
	printf '| syscall: perf bench syscall basic vs kernel.syscall.null (CPU 0) | %.0f ns | %.0f ns | %.3f |\n' "$p" "$s" "$(echo "$p / $s" | bc -l)"
	p=$(taskset -c 0 perf bench sched pipe -l 100000 2>/dev/null | awk '/usecs\/op/ {print $1 * 1000}')
	s=$("$SYSAB" run -q --cpus 0 -w kernel.ctx.pipe --samples 20 --json | jq '1e9 / .results[0].median_ops_per_s')
	printf '| pipe round trip, one CPU: perf bench sched pipe vs kernel.ctx.pipe (CPU 0) | %.0f ns | %.0f ns | %.3f |\n' "$p" "$s" "$(echo "$p / $s" | bc -l)"
	if [ "$(nproc)" -gt 1 ]; then
		p=$(taskset -c 0,1 perf bench sched pipe -l 100000 2>/dev/null | awk '/usecs\/op/ {print $1 * 1000}')
		s=$("$SYSAB" run -q --cpus 0,1 -w kernel.ctx.pipe-cross --samples 20 --json | jq '1e9 / .results[0].median_ops_per_s')
		printf '| pipe round trip, two CPUs: perf bench sched pipe (CPUs 0,1, unpinned within) vs kernel.ctx.pipe-cross | %.0f ns | %.0f ns | %.3f |\n' "$p" "$s" "$(echo "$p / $s" | bc -l)"
	fi
else
	say "perf bench is not available here (Debian package linux-perf); skipped"
fi
say ""

# 6. Analysis speed and memory on the synthetic database.
say "## 6. Analysis speed"
if [ -f bench/analysis.sh ] && [ -n "${GEN_DB:-}" ]; then
	sh bench/analysis.sh
else
	say "set GEN_DB (make bench does) to time the analysis; skipped"
fi
say "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
