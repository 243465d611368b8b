# sysab bisect with the command backend and simulated reboots (as t_campaign_adaptive.sh), on
# deterministic samples (SYSAB_TEST_FAKE_SAMPLES: each boot's noise drawn from its boot id, the
# label slow=yes 3% slower): an 8-configuration series slower from the 6th names the 6th,
# confirmed; A/A ends say "no change between the ends" at the first step; kill -9 mid-step then
# resume finds the same culprit with no boot lost or doubled; bad input exits 2, nothing written.
RUN="--quick -w harness.null --samples 3 --sample-ms 10 --warmup-ms 0 -q --no-probe" # no noise probe: the samples are fake, and each boot saves its 0.4 s
fake_reboots
boot() { fake_boot; }
# the series: v=1..8, the 6th on slow=yes (the fake samples make those 3% slower)
: >"$T/series"
for v in 1 2 3 4 5 6 7 8; do
	s=""
	[ $v -ge 6 ] && s=" slow=yes"
	echo "v=$v$s --append v=$v --command $T/bootcmd" >>"$T/series"
done
state() { sqlite3 "$SYSAB_DB" "SELECT state FROM bisect WHERE name = '$1'"; }
# drive NAME: boot and resume until the bisection is no longer running (at most 200 boots)
drive() {
	i=0
	while [ "$(state "$1")" = running ] && [ $i -lt 200 ]; do
		boot
		expect 0 "$SYSAB" bisect resume "$1"
		i=$((i + 1))
	done
}
new() {
	n=$1
	shift
	expect 0 "$SYSAB" bisect new "$n" --backend command --seed 7 --unit-dir "$T/units" "$@"
}
nothing_stored() {
	[ ! -e "$SYSAB_DB" ] || [ "$(sqlite3 "$SYSAB_DB" "SELECT (SELECT count(*) FROM bisect) + (SELECT count(*) FROM campaign)")" = 0 ] ||
		fail "a refused bisection stored something"
}

# bad input: exit 2, naming it, nothing written
expect 2 "$SYSAB" bisect new x --series "$T/series" --good 1 --bad 8
contains "$ERR" "give --backend"
expect 2 "$SYSAB" bisect new x --series "$T/series" --good 9 --bad 8 --backend command
contains "$ERR" "--good 9: the series has configurations 1 to 8"
expect 2 "$SYSAB" bisect new x --series "$T/series" --good 'v=9' --bad 8 --backend command
contains "$ERR" "--good 'v=9': no configuration of the series has these labels"
expect 2 "$SYSAB" bisect new x --series "$T/series" --good 6 --bad 2 --backend command
contains "$ERR" "comes after --bad 2"
: >"$T/empty"
expect 2 "$SYSAB" bisect new x --series "$T/empty" --good 1 --bad 2 --backend command
contains "$ERR" "--series $T/empty: no configuration in it (empty)"
expect 2 "$SYSAB" bisect new x --series "$T/nonesuch" --good 1 --bad 2 --backend command
contains "$ERR" "--series $T/nonesuch"
printf 'v=1 --append v=1 --command true\nv=1 --append x --command true\n' >"$T/twice"
expect 2 "$SYSAB" bisect new x --series "$T/twice" --good 1 --bad 2 --backend command
contains "$ERR" "configurations 1 and 2 of the series have the same labels"
printf 'v=1 --append v=1\nv=2 --append v=2\n' >"$T/nocmd"
expect 2 "$SYSAB" bisect new x --series "$T/nocmd" --good 1 --bad 2 --backend command
contains "$ERR" "configuration 1"
expect 2 "$SYSAB" bisect new x --series "$T/series" --good 1 --bad 8 --backend command --max-boots 5
contains "$ERR" "--max-boots"
nothing_stored
expect 2 "$SYSAB" bisect show nope
contains "$ERR" "bisection 'nope': no bisection of that name"
expect 2 "$SYSAB" bisect resume nope
contains "$ERR" "bisection 'nope'"
expect 2 "$SYSAB" bisect start x --good 1
contains "$ERR" "run arguments are for"
expect 2 "$SYSAB" bisect frob x
contains "$ERR" "'frob' is not a bisect command"
nothing_stored

# the dry run: every step's campaign, nothing stored
expect 0 "$SYSAB" bisect new dry --series "$T/series" --good 1 --bad 8 --backend command --dry-run -- $RUN
contains "$OUT" "step 1 (campaign dry.s1): 4 with 1 and 8"
contains "$OUT" "step 2: 6 with 4 and 8 | 2 with 1 and 4"
contains "$OUT" "at most 3 steps"
nothing_stored

# 3% slower from the 6th: steps 4 (good), 6 (bad), 5 (good); the culprit 6, confirmed
export SYSAB_TEST_FAKE_SAMPLES="0.003:slow=yes:1.03"
new k --series "$T/series" --good 'v=1' --bad 8 -- $RUN
contains "$OUT" "bisection k stored"
[ "$(state k)" = new ] || fail "k: state $(state k)"
expect 0 "$SYSAB" bisect start k
drive k
expect 0 "$SYSAB" bisect show k
show_k=$OUT
contains "$OUT" "bisection k: culprit 6 'slow=yes v=6' (after 5 'v=5'), confirmed"
contains "$OUT" "effect: harness.null"
contains "$OUT" "step 1: 4 'v=4' between 1 and 8: good (equivalent_to_good)"
contains "$OUT" "step 2: 6 'slow=yes v=6' between 4 and 8: bad (slower_than_good_equivalent_to_bad)"
contains "$OUT" "step 3: 5 'v=5' between 4 and 6: good"
[ "$(echo "$OUT" | wc -l)" -le 15 ] || fail "show is longer than 15 lines"
expect 0 "$SYSAB" bisect show k --json
[ "$(echo "$OUT" | jq -r '.culprit, .check, .steps[0].call, .steps[1].call, .steps[2].call' | tr '\n' ' ')" = "6 confirmed good bad good " ] ||
	fail "JSON: $OUT"
[ "$(echo "$OUT" | jq -r '.effect.lo > 0')" = true ] || fail "the effect's interval: $OUT"
expect 0 "$SYSAB" bisect show k --format markdown
contains "$OUT" "### bisection k: culprit 6"
contains "$OUT" "- step 1:"
# every boot is kept: the steps' and the check's slots each hold one run
booted=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name LIKE 'k.%' AND s.state = 'done'")
runs=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign WHERE c.name LIKE 'k.%'")
[ "$booted" = "$runs" ] || fail "k: $booted boots, $runs runs"
[ "$(echo "$show_k" | tail -n 1)" = "$booted boots in all, at most 24 per step; state found" ] || fail "k's boots: $show_k"
# the steps reuse earlier boots: step 2 judged v=4 with step 1's boots too
expect 0 "$SYSAB" compare 'bisect=k v=4' 'bisect=k slow=yes v=6' --json
[ "$(echo "$OUT" | jq -r '.a.runs')" -gt "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign JOIN campaign_slot s ON s.campaign = cr.campaign AND s.slot = cr.slot WHERE c.name = 'k.s2' AND s.config = 0")" ] ||
	fail "v=4 has no boots but step 2's"
# a campaign of a step resumed by its name goes to its bisection
expect 0 "$SYSAB" campaign resume k.s1
contains "$OUT" "bisection k: culprit 6"

# A/A: the ends do not differ: "no change between the ends" at the first step
export SYSAB_TEST_FAKE_SAMPLES="0.003"
new aa --series "$T/series" --good 1 --bad 8 -- $RUN
expect 0 "$SYSAB" bisect start aa
drive aa
expect 0 "$SYSAB" bisect show aa
contains "$OUT" "bisection aa: no change between the ends"
contains "$OUT" "step 1: 4 'v=4' between 1 and 8: no_step (ends_not_slower)"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM bisect_step x JOIN bisect b ON b.id = x.bisect WHERE b.name = 'aa'")" = 1 ] ||
	fail "aa took more than one step"

# kill -9 in the middle of a boot's run, then resume: the same culprit, every slot with one run
export SYSAB_TEST_FAKE_SAMPLES="0.003:slow=yes:1.03"
new kk --series "$T/series" --good 1 --bad 8 -- --quick -w harness.null --samples 4 --sample-ms 200 --warmup-ms 0 -q
expect 0 "$SYSAB" bisect start kk
for i in 1 2 3 4; do
	boot
	expect 0 "$SYSAB" bisect resume kk
done
boot
"$SYSAB" bisect resume kk >"$T/kk.out" 2>&1 &
pid=$!
i=0
while [ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name LIKE 'kk.%' AND s.state = 'running'")" = 0 ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
sleep 0.3
[ $i -lt 200 ] || fail "kk: no slot ran"
# a crash: the driver, its run and the run's children die at once
kids=$(pgrep -P $pid || true)
grand=""
for k in $kids; do grand="$grand $(pgrep -P "$k" || true)"; done
kill -9 $pid $kids $grand 2>/dev/null
wait $pid 2>/dev/null
# the killed driver left its slot running: the next resume finds it interrupted
killed=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name LIKE 'kk.%' AND s.state = 'running'")
[ "$(state kk)" = running ] || fail "kk ended before the kill: $(state kk)"
drive kk
expect 0 "$SYSAB" bisect show kk
contains "$OUT" "bisection kk: culprit 6 'slow=yes v=6' (after 5 'v=5'), confirmed"
v=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name LIKE 'kk.%' AND s.state = 'done'")
w=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM (SELECT cr.campaign, cr.slot FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign WHERE c.name LIKE 'kk.%' GROUP BY cr.campaign, cr.slot HAVING count(*) = 1)")
[ "$v" = "$w" ] || fail "kk: $v slots done, $w with exactly one run"
[ "$killed" = 1 ] || fail "the driver was not killed mid-slot"
[ "$(echo "$OUT" | tail -n 1)" = "$v boots in all, at most 24 per step; state found" ] || fail "kk's boots: $OUT"

# stop: after the current boot; resume goes on
new st --series "$T/series" --good 1 --bad 8 -- $RUN
expect 0 "$SYSAB" bisect start st
boot
expect 0 "$SYSAB" bisect resume st
expect 0 "$SYSAB" bisect stop st
[ "$(state st)" = stopped ] || fail "st: state $(state st)"
expect 0 "$SYSAB" bisect resume st
[ "$(state st)" = running ] || fail "st did not go on: $(state st)"
db_ok "$SYSAB_DB"
