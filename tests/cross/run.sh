#!/bin/sh
# run.sh - test a foreign-architecture sysab under qemu-user: the unit tests given as
# arguments, the end-to-end tests, and run --quick of every workload, each ending ok with
# every self-check holding, or unsupported with a reason. Timings are not looked at.
# Env: SYSAB (the foreign binary, which finds its loader and libraries itself), CROSS (its triplet).
set -u
: "${SYSAB:?set SYSAB to the foreign sysab binary}"
: "${CROSS:?set CROSS to the target triplet}"
here=$(cd "$(dirname "$0")" && pwd)
start=$(date +%s)
failed=0

# The binary must really be foreign, else this proves nothing.
machine=$(od -An -tx1 -j18 -N2 "$SYSAB" | tr -d ' \n')
case "$CROSS:$machine" in
aarch64-*:b700 | riscv64-*:f300 | loongarch64-*:0201) ;;
*) echo "cross: $SYSAB is not an ELF for $CROSS (e_machine $machine)" >&2; exit 1 ;;
esac

# test_stats_grid is the statistics design grid (tens of thousands of simulated experiments,
# 11 s natively, minutes emulated): a study of the method, whose arithmetic the other stats
# tests check here already. It runs natively only (make check), to keep CI's cross time down.
echo "== $CROSS: unit tests under qemu-user"
units=""
for u in "$@"; do
	case "$u" in */test_stats_grid) echo "skip $u (simulation study: natively only)" ;; *) units="$units $u" ;; esac
done
sh "$here/../run-unit.sh" $units || failed=1
echo "unit tests: $(( $(date +%s) - start ))s"

# t_limits counts processes against ulimit -u: qemu-user adds a thread to each process, so the
# limits it sets are off by one per process. t_signals waits at most 15 s for samples, too
# little for an emulated run. t_report_browser needs a native browser. t_counters: perf events
# count the emulator process (its code translation faults too), not the guest code alone.
# t_bisect: its simulated boots took 320-400 s an architecture, the longest test by far,
# for code with nothing architecture-specific (test_bisect and test_bisect_run run here, and
# t_campaign_adaptive drives the same adaptive campaigns under qemu-user).
echo "== $CROSS: end-to-end tests under qemu-user"
t0=$(date +%s)
E2E_SKIP="t_limits t_signals t_report_browser t_counters t_bisect" sh "$here/../e2e/run.sh" || failed=1
echo "end-to-end tests: $(( $(date +%s) - t0 ))s"
t0=$(date +%s)

echo "== $CROSS: run --quick of every workload, every self-check evaluated"
T=$(mktemp -d "${TMPDIR:-/tmp}/sysab-cross.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/tmp"
if ! (cd "$T" && TMPDIR="$T/tmp" SYSAB_DB="$T/r.db" "$SYSAB" run --quick -q --json >"$T/run.json" 2>"$T/err"); then
	echo "FAIL: $SYSAB run --quick exited non-zero:" >&2
	cat "$T/err" >&2
	failed=1
else
	env=$(cd "$T" && SYSAB_DB="$T/r.db" "$SYSAB" show --json 1 | jq -r '.run.environment.emulated // empty')
	case "$env" in
	yes*) echo "environment: emulated = $env" ;;
	*) echo "FAIL: the environment does not say emulated under qemu-user: '$env'" >&2; failed=1 ;;
	esac
	"$SYSAB" workloads --json | jq -r '.workloads[].name' | sort >"$T/all"
	jq -r '.results[].workload' "$T/run.json" | sort -u >"$T/ran"
	missing=$(comm -23 "$T/all" "$T/ran" | tr '\n' ' ')
	[ -z "$missing" ] || { echo "FAIL: run --quick left out: $missing" >&2; failed=1; }
	# ok with samples, a positive median and every check ok; or unsupported with a reason.
	# A needs_idle check (sysab workloads --json) fails by design when other load takes its
	# spinner's CPU, which a shared CI machine cannot rule out: it is printed, not failed.
	"$SYSAB" workloads --json | jq '[.workloads[] | .name as $w | .checks[] | select(.needs_idle) | "\($w)/\(.name)"]' >"$T/idle"
	jq -r --slurpfile idle "$T/idle" '.results[] | .workload as $w | .checks[] | select(.checked != false and .ok == false)
		| select(("\($w)/\(.name)") as $k | $idle[0] | index($k)) | "note: \($w): \(.name) = \(.value) (needs an idle machine; not failed)"' "$T/run.json"
	bad=$(jq -r --slurpfile idle "$T/idle" '.results[] | .workload as $w | select(
		(.status == "ok" and (.samples > 0) and (.median_ops_per_s > 0) and
		 ([.checks[] | select(.checked != false) | select(("\($w)/\(.name)") as $k | $idle[0] | index($k) | not) | .ok] | all)) or
		(.status == "unsupported" and (.reason // "") != "") | not)
		| "\(.workload) x\(.copies): \(.status) \(.reason // "") checks \([.checks[] | "\(.name)=\(.value) ok=\(.ok)"] | join(", "))"' "$T/run.json")
	[ -z "$bad" ] || { printf 'FAIL: %s\n' "$bad" >&2; failed=1; }
	jq -r '.results[] | ([.checks[] | select(.checked == false)] | length) as $nj
		| "  \(.workload) x\(.copies): \(.status)\(if .status == "ok" then ", \((.checks | length) - $nj) self-checks hold\(if $nj > 0 then ", \($nj) not judged here" else "" end)" else ": \(.reason)" end)"' "$T/run.json"
	n_ok=$(jq '[.results[] | select(.status == "ok")] | length' "$T/run.json")
	n_un=$(jq '[.results[] | select(.status == "unsupported")] | length' "$T/run.json")
	n_ck=$(jq '[.results[].checks[] | select(.checked != false)] | length' "$T/run.json")
	n_nj=$(jq '[.results[].checks[] | select(.checked == false)] | length' "$T/run.json")
	echo "run --quick: $n_ok ok, $n_un unsupported, $n_ck self-checks evaluated, $n_nj not judged here, $(( $(date +%s) - t0 ))s"
fi
echo "$CROSS: $(( $(date +%s) - start ))s, $([ $failed = 0 ] && echo passed || echo FAILED)"
exit $failed
