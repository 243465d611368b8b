# A live run seen from another PID namespace (a container sharing the database): its pid means
# nothing there, so `list` must not mark it interrupted, `rm` must refuse it, a run there must
# not reap its temp directory, and the writer ends with its samples kept (issue 52 items 2, 3);
# and a run whose temp directory vanished anyway says so.
# A run whose temp directory someone removes reads incomplete, saying so, not complete with the
# later workloads in error. (--sample-ms: the run lasts 2 s at least, on any machine.)
"$SYSAB" run -w harness.null --sample-ms 20 --samples 100 --warmup-ms 0 -q >"$T/out" 2>"$T/err" &
pid=$!
wait_samples "$SYSAB_DB" 1 150 "$(last_run "$SYSAB_DB")"
rm -rf "$TMPDIR/sysab.$pid."*
wait $pid
st=$(sqlite3 "$SYSAB_DB" "SELECT status || '|' || reason FROM run WHERE id = (SELECT max(id) FROM run)")
contains "$st" "incomplete|its temporary directory $TMPDIR/sysab.$pid."
contains "$st" "vanished during the run"

if [ "$(id -u)" != 0 ] || ! unshare --pid --fork --mount-proc true 2>/dev/null; then
	echo "skip: a new PID namespace needs root and unshare --pid"
	return 0
fi
ns() { unshare --pid --fork --mount-proc "$@"; }

# (two arms: two runs of one writer, each held live)
prev=$(last_run "$SYSAB_DB")
"$SYSAB" run -w harness.null --arm A=true --arm B=true --sample-ms 20 --samples 100000 --warmup-ms 0 -q \
	>"$T/out" 2>"$T/err" &
pid=$!
trap 'kill -KILL $pid 2>/dev/null' EXIT # a failed check leaves no writer behind
wait_samples "$SYSAB_DB" 3 150 "$prev"
id=$(last_run "$SYSAB_DB")
dir=$(ls -d "$TMPDIR/sysab.$pid."*)
[ -d "$dir" ] || fail "no temp directory of the run: $(ls -A "$TMPDIR")"

[ "$id" = $((prev + 2)) ] || fail "wanted two arm runs after run $prev, the last is $id"
expect 0 ns "$SYSAB" list
st=$(sqlite3 "$SYSAB_DB" "SELECT group_concat(status) FROM run WHERE id > $prev")
[ "$st" = running,running ] || fail "list in another PID namespace marked the live runs '$st'"
expect 2 ns "$SYSAB" rm "run:$id"
contains "$ERR" "still running"
expect 0 ns "$SYSAB" run --quick -w harness.null -q
[ -d "$dir" ] || fail "a run in another PID namespace removed the live run's temp directory"

before=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM sample WHERE run = $id")
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "the writer exited $rc after SIGINT, wanted 130: $(cat "$T/err")"
st=$(sqlite3 "$SYSAB_DB" "SELECT group_concat(status || '|' || reason) FROM run WHERE id > $prev")
[ "$st" = "incomplete|stopped by SIGINT,incomplete|stopped by SIGINT" ] || fail "the writer's runs read '$st'"
after=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM sample WHERE run = $id")
[ "$after" -ge "$before" ] && [ "$after" -gt 0 ] || fail "samples lost: $before before, $after after"
[ -z "$(ls "$SYSAB_DB"-run*.lock 2>/dev/null)" ] || fail "lock file left: $(ls "$SYSAB_DB"-run*.lock)"
no_sysab_left
no_tmp_left "$TMPDIR"
db_ok "$SYSAB_DB"
trap - EXIT
