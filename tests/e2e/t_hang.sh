# A stopped sysab or stopped workers are not a hung workload; a workload that really hangs is
# still reported hung (issue 16 item 4). SYSAB_TEST_HANG_TIMEOUT shortens the hang timeout of a
# batch (200 samples' length + 60 s) to 3 s; each stop lasts twice as long.
export SYSAB_TEST_HANG_TIMEOUT=3s

# slots_of RUN: "status|reason" of the slots of RUN, one a line.
slots_of() {
	sqlite3 "$SYSAB_DB" "SELECT workload || ' ' || copies || '|' || status || '|' || coalesce(reason, '')
		FROM slot WHERE run = $1 AND workload <> 'host.ref' ORDER BY workload, copies"
}

# sysab itself stopped (kill -STOP) for 6 s in the middle of sampling: the workers' replies wait
# in their pipes and are read when it continues; the slot is ok.
prev=$(last_run "$SYSAB_DB")
"$SYSAB" run -w harness.null -c 1 --samples 150 --sample-ms 20 --warmup-ms 0 -q >"$T/out" 2>"$T/err" &
pid=$!
wait_samples "$SYSAB_DB" 3 150 "$prev"
kill -STOP $pid
sleep 6
taken=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM sample WHERE run > $prev")
[ "$taken" -lt 150 ] || fail "sysab had taken all its samples before it was stopped"
kill -CONT $pid
wait_exit $pid 600
wait $pid
r=$?
[ $r = 0 ] || fail "sysab stopped for 6 s: exit $r: $(cat "$T/err")"
id=$(last_run "$SYSAB_DB")
s=$(slots_of "$id")
[ "$s" = "harness.null 1|ok|" ] || fail "sysab stopped for 6 s: slots $s"

# The workers stopped (their whole process group) for 6 s and continued: the time they spent
# stopped is not waiting for a hung batch.
prev=$id
# (--no-host-ref here and below: the first child of sysab must be the workload's worker)
"$SYSAB" run -w unixbench.context1 -c 2 --samples 150 --sample-ms 20 --warmup-ms 0 --no-host-ref -q >"$T/out" 2>"$T/err" &
pid=$!
wait_samples "$SYSAB_DB" 3 150 "$prev"
worker=$(pgrep -P $pid | head -n 1)
[ -n "$worker" ] || fail "no worker of sysab $pid"
pgid=$(ps -o pgid= -p "$worker" | tr -d ' ')
kill -STOP -"$pgid"
sleep 0.3
[ "$(ps -o stat= -p "$worker" | cut -c1)" = T ] || fail "worker $worker is not stopped"
sleep 5.7
taken=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM sample WHERE run > $prev")
[ "$taken" -lt 150 ] || fail "sysab had taken all its samples before the workers were stopped"
kill -CONT -"$pgid"
wait_exit $pid 600
wait $pid
r=$?
[ $r = 0 ] || fail "workers stopped for 6 s: exit $r: $(cat "$T/err")"
id=$(last_run "$SYSAB_DB")
s=$(slots_of "$id")
[ "$s" = "unixbench.context1 2|ok|" ] || fail "workers stopped for 6 s: slots $s"

# A workload that really hangs: context1's peer process stopped for good, so the worker waits
# for its answer for ever. After the (shortened) timeout the slot is an error naming the hang,
# its workers and the peer are killed, and the run completes.
prev=$id
"$SYSAB" run -w unixbench.context1 -c 1 --samples 150 --sample-ms 20 --warmup-ms 0 --no-host-ref -q >"$T/out" 2>"$T/err" &
pid=$!
wait_samples "$SYSAB_DB" 3 150 "$prev"
worker=$(pgrep -P $pid | head -n 1)
peer=$(pgrep -P "$worker" | head -n 1)
[ -n "$peer" ] || fail "no peer process of worker $worker"
kill -STOP "$peer"
wait_exit $pid 600
wait $pid
r=$?
[ $r = 0 ] || fail "hung workload: exit $r: $(cat "$T/err")"
id=$(last_run "$SYSAB_DB")
s=$(slots_of "$id")
[ "$s" = "unixbench.context1 1|error|a batch did not finish within 3.0 s; the workload hung" ] ||
	fail "hung workload: slots $s"
# gone, or a zombie waiting for whoever inherited it (kill -0 succeeds on a zombie; under
# qemu-user the reaping takes a moment): give it up to 5 s
i=0
while [ -e "/proc/$peer" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$peer/status" 2>/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ -e "/proc/$peer" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$peer/status" 2>/dev/null; then
	fail "the stopped peer $peer of the hung workload was left: $(grep '^State' "/proc/$peer/status" 2>/dev/null)"
fi
no_sysab_left

# The seam takes a duration; anything else is refused before a run starts.
expect 2 env SYSAB_TEST_HANG_TIMEOUT=soon "$SYSAB" run -w harness.null -q
contains "$ERR" "SYSAB_TEST_HANG_TIMEOUT: 'soon' is not a positive duration"
[ "$(last_run "$SYSAB_DB")" = "$id" ] || fail "a run was recorded with a bad SYSAB_TEST_HANG_TIMEOUT"
db_ok "$SYSAB_DB"
