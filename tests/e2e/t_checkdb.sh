# check-db: stored per-run summaries match the raw samples; tampering, a stale method
# stamp and a database from before the summaries are found; --fix and writing commands repair.
expect 0 "$SYSAB" run -w kernel.syscall.null -w cpu.int --samples 8 --sample-ms 2 --warmup-ms 0 -c 1
expect 0 "$SYSAB" import csv "$REPO/examples/unixbench-pernode.csv"
v=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run_summary")
[ "$v" -ge 6 ] || fail "summaries written by run and import: $v"
expect 0 "$SYSAB" check-db
contains "$OUT" "all match"

sqlite3 "$SYSAB_DB" "UPDATE run_summary SET mean_y = mean_y + 1e-12 WHERE run = 1 AND workload = 'cpu.int'"
expect 1 "$SYSAB" check-db
contains "$OUT" "1 differ"
contains "$OUT" "run 1 cpu.int (1 copies): stored mean_y differs"
expect 0 "$SYSAB" check-db --fix
contains "$OUT" "all match"

# as left by a sysab with another method version: its rows are stale, reported, and the
# next writing command of this sysab (summary_meta differs from its method) redoes them
sqlite3 "$SYSAB_DB" "UPDATE run_summary SET method = 0 WHERE run = 2; UPDATE summary_meta SET method = 0"
expect 1 "$SYSAB" check-db
contains "$OUT" "1 stamped with another method"
printf 'workload,value,unit\nunixbench.pipe,1234,lps\n' >"$T/one.csv"
expect 0 "$SYSAB" import csv "$T/one.csv"
expect 0 "$SYSAB" check-db
contains "$OUT" "all match"

# a database from before the summaries (the schema version before their step): reading commands ask for a
# migration, the first writing command migrates and computes every run's summaries
prev=$(($(sqlite3 "$SYSAB_DB" "PRAGMA user_version") - 3)) # the summaries' step, issue 17's dropped flag, the summaries' new columns
sqlite3 "$SYSAB_DB" "DROP TABLE run_summary; DROP TABLE summary_meta; ALTER TABLE sample DROP COLUMN dropped; PRAGMA user_version = $prev"
expect 2 "$SYSAB" check-db
contains "$ERR" "written by an older sysab"
printf 'workload,value,unit\nunixbench.pipe,1235,lps\n' >"$T/two.csv"
expect 0 "$SYSAB" import csv "$T/two.csv"
[ -f "$SYSAB_DB.v$prev.bak" ] || fail "no backup of the version-$prev database"
v=$(sqlite3 "$SYSAB_DB" "SELECT count(DISTINCT run) FROM run_summary")
w=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run")
[ "$v" = "$w" ] || fail "after migration: summaries of $v runs of $w"
expect 0 "$SYSAB" check-db
contains "$OUT" "all match"

expect 2 "$SYSAB" check-db extra
contains "$ERR" "unexpected argument 'extra'"
