# Workload self-checks hold: one minor fault per op, 512 bytes per pipe loop.
expect 0 "$SYSAB" run --quick -w kernel.fault.anon -w unixbench.pipe -w unixbench.context1 --json
ratio=$(printf '%s' "$OUT" | jq '.results[] | select(.workload == "kernel.fault.anon") | .checks[0].value')
ok=$(printf '%s' "$OUT" | jq '.results[] | select(.workload == "kernel.fault.anon") | .checks[0].ok')
[ "$ok" = true ] || fail "fault.anon minor faults per op = $ratio, outside 0.9-1.1"
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
