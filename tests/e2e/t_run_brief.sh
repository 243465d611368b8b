# What `sysab run` prints on a terminal (make run's `build/sysab run --quick`): a brief of at
# most 25 lines of 80 columns (tests/unit/test_report.c holds the bound for any number of
# workloads, failed checks and indexes): the run, the index, the machine's verdict, each
# failed self-check on one line, the next command naming the binary as invoked; `show` is the
# whole run, --json loses nothing; Ctrl-C prints one line.
fits() { # OUT: at most 25 lines, none over 80 columns
	printf '%s\n' "$OUT" | awk -v what="$1" 'length($0) > 80 { print "FAIL: " what ": line " NR " is " length($0) " columns: " $0; bad = 1 }
		END { if (NR > 25) { print "FAIL: " what ": " NR " lines"; bad = 1 } exit bad }' >&2 || fail "$1 does not fit: $OUT"
}
W="-w unixbench.pipe -w harness.null -w kernel.syscall.null -w unixbench.syscall -c 1 --samples 4 --sample-ms 10 --warmup-ms 0 -q"
expect 0 env SYSAB_TEST_FAIL_CHECK=unixbench.pipe "$SYSAB" run $W -l cfg=a -l k=v
fits "run"
contains "$OUT" "run 1: complete; "
contains "$OUT" "1 failed a self-check"
contains "$OUT" "stored as run 1 in $SYSAB_DB"
contains "$OUT" "labels: cfg=a k=v"
printf '%s\n' "$OUT" | grep -Eq '^machine: (quiet|noisy|emulated|unjudged): ' || fail "no machine verdict: $OUT"
printf '%s\n' "$OUT" | grep -q '^failed self-checks' || fail "no failed self-checks: $OUT"
printf '%s\n' "$OUT" | grep -q '^  unixbench.pipe: .*, not in \[.*\]: bytes read per op' || fail "no line for the failed check: $OUT"
flat=$(printf '%s' "$OUT" | tr '\n' ' ' | tr -s ' ')
contains "$flat" "next: "
contains "$flat" "\`$SYSAB show 1\`"
case "$OUT" in *"CI95"* | *"counters (median"*) fail "the brief holds the whole table: $OUT" ;; esac
# the hint runs, and gives the whole run
expect 0 "$SYSAB" show 1
contains "$OUT" "CI95"
contains "$OUT" "kernel.syscall.null"
# the noise probe's verdict: a run without the probe is not judged, with the reason; under an
# emulator (make check-cross) that comes first, probe or none
expect 0 "$SYSAB" run $W --no-probe
fits "run --no-probe"
r=$(last_run "$SYSAB_DB")
case "$(sqlite3 "$SYSAB_DB" "SELECT value FROM environment WHERE run = $r AND key = 'emulated'")" in
yes*) contains "$OUT" "machine: emulated: " ;;
*) contains "$OUT" "machine: unjudged: no noise probe in this run" ;;
esac
# --json: every row and number, as show --json has them
expect 0 "$SYSAB" run $W --json
[ "$(printf '%s' "$OUT" | jq '[.results[].workload] | unique | length')" -ge 4 ] || fail "run --json lost rows: $OUT"
printf '%s' "$OUT" | jq -e '.results[0] | has("median_ops_per_s") and has("checks") and has("cv")' >/dev/null || fail "run --json lost numbers"
# -v: the whole run, then the brief; -o FILE: the whole run in the file, the brief here
expect 0 "$SYSAB" run $W -v
contains "$OUT" "CI95"
contains "$OUT" "machine: "
expect 0 "$SYSAB" run $W -o "$T/run.txt"
fits "run -o"
grep -q CI95 "$T/run.txt" || fail "run -o wrote no whole run"

# Ctrl-C (and SIGTERM): one line naming the run kept, nothing else
for sig in INT TERM; do
	prev=$(last_run "$SYSAB_DB")
	"$SYSAB" run -w harness.null --sample-ms 20 --samples 100000 --warmup-ms 0 -q >"$T/out" 2>"$T/err" &
	pid=$!
	wait_samples "$SYSAB_DB" 3 150 "$prev"
	kill -$sig $pid
	wait $pid
	rc=$?
	[ $rc = $((128 + $(signum $sig))) ] || fail "exit $rc after SIG$sig"
	r=$(last_run "$SYSAB_DB")
	want="stopped by Ctrl-C; run $r kept as incomplete (\`$SYSAB show $r\`)"
	[ $sig = INT ] || want="stopped by SIGTERM; run $r kept as incomplete (\`$SYSAB show $r\`)"
	[ "$(cat "$T/out")" = "$want" ] || fail "after SIG$sig: '$(cat "$T/out")', wanted '$want'"
	[ ! -s "$T/err" ] || fail "after SIG$sig, stderr: $(cat "$T/err")"
done
no_tmp_left "$TMPDIR"
