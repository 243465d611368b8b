# published: the thread's four UnixBench indexes (one value per kernel) imported with
# `sysab import csv`: analyze --factors pernode,pie shows every effect's point estimate (the
# contrasts of stats_factorial over the cells' logs) and no interval, q or verdict that reads
# like one, in at most 10 lines that say why there is no interval and what would give one;
# JSON carries the estimate with a null interval and the reason; markdown and HTML agree.
expect 0 "$SYSAB" import csv "$REPO/examples/unixbench-pernode.csv"
expect 0 env COLUMNS=80 "$SYSAB" analyze --factors pernode,pie
n=$(printf '%s\n' "$OUT" | wc -l)
[ "$n" -le 10 ] || fail "the reply is $n lines: $OUT"
# main effects: half the sum of the log differences at each level of the other factor;
# the interaction: the difference of those differences
pn=$(python3 -c 'import math; print("%+.1f%%" % (100 * math.expm1((math.log(4062.2 / 3938.7) + math.log(4028.7 / 4009.7)) / 2)))')
pi=$(python3 -c 'import math; print("%+.1f%%" % (100 * math.expm1((math.log(4009.7 / 3938.7) + math.log(4028.7 / 4062.2)) / 2)))')
ix=$(python3 -c 'import math; print("%+.1f%%" % (100 * math.expm1(math.log(4028.7 / 4009.7) - math.log(4062.2 / 3938.7))))')
[ "$pn $pi $ix" = "+1.8% +0.5% -2.6%" ] || fail "the expected contrasts: $pn $pi $ix"
printf '%s\n' "$OUT" | grep -Eq "^  pernode: yes vs no +\\$pn\$" || fail "pernode's point estimate $pn: $OUT"
printf '%s\n' "$OUT" | grep -Eq "^  pie: yes vs no +\\$pi\$" || fail "pie's point estimate $pi: $OUT"
printf '%s\n' "$OUT" | grep -Eq "^  pernode x pie +\\$ix\$" || fail "the interaction's point estimate $ix: $OUT"
contains "$OUT" "No interval: 1 boot per cell, so
no verdict"
contains "$OUT" "\`sysab plan --factors pernode,pie\` then sizes the experiment."
case $OUT in *"no data"* | *"95% CI"* | *"q "* | *"["*) fail "a word or column that reads like an interval, q or verdict: $OUT" ;; esac
# the hint runs as printed
expect 0 "$SYSAB" plan --factors pernode,pie

expect 0 "$SYSAB" analyze --factors pernode,pie --json
v=$(printf '%s' "$OUT" | jq -r '[.rows[0].effects[] | [.no_interval, (.comparison.display_pct * 1000 | round),
	.comparison.display_pct_lo, .comparison.display_pct_hi, .comparison.q] | map(tostring) | join(" ")] | join("; ")')
[ "$v" = "1 boot per cell 1796 null null null; 1 boot per cell 480 null null null; 1 boot per cell -2581 null null null" ] ||
	fail "JSON effects: $v"
[ "$(printf '%s' "$OUT" | jq -r '[.data.points_only, .data.why_no_interval] | map(tostring) | join(" ")')" = "true 1 boot per cell" ] ||
	fail "JSON data: $(printf '%s' "$OUT" | jq -c .data)"

expect 0 "$SYSAB" analyze --factors pernode,pie --format markdown
contains "$OUT" "| pernode: yes vs no | +1.8% |  |  | no interval |"
contains "$OUT" "No interval (1 boot per cell)"
expect 0 "$SYSAB" report analyze --factors pernode,pie -o "$T/pub.html"
grep -q '<td>pernode x pie</td><td class="num">-2.6%</td><td class="num"></td><td class="num"></td><td class="verdict v-no_data">no interval</td>' \
	"$T/pub.html" || fail "HTML: the interaction's row"
if grep -q 'class="effect-ci"' "$T/pub.html"; then fail "HTML: an interval line drawn for a point estimate"; fi

