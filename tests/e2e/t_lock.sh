# A stop signal while another process holds the database's lock (issue 16 item 12): sysab stops
# waiting for the lock within seconds (not after SQLite's 60 s), exits 128 + signal, and says
# what could not be recorded; the database stays intact, and the run does not stay `running`.
db="$SYSAB_DB"

# hold_lock DB FLAG: hold DB's write lock (BEGIN EXCLUSIVE) for 60 s in the background; FLAG is
# created once the lock is held. Sets lpid.
hold_lock() {
	rm -f "$2"
	python3 -c '
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], timeout=30, isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
time.sleep(60)
' "$1" "$2" &
	lpid=$!
	i=0
	while [ ! -e "$2" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -e "$2" ] || fail "the lock on $1 was not taken"
}

# SIGINT while sampling; the lock is held for 60 s from just before.
"$SYSAB" run -w harness.null -c 1 -c 2 --samples 100000 --sample-ms 20 --warmup-ms 0 -q >"$T/out" 2>"$T/err" &
pid=$!
wait_samples "$db" 3
id=$(last_run "$db")
hold_lock "$db" "$T/locked"
sleep 1 # sysab now waits for the lock to store its next sample
kill -INT $pid
wait_exit $pid 300 "$lpid"
wait $pid
r=$?
[ $r = 130 ] || fail "SIGINT under a held lock: exit $r, wanted 130: $(cat "$T/err")"
err=$(cat "$T/err")
contains "$err" "database is locked; another process held the database when a stop signal arrived, and sysab stopped waiting for it"
# harness.null at 1 and 2 copies, and host.ref (in every rounds-order run)
contains "$err" "sysab run: stopped by SIGINT before everything was recorded; 3 (workload, copies) still sampling could not be marked \`stopped\` and read \`ok\`"
contains "$err" "run $id could not be marked stopped: it reads \`running\` until the next sysab command marks it \`interrupted\`"
no_sysab_left
no_tmp_left "$TMPDIR"
kill $lpid
wait $lpid 2>/dev/null
db_ok "$db"
# the next command, here `list`, marks the dead run interrupted; the samples stored are kept
expect 0 "$SYSAB" list
st=$(sqlite3 "$db" "SELECT status FROM run WHERE id = $id")
[ "$st" = interrupted ] || fail "run $id is '$st' after the lock was released, wanted interrupted"
n=$(sqlite3 "$db" "SELECT count(*) FROM sample WHERE run = $id")
[ "$n" -ge 3 ] || fail "run $id kept $n samples"

# The lock is released while sysab still may wait for it (within its 2 s after the signal):
# then the stop is recorded as usual, the run incomplete naming the signal, the slots stopped.
"$SYSAB" run -w harness.null -c 1 --samples 100000 --sample-ms 20 --warmup-ms 0 -q >"$T/out" 2>"$T/err" &
pid=$!
wait_samples "$db" 3 150 "$id"
id=$(last_run "$db")
hold_lock "$db" "$T/locked"
sleep 0.5
kill -TERM $pid
sleep 0.2
kill $lpid
wait $lpid 2>/dev/null
wait_exit $pid 300 "$lpid"
wait $pid
r=$?
[ $r = 143 ] || fail "SIGTERM, lock released: exit $r, wanted 143: $(cat "$T/err")"
st=$(sqlite3 "$db" "SELECT status || '|' || reason FROM run WHERE id = $id")
[ "$st" = "incomplete|stopped by SIGTERM" ] || fail "SIGTERM, lock released: run $id '$st'"
s=$(sqlite3 "$db" "SELECT status FROM slot WHERE run = $id AND workload <> 'host.ref'")
[ "$s" = stopped ] || fail "SIGTERM, lock released: slot '$s', wanted stopped"
db_ok "$db"
