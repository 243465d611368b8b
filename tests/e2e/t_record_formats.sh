# campaign show, system show and run --allocate print through the format table: --format json
# gives each as a record (checked with jq, the same bytes as --json), markdown as tables, and a
# format or option a verb does not print exits 2 naming what to use.
export SYSAB_DB="$T/rec.db"
RUN="--quick -w harness.null --samples 3 --sample-ms 10 --warmup-ms 0 -q"

# campaign show: one campaign as an object, every campaign as an array; text as before
expect 0 "$SYSAB" run $RUN # a database without campaigns
expect 0 "$SYSAB" campaign show
[ "$OUT" = "no campaigns yet; \`sysab campaign new NAME ...\` plans one" ] || fail "campaign show with none: '$OUT'"
expect 0 "$SYSAB" campaign show --format json
[ "$OUT" = "[]" ] || fail "campaign show --format json with none: '$OUT'"
expect 0 "$SYSAB" campaign new --unit-dir "$T/units" c1 --backend command --boots 2 --seed 7 \
	--config 'pti=on' --command true --config 'pti=off' --command true -- $RUN
expect 0 "$SYSAB" campaign show c1 --format json
printf '%s' "$OUT" >"$T/c1.json"
jq -e '.name == "c1" and .backend == "command" and .boots == 2 and .seed == 7 and (.slots | length) == 4' \
	"$T/c1.json" >/dev/null || fail "campaign show --format json: not the campaign's record"
expect 0 "$SYSAB" campaign show c1 --json
[ "$OUT" = "$(cat "$T/c1.json")" ] || fail "campaign show: --json and --format json differ"
expect 0 "$SYSAB" campaign show --format json
printf '%s' "$OUT" | jq -e 'type == "array" and length == 1 and .[0].name == "c1"' >/dev/null ||
	fail "campaign show --format json without a name: not an array of every campaign"
expect 0 "$SYSAB" campaign new --unit-dir "$T/units" c2 --backend command --boots 1 --config 'a=1' --command true -- $RUN
expect 0 "$SYSAB" campaign show
[ -z "$(printf '%s\n' "$OUT" | grep -B1 '^campaign c2:' | head -n 1)" ] || fail "campaign show: no empty line between campaigns"
expect 0 "$SYSAB" campaign status c1
contains "$OUT" "analysis: \`sysab analyze campaign:c1\` analyzes it; before the campaign is done"
expect 0 "$SYSAB" campaign status c1 --format json
printf '%s' "$OUT" | jq -e '.name == "c1"' >/dev/null || fail "campaign status --format json: not a record"
expect 0 "$SYSAB" campaign show c1 --format json -o "$T/c1-o.json"
[ "$(cat "$T/c1-o.json")" = "$(cat "$T/c1.json")" ] || fail "campaign show -o: not the record standard output gets"
expect 0 "$SYSAB" campaign show c1 --format markdown
contains "$OUT" "## Campaign c1"
contains "$OUT" "| config | name | boots it with |"
contains "$OUT" "| pti=off | command true |"
expect 2 "$SYSAB" campaign show c1 --format csv
contains "$ERR" "text, json or markdown"
expect 2 "$SYSAB" campaign start c1 --format markdown
contains "$ERR" "for show and status"
expect 2 "$SYSAB" campaign resume c1 --json
contains "$ERR" "for show and status"

# system show on a fake tree
F=$REPO/tests/fixtures/system
expect 0 "$SYSAB" system show --root "$F/intel-smt" --format json
printf '%s' "$OUT" >"$T/sys.json"
jq -e '(.knobs | length) >= 10 and (.knobs | all(has("name") and has("verdict"))) and (.cpus | type) == "array"' \
	"$T/sys.json" >/dev/null || fail "system show --format json: not the state's record"
expect 0 "$SYSAB" system show --root "$F/intel-smt" --json
[ "$OUT" = "$(cat "$T/sys.json")" ] || fail "system show: --json and --format json differ"
expect 0 "$SYSAB" system show --root "$F/intel-smt" --format markdown
contains "$OUT" "| knob | value | verdict | why |"
contains "$OUT" "| cpufreq.governor |"
cp -a "$F/intel-smt" "$T/tree"
expect 2 "$SYSAB" system tune --root "$T/tree" --state-file "$T/st.json" --format markdown
contains "$ERR" "--format markdown and -o are for"
[ ! -e "$T/st.json" ] || fail "a refused tune saved state"

# run --allocate: the allocation record first, then the run's, the one its settings hold
W="-w unixbench.syscall -w cpu.int -c 1 --quick --no-probe -q"
for i in 1 2; do
	expect 0 "$SYSAB" run $W -l phase=pilot
done
expect 0 "$SYSAB" run $W --allocate phase=pilot -l phase=alloc --format json
printf '%s' "$OUT" >"$T/alloc.json"
jq -e -s 'length == 2 and .[0].from == "phase=pilot" and (.[0].from_runs | length) == 2 and
	(.[0].allocated | type) == "array" and .[0].default > 0 and .[1].run.settings.allocation == .[0]' \
	"$T/alloc.json" >/dev/null || fail "run --allocate --format json: not the allocation record, then the run's"
expect 0 "$SYSAB" run $W --allocate phase=pilot -l phase=alloc --format markdown
contains "$OUT" "## Allocation from \`phase=pilot\` (2 runs)"
