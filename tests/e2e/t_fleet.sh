# fleet exports: kcidb validates against the KCIDB v4 schema subset; lava prints one lava-test-case per slot with the right result.
SCHEMA="$REPO/tests/fixtures/kcidb/kcidb-v4-tests.schema.json"
VALIDATE="python3 $REPO/tests/fixtures/kcidb/validate.py"
# (--no-host-ref: four slots for the four outcomes)
expect 0 "$SYSAB" run --quick -w harness.null -w kernel.syscall.null -w kernel.sched.yield -w kernel.vdso.clock --no-host-ref -q \
	-l kcidb.build_id=maestro:abc123 -l commit=deadbeef
# give the four slots the four outcomes: a failed self-check, an error, unsupported (the first stays ok)
sqlite3 "$SYSAB_DB" "UPDATE slot SET checks = '[{\"name\":\"ops per op\",\"lo\":0.9,\"hi\":1.1,\"value\":2.5,\"ok\":false}]' WHERE workload = 'kernel.syscall.null';
	UPDATE slot SET status = 'error', reason = 'worker exited with status 1' WHERE workload = 'kernel.sched.yield';
	UPDATE slot SET status = 'unsupported', reason = 'no vDSO here' WHERE workload = 'kernel.vdso.clock';
	DELETE FROM sample WHERE workload = 'kernel.vdso.clock'" || fail "cannot set up the slot outcomes"
uuid=$(sqlite3 "$SYSAB_DB" 'SELECT uuid FROM run WHERE id = 1')
[ -n "$uuid" ] || fail "run 1 has no uuid"

# kcidb: the document validates, and the tests carry the statuses, values and machine
expect 0 "$SYSAB" export --format kcidb -o "$T/k.json"
$VALIDATE "$SCHEMA" "$T/k.json" || fail "kcidb export does not validate: $(head -c 2000 "$T/k.json")"
j() { jq -r "$1" "$T/k.json"; }
[ "$(j '.version.major, .version.minor' | tr '\n' ' ')" = "4 5 " ] || fail "version: $(j .version)"
[ "$(j '.tests | length')" = 4 ] || fail "tests: $(j '.tests | length')"
[ "$(j '[.tests[] | .path + "=" + .status] | join(" ")')" = \
	"sysab.harness.null.c1=PASS sysab.kernel.sched.yield.c1=ERROR sysab.kernel.syscall.null.c1=FAIL sysab.kernel.vdso.clock.c1=SKIP" ] ||
	fail "statuses: $(j '[.tests[] | .path + "=" + .status] | join(" ")')"
[ "$(j '.tests[0].id')" = "sysab:$uuid:harness.null:1" ] || fail "id: $(j '.tests[0].id')"
[ "$(j '.tests[0].build_id')" = "maestro:abc123" ] || fail "build_id from the label: $(j '.tests[0].build_id')"
[ "$(j '.tests[3] | has("number")')" = false ] || fail "a skipped test has a number"
[ "$(j '.tests[2].number.unit')" = "syscall/s" ] || fail "unit: $(j '.tests[2].number')"
[ "$(j '.tests[0].environment.misc.hostname')" = "$(sqlite3 "$SYSAB_DB" 'SELECT hostname FROM machine')" ] ||
	fail "environment: $(j '.tests[0].environment.misc.hostname')"
[ "$(j '.tests[0].misc.labels.commit')" = deadbeef ] || fail "labels: $(j '.tests[0].misc.labels')"
[ "$(j '.tests[0].environment.misc.env["kernel.release"]')" = "$(uname -r)" ] || fail "env in misc"
# the value is the run's median, as sysab show --json reports it
expect 0 "$SYSAB" show 1 --json
med=$(printf '%s' "$OUT" | jq '.results[] | select(.workload == "harness.null") | .median_ops_per_s')
[ "$(jq -n --argjson a "$(j '.tests[0].number.value')" --argjson b "$med" '($a - $b) | fabs < 1e-9 * $b')" = true ] ||
	fail "number $(j '.tests[0].number.value') vs median $med"
# the schema is not a rubber stamp: a bad status, an extra key, a bad id fail it
for bad in '.tests[0].status = "OK"' '.tests[0].colour = 1' '.tests[0].id = "Sysab-1"' \
	'.tests[0].number.prefix = "kilo"' 'del(.tests[0].build_id)' '.version.major = 5'; do
	jq "$bad" "$T/k.json" >"$T/bad.json"
	$VALIDATE "$SCHEMA" "$T/bad.json" 2>/dev/null && fail "the schema accepts $bad"
done
# without the label the build is named by the kernel release
sqlite3 "$SYSAB_DB" "DELETE FROM label WHERE key = 'kcidb.build_id'" || fail "cannot drop the label"
expect 0 "$SYSAB" export --format kcidb run:1
[ "$(printf '%s' "$OUT" | jq -r '.tests[0].build_id')" = "sysab:kernel:$(uname -r)" ] || fail "default build_id"

# lava: one line per slot, in the database's order, results and measurements
expect 0 "$SYSAB" export --format lava
printf '%s\n' "$OUT" >"$T/lava.txt"
[ "$(wc -l <"$T/lava.txt")" = 4 ] || fail "lava lines: $OUT"
grep -q '^lava-test-case harness\.null\.c1 --result pass --measurement [0-9]*\.[0-9]\{3\} --units op/s$' "$T/lava.txt" ||
	fail "pass line: $OUT"
grep -q '^lava-test-case kernel\.syscall\.null\.c1 --result fail --measurement [0-9.]* --units syscall/s$' "$T/lava.txt" ||
	fail "failed check line: $OUT"
grep -q '^lava-test-case kernel\.sched\.yield\.c1 --result fail' "$T/lava.txt" || fail "error line: $OUT"
grep -qx 'lava-test-case kernel\.vdso\.clock\.c1 --result skip' "$T/lava.txt" || fail "skip line: $OUT"
m=$(sed -n 's/^lava-test-case harness\.null\.c1 .*--measurement \([0-9.]*\) .*/\1/p' "$T/lava.txt")
[ "$(printf "%.3f" "$med")" = "$m" ] || fail "measurement $m vs median $med"
# an imported run: names stay valid for LAVA, two runs get distinct names
expect 0 "$SYSAB" import csv "$REPO/tests/fixtures/kcidb/imported.csv"
expect 0 "$SYSAB" export --format lava
printf '%s\n' "$OUT" | awk '{print $2}' | grep -v '^[A-Za-z0-9_.-]*$' && fail "invalid LAVA names: $OUT"
[ "$(printf '%s\n' "$OUT" | awk '{print $2}' | sort | uniq -d)" = "" ] || fail "duplicate names: $OUT"
contains "$OUT" "lava-test-case run1.harness.null.c1 "
expect 0 "$SYSAB" export --format kcidb
printf '%s' "$OUT" | $VALIDATE "$SCHEMA" || fail "kcidb of an imported run does not validate: $OUT"
expect 2 "$SYSAB" export --format lava 'nope=1'

# the shipped test definition parses, and its script, run as LAVA would (lava-test-case on PATH,
# from the checkout), reports what the database holds and prints the database into the log
python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); m = d["metadata"]
assert m["format"] == "Lava-Test Test Definition 1.0", m
assert set(d["params"]) >= {"WORKLOADS", "PROFILE", "LABELS", "DB"}, d["params"]
assert "sysab-lava.sh" in d["run"]["steps"][0]' "$REPO/contrib/lava/sysab.yaml" || fail "contrib/lava/sysab.yaml"
mkdir -p "$T/bin" "$T/dut"
printf '#!/bin/sh\necho "CASE $*" >>"%s"\n' "$T/cases.log" >"$T/bin/lava-test-case"
cp "$T/bin/lava-test-case" "$T/bin/lava-test-reference"
ln -s "$SYSAB" "$T/bin/sysab"
chmod +x "$T/bin/lava-test-case" "$T/bin/lava-test-reference"
(cd "$T/dut" && mkdir -p contrib/lava && cp "$REPO/contrib/lava/sysab-lava.sh" contrib/lava/ &&
	PATH="$T/bin:$PATH" WORKLOADS="harness.null kernel.syscall.null" PROFILE=quick LABELS="kernel.commit=abc123" \
		RUN_ARGS="--samples 3" sh ./contrib/lava/sysab-lava.sh >"$T/dut.log" 2>&1) || fail "sysab-lava.sh: $(cat "$T/dut.log")"
grep -q '^CASE sysab-run --result pass$' "$T/cases.log" || fail "no sysab-run pass: $(cat "$T/cases.log")"
[ "$(grep '^CASE .*\.c1 --result pass --measurement' "$T/cases.log" | grep -vc '^CASE host\.ref')" = 2 ] || fail "cases: $(cat "$T/cases.log")"
sed -n '/^SYSAB-DB-BEGIN/,/^SYSAB-DB-END/p' "$T/dut.log" | sed '1d;$d' | base64 -d >"$T/back.db" || fail "no database in the log"
cmp -s "$T/back.db" "$T/dut/sysab-results.db" || fail "the database in the log differs from the device's"
expect 0 "$SYSAB" export --db "$T/back.db" --format lava
[ "$(printf '%s\n' "$OUT" | sed 's/^lava-test-case/CASE/')" = "$(grep '\.c1 ' "$T/cases.log")" ] ||
	fail "the cases differ from the database's: $OUT vs $(cat "$T/cases.log")"
[ "$(sqlite3 "$T/back.db" "SELECT value FROM label WHERE key = 'kernel.commit'")" = abc123 ] || fail "label lost"
# issue 34 item 8: the parameters are split on spaces only and never globbed against the
# checkout: files named like what a glob would match are ignored, a tab stays inside its word
touch "$T/dut/harness.null-planted" "$T/dut/k=planted"
rm -f "$T/dut/sysab-results.db" "$T/cases.log"
(cd "$T/dut" && PATH="$T/bin:$PATH" WORKLOADS="harness.nul*" PROFILE=quick LABELS="k=* t=a$(printf '\t')b" \
	RUN_ARGS="--samples 3" sh ./contrib/lava/sysab-lava.sh >"$T/dut.log" 2>&1)
grep -q '^CASE sysab-run --result fail$' "$T/cases.log" || fail "a label with a tab was not refused by sysab: $(cat "$T/dut.log")"
contains "$(cat "$T/dut.log")" "-w harness.nul* -l k=* -l t=a"
(cd "$T/dut" && PATH="$T/bin:$PATH" WORKLOADS="harness.nul*" PROFILE=quick LABELS="k=*" \
	RUN_ARGS="--samples 3" sh ./contrib/lava/sysab-lava.sh >"$T/dut.log" 2>&1)
grep -q '^CASE sysab-run --result pass$' "$T/cases.log" || fail "WORKLOADS='harness.nul*' did not run: $(cat "$T/dut.log")"
[ "$(sqlite3 "$T/dut/sysab-results.db" "SELECT value FROM label WHERE key = 'k'")" = '*' ] || fail "LABELS k=* was globbed"
[ "$(sqlite3 "$T/dut/sysab-results.db" "SELECT DISTINCT workload FROM sample WHERE workload <> 'host.ref'")" = harness.null ] || fail "WORKLOADS was globbed"

# a fleet database: two machines' databases merged; a selector spanning both is refused
# naming machine=, one machine per side compares (docs/FLEET.md, section 4)
for h in a b; do
	expect 0 "$SYSAB" run --db "$T/$h.db" --quick -w harness.null -q --samples 4 --no-probe -l commit=abc
	sqlite3 "$T/$h.db" "UPDATE machine SET hostname = 'lab-$h'; UPDATE boot SET boot_id = 'boot-of-lab-$h'" ||
		fail "cannot give $h.db its own machine"
done
expect 0 "$SYSAB" import db --db "$T/fleet.db" "$T/a.db" "$T/b.db"
expect 2 "$SYSAB" report --db "$T/fleet.db" commit=abc -o "$T/r.html"
contains "$ERR" "1 run with source=sysab machine=lab-a, 1 run with source=sysab machine=lab-b"
contains "$ERR" "add source=... or machine=..."
expect 0 "$SYSAB" compare --db "$T/fleet.db" 'machine=lab-a commit=abc' 'machine=lab-b commit=abc' --json
[ "$(printf '%s' "$OUT" | jq -r '"\(.a.runs) \(.b.runs) \(.b.selector)"')" = "1 1 machine=lab-b commit=abc" ] || fail "compare across machines: $(printf '%s' "$OUT" | head -c 400)"
