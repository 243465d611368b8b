# fleet exports: kcidb validates against KernelCI's own KCIDB I/O schemas (v5.3 by default, v4.5 on
# request; tests/fixtures/kcidb/README.md), a slower row of a comparison is an issue with incidents;
# lava prints one lava-test-case per slot with the right result.
S53="$REPO/tests/fixtures/kcidb/v05_03.schema.json"
S45="$REPO/tests/fixtures/kcidb/v04_05.schema.json"
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

# kcidb v5.3 (the default): the document validates, and the tests carry the statuses, values and machine
expect 0 "$SYSAB" export --format kcidb -o "$T/k.json"
$VALIDATE "$S53" "$T/k.json" || fail "kcidb export does not validate against v5.3: $(head -c 2000 "$T/k.json")"
j() { jq -r "$1" "$T/k.json"; }
[ "$(j '.version.major, .version.minor' | tr '\n' ' ')" = "5 3 " ] || fail "version: $(j .version)"
[ "$(j '.tests | length')" = 4 ] || fail "tests: $(j '.tests | length')"
[ "$(j '[.tests[] | .path + "=" + .status] | join(" ")')" = \
	"sysab.harness.null.c1=DONE sysab.kernel.sched.yield.c1=ERROR sysab.kernel.syscall.null.c1=ERROR sysab.kernel.vdso.clock.c1=SKIP" ] ||
	fail "v5.3 statuses: $(j '[.tests[] | .path + "=" + .status] | join(" ")')"
[ "$(j '.tests[0].id')" = "sysab:$uuid:harness.null:1" ] || fail "id: $(j '.tests[0].id')"
[ "$(j '.tests[0].build_id')" = "maestro:abc123" ] || fail "build_id from the label: $(j '.tests[0].build_id')"
[ "$(j '[.tests[] | has("number") | tostring] | join(" ")')" = "true false false false" ] ||
	fail "v5.3: a number only for DONE: $(j '[.tests[] | has("number") | tostring] | join(" ")')"
[ "$(j '.tests[0].number.unit')" = "op/s" ] || fail "unit: $(j '.tests[0].number')"
[ "$(j '[.tests[] | has("output_files") | tostring] | join(" ")')" = "false false false false" ] ||
	fail "output_files without --samples-url"
[ "$(j '.tests[0].environment.misc.hostname')" = "$(sqlite3 "$SYSAB_DB" 'SELECT hostname FROM machine')" ] ||
	fail "environment: $(j '.tests[0].environment.misc.hostname')"
[ "$(j '.tests[0].misc.labels.commit')" = deadbeef ] || fail "labels: $(j '.tests[0].misc.labels')"
[ "$(j '.tests[0].environment.misc.env["kernel.release"]')" = "$(uname -r)" ] || fail "env in misc"
[ "$(j '.tests[2].misc.checks[0].ok')" = false ] || fail "the failed check in misc: $(j '.tests[2].misc.checks')"
# the value is the run's median, as sysab show --json reports it
expect 0 "$SYSAB" show 1 --json
med=$(printf '%s' "$OUT" | jq '.results[] | select(.workload == "harness.null") | .median_ops_per_s')
[ "$(jq -n --argjson a "$(j '.tests[0].number.value')" --argjson b "$med" '($a - $b) | fabs < 1e-9 * $b')" = true ] ||
	fail "number $(j '.tests[0].number.value') vs median $med"
# --samples-url names the raw samples' file in each test that has samples
expect 0 "$SYSAB" export --format kcidb --samples-url https://lab.example/job/7/sysab-samples.csv -o "$T/ku.json"
$VALIDATE "$S53" "$T/ku.json" || fail "kcidb with output_files does not validate"
[ "$(jq -c '.tests[0].output_files' "$T/ku.json")" = '[{"name":"sysab-samples.csv","url":"https://lab.example/job/7/sysab-samples.csv"}]' ] ||
	fail "output_files: $(jq -c '.tests[0].output_files' "$T/ku.json")"
[ "$(jq '.tests[3] | has("output_files")' "$T/ku.json")" = false ] || fail "a test without samples names a samples file"
for bad in samples.csv /srv/s.csv 'https://lab.example/' 'Http://x/s.csv' 'https://x/a b.csv'; do
	expect 2 "$SYSAB" export --format kcidb --samples-url "$bad"
	contains "$ERR" "--samples-url: '$bad' is not an absolute URL of a file"
done
# kcidb v4.5 on request: the statuses sysab always wrote there, against the v4.5 schema (and not v5.3)
expect 0 "$SYSAB" export --format kcidb --kcidb-version 4.5 -o "$T/k45.json"
$VALIDATE "$S45" "$T/k45.json" || fail "kcidb --kcidb-version 4.5 does not validate: $(head -c 2000 "$T/k45.json")"
$VALIDATE "$S53" "$T/k45.json" 2>/dev/null && fail "a v4.5 document validates as v5.3"
[ "$(jq -r '.version.major, .version.minor' "$T/k45.json" | tr '\n' ' ')" = "4 5 " ] || fail "v4.5 version"
[ "$(jq -r '[.tests[] | .status] | join(" ")' "$T/k45.json")" = "PASS ERROR FAIL SKIP" ] ||
	fail "v4.5 statuses: $(jq -r '[.tests[] | .status] | join(" ")' "$T/k45.json")"
[ "$(jq -r '.tests[2].number.unit' "$T/k45.json")" = "syscall/s" ] || fail "v4.5: a FAIL keeps its number"
expect 0 "$SYSAB" export --format kcidb --kcidb-version 5.3
[ "$OUT" = "$(cat "$T/k.json")" ] || fail "--kcidb-version 5.3 differs from the default"
expect 2 "$SYSAB" export --format kcidb --kcidb-version 5.0
contains "$ERR" "--kcidb-version: '5.0' is not a KCIDB I/O schema version sysab writes; use 5.3 (the default) or 4.5"
expect 2 "$SYSAB" export --kcidb-version 4.5
contains "$ERR" "--kcidb-version is an option of --format kcidb"
# the schemas are not rubber stamps: a bad status, an extra key, a bad id, a bad prefix, a missing
# build_id, another version, a bad time fail them
for bad in '.tests[0].status = "OK"' '.tests[0].colour = 1' '.tests[0].id = "Sysab-1"' \
	'.tests[0].number.prefix = "kilo"' 'del(.tests[0].build_id)' '.version.major = 4' '.tests[0].start_time = "today"'; do
	jq "$bad" "$T/k.json" >"$T/bad.json"
	$VALIDATE "$S53" "$T/bad.json" 2>/dev/null && fail "the v5.3 schema accepts $bad"
done
for bad in '.tests[0].status = "OK"' 'del(.tests[0].origin)' '.version.major = 5'; do
	jq "$bad" "$T/k45.json" >"$T/bad.json"
	$VALIDATE "$S45" "$T/bad.json" 2>/dev/null && fail "the v4.5 schema accepts $bad"
done
# without the label the build is named by the kernel release
sqlite3 "$SYSAB_DB" "DELETE FROM label WHERE key = 'kcidb.build_id'" || fail "cannot drop the label"
expect 0 "$SYSAB" export --format kcidb run:1
[ "$(printf '%s' "$OUT" | jq -r '.tests[0].build_id')" = "sysab:kernel:$(uname -r)" ] || fail "default build_id"
# the host-speed reference is a covariate, never a test: each test carries it in misc
expect 0 "$SYSAB" run --db "$T/ref.db" --quick -w harness.null -q --samples 3 --no-probe
[ "$(sqlite3 "$T/ref.db" "SELECT count(*) FROM slot WHERE workload = 'host.ref'")" = 1 ] || fail "no host.ref slot to leave out"
for v in 5.3 4.5; do
	expect 0 "$SYSAB" export --db "$T/ref.db" --format kcidb --kcidb-version $v
	[ "$(printf '%s' "$OUT" | jq -r '[.tests[].path] | join(" ")')" = "sysab.harness.null.c1" ] || fail "v$v exports host.ref: $OUT"
	[ "$(printf '%s' "$OUT" | jq -r '.tests[0].misc.host_ref.workload')" = host.ref ] || fail "v$v: no host_ref in misc"
done

# compare --format kcidb: B's tests with the verdict in misc, and a slower row as an issue whose
# incidents link B's tests (imported runs: 2 boots of 2 runs per group, B 10% slower; host.ref
# slower too, which is never an issue)
{
	echo 'workload,unit,value,run,boot,k'
	for r in 1 2 3 4 5 6 7 8; do
		k=a v=100
		[ $r -gt 4 ] && k=b v=90
		for s in 1 2 3 4 5 6; do
			echo "my.bench,ops/s,$((v + (r * 7 + s * 3) % 5)).5,r$r,b$(((r + 1) / 2)),$k"
			echo "my.flat,ops/s,$((50 + (r + s) % 3)),r$r,b$(((r + 1) / 2)),$k"
			echo "host.ref,ns/op,$((20 + (r + s) % 3 + (r > 4) * 5)),r$r,b$(((r + 1) / 2)),$k"
		done
	done
} >"$T/cmp.csv"
expect 0 "$SYSAB" import csv --db "$T/cmp.db" "$T/cmp.csv"
expect 0 "$SYSAB" compare --db "$T/cmp.db" k=a k=b --format kcidb -o "$T/c.json"
$VALIDATE "$S53" "$T/c.json" || fail "compare --format kcidb does not validate: $(head -c 2000 "$T/c.json")"
c() { jq -r "$1" "$T/c.json"; }
[ "$(c '[.tests[].path] | unique | join(" ")')" = "sysab.my.bench.c1 sysab.my.flat.c1" ] || fail "compare tests: $(c '[.tests[].path]')"
[ "$(c '[.tests[] | .misc.labels.k] | unique | join(" ")')" = b ] || fail "tests not of B's runs"
[ "$(c '.tests | length')" = 8 ] || fail "one test per run of B and workload: $(c '.tests | length')"
[ "$(c '[.tests[] | select(.path == "sysab.my.bench.c1") | .misc.comparison | "\(.verdict) \(.boots_a) \(.boots_b) \(.throughput_change_pct < -5)"] | unique | join(",")')" = \
	"slower 2 2 true" ] || fail "verdict in misc: $(c '.tests[0].misc.comparison')"
[ "$(c '.issues | length')" = 1 ] || fail "issues: $(c '.issues')"
[ "$(c '.issues[0].id')" = "sysab:slower:my.bench:1:k=a:k=b" ] || fail "issue id: $(c '.issues[0].id')"
[ "$(c '.issues[0].version')" = 1 ] || fail "issue version (the look): $(c '.issues[0].version')"
[ "$(c '.issues[0].culprit.code')" = true ] || fail "culprit"
contains "$(c '.issues[0].comment')" "my.bench x1 slower in k=b than in k=a: throughput -"
[ "$(c '.incidents | length')" = 4 ] || fail "one incident per run of B: $(c '.incidents')"
[ "$(c '[.incidents[] | select(.issue_id == "sysab:slower:my.bench:1:k=a:k=b" and .issue_version == 1 and .present)] | length')" = 4 ] ||
	fail "incidents do not link the issue: $(c '.incidents')"
[ "$(c '[.incidents[].test_id] | sort | join(" ")')" = "$(c '[.tests[] | select(.path == "sysab.my.bench.c1") | .id] | sort | join(" ")')" ] ||
	fail "incidents do not link B's my.bench tests: $(c '[.incidents[].test_id]')"
# the same look again: the same issue and version; v4.5 on request validates too
expect 0 "$SYSAB" compare --db "$T/cmp.db" k=a k=b --format kcidb
[ "$(printf '%s' "$OUT" | jq -c '.issues')" = "$(c '.issues' | jq -c .)" ] || fail "a re-read changed the issue"
expect 0 "$SYSAB" compare --db "$T/cmp.db" k=a k=b --format kcidb --kcidb-version 4.5 -o "$T/c45.json"
$VALIDATE "$S45" "$T/c45.json" || fail "compare --format kcidb --kcidb-version 4.5 does not validate"
[ "$(jq '.issues | length' "$T/c45.json") $(jq '.incidents | length' "$T/c45.json")" = "1 4" ] || fail "v4.5 issues"
# an incident that names no issue, an issue without a version, fail the schema
for bad in 'del(.incidents[0].issue_id)' 'del(.issues[0].version)' '.issues[0].culprit.kernel = true'; do
	jq "$bad" "$T/c.json" >"$T/bad.json"
	$VALIDATE "$S53" "$T/bad.json" 2>/dev/null && fail "the v5.3 schema accepts $bad"
done
# no slower row, no issue: only the row that did not change, whose tests alone are written
expect 0 "$SYSAB" compare --db "$T/cmp.db" k=a k=b -w my.flat --format kcidb
[ "$(printf '%s' "$OUT" | jq -c '[(.issues | length), (.incidents | length), ([.tests[].path] | unique)]')" = \
	'[0,0,["sysab.my.flat.c1"]]' ] || fail "-w my.flat: $(printf '%s' "$OUT" | head -c 600)"
# host.ref asked for by name is a slower row, yet neither a test nor an issue
expect 0 "$SYSAB" compare --db "$T/cmp.db" k=a k=b -w host.ref --json
[ "$(printf '%s' "$OUT" | jq -r '[.rows[] | .workload + " " + .verdict] | join(",")')" = "host.ref slower" ] ||
	fail "host.ref row: $(printf '%s' "$OUT" | head -c 400)"
expect 0 "$SYSAB" compare --db "$T/cmp.db" k=a k=b -w host.ref --format kcidb
[ "$(printf '%s' "$OUT" | jq -c '[(.tests | length), (.issues | length), (.incidents | length)]')" = "[0,0,0]" ] ||
	fail "host.ref exported: $(printf '%s' "$OUT" | head -c 600)"
expect 2 "$SYSAB" report --db "$T/cmp.db" compare k=a k=b --format kcidb -o "$T/r.json"
contains "$ERR" "use sysab compare A B --format kcidb"

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
printf '%s' "$OUT" | $VALIDATE "$S53" || fail "kcidb of an imported run does not validate: $OUT"
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
