# Issue 48 item 3: paired runs that grow. A user who compared paired runs with a plain compare and
# looked again is withheld, and told the step that fits a same-boot comparison (never "add
# boots"): the exact `sysab run --arm ... --until decided --max-runs N`, which, run as printed,
# grows a design of its own to a verdict with every earlier run kept. An A/A grow stops at
# --max-runs with no false call and the MDE it reached. Values are injected
# (SYSAB_TEST_ARM_VALUES), so nothing depends on the machine's speed.
R="-w harness.null --samples 10 --sample-ms 2 --warmup-ms 0 --no-probe --counters none -c 1 -q"
runs() { sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run"; }
export SYSAB_TEST_ARM_VALUES="0.01:A=1000,B=1050"

# two paired runs, a plain compare (look 1), one more and compare again: withheld
for i in 1 2; do expect 0 "$SYSAB" run $R --arm A=true --arm B=':' -l k=v; done
expect 0 "$SYSAB" compare arm=A arm=B
expect 0 "$SYSAB" run $R --arm A=true --arm B=':' -l k=v
expect 0 "$SYSAB" compare arm=A arm=B
contains "$OUT" "withheld: this is look 2"
contains "$OUT" "within one boot, so more"
contains "$OUT" "--until decided"
w=$(printf '%s\n' "$OUT" | awk '/^withheld:/{on=1} on&&/^$/{exit} on')
case "$w" in *"add boots"*|*"--fresh"*) fail "a same-boot comparison was told to add boots: $w" ;; esac
expect 0 "$SYSAB" compare arm=A arm=B --json
step=$(printf '%s' "$OUT" | jq -r .look.next_step)
[ "$(printf '%s' "$OUT" | jq -r '.rows[0].comparison.verdict')" = withheld ] || fail "look 2 not withheld"
case "$step" in "sysab run --arm A='true' --arm B=':' -l 'k=v' -w harness.null -c 1 --samples 10 --sample-ms 2 --warmup-ms 0 --until decided --max-runs "[0-9]*) ;;
*) fail "next step: $step" ;; esac
[ "$(runs)" = 6 ] || fail "runs before the grow: $(runs)"

# the step, run exactly as printed (its program replaced by the one under test): a verdict (B's
# 5% more ops/s: faster)
eval "\"\$SYSAB\" ${step#sysab }" >"$T/grow.out" 2>"$T/grow.err" || fail "the printed step failed: $(cat "$T/grow.err")"
OUT=$(cat "$T/grow.out")
contains "$OUT" "decided after"
contains "$OUT" "faster "
contains "$OUT" "MDE reached"
contains "$OUT" "--look"
n=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run WHERE id <= 6")
[ "$n" = 6 ] || fail "an earlier run was lost: $n of 6"
tag=$(sqlite3 "$SYSAB_DB" "SELECT DISTINCT value FROM label WHERE key = 'grow'")
[ -n "$tag" ] || fail "the grow's runs carry no grow label"
g=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM label WHERE key = 'grow'")
pairs=$((g / 2))
v=$(sqlite3 "$SYSAB_DB" "SELECT group_concat(DISTINCT workload || '/' || copies) FROM sample WHERE run IN (SELECT run FROM label WHERE key = 'grow')")
[ "$v" = "harness.null/1,host.ref/1" ] || [ "$v" = "host.ref/1,harness.null/1" ] || fail "the grow measured other rows than the runs before it: $v"
[ "$pairs" -ge 2 ] || fail "the grow took $pairs paired runs"
# every look recorded, one question of its own, numbered 1.. and none withheld
v=$(sqlite3 "$SYSAB_DB" "SELECT count(*) || ' ' || max(k) || ' ' || sum(withheld) FROM look WHERE key LIKE '%grow=$tag%'")
[ "$v" = "$((pairs - 1)) $((pairs - 1)) 0" ] || fail "the grow's looks: $v (pairs $pairs)"
# the last look, shown again by the compare the grow prints (run as printed), is the same look
# and the same verdict
again=$(printf '%s\n' "$OUT" | grep -o "\`[^\`]* compare 'arm=A grow=$tag'[^\`]*\`" | tr -d '`')
case "$again" in *" --unit run --max-boots ${step##* } --look $((pairs - 1))") ;; *) fail "the grow's compare line: $again" ;; esac
eval "\"\$SYSAB\" ${again#* } --json" >"$T/again.json" || fail "the grow's compare line failed"
[ "$(jq -r '.rows[0].comparison.verdict' "$T/again.json")" = faster ] || fail "the grow's last look again"
[ "$(jq -r '.look.number' "$T/again.json")" = $((pairs - 1)) ] || fail "the grow's last look is not look $((pairs - 1))"
v=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM look WHERE key LIKE '%grow=$tag%'")
[ "$v" = "$((pairs - 1))" ] || fail "showing the last look again recorded a look: $v"
db_ok "$SYSAB_DB"

# A/A: no difference; the grow stops at --max-runs, with no false call and the MDE reached
export SYSAB_TEST_ARM_VALUES="0.01:A=1000,B=1000"
expect 0 "$SYSAB" run ${R% -q} --arm A=true --arm B=true --until decided --max-runs 3 --target 0.1%
# before the first round: what the cap can resolve at the target, from the database's runs
contains "$OUT" "--until decided: at most 3 paired runs on this boot"
contains "$OUT" "MDE of 3 paired runs on this boot"
contains "$OUT" "stopped at --max-runs 3"
contains "$OUT" "MDE reached"
contains "$OUT" "inconclusive"
case "$OUT" in *" faster "*|*" slower "*) fail "an A/A grow called a difference" ;; esac
contains "$OUT" "planned maximum of paired runs"
contains "$OUT" "target 0.10%: not reached"
case "$OUT" in *"boot per group"*|*"boots per group"*) fail "a grow's note speaks of boots per group" ;; esac
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM label WHERE key = 'grow'")" = $((g + 6)) ] || fail "A/A: not 3 paired runs"

# runs of one boot compared with --unit run (no arms): the withheld line asks for more runs on
# this boot and --fresh, not for boots
for c in a b a b; do expect 0 "$SYSAB" run $R -l cfg=$c; done
expect 0 "$SYSAB" compare cfg=a cfg=b --unit run
for c in a b; do expect 0 "$SYSAB" run $R -l cfg=$c; done
expect 0 "$SYSAB" compare cfg=a cfg=b --unit run
w=$(printf '%s\n' "$OUT" | awk '/^withheld:/{on=1} on&&/^$/{exit} on' | tr '\n' ' ' | tr -s ' ')
contains "$w" "within one boot"
contains "$w" "add runs on this boot and compare with --fresh"
case "$w" in *"add boots"*) fail "a --unit run comparison was told to add boots: $w" ;; esac

# bad input: exit 2, a clear message, nothing written
before=$(runs)
expect 2 "$SYSAB" run $R --until decided
contains "$ERR" "give exactly 2"
expect 2 "$SYSAB" run $R --arm A=true --arm B=true --arm C=true --until decided
contains "$ERR" "give exactly 2"
expect 2 "$SYSAB" run $R --arm A=true --arm B=true --until decided --max-runs 1
contains "$ERR" "max-runs"
expect 2 "$SYSAB" run $R --arm A=true --arm B=true --max-runs 4
contains "$ERR" "give it with --until decided"
expect 2 "$SYSAB" run $R --arm A=true --arm B=true --until decided --target 0
contains "$ERR" "target"
expect 2 "$SYSAB" run $R --arm A=true --arm B=true --until later
contains "$ERR" "until"
expect 2 "$SYSAB" run $R --arm A=true --arm B=true --until decided -l grow=x
contains "$ERR" "labels its runs grow=TAG itself"
[ "$(runs)" = "$before" ] || fail "a refused grow stored something"
rm -f "$T/empty.db"
expect 2 "$SYSAB" --db "$T/empty.db" run $R --until decided
[ ! -e "$T/empty.db" ] || fail "a refused grow created a database"
