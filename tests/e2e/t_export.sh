# export: every sample as CSV (RFC 4180, read back by sqlite3's CSV import) and as JSON.
printf '%s\n' 'workload,unit,value,run,boot,a,note' \
	'w.x,ops/s,100.5,r1,b1,x,"say ""hi"", ok"' \
	'w.x,ops/s,101.25,r1,b1,x,"say ""hi"", ok"' \
	'w.y,ns/op,12.5,r2,b1,y,plain' >"$T/in.csv"
expect 0 "$SYSAB" import csv "$T/in.csv"
# a real run: environment keys, among them a kernel command line with commas and spaces
expect 0 "$SYSAB" run --quick -w harness.null -q -l k=v
expect 0 "$SYSAB" export -o "$T/all.csv"
[ -z "$OUT" ] || fail "export -o printed to stdout"
head -1 "$T/all.csv" | grep -q '^run,status,source,started_ns,boot_id,hostname,cpu_model,kernel,workload,copies,unit,latency,seq,round,warmup,ops,elapsed_ns,ops_per_s,dropped,label.a,label.k,label.note,env\.' ||
	fail "header: $(head -c 300 "$T/all.csv")"
# read it back: the same samples with the same values, labels and environment
q() { sqlite3 "$T/back.db" "$@"; }
q ".import --csv $T/all.csv ex" || fail "sqlite3 cannot import the CSV"
n=$(q 'SELECT count(*) FROM ex')
m=$(sqlite3 "$SYSAB_DB" 'SELECT count(*) FROM sample')
[ "$n" = "$m" ] && [ "$n" -gt 3 ] || fail "exported $n rows, the database has $m samples"
a=$(sqlite3 "$SYSAB_DB" "SELECT group_concat(run || ' ' || workload || ' ' || copies || ' ' || seq || ' ' || printf('%.15e', value), ';') FROM (SELECT * FROM sample ORDER BY run, workload, copies, seq)")
b=$(q "SELECT group_concat(run || ' ' || workload || ' ' || copies || ' ' || seq || ' ' || printf('%.15e', CAST(ops_per_s AS REAL)), ';') FROM ex")
[ "$a" = "$b" ] || fail "values differ after the round trip: $a vs $b"
v=$(q "SELECT DISTINCT \"label.note\" FROM ex WHERE run = '1'")
[ "$v" = 'say "hi", ok' ] || fail "quoted label came back as: $v"
v=$(q "SELECT DISTINCT \"env.kernel.cmdline\" FROM ex WHERE run = '3'")
[ "$v" = "$(sqlite3 "$SYSAB_DB" "SELECT value FROM environment WHERE run = 3 AND key = 'kernel.cmdline'")" ] ||
	fail "kernel command line changed: $v"
v=$(q "SELECT DISTINCT \"label.k\" || '|' || \"label.a\" FROM ex WHERE run = '3'")
[ "$v" = "v|" ] || fail "labels of run 3: $v"
v=$(q "SELECT latency || unit FROM ex WHERE workload = 'w.y'")
[ "$v" = "1op" ] || fail "latency row (ns/op imported as latency op): $v"
# selectors pick runs (any of them); the JSON has the same samples
expect 0 "$SYSAB" export run:1 'a=y'
[ "$(printf '%s\n' "$OUT" | wc -l)" = 4 ] || fail "export run:1 a=y: $OUT"
expect 0 "$SYSAB" export --format json
[ "$(printf '%s' "$OUT" | jq -r '.schema_version, .kind' | tr '\n' ' ')" = "1 export " ] || fail "json header"
[ "$(printf '%s' "$OUT" | jq '[.runs[].samples[]] | length')" = "$m" ] || fail "json sample count"
[ "$(printf '%s' "$OUT" | jq -r '.runs[0].labels.note')" = 'say "hi", ok' ] || fail "json label"
[ "$(printf '%s' "$OUT" | jq '.runs[0].samples[1].ops_per_s')" = 101.25 ] || fail "json value"
[ "$(printf '%s' "$OUT" | jq -r '.runs[1].samples[0].display_unit')" = "s/op" ] || fail "json display unit"
expect 2 "$SYSAB" export --format xml
contains "$ERR" "use csv, json, kcidb or lava"
expect 2 "$SYSAB" export 'nope=1'
expect 2 "$SYSAB" export -o "$T/no/such/dir/x.csv"
contains "$ERR" "cannot create it"
# round trip (issue 17 item 9): an exported CSV imports back with the same workloads,
# copies, units, latency, order, flags, values, labels and sources, and a UnixBench
# log keeps its index (its discarded passes stay marked)
R="$T/rt"
mkdir -p "$R"
expect 0 "$SYSAB" --db "$R/a.db" import csv "$REPO/examples/unixbench-pernode.csv"
expect 0 "$SYSAB" --db "$R/a.db" import unixbench "$REPO/tests/fixtures/unixbench/host-2026-12-02-pass1.log" -l data=ub
expect 0 "$SYSAB" --db "$R/a.db" export --format csv -o "$R/a.csv"
expect 0 "$SYSAB" --db "$R/b.db" import csv "$R/a.csv"
contains "$OUT" "25 values as runs 1-5 on 5 boots"
expect 0 "$SYSAB" --db "$R/b.db" export --format csv -o "$R/b.csv"
# source, workload..warmup, ops_per_s, dropped and the label columns
cut -d, -f3,9-15,18- "$R/a.csv" >"$R/a.cut"
cut -d, -f3,9-15,18- "$R/b.csv" >"$R/b.cut"
cmp -s "$R/a.cut" "$R/b.cut" || fail "export -> import csv -> export changed the data: $(diff "$R/a.cut" "$R/b.cut" | head -5)"
grep -q ',1,' "$R/a.cut" || fail "no dropped pass in the export of a UnixBench log"
expect 0 "$SYSAB" --db "$R/b.db" show 5
contains "$OUT" "unixbench-index-partial (1 copy): 442.6"
# an exported file with a damaged flag names the line and column
sed '2s/,-1,0,0,0,3938/,-1,7,0,0,3938/' "$R/a.csv" >"$R/bad.csv"
expect 2 "$SYSAB" --db "$R/c.db" import csv "$R/bad.csv"
contains "$ERR" "bad.csv:2:"
