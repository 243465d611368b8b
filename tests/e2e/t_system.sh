# sysab system show|tune|reset: missing files are "not available here", tune sets what it can
# and saves the originals, reset restores them byte-identical (fake trees; and, as root, this
# machine with the reset in a trap so its knobs are never left changed).
F=$REPO/tests/fixtures/system

# show on this machine: never an error, whatever is missing
expect 0 "$SYSAB" system show
contains "$OUT" "aslr"
contains "$OUT" "steal time"
expect 0 "$SYSAB" system show --json
printf '%s' "$OUT" | jq -e '.knobs | length >= 10' >/dev/null || fail "system show --json has too few knobs"
expect 2 "$SYSAB" system
contains "$ERR" "show, tune or reset"
expect 2 "$SYSAB" system show --root "$T/nope"
contains "$ERR" "not a directory"

# tune/reset round trip on a fake intel_pstate tree
cp -a "$F/intel-smt" "$T/tree"
cp -a "$F/intel-smt" "$T/orig"
st=$T/state/tune.json
expect 0 "$SYSAB" system tune --root "$T/tree" --state-file "$st"
contains "$OUT" "changed 10, left 0"
cpu=$T/tree/sys/devices/system/cpu
[ "$(cat "$cpu/cpu2/cpufreq/scaling_governor")" = performance ] || fail "tune did not set the governor"
[ "$(cat "$cpu/cpu3/cpufreq/scaling_min_freq")" = 4000000 ] || fail "tune did not raise the minimum frequency"
[ "$(cat "$cpu/intel_pstate/no_turbo")" = 1 ] || fail "tune did not turn turbo off"
[ "$(cat "$T/tree/proc/sys/kernel/perf_event_max_sample_rate")" = 1 ] || fail "tune did not set the sample rate"
[ "$(cat "$T/tree/proc/sys/kernel/randomize_va_space")" = 2 ] || fail "tune changed ASLR"
[ -s "$st" ] || fail "tune saved no state"
expect 0 "$SYSAB" system show --root "$T/tree"
contains "$OUT" "performance"
# a second tune finds nothing to do and keeps the first originals
expect 0 "$SYSAB" system tune --root "$T/tree" --state-file "$st"
contains "$OUT" "nothing to set"
jq -e '.saved | length == 10' "$st" >/dev/null || fail "the state file does not hold the 10 original values"
expect 0 "$SYSAB" system reset --root "$T/tree" --state-file "$st" --json
printf '%s' "$OUT" | jq -e '[.changes[] | select(.changed)] | length == 10' >/dev/null || fail "reset restored fewer than 10"
diff -r "$T/orig" "$T/tree" || fail "reset did not restore the tree byte-identical"
[ ! -e "$st" ] || fail "reset left the state file"
expect 0 "$SYSAB" system reset --root "$T/tree" --state-file "$st"
contains "$OUT" "nothing to restore"

# amd-pstate: boost off, per-CPU governors
cp -a "$F/amd-nosmt" "$T/amd"
expect 0 "$SYSAB" system tune --root "$T/amd" --state-file "$st"
[ "$(cat "$T/amd/sys/devices/system/cpu/cpufreq/boost")" = 0 ] || fail "tune did not turn boost off"
expect 0 "$SYSAB" system reset --root "$T/amd" --state-file "$st"
diff -r "$F/amd-nosmt" "$T/amd" || fail "reset did not restore the amd tree"

# acpi-cpufreq: a governor set on one CPU is reset on it
cp -a "$F/acpi-tuned" "$T/acpi"
printf 'schedutil\n' >"$T/acpi/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
expect 0 "$SYSAB" system tune --root "$T/acpi" --state-file "$st"
[ "$(cat "$T/acpi/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")" = performance ] || fail "cpu0 not tuned"
expect 0 "$SYSAB" system reset --root "$T/acpi" --state-file "$st"
[ "$(cat "$T/acpi/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")" = schedutil ] || fail "cpu0 not reset"

# issue 52 item 10: a FIFO at a knob is not a knob file. show and tune finish (the timeout is
# only a safety net: a regression fails here instead of hanging), show has the knob as not
# available, tune names the file it left alone, and reset restores the rest.
cp -a "$F/intel-smt" "$T/fifo"
fk=$T/fifo/proc/sys/kernel/perf_event_max_sample_rate
fg=$T/fifo/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor
rm "$fk" "$fg" && mkfifo "$fk" "$fg"
expect 0 timeout 20 "$SYSAB" system show --root "$T/fifo" --json
[ "$(printf '%s' "$OUT" | jq -r '.knobs[] | select(.name == "perf_event_max_sample_rate") | .verdict')" = \
	"not available here" ] || fail "a FIFO at perf_event_max_sample_rate is not 'not available here': $OUT"
expect 0 timeout 20 "$SYSAB" system tune --root "$T/fifo" --state-file "$st"
contains "$OUT" "cpufreq.governor ($fg) alone"
contains "$OUT" "not a regular file"
[ -p "$fg" ] && [ -p "$fk" ] || fail "tune replaced a FIFO at a knob"
expect 0 timeout 20 "$SYSAB" system reset --root "$T/fifo" --state-file "$st"
[ ! -e "$st" ] || fail "reset left the state file after a tune that skipped a FIFO"

# issue 52 item 10: a symbolic link at a knob: tune never writes through it (nor saves it),
# so reset has nothing inconsistent to restore: it restores all, exit 0, the tree as it was.
cp -a "$F/intel-smt" "$T/lnk"
printf 'precious\n' >"$T/lnk-victim"
lg=$T/lnk/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor
rm "$lg" && ln -s "$T/lnk-victim" "$lg"
cp -a "$T/lnk" "$T/lnk.orig"
expect 0 "$SYSAB" system tune --root "$T/lnk" --state-file "$st"
contains "$OUT" "cpufreq.governor ($lg) alone"
contains "$OUT" "symbolic link"
[ "$(cat "$T/lnk-victim")" = precious ] || fail "tune wrote through a symbolic link at a knob"
jq -e --arg p "$lg" '[.saved[] | select(.path == $p)] | length == 0' "$st" >/dev/null ||
	fail "tune saved an original for a symbolic link at a knob"
expect 0 "$SYSAB" system reset --root "$T/lnk" --state-file "$st"
[ "$(cat "$T/lnk-victim")" = precious ] || fail "reset wrote through a symbolic link at a knob"
diff -r "$T/lnk.orig" "$T/lnk" || fail "reset did not restore the tree around a symbolic link"
[ ! -e "$st" ] || fail "reset left the state file"

# nothing settable: says so, exit 0, no state saved
cp -a "$F/vm-nocpufreq" "$T/vm"
expect 0 "$SYSAB" system tune --root "$T/vm" --state-file "$st"
contains "$OUT" "nothing to set"
[ ! -e "$st" ] || fail "tune with nothing to set saved a state file"

# a broken state file: clear error, exit 2
mkdir -p "$T/state" && echo 'not json' >"$st"
expect 2 "$SYSAB" system reset --root "$T/vm" --state-file "$st"
contains "$ERR" "not a sysab tune state file"
rm -f "$st"

# issue 34 item 1: reset trusts nothing but tune's table. A planted state file names a victim
# outside the knob table, a knob path that is a link to the victim, a path escaping the tree
# with "..", another knob's file and a value no knob holds; reset writes none of them.
cp -a "$F/intel-smt" "$T/t1"
printf 'precious\n' >"$T/victim"
ln -s "$T/victim" "$T/t1/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor.lnk"
rm "$T/t1/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"
mv "$T/t1/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor.lnk" "$T/t1/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"
cpu1=$T/t1/sys/devices/system/cpu
plant() { # plant FILE: a state file with the hostile entries
	jq -n --arg v "$T/victim" --arg c "$cpu1" --arg t "$T/t1" '{version: 1, saved: [
		{knob: "cpufreq.governor", path: $v, original: "owned\n"},
		{knob: "cpufreq.governor", path: ($c + "/cpu1/cpufreq/scaling_governor"), original: "owned\n"},
		{knob: "cpufreq.governor", path: ($c + "/cpu0/../../../../../victim"), original: "owned\n"},
		{knob: "turbo", path: ($c + "/cpu0/cpufreq/scaling_governor"), original: "owned\n"},
		{knob: "cpufreq.governor", path: ($c + "/cpu0/cpufreq/scaling_governor"), original: "a;b\n"},
		{knob: "perf_event_max_sample_rate", path: ($t + "/proc/sys/kernel/perf_event_max_sample_rate"),
		 original: "-1\n"}]}' >"$1"
	chmod 600 "$1"
}
cp -a "$T/t1" "$T/t1.orig"
plant "$T/evil.json"
expect 2 "$SYSAB" system reset --root "$T/t1" --state-file "$T/evil.json"
contains "$OUT" "not a file of any knob"
contains "$OUT" "not under the tree being reset"
contains "$OUT" "not a regular file"
contains "$OUT" "belongs to another knob"
contains "$OUT" "not one this knob can hold"
[ "$(cat "$T/victim")" = precious ] || fail "reset wrote the victim"
diff -r "$T/t1.orig" "$T/t1" || fail "reset wrote a hostile value into the tree"
[ -e "$T/evil.json" ] || fail "reset removed a state file it did not restore"
# the state file itself: a link, world-writable, another user's: refused before anything
ln -s "$T/evil.json" "$T/link.json"
expect 2 "$SYSAB" system reset --root "$T/t1" --state-file "$T/link.json"
contains "$ERR" "symbolic link"
chmod 666 "$T/evil.json"
expect 2 "$SYSAB" system reset --root "$T/t1" --state-file "$T/evil.json"
contains "$ERR" "writable by its group or by others"
expect 2 "$SYSAB" system tune --root "$T/t1" --state-file "$T/evil.json"
contains "$ERR" "cannot be trusted"
if [ "$(id -u)" = 0 ]; then
	chmod 600 "$T/evil.json" && chown 65534 "$T/evil.json"
	expect 2 "$SYSAB" system reset --root "$T/t1" --state-file "$T/evil.json"
	contains "$ERR" "owned by another user"
else
	echo "skip: the other-owner state file needs root to chown"
fi
[ "$(cat "$T/victim")" = precious ] || fail "reset wrote the victim"
# HOME unset (cron): never the state file under the current directory
mkdir -p "$T/cwd/.local/state/sysab"
plant "$T/cwd/.local/state/sysab/tune.json"
(cd "$T/cwd" && env -u HOME -u XDG_STATE_HOME "$SYSAB" system reset --root "$T/t1" >"$T/out" 2>&1) || true
case "$(cat "$T/out")" in *"$T/cwd"*) fail "reset read the state file under the current directory" ;; esac
[ "$(cat "$T/victim")" = precious ] || fail "reset wrote the victim"
diff -r "$T/t1.orig" "$T/t1" || fail "reset wrote into the tree"
expect 2 env HOME=rel "$SYSAB" system reset --root "$T/t1"
contains "$ERR" "not an absolute path"

# this machine, as root: tune what is settable, reset in a trap, byte-identical
if [ "$(id -u)" = 0 ] && [ -z "${SYSAB_NO_REAL_TUNE:-}" ]; then
	snap() {
		for f in /proc/sys/kernel/perf_event_max_sample_rate /sys/devices/system/cpu/intel_pstate/no_turbo \
			/sys/devices/system/cpu/cpufreq/boost /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor \
			/sys/devices/system/cpu/cpu*/cpufreq/scaling_min_freq /proc/sys/kernel/randomize_va_space; do
			[ -r "$f" ] && printf '%s=%s\n' "$f" "$(od -An -c "$f" | tr -s ' ')"
		done
	}
	snap >"$T/real.before"
	rst=$T/real-state.json
	trap '"$SYSAB" system reset --state-file "$rst" >/dev/null 2>&1' EXIT INT TERM
	expect 0 "$SYSAB" system tune --state-file "$rst"
	tuned=$OUT
	expect 0 "$SYSAB" system reset --state-file "$rst"
	trap - EXIT INT TERM
	snap >"$T/real.after"
	cmp -s "$T/real.before" "$T/real.after" || { diff "$T/real.before" "$T/real.after"; fail "reset did not restore this machine byte-identical"; }
	echo "real machine: $tuned"
fi

# the load average is judged against the CPUs: 6 on 4 is high, 3 some, 1 low
cp -a "$F/intel-smt" "$T/load"
for c in "6.00 5.00 4.00 1/100 7:high: 6.0 runnable tasks over the last minute on 4 CPUs; measurements" \
	"3.00 2.00 1.00 1/100 7:some: 3.0 runnable tasks" "1.00 1.00 1.00 1/100 7:low: 1.0 runnable tasks"; do
	echo "${c%%:*}" >"$T/load/proc/loadavg"
	expect 0 "$SYSAB" system show --root "$T/load"
	contains "$(printf '%s\n' "$OUT" | tr '\n' ' ' | tr -s ' ')" "load: ${c#*:}"
	expect 0 "$SYSAB" system show --root "$T/load" --json
	[ "$(printf '%s' "$OUT" | jq -r .load.level)" = "$(echo "${c#*:}" | cut -d: -f1)" ] || fail "load level in JSON: $OUT"
done
