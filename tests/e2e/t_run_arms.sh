# Issue 38 item 3: a paired run (--arm) switches arms by command round by round, stores each arm
# as its own run labelled arm=NAME on one boot with every sample's round, and compare pairs the
# arms by round; a bad arm or a failing arm command is exit 2 with nothing half-stored.
R="--samples 10 --sample-ms 2 --warmup-ms 0 --no-probe --counters none -c 1 -q"
LOG="$T/arms.log"
expect 0 "$SYSAB" run -w harness.null -w kernel.syscall.null $R -l k=v \
	--arm A="echo \"\$SYSAB_ARM \$SYSAB_ROUND\" >>$LOG" --arm B="echo \"\$SYSAB_ARM \$SYSAB_ROUND \$X\" >>$LOG" \
	--arm-env B:X=set
contains "$OUT" "arm A:"
contains "$OUT" "arm B:"
contains "$OUT" "stored as run 1"
contains "$OUT" "stored as run 2"
# the commands: each arm checked before anything is stored, then as its run begins and before its
# workers start, then every round in alternating order (AB, BA, ...); B's variable reaches B only
v=$(grep -c ' setup' "$LOG")
[ "$v" = 6 ] || fail "setup commands: $v, expected 6"
v=$(grep -v setup "$LOG" | head -6 | tr '\n' '|')
[ "$v" = "A 0|B 0 set|B 1 set|A 1|A 2|B 2 set|" ] || fail "arm order by round: $v"
[ "$(grep -vc setup "$LOG")" = 20 ] || fail "expected 20 switches (10 rounds x 2 arms)"
v=$(sqlite3 "$SYSAB_DB" "SELECT group_concat(run || '=' || value, ' ') FROM (SELECT run, value FROM label WHERE key = 'arm' ORDER BY run)")
[ "$v" = "1=A 2=B" ] || fail "arm labels: $v"
v=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM label WHERE key = 'k' AND value = 'v'")
[ "$v" = 2 ] || fail "the user's label on both arms: $v"
v=$(sqlite3 "$SYSAB_DB" "SELECT count(DISTINCT boot) || ' ' || group_concat(status) FROM run")
[ "$v" = "1 complete,complete" ] || fail "one boot, both complete: $v"
for run in 1 2; do
	for w in harness.null kernel.syscall.null host.ref; do
		v=$(sqlite3 "$SYSAB_DB" "SELECT group_concat(round) FROM (SELECT round FROM sample WHERE run = $run AND workload = '$w' ORDER BY seq)")
		[ "$v" = "0,1,2,3,4,5,6,7,8,9" ] || fail "run $run $w rounds: $v"
	done
done
expect 0 "$SYSAB" show 2 --json
v=$(printf '%s' "$OUT" | jq -r '.run.settings | .arm + " " + (.arms | join(",")) + " " + .arm_order + " " + .arm_command')
contains "$v" "B A,B alternate echo"
p1=$(sqlite3 "$SYSAB_DB" "SELECT json_extract(settings, '\$.pair') FROM run WHERE id = 1")
p2=$(sqlite3 "$SYSAB_DB" "SELECT json_extract(settings, '\$.pair') FROM run WHERE id = 2")
[ -n "$p1" ] && [ "$p1" = "$p2" ] || fail "the arms share no pair tag: '$p1' '$p2'"

# compare pairs them by round, and says so: one paired run has an estimate but no verdict
expect 0 "$SYSAB" compare arm=A arm=B --json
v=$(printf '%s' "$OUT" | jq -r '[.rows[] | select(.workload == "kernel.syscall.null") | .comparison | (.caveats | map(select(startswith("paired"))) | join(",")) + " " + .unit + " " + .verdict + " " + (.lo == null | tostring)] | .[0]')
[ "$v" = "paired_rounds,paired_one_run run no_data true" ] || fail "compare by round: $v"
[ "$(printf '%s' "$OUT" | jq -r .pairing)" = by_round ] || fail "compare of arms: pairing is not by_round"
expect 0 "$SYSAB" compare arm=A arm=B
contains "$OUT" "paired by round"
contains "$OUT" "one paired run"

# errors: exit 2, a clear message, nothing stored
runs() { sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run"; }
expect 2 "$SYSAB" run -w harness.null $R --arm A --arm B=true
contains "$ERR" "--arm 'A': give NAME=COMMAND"
expect 2 "$SYSAB" run -w harness.null $R --arm 'A b=true' --arm B=true
contains "$ERR" "give NAME=COMMAND"
expect 2 "$SYSAB" run -w harness.null $R --arm A=true
contains "$ERR" "at least 2 arms"
expect 2 "$SYSAB" run -w harness.null $R --arm A=true --arm A=false
contains "$ERR" "arm A is given twice"
expect 2 "$SYSAB" run -w harness.null $R --arm A=true --arm B=true --arm-env C:X=1
contains "$ERR" "no arm C"
expect 2 "$SYSAB" run -w harness.null $R --arm A=true --arm B=true --order blocked
contains "$ERR" "round by round"
expect 2 "$SYSAB" run -w harness.null $R --arm A=true --arm B=true -l arm=x
contains "$ERR" "labels each arm's run arm=NAME itself"
expect 2 "$SYSAB" run -w harness.null $R --arm A=true --arm B=true --format markdown
contains "$ERR" "one per arm"
expect 2 "$SYSAB" run -w harness.null $R --arm A=true --arm B=true --json -o "$T/arms.json"
contains "$ERR" "one per arm"
[ ! -e "$T/arms.json" ] || fail "a refused paired run wrote -o"
[ "$(runs)" = 2 ] || fail "a refused paired run stored something"
expect 2 "$SYSAB" run -w harness.null $R --arm A=true --arm B='exit 3'
contains "$ERR" "--arm B: its command 'exit 3' failed before the rounds (exit status 3)"
[ "$(runs)" = 2 ] || fail "a paired run whose arm cannot switch stored something"
# a command that fails in a round: both arms' runs end incomplete, saying which arm and round
expect 2 "$SYSAB" run -w harness.null $R --arm A=true --arm B='test "$SYSAB_ROUND" != 3'
contains "$ERR" "failed in round 3"
v=$(sqlite3 "$SYSAB_DB" "SELECT group_concat(status) FROM run WHERE id > 2")
[ "$v" = "incomplete,incomplete" ] || fail "runs of a paired run cut by its command: $v"
v=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run WHERE id > 2 AND reason LIKE '%--arm B: its command%round 3%'")
[ "$v" = 2 ] || fail "incomplete runs do not say why"
db_ok "$SYSAB_DB"

# SIGINT while an arm's command runs: the command goes too, both arms' runs end incomplete with
# the signal named (not as a failed command), exit 130
"$SYSAB" run -w harness.null $R --arm A=true \
	--arm B="if [ \"\$SYSAB_ROUND\" = 2 ]; then echo \$\$ >$T/in-round-2; sleep 30; fi" >"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ ! -e "$T/in-round-2" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ -e "$T/in-round-2" ] || fail "arm B never reached round 2: $(cat "$T/err")"
sleep 0.1
kill -INT $pid
wait_exit $pid 50
wait $pid
rc=$?
[ $rc = 130 ] || fail "exit $rc after SIGINT in an arm's command, wanted 130: $(cat "$T/err")"
v=$(sqlite3 "$SYSAB_DB" "SELECT group_concat(status || ':' || reason, '|') FROM run WHERE id > 4")
[ "$v" = "incomplete:stopped by SIGINT|incomplete:stopped by SIGINT" ] || fail "runs stopped in an arm's command: $v"
pg=$(cat "$T/in-round-2")
i=0
while pgrep -g "$pg" >/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
! pgrep -g "$pg" >/dev/null || { pkill -g "$pg"; fail "the arm's command (process group $pg) was left running"; }
db_ok "$SYSAB_DB"
