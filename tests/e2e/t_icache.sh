# run --icache-pressure (issue 37 item 2): sweeps before each op, recorded with the run, shown,
# checked, and refused for a workload whose op is not one kernel entry. No timing is asserted.

quick="--quick --no-probe --counters none -c 1 --samples 4"

# Cache sizes from a fake sysfs cache directory (the seam SYSAB_CACHE_SYSFS): 32 KiB of L1i
# gives a 64 KiB code sweep on any machine.
for i in 0 1; do mkdir -p "$T/cache/index$i"; done
echo 1 >"$T/cache/index0/level"; echo Instruction >"$T/cache/index0/type"; echo 32K >"$T/cache/index0/size"
echo 2 >"$T/cache/index1/level"; echo Unified >"$T/cache/index1/type"; echo 1024K >"$T/cache/index1/size"
export SYSAB_CACHE_SYSFS="$T/cache"

# Refusals: a workload that does not take it (named, with those that do), no -w at all (every
# workload), a level that is not one; nothing is stored.
expect 2 "$SYSAB" run -w harness.null --icache-pressure l1 $quick
contains "$ERR" "--icache-pressure l1: harness.null does not take it"
contains "$ERR" "kernel.syscall.null"
expect 2 "$SYSAB" run -w kernel.syscall.null -w kernel.proc.fork --icache-pressure l1 $quick
contains "$ERR" "kernel.proc.fork does not take it"
expect 2 "$SYSAB" run --icache-pressure l1 $quick
contains "$ERR" "does not take it"
expect 2 "$SYSAB" run -w kernel.syscall.null --icache-pressure l2 $quick
contains "$ERR" "--icache-pressure l2: give l1, llc or a size such as 8M"
expect 2 "$SYSAB" run --unixbench true --icache-pressure l1
contains "$ERR" "--icache-pressure is for sysab's own workloads"
[ "$(last_run "$SYSAB_DB")" = 0 ] || fail "a refused --icache-pressure stored a run"

# A pressured run: recorded in the environment and settings, shown, its sweep check held;
# host.ref runs in it unpressured (no sweep check).
expect 0 "$SYSAB" run -w kernel.syscall.null --icache-pressure 64K -l p=yes $quick
contains "$OUT" "2 ran ok, 0 unsupported, 0 failed a self-check"
expect 0 "$SYSAB" show "$(last_run "$SYSAB_DB")"
contains "$OUT" "icache pressure: 64K: 64 KiB of code and 64 KiB of data swept before each op"
r=$(last_run "$SYSAB_DB")
env_of() { sqlite3 "$SYSAB_DB" "SELECT value FROM environment WHERE run = $1 AND key = '$2'"; }
[ "$(env_of "$r" run.icache_pressure)" = 64K ] || fail "the level is not recorded"
[ "$(env_of "$r" run.icache_pressure.code_bytes)" = 65536 ] || fail "the code sweep is not 2 x L1i"
[ "$(env_of "$r" run.icache_pressure.data_bytes)" = 65536 ] || fail "the data sweep is not the size given"
[ "$(env_of "$r" run.icache_pressure.sizes)" = sysfs ] || fail "the sizes' source is not recorded"
sqlite3 "$SYSAB_DB" "SELECT settings FROM run WHERE id = $r" | jq -e '.icache_pressure == "64K"' >/dev/null ||
	fail "the settings do not name the pressure"
sqlite3 "$SYSAB_DB" "SELECT checks FROM slot WHERE run = $r AND workload = 'kernel.syscall.null'" |
	jq -e '[.[] | select(.name == "complete cache sweeps per op (icache pressure)")] | length == 1 and
	all(.ok and .value == 1)' >/dev/null ||
	fail "sweep check: $(sqlite3 "$SYSAB_DB" "SELECT checks FROM slot WHERE run = $r")"
sqlite3 "$SYSAB_DB" "SELECT checks FROM slot WHERE run = $r AND workload = 'host.ref'" | grep -q "icache pressure" &&
	fail "host.ref was swept"
expect 0 "$SYSAB" show "$r"
contains "$OUT" "icache pressure: 64K"
"$SYSAB" workloads --json | jq -e '[.workloads[] | select(.flags | index("icache-pressure")) | .name] |
	index("kernel.syscall.null") != null and index("harness.null") == null' >/dev/null ||
	fail "workloads --json does not flag the workloads that take it"

# l1 without sysfs caches: the default L1i, said so.
expect 0 env SYSAB_CACHE_SYSFS="$T/none" "$SYSAB" run -w kernel.syscall.null --icache-pressure l1 --no-host-ref $quick
r1=$(last_run "$SYSAB_DB")
[ "$(env_of "$r1" run.icache_pressure.sizes)" = default ] || fail "default sizes are not said so"
[ "$(env_of "$r1" run.icache_pressure.data_bytes)" = 0 ] || fail "l1 swept data"

# An unpressured run against the pressured one: compare shows the difference.
expect 0 "$SYSAB" run -w kernel.syscall.null -l p=no $quick
rno=$(last_run "$SYSAB_DB")
expect 0 "$SYSAB" compare p=no p=yes --unit run
contains "$OUT" "run.icache_pressure"
# Groups that mix pressured and unpressured runs alike show it too.
expect 0 "$SYSAB" run -w kernel.syscall.null --icache-pressure 64K -l p=yes2 $quick
r2=$(last_run "$SYSAB_DB")
expect 0 "$SYSAB" run -w kernel.syscall.null -l p=no2 $quick
expect 0 "$SYSAB" compare "run:$r,$rno" "run:$r2,$(last_run "$SYSAB_DB")" --unit run
contains "$OUT" "run.icache_pressure"

# Sweeps that fall short (the seam SYSAB_TEST_SHORT_SWEEP) fail the check.
expect 0 env SYSAB_TEST_SHORT_SWEEP=1 "$SYSAB" run -w kernel.syscall.null --icache-pressure l1 --no-host-ref $quick
contains "$OUT" "0 ran ok, 0 unsupported, 1 failed a self-check"
printf '%s\n' "$OUT" | grep -q '^  kernel.syscall.null: 0, not in \[1, 1\]: complete cache sweeps per op' ||
	fail "the failed sweep check's line: $OUT"
