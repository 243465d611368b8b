# compare, analyze and plan read the stored run summaries (issue 18): their text and JSON
# are byte for byte those of the samples path (SYSAB_TEST_SAMPLES=1); a tampered summary
# shows that the summaries are what is read; stale ones are not used.
fx="$REPO/tests/fixtures/unixbench"
expect 0 "$SYSAB" import csv "$REPO/examples/pernode-pie-boots.csv"
expect 0 "$SYSAB" import unixbench "$fx/host-2026-12-02-pass1.log" "$fx/host-2026-12-02-pass2.log" \
	"$fx/host-2026-12-02-pass3.log" -l set=a --kernel 6.1.0-a
expect 0 "$SYSAB" import unixbench "$fx/host-2026-12-02-pass4.log" "$fx/host-2026-12-02-pass5.log" \
	-l set=b --kernel 6.1.0-b
expect 0 "$SYSAB" run -w kernel.syscall.null -w cpu.int --samples 12 --sample-ms 2 --warmup-ms 0 -c 1 -l own=1
expect 0 "$SYSAB" run -w kernel.syscall.null -w cpu.int --samples 12 --sample-ms 2 --warmup-ms 0 -c 1 -l own=2

# every case: summaries and samples give the same bytes (stdout, stderr and exit code)
same_both() {
	"$SYSAB" "$@" >"$T/sum.out" 2>"$T/sum.err"
	a=$?
	SYSAB_TEST_SAMPLES=1 "$SYSAB" "$@" >"$T/smp.out" 2>"$T/smp.err"
	b=$?
	[ "$a" = "$b" ] || fail "exit $a from the summaries, $b from the samples: $*"
	cmp -s "$T/sum.out" "$T/smp.out" || { diff "$T/smp.out" "$T/sum.out" | head -20 >&2; fail "stdout differs: $*"; }
	cmp -s "$T/sum.err" "$T/smp.err" || fail "stderr differs: $*"
}
for f in "" --json --format=markdown -v; do
	same_both compare 'pernode=no pie=yes' 'pernode=yes pie=yes' $f
	same_both compare set=a set=b $f
	same_both compare 'pie=yes' $f
	same_both compare own=1 own=2 $f
	same_both analyze --factors pernode,pie $f
	same_both plan 'pie=yes' --target 1% $f
	same_both plan set=a set=b --target 2% $f
	same_both plan own=1 own=2 --target 5% $f
done
same_both report set=a --format text -o /dev/stdout
same_both compare set=a set=b -w unixbench.pipe --json
same_both analyze --factors nosuch

# a summary changed behind the store's back: the summaries path shows it, so it read them
# (the first slot's mean_y, bytes 49 to 56 of the row's blob, set to 1.0: docs/FORMATS.md)
sqlite3 "$SYSAB_DB" "UPDATE run_summary SET slots = CAST(substr(slots, 1, 48) || x'000000000000F03F' || substr(slots, 57) AS BLOB) WHERE run IN (SELECT id FROM run WHERE source = 'csv')"
"$SYSAB" compare 'pernode=no pie=yes' 'pernode=yes pie=yes' >"$T/sum.out" 2>&1
SYSAB_TEST_SAMPLES=1 "$SYSAB" compare 'pernode=no pie=yes' 'pernode=yes pie=yes' >"$T/smp.out" 2>&1
cmp -s "$T/sum.out" "$T/smp.out" && fail "a tampered summary changed nothing: the summaries were not read"
# the page draws every sample: it reads the samples
expect 0 "$SYSAB" compare 'pernode=no pie=yes' 'pernode=yes pie=yes' --format html -o "$T/sum.html"
SYSAB_TEST_SAMPLES=1 "$SYSAB" compare 'pernode=no pie=yes' 'pernode=yes pie=yes' --format html -o "$T/smp.html" ||
	fail "html from the samples"
cmp -s "$T/sum.html" "$T/smp.html" || fail "the page did not read the samples"

# stale: summary_meta names another method, so nothing reads the rows
sqlite3 "$SYSAB_DB" "UPDATE summary_meta SET method = 0"
same_both compare 'pernode=no pie=yes' 'pernode=yes pie=yes'
# ... or the rows of these runs carry another stamp
sqlite3 "$SYSAB_DB" "UPDATE summary_meta SET method = (SELECT max(method) FROM run_summary); UPDATE run_summary SET method = 0 WHERE run IN (SELECT id FROM run WHERE source = 'csv')"
same_both compare 'pernode=no pie=yes' 'pernode=yes pie=yes'
# after a method change (summary_meta differs) a writing command recomputes them: the
# summaries path again, and correct
sqlite3 "$SYSAB_DB" "UPDATE summary_meta SET method = 0"
expect 0 "$SYSAB" run -w kernel.syscall.null --samples 4 --sample-ms 2 --warmup-ms 0 -c 1 -l own=3
v=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run_summary WHERE method = 0")
[ "$v" = 0 ] || fail "stale summaries left after a writing command: $v"
same_both compare 'pernode=no pie=yes' 'pernode=yes pie=yes' --json
# missing: runs with samples but no summary rows yet (merged from a campaign's guest databases,
# say): complete runs only, so the samples path (make check-boot found analyze empty so)
sqlite3 "$SYSAB_DB" "DELETE FROM run_summary WHERE run IN (SELECT id FROM run WHERE source = 'csv')"
same_both compare 'pernode=no pie=yes' 'pernode=yes pie=yes'
"$SYSAB" analyze --factors pernode,pie >"$T/sum.out" 2>&1
contains "$(cat "$T/sum.out")" "kernel.syscall.null"

# one row per run, deleted by the schema's triggers when anything of its run changes behind
# the store's back: a sample added, or an environment entry changed
own2=$(sqlite3 "$SYSAB_DB" "SELECT run FROM label WHERE key = 'own' AND value = '2'")
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run_summary WHERE run = $own2")" = 1 ] || fail "no summary row of run $own2"
same_both compare own=1 own=2 --unit run
was=$(cat "$T/sum.out")
sqlite3 "$SYSAB_DB" "INSERT INTO sample(run, workload, copies, seq, ops, elapsed_ns, value) VALUES($own2, 'cpu.int', 1, 999, 1, 1000, 1.0)"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run_summary WHERE run = $own2")" = 0 ] || fail "a sample added, the row stayed"
same_both compare own=1 own=2 --unit run
[ "$(cat "$T/sum.out")" != "$was" ] || fail "the added sample changed nothing"
expect 0 "$SYSAB" check-db --fix
same_both compare own=1 own=2 --unit run
# the row's copy of the environment is what compare's confounder check reads
ok=$(cat "$T/sum.out")
sqlite3 "$SYSAB_DB" "UPDATE environment SET value = 'changed' WHERE run = $own2 AND key = 'thp.enabled'"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run_summary WHERE run = $own2")" = 0 ] || fail "the environment changed, the row stayed"
same_both compare own=1 own=2 --unit run
contains "$(cat "$T/sum.out")" "thp.enabled"
# any writing command brings the row back (not only check-db --fix)
printf 'workload,value,unit\nunixbench.pipe,1236,lps\n' >"$T/three.csv"
expect 0 "$SYSAB" import csv "$T/three.csv"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run_summary WHERE run = $own2")" = 1 ] || fail "no summary row of run $own2 again"
same_both compare own=1 own=2 --unit run
contains "$(cat "$T/sum.out")" "thp.enabled"
[ "$(cat "$T/sum.out")" != "$ok" ] || fail "the changed environment is not shown"
true
# a damaged slot count (0xFFFFFFFF) asks for no memory: the row is unreadable, the samples are
# read (it aborted on a 4-billion-slot allocation before)
sqlite3 "$SYSAB_DB" "UPDATE run_summary SET slots = CAST(substr(slots, 1, 4) || x'FFFFFFFF' || substr(slots, 9) AS BLOB) WHERE run = $own2"
same_both compare own=1 own=2 --unit run
same_both analyze --factors own
# the row's copy of the environment is read (a value changed in the copy alone shows), and a
# copy that cannot be read sends the confounder check to the environment table for every run
expect 0 "$SYSAB" check-db --fix
sqlite3 "$SYSAB_DB" "UPDATE run_summary SET env = CAST(replace(env, CAST('changed' AS BLOB), CAST('CHANGED' AS BLOB)) AS BLOB) WHERE run = $own2"
"$SYSAB" compare own=1 own=2 --unit run >"$T/sum.out" 2>&1
contains "$(cat "$T/sum.out")" "CHANGED"
sqlite3 "$SYSAB_DB" "UPDATE run_summary SET env = CAST(substr(env, 1, 11) AS BLOB) WHERE run = $own2"
"$SYSAB" compare own=1 own=2 --unit run >"$T/sum.out" 2>&1
contains "$(cat "$T/sum.out")" "changed"
case "$(cat "$T/sum.out")" in *CHANGED*) fail "an unreadable copy of the environment was read" ;; esac
same_both compare own=1 own=2 --unit run
# a group whose run ids do not grow with their boots (as a merge of several machines'
# databases gives: here the middle of three runs moved to a boot recorded later): its series
# are put in (boot, run) order, as the samples path has them (in run order the first boot's
# runs are not together, and would count as two boots)
for i in 1 2 3; do
	expect 0 "$SYSAB" run -w kernel.syscall.null --samples 6 --sample-ms 2 --warmup-ms 0 -c 1 -l own=5
done
sqlite3 "$SYSAB_DB" "INSERT INTO boot(boot_id, machine, kernel_release, kernel_version, first_seen_ns) SELECT 'e2e-later-boot', machine, kernel_release, kernel_version, first_seen_ns FROM boot WHERE id = (SELECT boot FROM run WHERE id = (SELECT min(run) FROM label WHERE key = 'own' AND value = '5')); UPDATE run SET boot = last_insert_rowid() WHERE id = (SELECT min(run) + 1 FROM label WHERE key = 'own' AND value = '5')"
v=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run a JOIN run b ON b.id > a.id AND b.boot < a.boot WHERE a.id IN (SELECT run FROM label WHERE key = 'own' AND value = '5') AND b.id IN (SELECT run FROM label WHERE key = 'own' AND value = '5')")
[ "$v" -gt 0 ] || fail "own=5: no later run on an earlier boot, the case is not tested"
for f in "" --json; do
	same_both compare own=1 own=5 $f
	same_both plan own=5 --target 5% $f
done
same_both compare own=1 own=5 -v
expect 0 "$SYSAB" compare own=1 own=5 -v
contains "$OUT" "2 boots"
