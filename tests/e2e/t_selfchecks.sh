# Workload self-checks hold: one minor fault per op, 512 bytes per pipe loop.
expect 0 "$SYSAB" run --quick -w kernel.fault.anon -w unixbench.pipe -w unixbench.context1 --json
ratio=$(printf '%s' "$OUT" | jq '.results[] | select(.workload == "kernel.fault.anon") | .checks[0].value')
ok=$(printf '%s' "$OUT" | jq '.results[] | select(.workload == "kernel.fault.anon") | .checks[0].ok')
[ "$ok" = true ] || fail "fault.anon minor faults per op = $ratio, outside 0.9-1.1"
# a counter check whose counter was not counted ("checked": false) fails nothing
ok=$(printf '%s' "$OUT" | jq '[.results[].checks[] | select(.checked != false) | .ok] | all')
[ "$ok" = true ] || fail "a self-check failed: $OUT"
