# Workload self-checks hold: one minor fault per op, 512 bytes per pipe loop.
expect 0 "$SYSAB" run --quick -w kernel.fault.anon -w unixbench.pipe -w unixbench.context1 --json
ratio=$(printf '%s' "$OUT" | jq '.results[] | select(.workload == "kernel.fault.anon") | .checks[0].value')
ok=$(printf '%s' "$OUT" | jq '.results[] | select(.workload == "kernel.fault.anon") | .checks[0].ok')
[ "$ok" = true ] || fail "fault.anon minor faults per op = $ratio, outside 0.9-1.1"
# each sampled batch was judged on its own (2 copies or 1: at least the 28 samples)
b=$(printf '%s' "$OUT" | jq '.results[] | select(.workload == "kernel.fault.anon") | .checks[0] | select(.failed_batches == 0) | .batches')
[ "${b:-0}" -ge 28 ] || fail "fault.anon's check was not judged per sampled batch: $OUT"
# a counter check whose counter was not counted ("checked": false) fails nothing
ok=$(printf '%s' "$OUT" | jq '[.results[].checks[] | select(.checked != false) | .ok] | all')
[ "$ok" = true ] || fail "a self-check failed: $OUT"

# Text: a workload whose checks all held is marked "ok" with no note; -v lists each check
# with its value (issue 17 item 7). The run above is run 1.
expect 0 "$SYSAB" show 1
line=$(printf '%s\n' "$OUT" | grep '^unixbench.pipe ')
case "$line" in *" ok"*) ;; *) fail "unixbench.pipe is not marked ok: $line" ;; esac
case "$OUT" in *"bytes read per op"*) fail "a passed check got a note in the compact table: $OUT" ;; esac
contains "$OUT" "ok: every self-check of the workload held"
expect 0 "$SYSAB" show 1 -v
contains "$OUT" "unixbench.pipe: bytes read per op 512"
line=$(printf '%s\n' "$OUT" | grep '^unixbench.pipe ')
case "$line" in *" ok"*) fail "-v still marks ok: $line" ;; esac

# A check that held over the slot's total but failed in some sampled batches fails, and
# show says in how many and the worst value (issue 19 item 7).
sqlite3 "$SYSAB_DB" "UPDATE slot SET checks = '[{\"name\":\"bytes read per op\",\"value\":496,\"lo\":512,\"hi\":512,\"ok\":false,\"batches\":28,\"failed_batches\":2,\"worst\":256}]' WHERE run = 1 AND workload = 'unixbench.pipe'"
expect 0 "$SYSAB" show 1
contains "$OUT" "bytes read per op 496 FAILED (in 2 of 28 sampled batches; worst 256)"
expect 0 "$SYSAB" show 1 --json
printf '%s' "$OUT" | jq -e '.results[] | select(.workload == "unixbench.pipe") | .checks[0] | .failed_batches == 2 and .batches == 28 and .worst == 256' >/dev/null ||
	fail "show --json lost the per-batch judgment: $OUT"

# kernel.ipi.membarrier gives each copy its own pair of CPUs: two copies on two CPUs are
# refused, saying why, rather than measured with barriers that send no IPI
if [ -d /sys/devices/system/cpu/cpu1 ] && taskset -c 0-1 true 2>/dev/null; then
	expect 0 "$SYSAB" run --quick --no-probe -w kernel.ipi.membarrier -c 2 --cpus 0-1 --json
	printf '%s' "$OUT" | jq -e '[.results[] | select(.workload != "host.ref") | .status == "unsupported" and (.reason | test("own two CPUs: 2 copies need 4, this run may use 2"))] == [true]' >/dev/null ||
		fail "membarrier with 2 copies on 2 CPUs was not refused: $OUT"
fi
