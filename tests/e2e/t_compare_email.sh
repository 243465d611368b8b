# compare email: the default text of a comparison of two workloads fits an email: at most 15
# lines of at most 80 columns, the counters in one line (--counters lists them, with units and
# never in e-notation), the legend in one line (-v gives it in full).
check_short() { # WHAT: $OUT has at most 15 lines besides the emulation caveat, none wider than 80 columns
	# under qemu-user (make check-cross) the one paragraph naming the emulator comes on top
	n=$(printf '%s\n' "$OUT" | awk '/^emulated: / { skip = 1 } skip && /^$/ { skip = 0 } !skip' | wc -l)
	[ "$n" -le 15 ] || fail "$1: $n lines: $OUT"
	w=$(printf '%s\n' "$OUT" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
	[ "$w" -le 80 ] || fail "$1: a line of $w columns: $OUT"
}
# two real workloads, two runs of each configuration on this boot, counters on
for x in a b a b; do
	expect 0 "$SYSAB" run -w kernel.syscall.null -w kernel.vdso.clock --quick --samples 6 --warmup-ms 0 -q \
		--no-probe -l x=$x
done
expect 0 env LC_ALL=C.UTF-8 COLUMNS=80 "$SYSAB" compare x=a x=b
check_short "compare of two workloads"
contains "$OUT" "(faster/slower need BH q < 0.05)"
case $OUT in *" · "*) fail "counter rows without --counters: $OUT" ;; esac
case $OUT in *"counter rows (workload"*) fail "the counter legend without -v: $OUT" ;; esac
# the counter rows, where this kernel counts (qemu-user has no perf_event_open: make check-cross)
expect 0 "$SYSAB" show --json 1
if printf '%s' "$OUT" | jq -e '.run.environment["counters.software"] // "" | startswith("unavailable")' >/dev/null; then
	echo "no software counters here: the counter rows are not checked"
else
	expect 0 env LC_ALL=C.UTF-8 COLUMNS=80 "$SYSAB" compare x=a x=b
	contains "$OUT" "--counters lists them"
	expect 0 "$SYSAB" compare x=a x=b --counters
	contains "$OUT" "kernel.syscall.null · task-clock ns/op"
	printf '%s\n' "$OUT" | grep -Eq '[0-9]e[-+][0-9]' && fail "e-notation in the counter rows: $OUT"
	printf '%s\n' "$OUT" | grep ' · ' | grep -Ev ' ns/op$|/op$|/1[kMG] ops$' && fail "a counter row without its unit: $OUT"
	expect 0 "$SYSAB" compare x=a x=b --counters -v
	contains "$OUT" "counter rows (workload · event/op)"
	contains "$OUT" "verdicts use q, while the intervals are per row"
fi
# the README's synthetic data: three rows, well replicated
expect 0 "$SYSAB" import csv "$REPO/examples/pernode-pie-boots.csv"
expect 0 env COLUMNS=80 "$SYSAB" compare 'pernode=no pie=yes data=synthetic' 'pernode=yes pie=yes data=synthetic' \
	-w kernel.syscall.null -w unixbench.pipe
check_short "compare of the synthetic data"
