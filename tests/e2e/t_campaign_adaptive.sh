# campaign new --until decided: adaptive campaigns with the command backend and simulated
# reboots (as t_campaign.sh), on deterministic samples (SYSAB_TEST_FAKE_SAMPLES: each boot's
# noise is drawn from its boot id, and the boot ids are numbered), so nothing depends on the
# machine's speed: bad input, a large effect that stops early, A/A that stops at its cap, and
# a driver killed with -9 mid-slot whose campaign resumes with no boot lost or doubled.
RUN="--quick -w harness.null --samples 3 --sample-ms 10 --warmup-ms 0 -q"
# the boot loader records what it was asked to boot; boot simulates the reboot into it
fake_reboots # BOOTCMD is one word: cfgs below is split by the shell
boot() { fake_boot; }
new() { expect 0 "$SYSAB" campaign new --unit-dir "$T/units" "$@"; }
cfgs() { echo --config pti=on --append pti=on --command "$BOOTCMD" --config pti=off --append pti=off --command "$BOOTCMD"; }
campaigns() { if [ -e "$SYSAB_DB" ]; then sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign"; else echo 0; fi; }
looks() { sqlite3 "$SYSAB_DB" "SELECT group_concat(l.k || ':' || l.blocks || ':' || l.decision, ' ') FROM campaign_adaptive_look l JOIN campaign c ON c.id = l.campaign WHERE c.name = '$1' ORDER BY l.k"; }
# drive NAME: boot and resume until the campaign is no longer running (at most 40 boots)
drive() {
	i=0
	while [ "$(sqlite3 "$SYSAB_DB" "SELECT state FROM campaign WHERE name = '$1'")" = running ] && [ $i -lt 40 ]; do
		boot
		expect 0 "$SYSAB" campaign resume "$1"
		i=$((i + 1))
	done
}

# bad input: exit 2, naming the option, nothing written
expect 2 "$SYSAB" campaign new x --backend command --until maybe $(cfgs)
contains "$ERR" "--until 'maybe': give --until decided"
expect 2 "$SYSAB" campaign new x --backend command --until decided --max-boots 1 $(cfgs)
contains "$ERR" "--max-boots"
expect 2 "$SYSAB" campaign new x --backend command --until decided --budget soon $(cfgs)
contains "$ERR" "--budget"
expect 2 "$SYSAB" campaign new x --backend command --until decided --budget 0 $(cfgs)
contains "$ERR" "--budget: '0' is not a positive duration"
expect 2 "$SYSAB" campaign new x --backend command --until decided --boots 4 $(cfgs)
contains "$ERR" "--boots and --until"
expect 2 "$SYSAB" campaign new x --backend command --max-boots 4 $(cfgs)
contains "$ERR" "give --until decided too"
expect 2 "$SYSAB" campaign new x --backend command --until decided --strict --target 5% $(cfgs)
contains "$ERR" "--strict and --until"
expect 2 "$SYSAB" campaign new x --backend command --until decided --config a=1 --command true
contains "$ERR" "exactly two --config"
expect 2 "$SYSAB" campaign start x --until decided
contains "$ERR" "--until, --max-boots and --budget are for"
[ "$(campaigns)" = 0 ] || fail "a refused adaptive campaign was stored"

# a database of schema version 9 (before the adaptive tables): a reading command asks for the
# migration; campaign new migrates it (with a backup) and stores the adaptive campaign
expect 0 "$SYSAB" campaign new plain --backend command --boots 2 $(cfgs) -- $RUN
sqlite3 "$SYSAB_DB" "DROP TABLE bisect_step; DROP TABLE bisect; DROP TABLE campaign_adaptive_look; DROP TABLE campaign_adaptive; PRAGMA user_version = 9"
expect 2 "$SYSAB" campaign show plain
contains "$ERR" "written by an older sysab"
expect 2 "$SYSAB" campaign new x --backend command --until decided --max-boots 1 $(cfgs)
[ ! -e "$SYSAB_DB.v9.bak" ] || fail "refused input migrated the database"
expect 0 "$SYSAB" campaign new mig --backend command --until decided --max-boots 3 $(cfgs) -- $RUN
[ -f "$SYSAB_DB.v9.bak" ] || fail "no backup of the version-9 database"
[ "$(sqlite3 "$SYSAB_DB" "PRAGMA user_version")" = 11 ] || fail "not migrated to version 11"
[ "$(sqlite3 "$SYSAB_DB" "SELECT c.name || ' ' || a.max_boots FROM campaign_adaptive a JOIN campaign c ON c.id = a.campaign")" = "mig 3" ] ||
	fail "the adaptive campaign after migrating: $(sqlite3 "$SYSAB_DB" "SELECT * FROM campaign_adaptive")"
rm -f "$SYSAB_DB" "$SYSAB_DB".*

# a large effect (pti=off takes twice as long) stops early, before its cap, with "slower"
export SYSAB_TEST_FAKE_SAMPLES="0.05:pti=off:2"
new big --backend command --seed 7 --until decided --max-boots 6 $(cfgs) -- $RUN
contains "$OUT" "2 configurations x 6 boots"
contains "$OUT" "adaptive: --until decided, target 1.00%, at most 6 boots per configuration; goes on"
contains "$OUT" "MDE of 6 boots"
[ "$(sqlite3 "$SYSAB_DB" "SELECT until || ' ' || target || ' ' || max_boots || ' ' || budget_s FROM campaign_adaptive")" = "decided 0.01 6 0.0" ] ||
	fail "adaptive settings stored: $(sqlite3 "$SYSAB_DB" "SELECT * FROM campaign_adaptive")"
expect 0 "$SYSAB" campaign start big
drive big
b=$(sqlite3 "$SYSAB_DB" "SELECT boots FROM campaign WHERE name = 'big' AND state = 'done'")
[ -n "$b" ] && [ "$b" -lt 6 ] || fail "big did not end before its cap: $(sqlite3 "$SYSAB_DB" "SELECT state, boots FROM campaign WHERE name = 'big'")"
contains "$OUT" "adaptive campaign big stopped: decided (every chosen workload has a verdict) after $b blocks (look $((b - 1)))"
contains "$OUT" "harness.null                     x1  slower"
contains "$OUT" "reached with $b boots per configuration"
want=""
k=1
while [ $k -lt $((b - 1)) ]; do want="$want$k:$((k + 1)):go_on "; k=$((k + 1)); done
[ "$(looks big)" = "${want}$((b - 1)):$b:decided" ] || fail "looks of big: $(looks big)"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name = 'big'")" = $((2 * b)) ] ||
	fail "the slots after the stop were kept"
[ ! -e "$T/units/sysab-campaign-big.service" ] || fail "the unit was left after the stop"
expect 0 "$SYSAB" campaign show big
contains "$OUT" "stopped: decided"
contains "$OUT" "look $((b - 1)) after $b blocks: 1 decided, 0 open: decided"
expect 0 "$SYSAB" campaign status big --json
[ "$(echo "$OUT" | jq -r '.adaptive.stopped')" = decided ] || fail "JSON: $OUT"
[ "$(echo "$OUT" | jq -r '.adaptive.looks[-1].rows.decided[0]')" = harness.null ] || fail "JSON looks: $OUT"
expect 0 "$SYSAB" campaign show big --format markdown
contains "$OUT" "- adaptive: --until decided"
contains "$OUT" "- look $((b - 1)) after $b blocks"
# the verdict is the one compare gives at that look
expect 0 "$SYSAB" compare 'campaign:big pti=on' 'campaign:big pti=off' --look $((b - 1)) --max-boots 6 --json
[ "$(echo "$OUT" | jq -r '.rows[] | select(.workload == "harness.null") | .verdict' | head -n 1)" = slower ] ||
	fail "compare at look 1 does not say slower"

# A/A: no effect; at a 1% margin boots of 5% noise decide nothing, so it stops at its cap of 3
export SYSAB_TEST_FAKE_SAMPLES="0.05"
new aa --backend command --seed 3 --until decided --max-boots 3 $(cfgs) -- $RUN
expect 0 "$SYSAB" campaign start aa
drive aa
contains "$OUT" "adaptive campaign aa stopped: cap (--max-boots reached without a verdict for every workload) after 3 blocks (look 2)"
contains "$OUT" "inconclusive"
contains "$OUT" "reached with 3 boots per configuration"
[ "$(looks aa)" = "1:2:go_on 2:3:cap" ] || fail "looks of aa: $(looks aa)"
expect 0 "$SYSAB" campaign status aa
contains "$OUT" "stopped: cap"

# the budget: spent by the end of the first block, so the campaign stops there, with no look
new bud --backend command --seed 3 --until decided --max-boots 4 --budget 1ms $(cfgs) -- $RUN
expect 0 "$SYSAB" campaign start bud
drive bud
contains "$OUT" "adaptive campaign bud stopped: budget (--budget spent without a verdict for every workload) after 1 block (no look yet"
[ -z "$(looks bud)" ] || fail "looks of bud: $(looks bud)"
[ "$(sqlite3 "$SYSAB_DB" "SELECT c.state || ' ' || c.boots || ' ' || a.stopped FROM campaign c JOIN campaign_adaptive a ON a.campaign = c.id WHERE c.name = 'bud'")" = "done 1 budget" ] ||
	fail "bud did not stop on its budget"

# kill -9 of the driver in the middle of a slot: the next boot finds the slot interrupted, boots
# it again, and the campaign goes on; every slot ends with one run, none twice, and the looks
# are numbered 1, 2, ... by block, each taken once
export SYSAB_TEST_FAKE_SAMPLES="0.05"
new kk --backend command --seed 5 --until decided --max-boots 3 $(cfgs) -- --quick -w harness.null --samples 4 --sample-ms 300 --warmup-ms 0 -q
expect 0 "$SYSAB" campaign start kk
boot
expect 0 "$SYSAB" campaign resume kk
boot
expect 0 "$SYSAB" campaign resume kk
boot
setsid "$SYSAB" campaign resume kk >"$T/kk.out" 2>&1 &
pid=$!
i=0
while [ "$(sqlite3 "$SYSAB_DB" "SELECT state FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name = 'kk' AND slot = 2")" != running ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
sleep 0.3
kill -9 -- -$pid 2>/dev/null
wait $pid 2>/dev/null
drive kk
[ "$(looks kk)" = "1:2:go_on 2:3:cap" ] || fail "looks of kk: $(looks kk)"
v=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name = 'kk' AND s.state = 'done'")
[ "$v" = 6 ] || fail "kk: $v of 6 slots done"
v=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM (SELECT cr.slot FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign WHERE c.name = 'kk' GROUP BY cr.slot HAVING count(*) = 1)")
[ "$v" = 6 ] || fail "kk: $v of 6 slots with exactly one run"
expect 0 "$SYSAB" campaign show kk
contains "$OUT" "stopped: cap"
db_ok "$SYSAB_DB"
