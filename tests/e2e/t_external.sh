# run --unixbench (issue 32 item 5): UnixBench's Run (here a command that leaves a real
# UnixBench 6 log in $UB_RESULTDIR, as Run does) stored as a run of this machine, boot and
# kernel; its failures store nothing and leave nothing; a campaign runs it on every boot.
U="$REPO/tests/fixtures/unixbench"
ub() { printf 'test -d "$UB_RESULTDIR" && test -z "$(ls -A "$UB_RESULTDIR")" && cp %s "$UB_RESULTDIR/run.log"' "$U/$1"; }
expect 0 "$SYSAB" run --unixbench "$(ub host-2026-12-02-pass1.log)" -l k=a
contains "$OUT" "stored as run 1"
expect 0 "$SYSAB" show 1
contains "$OUT" "unixbench.syscall"
v=$(sqlite3 "$SYSAB_DB" "SELECT r.status || ' ' || r.source || ' ' || b.boot_id FROM run r JOIN boot b ON b.id = r.boot")
[ "$v" = "imported unixbench $(cat /proc/sys/kernel/random/boot_id)" ] || fail "the run: $v"
expect 0 "$SYSAB" show 1 --json
v=$(printf '%s' "$OUT" | jq -r '[.run.machine // .run.hostname, .run.kernel // .run.kernel_release, .run.labels.k, (.run.environment | has("load.after"))] | map(tostring) | join(" ")')
[ "$v" = "$(uname -n) $(uname -r) a true" ] || fail "machine, kernel, label, environment: $v"
v=$(printf '%s' "$OUT" | jq -r '.run.settings.command')
contains "$v" "host-2026-12-02-pass1.log"
[ "$(sqlite3 "$SYSAB_DB" "SELECT finished_ns >= started_ns FROM run WHERE id = 1")" = 1 ] || fail "no end time"
# the same boot for a second run; every UnixBench test is a workload with its passes as samples
expect 0 "$SYSAB" run --unixbench "$(ub host-2026-12-02-pass2.log)" -l k=a --json
[ "$(printf '%s' "$OUT" | jq -r '.run.id')" = 2 ] || fail "the second run's JSON: $(printf '%s' "$OUT" | head -c 300)"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(DISTINCT boot) FROM run")" = 1 ] || fail "two runs of one boot on two boots"
n=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM sample WHERE run = 2 AND workload = 'unixbench.syscall'")
[ "$n" -ge 2 ] || fail "passes of syscall: $n"

# nothing stored and nothing left when the command fails, leaves no log or two, or the log is bad
sum() { cat "$SYSAB_DB" "$SYSAB_DB-wal" 2>/dev/null | md5sum; }
before=$(sum)
bad() {
	msg=$1
	shift
	expect 2 "$SYSAB" run "$@"
	contains "$ERR" "$msg"
	contains "$ERR" "nothing stored"
	no_tmp_left "$TMPDIR"
}
bad "exited with status 3" --unixbench 'exit 3'
bad "a command was not found" --unixbench 'no-such-unixbench-run'
bad "left no *.log in UB_RESULTDIR" --unixbench 'true'
bad "left 2 *.log files" --unixbench 'echo x >"$UB_RESULTDIR/a.log"; echo y >"$UB_RESULTDIR/b.log"'
bad '$UB_RESULTDIR/x.log:1: expected' --unixbench 'echo hello >"$UB_RESULTDIR/x.log"'
[ "$(sum)" = "$before" ] || fail "a failed --unixbench changed the database"
expect 2 "$SYSAB" run --unixbench 'true' -w cpu.int
contains "$ERR" "-w is for sysab's own workloads"
expect 2 "$SYSAB" run --unixbench ''
contains "$ERR" "--unixbench: give the shell command"
# its output goes to stderr: stdout stays the run's JSON
expect 0 "$SYSAB" run --unixbench "echo chatter; $(ub host-2026-12-02-pass3.log)" --json -l k=b
printf '%s' "$OUT" | jq -e . >/dev/null || fail "stdout is not JSON: $(printf '%s' "$OUT" | head -c 200)"
contains "$ERR" "chatter"
# a stop signal ends the command's whole process group, stores nothing and leaves nothing
"$SYSAB" run --unixbench "sleep 300 & echo \$! >'$T/pids'; sleep 300 & echo \$! >>'$T/pids'; wait" >"$T/out" 2>"$T/err" &
pid=$!
i=0; while [ "$(wc -l <"$T/pids" 2>/dev/null)" != 2 ] && [ $i -lt 120 ]; do sleep 0.5; i=$((i + 1)); done
kill -TERM $pid
wait $pid
rc=$?
[ "$rc" = 143 ] || fail "exit $rc after SIGTERM, want 143 (128 + SIGTERM)"
contains "$(cat "$T/err")" "nothing stored"
sleep 0.3
[ "$(wc -l <"$T/pids")" = 2 ] || fail "the command did not start its two sleeps"
for p in $(cat "$T/pids"); do # gone, or a zombie its new parent has not reaped yet
	case $(ps -o stat= -p "$p" 2>/dev/null) in
	'' | Z*) ;;
	*) kill "$p"; fail "the command's process $p survived" ;;
	esac
done
no_tmp_left "$TMPDIR"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run")" = 3 ] || fail "a stopped --unixbench stored a run"

# a campaign runs it on every boot (command backend, simulated boot loader as in t_campaign),
# and the plan from that pilot keeps the command, sizing boots and runs at its passes
mkdir -p "$T/proc" "$T/units"
export SYSAB_CAMPAIGN_PROC="$T/proc"
echo 6.1.0-test >"$T/proc/osrelease"
echo "BOOT_IMAGE=/vmlinuz ro" >"$T/proc/cmdline"
BOOTCMD='echo "$SYSAB_CONFIG|$SYSAB_SLOT|$SYSAB_APPEND" >>'"$T/armed"
boot() {
	tail -n 1 "$T/armed" | cut -d'|' -f3 >"$T/proc/cmdline"
	cat /proc/sys/kernel/random/uuid >"$T/proc/boot_id"
}
expect 0 "$SYSAB" campaign new ub --unit-dir "$T/units" --backend command --boots 2 --seed 1 \
	--config 'pie=yes' --command "$BOOTCMD" --config 'pie=no' --command "$BOOTCMD" \
	-- --unixbench "$(ub host-2026-12-02-pass5.log)"
expect 0 "$SYSAB" campaign start ub
for i in 1 2 3 4; do
	boot
	expect 0 "$SYSAB" campaign resume ub
done
contains "$OUT" "done"
v=$(sqlite3 "$SYSAB_DB" "SELECT count(*) || ' ' || group_concat(DISTINCT r.source) FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign JOIN run r ON r.id = cr.run WHERE c.name = 'ub'")
[ "$v" = "4 unixbench" ] || fail "the campaign's runs: $v"
expect 0 "$SYSAB" compare 'campaign:ub pie=yes' 'campaign:ub pie=no' -w unixbench.syscall
contains "$OUT" "unixbench.syscall"
expect 0 "$SYSAB" plan 'campaign:ub pie=yes' 'campaign:ub pie=no' -w unixbench.syscall --target 90% --campaign ub2
contains "$OUT" "no campaign line: campaign ub ran UnixBench (run --unixbench)"
contains "$OUT" "give --samples N"
expect 0 "$SYSAB" plan 'campaign:ub pie=yes' 'campaign:ub pie=no' -w unixbench.syscall --target 90% --samples 2 --campaign ub2
line=$(printf '%s\n' "$OUT" | grep '^sysab campaign new ub2 ') || fail "plan printed no campaign line: $OUT"
case $line in *--samples*) fail "the line sets samples of a UnixBench command: $line" ;; esac
sysab() { "$SYSAB" "$@"; }
eval "${line% && *}" >/dev/null || fail "the printed line does not run: $line"
expect 0 "$SYSAB" campaign show ub2 --json
v=$(printf '%s' "$OUT" | jq -r '.run_args | join(" ")')
contains "$v" "--unixbench"
contains "$v" "host-2026-12-02-pass5.log"
