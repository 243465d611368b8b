# check-db: stored per-run summaries match the raw samples; tampering, a stale method
# stamp and a database from before the summaries are found; --fix and writing commands repair.
# (--no-host-ref: the slot counts and blob offsets below are those of these two workloads)
expect 0 "$SYSAB" run -w kernel.syscall.null -w cpu.int --samples 8 --sample-ms 2 --warmup-ms 0 -c 1 --no-host-ref
expect 0 "$SYSAB" import csv "$REPO/examples/unixbench-pernode.csv"
v=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run_summary")
w=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run")
[ "$v" -ge 2 ] && [ "$v" = "$w" ] || fail "summaries written by run and import: of $v runs of $w"
expect 0 "$SYSAB" check-db
contains "$OUT" "all match"
n=$(printf '%s\n' "$OUT" | sed -n 's/^[0-9]* runs, \([0-9]*\) summaries checked.*/\1/p')
[ "${n:-0}" -ge 6 ] || fail "summaries checked: $n"

# one bit of run 1's first slot (cpu.int in byte order) changed: its mean_y, whose eight
# bytes are the 49th to the 56th of the row's blob (docs/FORMATS.md), lowest byte first
flip="CAST(substr(slots, 1, 48) || CASE WHEN substr(slots, 49, 1) = x'00' THEN x'01' ELSE x'00' END || substr(slots, 50) AS BLOB)"
sqlite3 "$SYSAB_DB" "UPDATE run_summary SET slots = $flip WHERE run = 1"
expect 1 "$SYSAB" check-db
contains "$OUT" "1 differ"
contains "$OUT" "run 1 cpu.int (1 copies): stored mean_y differs"
expect 0 "$SYSAB" check-db --fix
contains "$OUT" "all match"
# a wrong warm-up count in run 1's first slot: the eight bytes 25 to 32 of the blob (after the
# format, the slot count, copies, the lag-1 flag and n: docs/FORMATS.md) set to 3
sqlite3 "$SYSAB_DB" "UPDATE run_summary SET slots = CAST(substr(slots, 1, 24) || x'0300000000000000' || substr(slots, 33) AS BLOB) WHERE run = 1"
expect 1 "$SYSAB" check-db
contains "$OUT" "1 with a wrong warm-up count"
contains "$OUT" "0 differ"
expect 0 "$SYSAB" check-db --fix
contains "$OUT" "all match"
# a row that is not a summary blob at all: reported, and --fix rewrites it
sqlite3 "$SYSAB_DB" "UPDATE run_summary SET slots = x'0100000005000000' WHERE run = 1"
expect 1 "$SYSAB" check-db
contains "$OUT" "1 rows unreadable"
contains "$OUT" "2 missing"
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
prev=$(($(sqlite3 "$SYSAB_DB" "PRAGMA user_version") - 8)) # the summaries' step, issue 17's dropped flag, the summaries' new columns, one row per run, the looks, the campaign table without its backend check, the adaptive campaigns, the bisections
sqlite3 "$SYSAB_DB" "DROP TRIGGER sample_added_summary; DROP TRIGGER sample_changed_summary; DROP TRIGGER sample_deleted_summary; DROP TRIGGER environment_added_summary; DROP TRIGGER environment_changed_summary; DROP TRIGGER environment_deleted_summary; DROP TABLE run_summary; DROP TABLE summary_meta; ALTER TABLE sample DROP COLUMN dropped; DROP TABLE look; DROP TABLE campaign_adaptive_look; DROP TABLE campaign_adaptive; DROP TABLE bisect_step; DROP TABLE bisect; PRAGMA user_version = $prev"
expect 2 "$SYSAB" check-db
contains "$ERR" "written by an older sysab"
printf 'workload,value,unit\nunixbench.pipe,1235,lps\n' >"$T/two.csv"
expect 0 "$SYSAB" import csv "$T/two.csv"
[ -f "$SYSAB_DB.v$prev.bak" ] || fail "no backup of the version-$prev database"
v=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run_summary")
w=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run")
[ "$v" = "$w" ] || fail "after migration: summaries of $v runs of $w"
expect 0 "$SYSAB" check-db
contains "$OUT" "all match"

expect 2 "$SYSAB" check-db extra
contains "$ERR" "unexpected argument 'extra'"
