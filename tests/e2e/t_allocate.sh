# run --allocate: the samples of a run spread over the index workloads from earlier runs'
# variance and cost (Neyman), shown before the run and recorded in its settings; errors.
# Only the structure is checked (counts within floor and cap, the time within the budget,
# the stored samples as recorded), never a count that depends on the machine's noise.
export SYSAB_DB="$T/alloc.db"
# sysab-index's twelve members and one workload outside it (kernel.syscall.null)
IDX="unixbench.pipe unixbench.syscall unixbench.context1 unixbench.fstime unixbench.fsbuffer unixbench.fsdisk unixbench.execl unixbench.spawn unixbench.shell1 unixbench.shell8 cpu.int cpu.float"
W="$(for w in $IDX; do printf -- '-w %s ' "$w"; done)-w kernel.syscall.null -c 1 --quick --no-probe -q"
for i in 1 2; do
	expect 0 "$SYSAB" run $W -l phase=pilot
done

# a selector that picks no run, and options that do not go together: exit 2, nothing run
expect 2 "$SYSAB" run $W --allocate phase=none
contains "$ERR" "--allocate"
contains "$ERR" "phase=none"
expect 2 "$SYSAB" run $W --allocate phase=pilot --target-ci 1%
contains "$ERR" "--allocate and --target-ci conflict"
expect 2 "$SYSAB" run --unixbench true --allocate phase=pilot
contains "$ERR" "--allocate is for sysab's own workloads"
expect 0 "$SYSAB" list --json
[ "$(printf '%s' "$OUT" | jq '.runs | length')" = 2 ] || fail "a failed --allocate stored a run"

expect 0 "$SYSAB" run $W --allocate phase=pilot -l phase=alloc
contains "$OUT" "allocation from 'phase=pilot' (2 runs)"
contains "$OUT" "predicted sd of ln(index) from the samples"
# host.ref and kernel.syscall.null; a slow member (shell8 under --quick) may also keep the
# default when its earlier runs' time budget cut it short, so that count is not asserted
contains "$OUT" "2 not in an index (host.ref, no baseline)"
# the run's members are sysab-index's: its run level comes from the pilots' whole-run index
contains "$OUT" "run level: sd of ln(index) between runs"
contains "$OUT" "(from the earlier runs' index)"
expect 0 "$SYSAB" show 3 # run prints the allocation table above and a brief; show the whole run
contains "$OUT" "samples: allocated from 'phase=pilot' (2 earlier runs; run --allocate): "
expect 0 "$SYSAB" show 3 --json
printf '%s' "$OUT" > "$T/show.json"
v=$(jq -r '.run.settings.allocation | [.from, (.from_runs | length), .default, .floor, .cap, (.allocated | length >= 1 and length <= 12)] | map(tostring) | join(" ")' "$T/show.json")
[ "$v" = "phase=pilot 2 28 12 112 true" ] || fail "recorded allocation: $v"
# every allocated count within floor and cap, the time within the budget
v=$(jq -r '.run.settings.allocation | [(.allocated | all(.samples >= 12 and .samples <= 112)), (.time_s <= .budget_s * 1.000001), (.var_alloc <= .var_default * 1.000001), (.var_run_index >= 0)] | map(tostring) | join(" ")' "$T/show.json")
[ "$v" = "true true true true" ] || fail "allocation bounds: $v"
# the run took the recorded counts (samples + warm-up), the others the default
for w in $(jq -r '.run.settings.allocation.allocated[].workload' "$T/show.json"); do
	want=$(jq -r --arg w "$w" '.run.settings.allocation.allocated[] | select(.workload == $w) | .samples' "$T/show.json")
	got=$(jq -r --arg w "$w" '[.results[] | select(.workload == $w)][0] | (.samples + .warmup_samples)' "$T/show.json")
	[ -n "$want" ] || fail "$w: no count recorded"
	[ "$want" = "$got" ] && continue
	# fewer only where a sample is one op past its time budget (runner.c: such a workload
	# stops at the minimum count), as spawn is on a slow machine (qemu-user), never more
	ops=$(jq -r --arg w "$w" '[.results[] | select(.workload == $w)][0] | .batch_ops' "$T/show.json")
	[ "$ops" = 1 ] && [ "$got" -lt "$want" ] || fail "$w: recorded $want samples, took $got ($ops ops a sample)"
done
got=$(jq -r '[.results[] | select(.workload == "kernel.syscall.null")][0] | (.samples + .warmup_samples)' "$T/show.json")
[ "$got" = 28 ] || fail "kernel.syscall.null (not in the index) took $got samples, not the default 28"
# a subset of the index: no whole-run index in the pilots for it, the members' own run levels
expect 0 "$SYSAB" run -w unixbench.pipe -w unixbench.syscall -c 1 --quick --no-probe -q --allocate phase=pilot
contains "$OUT" "(the workloads' own, taken as independent)"
# a run without history for its workloads: every count the default, said so
expect 0 "$SYSAB" run -w kernel.syscall.read -c 1 --quick --no-probe -q --samples 6 --allocate phase=pilot
contains "$OUT" "nothing to allocate"
db_ok "$SYSAB_DB"
