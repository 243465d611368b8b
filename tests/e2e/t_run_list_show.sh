# A quick run is stored and read back by list, show and --json.
expect 0 "$SYSAB" run --quick -w harness.null -w kernel.syscall.null -l pie=yes -l pernode=no
contains "$OUT" "stored as run 1"
contains "$OUT" "labels: pernode=no pie=yes"
expect 0 "$SYSAB" show 1
contains "$OUT" "kernel.syscall.null"
contains "$OUT" "harness.null"
expect 0 "$SYSAB" list
contains "$OUT" "complete"
contains "$OUT" "pernode=no pie=yes"
expect 0 "$SYSAB" show 1
contains "$OUT" "environment:"
contains "$OUT" "boot.id"
contains "$OUT" "kernel.release"
expect 0 "$SYSAB" show 1 --json
n=$(printf '%s' "$OUT" | jq '[.results[] | select(.workload == "kernel.syscall.null") | .samples] | .[0]')
w=$(printf "%s" "$OUT" | jq "[.results[] | select(.workload == \"kernel.syscall.null\") | .warmup_samples] | .[0]")
[ $((n + w)) = 28 ] || fail "expected 28 samples (--quick: 5 batches, 4 df, after up to 3 warm-up), got $n + $w warm-up"
s=$(printf '%s' "$OUT" | jq -r '.run.status + " " + .run.labels.pie + " " + (.schema_version|tostring)')
[ "$s" = "complete yes 1" ] || fail "json run fields: $s"
m=$(printf '%s' "$OUT" | jq '[.results[] | select(.workload == "harness.null") | .median_ops_per_s > 0] | .[0]')
[ "$m" = true ] || fail "harness.null median missing"
cnt=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM sample WHERE run = 1")
[ "$cnt" = 84 ] || fail "expected 84 samples (2 workloads and host.ref x 28) in the database, got $cnt"
# issue 38 item 2: the host-speed reference rides in every round, at one copy, unless left out
v=$(printf '%s' "$OUT" | jq '[.results[] | select(.workload == "host.ref")] | length')
[ "$v" = 1 ] || fail "host.ref: $v result rows, expected 1 (one copy)"
v=$(printf '%s' "$OUT" | jq '.run.settings.host_ref')
[ "$v" = true ] || fail "run settings host_ref: $v"
expect 0 "$SYSAB" run --quick -w harness.null --no-host-ref --json
v=$(printf '%s' "$OUT" | jq '.run.id')
[ "$v" = 2 ] || fail "second run id $v"
v=$(printf '%s' "$OUT" | jq '[.results[] | select(.workload == "host.ref")] | length')
[ "$v" = 0 ] || fail "--no-host-ref: host.ref still ran"
expect 0 "$SYSAB" list pie=yes --json
v=$(printf '%s' "$OUT" | jq '.runs | length')
[ "$v" = 1 ] || fail "filter pie=yes gave $v runs"
db_ok "$SYSAB_DB"
# issue 17 item 12: list shows the whole kernel release; the environment names user ASLR and
# kernel KASLR apart, and the NUMA node list as a list
printf 'value,unit\n100,ops/s\n' >"$T/k.csv"
expect 0 "$SYSAB" import csv "$T/k.csv" --kernel 6.18.0-rc3-00123-gabcdef0123
expect 0 "$SYSAB" list
contains "$OUT" "6.18.0-rc3-00123-gabcdef0123"
expect 0 "$SYSAB" env
contains "$OUT" "aslr.user"
contains "$OUT" "kaslr.kernel"
contains "$OUT" "numa.node_list"
printf '%s' "$OUT" | grep -q '^aslr ' && fail "env still has the ambiguous key 'aslr'"
true

# The unit column is as wide as the longest unit: "8 concurrent script runs/s" is not cut
# ("8 concur~uns/s" before; issue 17 item 7)
expect 0 "$SYSAB" run --quick -w unixbench.shell8 -c 1 -q
expect 0 "$SYSAB" show "$(last_run "$SYSAB_DB")"
contains "$OUT" "8 concurrent script runs/s"
