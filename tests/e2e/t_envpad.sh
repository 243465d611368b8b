# Issue 51 item 4, layout as variance: each run pads the environment by 0-4095 bytes drawn from
# its seed (SYSAB_ENV_PAD), so every process it starts sees a larger environment and each
# worker's stack shifts by as much (tests/unit/test_slot.c holds the shift); the size is recorded
# as run.env_pad; --no-randomize-env leaves the environment as it is and records "off".
R="-w harness.null --samples 2 --sample-ms 2 --warmup-ms 0 --no-probe --counters none -c 1 -q"
pad() { sqlite3 "$SYSAB_DB" "SELECT value FROM environment WHERE run = $1 AND key = 'run.env_pad'"; }
# the processes a run starts (here its arms' commands) see the padding the run records
expect 0 "$SYSAB" run $R --seed 11 --arm A="echo \${#SYSAB_ENV_PAD} >>$T/a" --arm B=true
p=$(pad 1)
case "$p" in '' | *[!0-9]*) fail "run.env_pad is not a size: '$p'" ;; esac
[ "$p" -le 4095 ] || fail "run.env_pad $p is over 4095"
[ "$(sort -u "$T/a")" = "$p" ] || fail "the arm saw a padding of $(sort -u "$T/a" | tr '\n' ' '), the run recorded $p"
[ "$(pad 2)" = "$p" ] || fail "the two arms of one run record different paddings: $p, $(pad 2)"
# the same seed gives the same padding; other seeds, others (3 seeds, all one size: 1 in 16 million)
expect 0 "$SYSAB" run $R --seed 11
[ "$(pad 3)" = "$p" ] || fail "seed 11 padded by $p, then by $(pad 3)"
for s in 12 13 14; do expect 0 "$SYSAB" run $R --seed $s -l seed=$s; done
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(DISTINCT value) FROM environment WHERE key = 'run.env_pad' AND run > 3")" -gt 1 ] ||
	fail "three seeds, one padding: $(sqlite3 "$SYSAB_DB" "SELECT group_concat(value) FROM environment WHERE key = 'run.env_pad'")"
# a padding drawn per run on purpose is no confounder of a comparison
expect 0 "$SYSAB" compare seed=12 seed=13 --unit run -v
contains "$OUT" "harness.null"
case "$OUT" in *run.env_pad*) fail "compare names the padding as a confounder: $OUT" ;; esac
# --no-randomize-env: the environment as given (here with no SYSAB_ENV_PAD), recorded as off
: >"$T/b"
expect 0 "$SYSAB" run $R --no-randomize-env --arm A="echo \"<\${SYSAB_ENV_PAD-unset}>\" >>$T/b" --arm B=true
r=$(last_run "$SYSAB_DB")
[ "$(pad "$r")" = off ] || fail "--no-randomize-env recorded '$(pad "$r")'"
[ "$(sort -u "$T/b")" = "<unset>" ] || fail "--no-randomize-env: the arm saw SYSAB_ENV_PAD='$(sort -u "$T/b")'"
# --no-randomize-env leaves a SYSAB_ENV_PAD of the user's as it is
: >"$T/c"
expect 0 env SYSAB_ENV_PAD=mine "$SYSAB" run $R --no-randomize-env --arm A="echo \$SYSAB_ENV_PAD >>$T/c" --arm B=true
[ "$(sort -u "$T/c")" = mine ] || fail "--no-randomize-env changed the user's SYSAB_ENV_PAD: $(sort -u "$T/c")"
