# import: UnixBench logs and CSV, one transaction per file, errors naming file:line.
U="$REPO/tests/fixtures/unixbench"
expect 0 "$SYSAB" import unixbench "$U/host-2026-12-02-pass1.log" "$U/host-2026-12-02-pass2.log" -l k=1
contains "$OUT" "as run 1 on 1 boot"
contains "$OUT" "as run 2 on 1 boot"
expect 0 "$SYSAB" import unixbench "$U/host-2026-12-02-pass3.log" "$U/host-2026-12-02-pass4.log" -l k=2 --boot x
expect 0 "$SYSAB" list --json
v=$(printf '%s' "$OUT" | jq -r '[.runs[] | .status + ":" + .source] | unique | join(",")')
[ "$v" = "imported:unixbench" ] || fail "status/source: $v"
v=$(sqlite3 "$SYSAB_DB" "SELECT count(DISTINCT boot) FROM run")
[ "$v" = 3 ] || fail "boots: $v (want 3: two logs own, two shared)"
n=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM sample WHERE run = 1 AND workload = 'unixbench.syscall'")
[ "$n" -ge 2 ] || fail "passes of syscall: $n"
expect 0 "$SYSAB" compare k=1 k=2
contains "$OUT" "unixbench.pipe"
contains "$OUT" "index"
# list selects like compare: the implicit label machine=imported, run ids, boot prefixes
expect 0 "$SYSAB" list machine=imported --json
v=$(printf '%s' "$OUT" | jq -r '[.runs[].id] | join(",")')
[ "$v" = "1,2,3,4" ] || fail "list machine=imported: $v"
expect 0 "$SYSAB" list run:2-3 --json
v=$(printf '%s' "$OUT" | jq -r '[.runs[].id] | join(",")')
[ "$v" = "2,3" ] || fail "list run:2-3: $v"
# several words are one selector (issue 17 item 10); global options may come before the command
expect 0 "$SYSAB" list machine=imported k=2 --json
v=$(printf '%s' "$OUT" | jq -r '[.runs[].id] | join(",")')
[ "$v" = "3,4" ] || fail "list machine=imported k=2: $v"
cp "$SYSAB_DB" "$T/other.db"
expect 0 "$SYSAB" --db "$T/other.db" list run:3-5 --json
v=$(printf '%s' "$OUT" | jq -r '[.runs[].id] | join(",")')
[ "$v" = "3,4" ] || fail "--db before list run:3-5: $v"
expect 0 "$SYSAB" --db="$T/other.db" --json list k=1
contains "$OUT" '"kind"'
expect 0 "$SYSAB" --db "$T/third.db" import csv "$REPO/examples/unixbench-pernode.csv"
[ "$(sqlite3 "$T/third.db" "SELECT count(*) FROM run")" -gt 0 ] || fail "--db before import stored nothing"
expect 2 "$SYSAB" --db "$T/other.db"
contains "$ERR" "give a command after the options"
expect 2 "$SYSAB" list machin=imported
contains "$ERR" "no run has a label 'machin'"

sum() { cat "$1" "$1-wal" 2>/dev/null | md5sum; }
before=$(sum "$SYSAB_DB")
bad() {
	msg=$1
	shift
	expect 2 "$SYSAB" "$@"
	contains "$ERR" "$msg"
}
bad "imported before" import unixbench "$U/host-2026-12-02-pass1.log"
printf 'value,unit,pie\n12,ops/s,yes\nx,ops/s,no\n' >"$T/bad.csv"
bad "bad.csv:3:1: value 'x'" import csv "$T/bad.csv"
printf 'value,unit,pie\n12,ops/s,yes\n' >"$T/conflict.csv"
bad "conflict.csv:2: label pie=yes conflicts with -l pie=no" import csv "$T/conflict.csv" -l pie=no
bad "malformed label" import csv "$T/conflict.csv" -l pie
bad "not a format" import xml "$T/conflict.csv"
bad "give one CSV file" import csv
printf 'value,unit,run,pie\n1,ops/s,r1,no\n2,ops/s,r2,yes\n3,ops/s,r2,no\n' >"$T/half.csv"
bad "half.csv:4: this row of run 'r2' has other labels" import csv "$T/half.csv"
printf 'hello\n' >"$T/junk.log"
bad "junk.log" import unixbench "$T/junk.log"
[ "$(sum "$SYSAB_DB")" = "$before" ] || fail "a failed import changed the database"

# rows of several runs interleaved: each run keeps its rows in file order, runs are numbered
# in order of their first row, and a sample's sequence number counts per (run, workload, copies)
printf 'workload,unit,value,run,boot\nw1,ops/s,1,B,b1\nw2,ops/s,2,A,b1\nw1,ops/s,3,B,b1\nw1,ops/s,4,A,b1\nw2,ops/s,5,A,b1\nw1,ops/s,6,C,b2\nw1,ops/s,7,B,b1\nw2,ops/s,8,A,b1\n' >"$T/interleaved.csv"
expect 0 "$SYSAB" import --db "$T/il.db" csv "$T/interleaved.csv"
v=$(sqlite3 "$T/il.db" "SELECT (s.run - (SELECT min(id) FROM run)) || s.workload || s.seq || ':' || CAST(s.value AS INT) FROM sample s ORDER BY s.id" | tr '\n' ' ')
[ "$v" = "0w10:1 0w11:3 0w12:7 1w20:2 1w10:4 1w21:5 1w22:8 2w10:6 " ] || fail "interleaved runs stored as: $v"
# rows without run and boot columns (issue 34 item 6): each its own run on its own boot,
# counted by a hash set; the boots come out right and a repeated boot is counted once
awk 'BEGIN { print "workload,unit,value,cfg"; for (i = 0; i < 3000; i++) printf "w%d,ops/s,%d,%s\n", i % 7, 100 + i, i % 2 ? "a" : "b" }' >"$T/noboot.csv"
expect 0 "$SYSAB" import --db "$T/noboot.db" csv "$T/noboot.csv"
contains "$OUT" "3000 values as runs"
contains "$OUT" "on 3000 boots"
[ "$(sqlite3 "$T/noboot.db" "SELECT count(DISTINCT boot) FROM run")" = 3000 ] || fail "want 3000 boots"
printf 'workload,unit,value,run,boot\nw1,ops/s,1,r1,b\nw1,ops/s,2,r2,b\nw1,ops/s,3,r3,c\n' >"$T/twoboots.csv"
expect 0 "$SYSAB" import --db "$T/twoboots.db" csv "$T/twoboots.csv"
contains "$OUT" "on 2 boots"

# several runs appended to one log (issue 52 item 10): each its own run with its own passes,
# in file order, as the single logs import; the file again stores nothing
P1="$U/host-2026-12-02-pass1.log"
expect 0 "$SYSAB" import --db "$T/one.db" unixbench "$P1"
one=$(sqlite3 "$T/one.db" "SELECT group_concat(workload || copies || '/' || seq || '=' || value || dropped, ' ') FROM (SELECT * FROM sample ORDER BY workload, copies, seq)")
cat "$P1" "$P1" >"$T/twice.log" # one results file twice: the repeated sections start run 2
cat "$U/host-2026-12-02-copies2.log" "$P1" >"$T/both.log" # no section repeats: the results file changes
for f in twice both; do
	expect 0 "$SYSAB" import --db "$T/$f.db" unixbench "$T/$f.log"
	contains "$OUT" "as runs 1-2 on 1 boot"
	[ "$(sqlite3 "$T/$f.db" "SELECT count(*) || '/' || count(DISTINCT boot) FROM run")" = 2/1 ] || fail "$f.log: want 2 runs on 1 boot"
	s=$(sqlite3 "$T/$f.db" "SELECT group_concat(workload || copies || '/' || seq || '=' || value || dropped, ' ') FROM (SELECT * FROM sample WHERE run = 2 ORDER BY workload, copies, seq)")
	[ "$s" = "$one" ] || fail "$f.log: run 2 is not the single log's passes: $s"
	sum2=$(sum "$T/$f.db")
	expect 2 "$SYSAB" import --db "$T/$f.db" unixbench "$T/$f.log"
	contains "$ERR" "imported before"
	[ "$(sum "$T/$f.db")" = "$sum2" ] || fail "$f.log imported again changed the database"
done
s=$(sqlite3 "$T/twice.db" "SELECT group_concat(workload || copies || '/' || seq || '=' || value || dropped, ' ') FROM (SELECT * FROM sample WHERE run = 1 ORDER BY workload, copies, seq)")
[ "$s" = "$one" ] || fail "twice.log: run 1 is not the single log's passes: $s"
v=$(sqlite3 "$T/both.db" "SELECT group_concat(DISTINCT copies) FROM sample WHERE run = 1")
[ "$v" = 2 ] || fail "both.log: run 1 (copies2.log) holds copies $v"
