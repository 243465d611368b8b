# No x86-only code without a portable branch, no system call that arm64, riscv64 and
# loongarch64 lack (scripts/check-portability.sh); the checker itself rejects its bad fixture.
# harness.null's op and the timer stay cheap: no clock read inside any workload's op loop.
files=$(cd "$REPO" && find src tests bench -name '*.[ch]' ! -path 'tests/portability/*' | sort)
expect 0 sh -c "cd '$REPO' && sh scripts/check-portability.sh $(echo $files)"
expect 1 sh "$REPO/scripts/check-portability.sh" "$REPO/tests/portability/bad.c"
contains "$OUT" "bad.c:5: #if on an x86 macro with no #else"
contains "$OUT" "bad.c:9: raw system call"
contains "$OUT" "bad.c:11: x86-only code outside"
expect 0 sh "$REPO/scripts/check-portability.sh" "$REPO/tests/portability/good.c"
null=$(cat "$REPO/src/workloads/harness/null.c")
case "$null" in *clock_* | *gettimeofday* | *time\(*) fail "harness.null reads a clock" ;; esac
# the timer: CLOCK_MONOTONIC_RAW read around batches, with its resolution check in the environment
expect 0 "$SYSAB" env
contains "$OUT" "timer.check"
contains "$OUT" "timer.res_ns"
contains "$OUT" "emulated"
contains "$OUT" "arch.build"
contains "$OUT" "cache.source"
# emulation is detected both ways: a build for this machine is native, a foreign one emulated
build=$(printf '%s\n' "$OUT" | awk '$1 == "arch.build" { print $2 }')
emu=$(printf '%s\n' "$OUT" | awk '$1 == "emulated" { print $2 }')
if [ "$build" = "$(uname -m)" ]; then
	[ "$emu" = no ] || fail "a native $build build says emulated = '$emu'"
else
	[ "$emu" = "yes:" ] || fail "a $build build on $(uname -m) says emulated = '$emu'"
fi
