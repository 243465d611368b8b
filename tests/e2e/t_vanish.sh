# Database files deleted mid-run: the path is checked (device and inode) at every sample and at
# the end; a run whose file or write-ahead log vanished fails loudly (exit 2) and never claims
# to be stored, and a run that wrote the new files meanwhile keeps its data.
# wait_gone PID: the run must end by itself (within 60 s: it checks at every sample); else stop it
wait_gone() {
	i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -0 "$1" 2>/dev/null && { kill -TERM "$1"; wait "$1"; fail "the run went on after its files were deleted"; }
	wait "$1"
}
long="run -w harness.null --samples 100000 --sample-ms 20 -q"
# 1. the database file itself deleted
db="$T/a.db"
"$SYSAB" $long --db "$db" >"$T/out1" 2>"$T/err1" &
pid=$!
wait_samples "$db" 3
rm "$db"
wait_gone $pid
r=$?
[ $r = 2 ] || fail "deleted database: exit $r; $(cat "$T/err1")"
grep -q "the database was deleted or replaced while sysab was writing it" "$T/err1" || fail "message: $(cat "$T/err1")"
grep -q "stored as run" "$T/out1" && fail "claims it stored the run: $(cat "$T/out1")"
rm -f "$db-wal" "$db-shm"
# 2. the WAL and SHM deleted, and a second run started: the second run's data survives
db="$T/b.db"
"$SYSAB" $long --db "$db" >"$T/out1" 2>"$T/err1" &
pid=$!
wait_samples "$db" 3
rm "$db-wal" "$db-shm"
expect 0 "$SYSAB" run --quick -w harness.null -q --db "$db"
id=$(printf '%s\n' "$OUT" | sed -n 's/^stored as run \([0-9]*\) in .*/\1/p')
[ -n "$id" ] || fail "the second run did not say where it stored: $OUT"
wait_gone $pid
r=$?
[ $r = 2 ] || fail "deleted WAL: exit $r of the first run; $(cat "$T/err1")"
grep -q "lost its write-ahead log" "$T/err1" || fail "message: $(cat "$T/err1")"
grep -q "stored as run" "$T/out1" && fail "the first run claims it stored: $(cat "$T/out1")"
db_ok "$db"
[ "$(sqlite3 "$db" "SELECT status FROM run WHERE id = $id")" = complete ] || fail "run $id is missing from the database"
[ "$(sqlite3 "$db" "SELECT count(*) FROM sample WHERE run = $id")" -gt 0 ] || fail "run $id lost its samples"
