# Per-sample counters and the noise floor: software counters on any Linux (page faults per op
# of kernel.fault.anon ≈ 1, context switches per op of kernel.ctx.pipe ≥ 1), hardware ones
# recorded as unavailable when there is no PMU, --counters and --no-probe, unprivileged runs.
per_op() { # DB WORKLOAD EVENT: the median count per op over the steady samples
	sqlite3 "$1" "SELECT CAST(c.value AS REAL) / s.ops FROM sample_counter c JOIN sample s ON s.id = c.sample
		WHERE s.workload = '$2' AND c.event = '$3' AND s.warmup = 0 ORDER BY 1" | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}
envv() { sqlite3 "$1" "SELECT value FROM environment WHERE run = (SELECT max(id) FROM run) AND key = '$2'"; }

expect 0 "$SYSAB" run -w kernel.fault.anon -w kernel.ctx.pipe -c 1 --quick --samples 4 --warmup-ms 0 -q
pf=$(per_op "$SYSAB_DB" kernel.fault.anon page-faults)
awk -v x="$pf" 'BEGIN { exit !(x >= 0.95 && x <= 1.05) }' || fail "page faults per op of kernel.fault.anon: $pf, not ≈ 1"
cs=$(per_op "$SYSAB_DB" kernel.ctx.pipe context-switches)
case $(envv "$SYSAB_DB" counters.software) in
counted:*) awk -v x="$cs" 'BEGIN { exit !(x >= 1) }' || fail "context switches per op of kernel.ctx.pipe: $cs, not ≥ 1" ;;
# an unprivileged user under perf_event_paranoid >= 2 counts them in user mode, where no switch is seen
"counted in user mode only"*) [ "$(id -u)" != 0 ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ] ||
	fail "software counters in user mode only as $(id -un)" ;;
*) fail "software counters not counted as $(id -un): $(envv "$SYSAB_DB" counters.software)" ;;
esac
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(DISTINCT event) FROM sample_counter")" = 4 ] ||
	[ -e /sys/bus/event_source/devices/cpu ] || [ "$(id -u)" != 0 ] || fail "not the 4 software events"
# hardware: counted, or unavailable with a reason; never a failed run
hw=$(envv "$SYSAB_DB" counters.hardware)
case $hw in "counted"* | "unavailable: "*) ;; *) fail "counters.hardware is '$hw'" ;; esac
if [ ! -e /sys/bus/event_source/devices/cpu ] && ! ls /sys/bus/event_source/devices | grep -q '^arm'; then
	case $hw in "unavailable: "*) ;; *) fail "no PMU here, yet counters.hardware is '$hw'" ;; esac
	expect 0 "$SYSAB" show "$(last_run "$SYSAB_DB")"
	contains "$OUT" "hardware counters: unavailable"
fi
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM slot WHERE status <> 'ok'")" = 0 ] || fail "a slot failed"
# the noise floor is stored and shown
[ -n "$(envv "$SYSAB_DB" probe.cv)" ] || fail "no probe.cv stored"
case $(envv "$SYSAB_DB" noise.level) in low | moderate | high) ;; *) fail "noise.level: $(envv "$SYSAB_DB" noise.level)" ;; esac
contains "$OUT" "noise floor: CV"
contains "$OUT" "counters (median of the counted batches; spread: CV, or ±SD near 0):"
expect 0 "$SYSAB" show 1
contains "$OUT" "noise floor: CV"
contains "$OUT" "page-faults"
# a counter whose mean is near 0 shows an absolute spread, never a relative one like "0 ±367.2%"
printf '%s\n' "$OUT" | grep -E '^  [a-z.]+ +[0-9]+ [a-z:-]+(/op|/1[kMG] ops| ns/op) +0 ' | grep -E '[0-9]%$' &&
	fail "a relative spread for a counter at 0: $OUT"
printf '%s\n' "$OUT" | grep -Eq '[0-9]e[-+][0-9]' && fail "e-notation in the counters: $OUT"
expect 0 "$SYSAB" show 1 --json
printf '%s' "$OUT" | jq -e '.noise_floor.level and (.counters | map(select(.event == "page-faults" and .workload != "host.ref")) | length == 2)' \
	>/dev/null || fail "show --json lacks the noise floor or the counters"
printf '%s' "$OUT" | jq -e '[.counters[] | select(.per_op_median == 0) | .near_zero] | all' >/dev/null ||
	fail "show --json: a counter at 0 not near_zero"

# --counters none, --no-probe: nothing counted, no probe, and the run says so
expect 0 "$SYSAB" run -w harness.null --quick --samples 3 --warmup-ms 0 -q --counters none --no-probe
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM sample_counter c JOIN sample s ON s.id = c.sample WHERE s.run = 2")" = 0 ] ||
	fail "--counters none stored counters"
contains "$(envv "$SYSAB_DB" counters.software)" "off (--counters none)"
[ -z "$(envv "$SYSAB_DB" noise.level)" ] || fail "--no-probe still probed"
expect 0 "$SYSAB" run -w harness.null --quick --samples 3 --warmup-ms 0 -q --counters software --no-probe
contains "$(envv "$SYSAB_DB" counters.hardware)" "off (--counters software)"
expect 2 "$SYSAB" run -w harness.null --counters lots
contains "$ERR" "--counters lots: give none, software or all"

# compare: the noise floor words are compared like any environment key, the numbers are not
sqlite3 "$SYSAB_DB" "UPDATE environment SET value = 'low' WHERE run = 1 AND key = 'noise.level';
	INSERT OR REPLACE INTO environment VALUES(2, 'noise.level', 'high'), (2, 'probe.cv', '0.5')"
expect 0 "$SYSAB" compare run:1 run:2
contains "$OUT" "noise.level"
case $OUT in *probe.cv*) fail "probe.cv reported as a confounder" ;; esac
# the counters of both sides, per op, as extra rows of the comparison (t_counter_rows holds
# their intervals and verdicts against known data)
expect 0 "$SYSAB" run -w kernel.fault.anon -c 1 --quick --samples 4 --warmup-ms 0 -q --no-probe
expect 0 "$SYSAB" compare run:1 run:4 --counters
contains "$OUT" "kernel.fault.anon · page-faults/op"
expect 0 "$SYSAB" compare run:1 run:4 --json
printf '%s' "$OUT" | jq -e '.counters | map(select(.workload == "kernel.fault.anon" and .event == "page-faults"))
	| .[0] | (.a.per_op > 0.95 and .b.per_op < 1.05 and (.diff | fabs) < 0.05)' >/dev/null ||
	fail "compare --json lacks the page-fault counter row"
# the HTML report has the same rows in its results table
expect 0 "$SYSAB" report compare run:1 run:4 -o "$T/c.html"
tr -d '\n' <"$T/c.html" | grep -q '<tr class="row counter"><td class="wl">kernel.fault.anon · page-faults/op</td>' ||
	fail "the HTML results table lacks the page-fault counter row"

# unprivileged: the run works and says what it could not count
if unpriv_setup; then
	expect 0 as_user "$SYSAB" run -w kernel.fault.anon -w kernel.ctx.pipe -c 1 --quick --samples 3 --warmup-ms 0 -q
	udb=$T/u/results.db
	[ "$(sqlite3 "$udb" "SELECT count(*) FROM slot WHERE status = 'ok' AND workload <> 'host.ref'")" = 2 ] || fail "unprivileged run failed"
	pf=$(per_op "$udb" kernel.fault.anon page-faults)
	awk -v x="$pf" 'BEGIN { exit !(x >= 0.95 && x <= 1.05) }' || fail "unprivileged page faults per op: $pf"
	par=$(cat /proc/sys/kernel/perf_event_paranoid)
	if [ "$par" -ge 2 ] && [ "$(id -u)" = 0 ]; then
		contains "$(envv "$udb" counters.software)" "user mode only"
		expect 0 as_user "$SYSAB" show "$(last_run "$udb")"
		contains "$OUT" "software counters: counted in user mode only"
		contains "$(envv "$udb" counters.kernel)" "unavailable: "
	fi
fi

# analyze warns when its runs had different noise floors
for f in a b; do
	expect 0 "$SYSAB" run -w harness.null --quick --samples 3 --warmup-ms 0 -q -l f=$f
done
sqlite3 "$SYSAB_DB" "UPDATE environment SET value = 'low' WHERE key = 'noise.level' AND run = (SELECT max(id) FROM run) - 1;
	UPDATE environment SET value = 'high' WHERE key = 'noise.level' AND run = (SELECT max(id) FROM run)"
expect 0 "$SYSAB" analyze --factors f
contains "$OUT" "different noise floors"
contains "$OUT" "low in 1 run"
expect 0 "$SYSAB" analyze --factors f --json
printf '%s' "$OUT" | jq -e '.noise_levels.high == 1' >/dev/null || fail "analyze --json lacks noise_levels"
