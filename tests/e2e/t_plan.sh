# plan: from CSV data with known spread, and from real quick runs with measured costs.
expect 0 "$SYSAB" import csv "$REPO/tests/fixtures/csv/same.csv"
expect 0 "$SYSAB" plan cfg=a cfg=b --target 0.5%
contains "$OUT" "plan for comparing A with B"
contains "$OUT" "boots"
contains "$OUT" "(assumed)"
expect 0 "$SYSAB" plan cfg=a --target 0.5% --boot-cost 60s --json
v=$(printf '%s' "$OUT" | jq -r '.kind + " " + (.rows[0].feasible|tostring) + " " + (.rows[0].boots >= 2 | tostring) + " " + (.costs.boot_s|tostring)')
[ "$v" = "plan true true 60" ] || fail "plan json: $v"
expect 2 "$SYSAB" plan cfg=a --target 1
contains "$ERR" "needs a '%' sign"
expect 2 "$SYSAB" plan a b c
contains "$ERR" "at most two selectors"

export SYSAB_DB="$T/real.db"
for c in a b; do
	expect 0 "$SYSAB" run --quick -w kernel.syscall.null --samples 8 -q -l cfg=$c
done
expect 0 "$SYSAB" plan cfg=a cfg=b --json
v=$(printf '%s' "$OUT" | jq -r '(.costs.sample_measured|tostring) + " " + (.costs.run_measured|tostring)')
[ "$v" = "true true" ] || fail "measured costs: $v"
