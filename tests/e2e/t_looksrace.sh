# Two looks at one question at once (issue 52 item 6; docs/METHOD.md, "Repeated looks"): a
# compare that has judged waits (SYSAB_TEST_LOOK_GATE) while boots are added and another compare
# records look 1; the waiting one then finds that look when it records, and is look 2, withheld.

# csv FILE FROM TO: workload w.x, cfg a and b, boots FROM..TO of each, 2 runs of 4 values, B 6% slower
csv() {
	awk -v f="$2" -v t="$3" 'BEGIN { srand(7 + f)
		print "workload,unit,value,run,boot,cfg"
		for (c = 0; c < 2; c++) for (b = f; b <= t; b++) for (r = 0; r < 2; r++) for (i = 0; i < 4; i++)
			printf "w.x,ops/s,%.3f,%s%d.%d,%sboot%d,%s\n", (c ? 940 : 1000) * (1 + 0.01 * (rand() - 0.5)),
				(c ? "b" : "a"), b, r, (c ? "b" : "a"), b, (c ? "b" : "a") }' >"$1"
}
look() { printf '%s' "$1" | jq -r '[.look.question, .look.number, .look.verdicts_withheld, .rows[0].verdict] | map(tostring) | join(" ")'; }
gate() { # gate NAME: wait (at most 30 s) until the gated compare has judged
	i=0
	while [ ! -e "$T/$1.waiting" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	[ -e "$T/$1.waiting" ] || fail "the gated compare did not reach its look: $(cat "$T/$1.err")"
}

pid=
trap '[ -z "$pid" ] || { kill $pid 2>/dev/null; wait $pid 2>/dev/null; }' EXIT # a failed check leaves none waiting
csv "$T/b12.csv" 1 2
csv "$T/b34.csv" 3 4
expect 0 "$SYSAB" import csv "$T/b12.csv"

# other runs: the one that records second is look 2, withheld
SYSAB_TEST_LOOK_GATE="$T/g1" "$SYSAB" compare cfg=a cfg=b --json >"$T/g1.out" 2>"$T/g1.err" &
pid=$!
gate g1
expect 0 "$SYSAB" import csv "$T/b34.csv"
expect 0 "$SYSAB" compare cfg=a cfg=b --json
[ "$(look "$OUT")" = "1 1 false slower" ] || fail "the look that recorded first: $(look "$OUT")"
: >"$T/g1"
wait_exit $pid 300
wait $pid || fail "the gated compare failed: $(cat "$T/g1.err")"
[ "$(look "$(cat "$T/g1.out")")" = "1 2 true withheld" ] || fail "both looks are look 1: $(look "$(cat "$T/g1.out")")"
v=$(sqlite3 "$SYSAB_DB" "SELECT group_concat(k || ':' || withheld, ' ') FROM (SELECT k, withheld FROM look ORDER BY id)")
[ "$v" = "1:0 2:1" ] || fail "looks recorded: $v"
expect 0 "$SYSAB" compare cfg=a cfg=b --json # the withheld look read again: the same
[ "$(look "$OUT")" = "1 1 false slower" ] || fail "all runs again: $(look "$OUT")"

# the same runs at once: one look, recorded once
SYSAB_TEST_LOOK_GATE="$T/g2" "$SYSAB" compare cfg=a cfg=b -w w.x --json >"$T/g2.out" 2>"$T/g2.err" &
pid=$!
gate g2
expect 0 "$SYSAB" compare cfg=a cfg=b -w w.x --json
first=$OUT
: >"$T/g2"
wait_exit $pid 300
wait $pid || fail "the gated compare failed: $(cat "$T/g2.err")"
[ "$(cat "$T/g2.out")" = "$first" ] || fail "the same runs at once are two answers"
[ "$(sqlite3 "$SYSAB_DB" 'SELECT count(*) FROM look')" = 3 ] || fail "the same look recorded twice"
