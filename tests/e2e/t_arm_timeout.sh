# Issue 52 item 7: an arm's command that hangs, or ignores SIGTERM, cannot hang a paired run. It
# has a timeout (--arm-timeout, default 10m) after which its process group gets SIGTERM and, 10 s
# later, SIGKILL, and the run fails naming the arm, the command and the timeout; a stop signal
# ends such a command the same way, the runs kept as incomplete. The bounds below (40 s) are
# safety nets far above the 10 s grace, not measurements.
R="--samples 10 --sample-ms 2 --warmup-ms 0 --no-probe --counters none -c 1 -q"
runs() { if [ -e "$SYSAB_DB" ]; then sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run"; else echo 0; fi; }
# gone PGFILE: the process group whose id the arm wrote to PGFILE has no process left
gone() {
	pg=$(cat "$1")
	i=0
	while pgrep -g "$pg" >/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
	! pgrep -g "$pg" >/dev/null || { pkill -KILL -g "$pg"; fail "the arm's command (process group $pg) was left running"; }
}
# bounded ARGS...: run sysab in the background, at most 40 s, setting rc, OUT and ERR
bounded() {
	"$SYSAB" "$@" >"$T/out" 2>"$T/err" &
	pid=$!
	wait_exit $pid 400 "-$(cat "$T/b.pg" 2>/dev/null || echo $pid)"
	wait $pid
	rc=$?
	OUT=$(cat "$T/out")
	ERR=$(cat "$T/err")
}

# bad input: exit 2, naming the option and what to give
expect 2 "$SYSAB" run -w harness.null $R --arm A=true --arm B=true --arm-timeout 0.5s
contains "$ERR" "--arm-timeout: 0.5s is out of range; give 1s to 24h"
expect 2 "$SYSAB" run -w harness.null $R --arm A=true --arm B=true --arm-timeout 10x
contains "$ERR" "--arm-timeout: unknown unit"
expect 2 "$SYSAB" run -w harness.null $R --arm-timeout 1m
contains "$ERR" "--arm-timeout limits the commands of a paired run's arms"
[ "$(runs)" = 0 ] || fail "a refused run stored something"

# a command that ignores SIGTERM and never ends, before the rounds: ended after its timeout and
# the grace, exit 2 naming the arm, the command and the timeout, nothing stored
HANG="echo \$\$ >$T/b.pg; trap '' TERM; sleep 1000"
bounded run -w harness.null $R --arm-timeout 1s --arm A=true --arm B="$HANG"
[ $rc = 2 ] || fail "exit $rc after an arm's command timed out, wanted 2: $ERR"
contains "$ERR" "--arm B: its command '$HANG' did not finish within 1s before the rounds (--arm-timeout)"
[ "$(runs)" = 0 ] || fail "a paired run whose arm timed out before the rounds stored something"
gone "$T/b.pg"
rm -f "$T/b.pg"

# a command that ends on SIGTERM but leaves a process ignoring it in its group: that goes too
bounded run -w harness.null $R --arm-timeout 1s --arm A=true --arm B="echo \$\$ >$T/b.pg; (trap '' TERM; exec sleep 1000) & sleep 1000"
[ $rc = 2 ] || fail "exit $rc after an arm's command timed out, wanted 2: $ERR"
contains "$ERR" "did not finish within 1s before the rounds"
gone "$T/b.pg"
rm -f "$T/b.pg"

# the same in round 2: both arms' runs end incomplete, saying why
HANG2="if [ \"\$SYSAB_ROUND\" = 2 ]; then $HANG; fi"
bounded run -w harness.null $R --arm-timeout 1s --arm A=true --arm B="$HANG2"
[ $rc = 2 ] || fail "exit $rc after an arm's command timed out in a round, wanted 2: $ERR"
contains "$ERR" "did not finish within 1s in round 2 (--arm-timeout)"
v=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run WHERE status = 'incomplete' AND reason LIKE '%--arm B: its command%within 1s in round 2%'")
[ "$v" = 2 ] || fail "the runs cut by a timed-out arm command are not incomplete saying why: $v"
gone "$T/b.pg"
rm -f "$T/b.pg"
db_ok "$SYSAB_DB"

# SIGINT while an arm's command that ignores SIGTERM runs (default timeout): the run stops
# within the grace, exit 130, the command's group killed, both runs kept as incomplete
"$SYSAB" run -w harness.null $R --arm A=true --arm B="$HANG2" >"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ ! -e "$T/b.pg" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
[ -e "$T/b.pg" ] || fail "arm B never reached round 2: $(cat "$T/err")"
sleep 0.2
kill -INT $pid
wait_exit $pid 400 "-$(cat "$T/b.pg")"
wait $pid
rc=$?
[ $rc = 130 ] || fail "exit $rc after SIGINT in an arm's command that ignores SIGTERM, wanted 130: $(cat "$T/err")"
v=$(sqlite3 "$SYSAB_DB" "SELECT group_concat(status || ':' || reason, '|') FROM run WHERE id > 2")
[ "$v" = "incomplete:stopped by SIGINT|incomplete:stopped by SIGINT" ] || fail "runs stopped in an arm's command: $v"
gone "$T/b.pg"
db_ok "$SYSAB_DB"
