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
head -1 "$T/all.csv" | grep -q '^run,status,source,started_ns,boot_id,hostname,cpu_model,kernel,workload,copies,unit,latency,seq,round,warmup,ops,elapsed_ns,ops_per_s,label.a,label.k,label.note,env\.' ||
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
