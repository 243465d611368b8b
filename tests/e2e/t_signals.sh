# SIGINT, SIGTERM and SIGHUP while sampling (rounds and blocked order, 1 and 2 copies of the
# forking, exec, file-system and shell workloads), while preparing, and twice: every child
# reaped, the temp directory removed, samples kept, the run incomplete with the signal named,
# exit 128 + signal.
FAST="--sample-ms 20 --samples 100000 --warmup-ms 0 -q"

# stop_case SIGNAL MIN_SAMPLES SECOND_SIGNAL ARGS...: start a run, wait for MIN_SAMPLES samples
# (0: wait only for the run to start), send SIGNAL (and SECOND_SIGNAL right after, unless -), check.
stop_case() {
	sig=$1 min=$2 sig2=$3
	shift 3
	prev=$(last_run "$SYSAB_DB")
	"$SYSAB" run "$@" >"$T/out" 2>"$T/err" &
	pid=$!
	if [ "$min" = 0 ]; then
		wait_run "$SYSAB_DB" "$prev"
		sleep 0.3
	else
		wait_samples "$SYSAB_DB" "$min" 150 "$prev"
	fi
	before=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM sample WHERE run = (SELECT max(id) FROM run)")
	kill -"$sig" $pid
	[ "$sig2" = - ] || { sleep 0.05; kill -"$sig2" $pid 2>/dev/null; }
	wait $pid
	rc=$?
	want=$((128 + $(signum "$sig")))
	[ $rc = $want ] || fail "exit $rc after SIG$sig, wanted $want: run $*; $(cat "$T/err")"
	no_sysab_left
	no_proc_in "$TMPDIR"
	no_tmp_left "$TMPDIR"
	st=$(sqlite3 "$SYSAB_DB" "SELECT status || '|' || reason FROM run WHERE id = (SELECT max(id) FROM run)")
	[ "$st" = "incomplete|stopped by SIG$sig" ] || fail "run $*: status '$st' after SIG$sig"
	after=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM sample WHERE run = (SELECT max(id) FROM run)")
	[ "$after" -ge "$before" ] || fail "run $*: $before samples before SIG$sig, $after after"
	bad=$(sqlite3 "$SYSAB_DB" "SELECT workload || ' ' || status FROM slot WHERE run = (SELECT max(id) FROM run)
		AND status NOT IN ('ok', 'stopped')")
	[ -z "$bad" ] || fail "run $*: slots neither ok nor stopped after SIG$sig: $bad"
}

sigs="INT TERM HUP"
k=0
for w in unixbench.spawn unixbench.execl kernel.proc.exec unixbench.fstime unixbench.shell8; do
	for order in rounds blocked; do
		set -- $sigs
		shift $((k % 3))
		k=$((k + 1))
		stop_case "$1" 3 - -w $w -c 1 -c 2 --order $order $FAST
	done
done
# All five at once, the default interleaved order: every job's workers are alive together.
for sig in $sigs; do
	stop_case $sig 4 - -w unixbench.spawn -w unixbench.execl -w kernel.proc.exec -w unixbench.fstime \
		-w unixbench.shell8 -c 1 -c 2 $FAST
done
# While preparing (set-up, calibration, warm-up): nothing sampled yet.
for sig in $sigs; do
	stop_case $sig 0 - -w unixbench.shell8 -w unixbench.spawn -w unixbench.fstime -c 2 \
		--sample-ms 20 --samples 50 --warmup-ms 5000 -q
done
# A second signal while stopping changes nothing.
stop_case TERM 3 INT -w unixbench.shell8 -w unixbench.spawn -c 2 $FAST
stop_case INT 0 HUP -w unixbench.shell8 -w kernel.proc.exec -c 2 --warmup-ms 5000 --sample-ms 20 -q
db_ok "$SYSAB_DB"

# At any moment, from start-up to the end: whatever the phase, nothing is left behind and the
# outcome is one of: the signal ended sysab before a run was recorded; the run is incomplete
# and names the signal; or the run had already completed.
i=0
for delay in 0.02 0.1 0.25 0.5 0.8 1.2 1.8 2.5; do
	set -- $sigs
	shift $((i % 3))
	sig=$1
	i=$((i + 1))
	prev=$(last_run "$SYSAB_DB")
	"$SYSAB" run -w unixbench.spawn -w unixbench.fstime -w unixbench.shell1 -w unixbench.execl -c 1 -c 2 \
		--samples 6 --sample-ms 20 --warmup-ms 100 --seed $i -q >"$T/out" 2>"$T/err" &
	pid=$!
	sleep $delay
	kill -"$sig" $pid 2>/dev/null
	wait $pid
	rc=$?
	no_sysab_left
	no_proc_in "$TMPDIR"
	no_tmp_left "$TMPDIR"
	now=$(last_run "$SYSAB_DB")
	st=$(sqlite3 "$SYSAB_DB" "SELECT status || '|' || coalesce(reason, '') FROM run WHERE id = $now AND id > $prev")
	case "$rc:$st" in
	"$((128 + $(signum $sig))):") ;;
	"$((128 + $(signum $sig))):incomplete|stopped by SIG$sig") ;;
	"0:complete|") ;;
	*) fail "SIG$sig after ${delay}s: exit $rc, run '$st'; $(cat "$T/err")" ;;
	esac
done
db_ok "$SYSAB_DB"
