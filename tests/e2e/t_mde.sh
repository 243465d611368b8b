# MDE before anything boots (issue 48, items 1 and 5): campaign new prints the smallest change
# its design detects, the same figure plan gives for that design from the same pilot runs;
# --target, --strict, rough defaults, emulator costs, and designs that cannot answer.
expect 0 "$SYSAB" import csv "$REPO/tests/fixtures/csv/same.csv"
C="--backend command --unit-dir $T/units --config cfg=x --command true --config cfg=y --command true"

# plan's design and its MDE from pilot cfg=a; campaign new with that design and --from cfg=a
expect 0 "$SYSAB" plan cfg=a --target 1% --json
read -r pb pr ps pm src <<EOF2
$(printf '%s' "$OUT" | jq -r '[.all.boots, .all.runs_per_boot, .all.samples_per_run,
  (.mde.rows[] | select(.workload == "w.x") | .mde * 100), (.mde.rows[0].source)] | map(tostring) | join(" ")')
EOF2
[ "$src" = pilot ] || fail "plan --json mde source: $src"
[ "$pb" -ge 2 ] || fail "plan planned $pb boots"
expect 0 "$SYSAB" plan cfg=a --target 1%
contains "$OUT" "MDE of $pb boots x $pr run"
expect 0 "$SYSAB" campaign new m1 $C --boots "$pb" --runs "$pr" --from cfg=a -- -w w.x --samples "$ps"
contains "$OUT" "MDE of $pb boots x $pr run"
cm=$(printf '%s\n' "$OUT" | awk '$1 == "w.x" { sub("%", "", $2); print $2 }')
[ -n "$cm" ] || fail "campaign new printed no MDE row for w.x: $OUT"
awk -v a="$pm" -v b="$cm" 'BEGIN { d = a - b; exit !(d < 0.006 && d > -0.006) }' ||
	fail "campaign new MDE $cm% differs from plan's $pm%"
contains "$OUT" "pilot cfg=a"
# the MDE comes before the hint that nothing has booted
printf '%s\n' "$OUT" | awk '/^MDE of/ { m = NR } /nothing boots until/ { n = NR } END { exit !(m && n > m) }' ||
	fail "the MDE is not printed before the start hint"
# the runs' --samples are the design's: more samples per run, a smaller MDE
expect 0 "$SYSAB" campaign new m1s $C --boots "$pb" --runs "$pr" --from cfg=a -- -w w.x --samples 400
cs=$(printf '%s\n' "$OUT" | awk '$1 == "w.x" { sub("%", "", $2); print $2 }')
awk -v a="$cs" -v b="$cm" 'BEGIN { exit !(a < b) }' || fail "400 samples per run: MDE $cs%, not below $cm%"
contains "$OUT" "400 samples/run"
# campaign start prints it again before the first boot
expect 0 "$SYSAB" campaign start m1 --dry-run --from cfg=a
contains "$OUT" "MDE of $pb boots x $pr run"

# --json carries the same MDE (report_mde_json, plan's writer too): per workload the figure,
# its source and samples, the design, confidence, power, emulation, and the target's reach
expect 0 "$SYSAB" campaign new m1j $C --boots "$pb" --runs "$pr" --from cfg=a --target 1% --json -- -w w.x --samples "$ps"
printf '%s' "$OUT" | jq -e . >/dev/null || fail "campaign new --json is not one JSON document: $OUT"
[ "$(printf '%s' "$OUT" | jq -r .name)" = m1j ] || fail "campaign new --json: not the campaign's document"
read -r jb jr js jm jsrc jc jp je jpa jt jreach jneed jav <<EOF2
$(printf '%s' "$OUT" | jq -r '.mde | [.boots, .runs_per_boot, (.rows[] | select(.workload == "w.x") | .samples_per_run,
  .mde * 100, .source), .confidence, .power, .emulated, .paired, .target, .reaches, .boots_needed, .available] |
  map(tostring) | join(" ")')
EOF2
[ "$jb $jr $js" = "$pb $pr $ps" ] || fail "campaign new --json design: $jb x $jr x $js, plan's $pb x $pr x $ps"
awk -v a="$pm" -v b="$jm" 'BEGIN { d = a - b; exit !(d < 0.0001 && d > -0.0001) }' ||
	fail "campaign new --json MDE $jm% differs from plan's $pm%"
[ "$jsrc $jc $jp $je $jpa $jav" = "pilot 0.95 0.8 false false true" ] ||
	fail "campaign new --json: source, confidence, power, emulated, paired, available: $jsrc $jc $jp $je $jpa $jav"
[ "$jt $jreach" = "0.01 true" ] || fail "campaign new --json target: $jt $jreach"
[ "$jneed" -ge 2 ] && [ "$jneed" -le "$pb" ] || fail "campaign new --json boots_needed $jneed (planned $pb)"
# plan's JSON, by the same writer, has the same members (plan's --target is a half-width, not
# an effect to detect: no reaches there)
expect 0 "$SYSAB" plan cfg=a --target 1% --json
[ "$(printf '%s' "$OUT" | jq -r '.mde | [.confidence, .paired, .boots, .rows[0].samples_per_run] | map(tostring) | join(" ")')" = "0.95 false $pb $ps" ] ||
	fail "plan --json mde: $(printf '%s' "$OUT" | jq -c .mde)"
# a target missed: the boots that would reach it, per row and in all
expect 0 "$SYSAB" campaign new m1k $C --boots 2 --from cfg=a --target 0.5% --json -- -w w.x --samples 4
[ "$(printf '%s' "$OUT" | jq -r '.mde | [.reaches, .rows[0].reaches, (.boots_needed > 2), (.boots_needed == .rows[0].boots_needed)] | map(tostring) | join(" ")')" = "false false true true" ] ||
	fail "campaign new --json, a missed target: $(printf '%s' "$OUT" | jq -c .mde)"
# campaign start --json before the first boot: one document, kind mde; the progress on stderr
expect 0 "$SYSAB" campaign start m1 --dry-run --from cfg=a --json
[ "$(printf '%s' "$OUT" | jq -r '[.kind, .mde.boots, .mde.rows[0].source] | map(tostring) | join(" ")')" = "mde $pb pilot" ] ||
	fail "campaign start --json: $OUT"
[ -n "$ERR" ] || fail "campaign start --json --dry-run: no progress on stderr"
# and a design that has no MDE says so, with what it cannot give
expect 0 "$SYSAB" campaign new m1o $C --boots 1 --json -- -w w.x
[ "$(printf '%s' "$OUT" | jq -r '.mde | [.available, .boots, (.rows | length), (.cannot | test("1 boot per configuration gives no verdict"))] | map(tostring) | join(" ")')" = "false 1 0 true" ] ||
	fail "campaign new --boots 1 --json: $(printf '%s' "$OUT" | jq -c .mde)"
expect 2 "$SYSAB" campaign new m1x $C --boots 2 --format markdown -- -w w.x
contains "$ERR" "new and start take --json"
expect 2 "$SYSAB" campaign show m1x

# without --from: every earlier run of the database (both configurations of the import)
expect 0 "$SYSAB" campaign new m2 $C --boots 4 -- -w w.x
contains "$OUT" "earlier runs"

# --target: reached or not, and the boots that would
expect 0 "$SYSAB" campaign new m3 $C --boots 2 --from cfg=a --target 0.5% -- -w w.x --samples 4
contains "$OUT" "target 0.50%: not reached;"
need=$(printf '%s\n' "$OUT" | sed -n 's/.*not reached; \([0-9]*\) boots per configuration would/\1/p')
[ -n "$need" ] && [ "$need" -gt 2 ] || fail "no boots that would reach the target: $OUT"
expect 0 "$SYSAB" campaign new m4 $C --boots "$need" --from cfg=a --target 0.5% -- -w w.x --samples 4
contains "$OUT" "target 0.50%: reached"
# --strict refuses, and nothing is written
expect 2 "$SYSAB" campaign new m5 $C --boots 2 --from cfg=a --target 0.5% --strict -- -w w.x --samples 4
contains "$ERR" "--strict: the design's MDE"
contains "$ERR" "--boots $need would reach it"
expect 2 "$SYSAB" campaign show m5
expect 0 "$SYSAB" campaign new m5 $C --boots "$need" --from cfg=a --target 0.5% --strict -- -w w.x --samples 4

# bad input: a target <= 0, --strict without a target, a pilot that matches nothing
expect 2 "$SYSAB" campaign new m6 $C --boots 2 --target 0%
contains "$ERR" "--target"
expect 2 "$SYSAB" campaign new m6 $C --boots 2 --target -1%
expect 2 "$SYSAB" campaign new m6 $C --boots 2 --strict
contains "$ERR" "give --target PCT too"
expect 2 "$SYSAB" campaign new m6 $C --boots 2 --from cfg=zzz
contains "$ERR" "--from cfg=zzz"
expect 2 "$SYSAB" campaign show m6

# item 5: one boot per configuration, one run per boot: what they cannot give, before any boot
expect 0 "$SYSAB" campaign new m7 $C --boots 1 -- -w w.x
contains "$OUT" "1 boot per configuration gives no verdict"
contains "$OUT" "--boots 2 (a verdict)"
expect 0 "$SYSAB" campaign new m8 $C --boots 3 -- -w w.x
contains "$OUT" "1 run per boot: verdicts, but no plan assurance"
contains "$OUT" "--boots 5 --runs 2"
# plan's df rule: a pilot needs 8 boot-level df, so 5 boots of each configuration
expect 0 "$SYSAB" campaign new m9 $C --boots 3 --runs 2 -- -w w.x
contains "$(printf '%s' "$OUT" | tr '\n' ' ' | tr -s ' ')" "as a pilot, 3 boots per configuration give plan no assurance (8 boot-level degrees of freedom are needed); the smallest that can: --boots 5"
expect 0 "$SYSAB" campaign new m10 $C --boots 5 --runs 2 -- -w w.x
! printf '%s' "$OUT" | grep -q "no assurance\|no plan assurance" || fail "5 boots x 2 runs called unable to plan: $OUT"

# no runs of a workload: rough, from the documented defaults; qemu TCG: emulator costs
export SYSAB_DB="$T/empty.db"
expect 0 "$SYSAB" campaign new r1 $C --boots 4 -- -w kernel.syscall.null
contains "$OUT" "rough"
contains "$OUT" "documented defaults"
expect 0 "$SYSAB" campaign new q1 --backend qemu --arch x86_64 --accel tcg --unit-dir "$T/units" --boots 2 \
	--config pti=on --append pti=on -- -w kernel.syscall.null
contains "$OUT" "of emulator costs (qemu TCG)"
expect 0 "$SYSAB" campaign new q2 --backend qemu --arch x86_64 --accel tcg --unit-dir "$T/units" --boots 2 \
	--config pti=on --append pti=on --json -- -w kernel.syscall.null
[ "$(printf '%s' "$OUT" | jq -r '.mde | [.emulated, .rows[0].source] | map(tostring) | join(" ")')" = "true rough" ] ||
	fail "campaign new --accel tcg --json: $(printf '%s' "$OUT" | jq -c .mde)"

# run --arm: before the first round, what one paired run cannot give and the MDE of two
export SYSAB_DB="$T/arm.db"
expect 0 "$SYSAB" run --quick -w kernel.syscall.null --samples 8 --arm A=true --arm B=true
contains "$OUT" "one paired run gives no verdict: compare needs 2 or more on this boot"
contains "$OUT" "MDE of 2 paired runs on this boot"
printf '%s\n' "$OUT" | awk '/^MDE of 2 paired/ { m = NR } /^run [0-9]+: complete/ && !r { r = NR } END { exit !(m && r > m) }' ||
	fail "the paired MDE is not printed before the run: $OUT"
contains "$OUT" "8 rounds, rough"
expect 0 "$SYSAB" run --quick -w kernel.syscall.null --samples 8 --arm A=true --arm B=true
contains "$OUT" "8 rounds, earlier runs"
# --json: the paired MDE as its own document before the arms' runs, then each arm's run
expect 0 "$SYSAB" run --quick -w kernel.syscall.null --samples 8 --arm A=true --arm B=true --json
printf '%s' "$OUT" | python3 -c '
import json, sys
s, d, i, docs = sys.stdin.read(), json.JSONDecoder(), 0, []
while i < len(s):
    if s[i].isspace():
        i += 1
        continue
    o, i = d.raw_decode(s, i)
    docs.append(o)
kinds = [o["kind"] for o in docs]
assert kinds == ["mde", "run", "run"], kinds
m = docs[0]["mde"]
assert m["paired"] and m["paired_runs"] == 2 and "boots" not in m, m
r = m["rows"][0]
assert r["workload"] == "kernel.syscall.null" and r["rounds"] == 8 and r["source"] == "history", r
assert m["confidence"] == 0.95 and m["power"] == 0.8 and r["mde"] > 0, m
' || fail "run --arm --json: $OUT"
expect 2 "$SYSAB" run --quick -w kernel.syscall.null --arm A=true --arm B=true --until decided --json
contains "$ERR" "--until decided prints its looks as text alone"

# plan of B vs A and factorial plans: per row the MDE their planned design (all rows at once)
# reaches, by the same model as the one-configuration plan's (an A-vs-A plan gives its figure)
export SYSAB_DB="$T/two.db"
expect 0 "$SYSAB" import csv "$REPO/tests/fixtures/csv/same.csv"
mde_of() { printf '%s' "$OUT" | jq -r "$1"; }
expect 0 "$SYSAB" plan cfg=a --json
one=$(mde_of '.mde.rows[] | select(.workload == "w.x") | .mde')
expect 0 "$SYSAB" plan cfg=a cfg=a --json
aa=$(mde_of '.rows[] | select(.workload == "w.x") | .mde')
[ -n "$one" ] && [ "$one" = "$aa" ] || fail "plan cfg=a cfg=a: MDE $aa, the one-configuration plan's $one"
expect 0 "$SYSAB" plan cfg=b cfg=b --json
bb=$(mde_of '.rows[] | select(.workload == "w.x") | .mde')
expect 0 "$SYSAB" plan cfg=a cfg=b --json
ab=$(mde_of '.rows[] | select(.workload == "w.x") | .mde')
d=$(mde_of '[.all.boots, .all.runs_per_boot, .all.samples_per_run] | map(tostring) | join(" ")')
# A's noise and B's: between A vs A and B vs B (the same design here)
awk -v a="$aa" -v b="$bb" -v x="$ab" 'BEGIN { lo = a < b ? a : b; hi = a < b ? b : a; exit !(x > lo && x < hi) }' ||
	fail "plan cfg=a cfg=b: MDE $ab not between A vs A $aa and B vs B $bb"
expect 0 "$SYSAB" plan cfg=a cfg=b
contains "$OUT" "MDE of that design (95% confidence, 80% power)"
pm=$(printf '%s\n' "$OUT" | awk '/^MDE of that design/ { on = 1; next } on && $1 == "w.x" { sub("%", "", $2); print $2; exit }')
awk -v a="$pm" -v b="$ab" 'BEGIN { d = a - 100 * b; exit !(d < 0.006 && d > -0.006) }' ||
	fail "plan cfg=a cfg=b: text MDE $pm% differs from its JSON $ab"
contains "$OUT" "all rows at once: $(echo "$d" | awk '{ print $1 }') boots"
# a 2x2 factorial: every effect (the interaction needs most) and the main effects alone, whose
# contrast has a quarter of the variance: half the MDE
export SYSAB_DB="$T/fact.db"
expect 0 "$SYSAB" import csv "$REPO/examples/pernode-pie-boots.csv"
expect 0 "$SYSAB" plan --factors pernode,pie -w index --json
r=$(mde_of '.rows[] | select(.workload == "index") | [.mde, .mde_main] | map(tostring) | join(" ")')
echo "$r" | awk '{ exit !($1 > 0 && $2 > 0 && $2 / $1 > 0.45 && $2 / $1 < 0.55) }' ||
	fail "plan --factors: every effect's and the main effects' MDE: $r"
expect 0 "$SYSAB" plan --factors pernode,pie -w index
contains "$OUT" "(every effect; main effects alone)"
contains "$OUT" "main effects "
