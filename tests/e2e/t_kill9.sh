# kill -9 of sysab mid-run: the database stays consistent, the workers (parent-death signal)
# and what they started exit on their own, the next command of any kind marks the run
# interrupted, and the next run removes the temp directory the killed run left.

# kill9_run ARGS...: start a run, SIGKILL it after a few samples, wait for its workers to go.
kill9_run() {
	prev=$(last_run "$SYSAB_DB")
	"$SYSAB" run "$@" >"$T/out" 2>"$T/err" &
	pid=$!
	wait_samples "$SYSAB_DB" 4 150 "$prev"
	kill -KILL $pid
	wait $pid 2>/dev/null
	i=0
	while [ $i -lt 50 ]; do
		[ -z "$(pgrep -f -- "^([^ ]*qemu[^ ]* )?$SYSAB( |$)")" ] &&
			[ -z "$(find /proc/[0-9]*/cwd -maxdepth 0 -lname "$TMPDIR/*" 2>/dev/null)" ] && break
		sleep 0.1
		i=$((i + 1))
	done
	no_sysab_left
	no_proc_in "$TMPDIR"
	db_ok "$SYSAB_DB"
	left=$(ls "$TMPDIR")
	case "$left" in "sysab.$pid."*) ;; *) fail "expected the killed run's temp dir sysab.$pid.* in TMPDIR: '$left'" ;; esac
	st=$(sqlite3 "$SYSAB_DB" "SELECT status FROM run WHERE id = (SELECT max(id) FROM run)")
	[ "$st" = running ] || fail "a killed run should still read 'running' until the next command, not '$st'"
	KILLED=$(last_run "$SYSAB_DB")
}

interrupted() { # interrupted RUN: the run is marked interrupted with the reason
	st=$(sqlite3 "$SYSAB_DB" "SELECT status || '|' || reason FROM run WHERE id = $1")
	contains "$st" "interrupted|the sysab process ended"
}

# `list` notices it.
kill9_run -w unixbench.spawn -w unixbench.shell8 -w unixbench.fstime -c 1 -c 2 --sample-ms 20 --samples 100000 --warmup-ms 0 -q
n=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM sample WHERE run = $KILLED")
expect 0 "$SYSAB" list
contains "$OUT" interrupted
interrupted $KILLED
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM sample WHERE run = $KILLED")" = "$n" ] || fail "samples of the killed run changed"

# `show` notices it (blocked order, exec workloads).
kill9_run -w unixbench.execl -w kernel.proc.exec -c 2 --order blocked --sample-ms 20 --samples 100000 --warmup-ms 0 -q
expect 0 "$SYSAB" show $KILLED
contains "$OUT" interrupted
interrupted $KILLED

# `run` notices it, and removes the temp directory of the killed run (its pid is gone).
kill9_run -w unixbench.spawn -c 2 --sample-ms 20 --samples 100000 --warmup-ms 0 -q
expect 0 "$SYSAB" run --quick -w harness.null -q
interrupted $KILLED
no_tmp_left "$TMPDIR"
db_ok "$SYSAB_DB"

# A worker killed under a live run (between or during batches): its (workload, copies) is an
# error with the reason, the other workloads finish, the run completes (a command written to
# the dead worker must not kill sysab with SIGPIPE).
prev=$(last_run "$SYSAB_DB")
# (--no-host-ref: the first child must be one of these two workloads' workers)
"$SYSAB" run -w kernel.syscall.null -w harness.null -c 1 --samples 400 --sample-ms 10 --warmup-ms 0 --no-host-ref -q \
	>"$T/out" 2>"$T/err" &
pid=$!
wait_samples "$SYSAB_DB" 10 150 "$prev"
kill -KILL $(pgrep -P $pid | head -n 1)
wait $pid
rc=$?
[ $rc = 0 ] || fail "exit $rc after a worker was killed; $(cat "$T/err")"
id=$(last_run "$SYSAB_DB")
st=$(sqlite3 "$SYSAB_DB" "SELECT status FROM run WHERE id = $id")
[ "$st" = complete ] || fail "run status '$st' after a worker was killed"
errs=$(sqlite3 "$SYSAB_DB" "SELECT reason FROM slot WHERE run = $id AND status = 'error'")
case "$errs" in *"exited unexpectedly"* | *"is gone"*) ;; *) fail "no error recorded for the killed worker: '$errs'" ;; esac
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM slot WHERE run = $id AND status = 'ok' AND workload <> 'host.ref'")" = 1 ] || fail "the other workload did not finish"
no_tmp_left "$TMPDIR"
db_ok "$SYSAB_DB"
