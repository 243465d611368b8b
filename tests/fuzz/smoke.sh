#!/bin/sh
# smoke.sh - run each libFuzzer target for FUZZ_SECONDS (default 20) on a copy of its corpus; fail on any finding.
# Build the targets first with `make fuzz`. Run from the repository root.
# FUZZ_SECONDS=N   seconds per target; FUZZ_TARGETS="csv label" to run only some.
set -u
secs=${FUZZ_SECONDS:-20}
targets=${FUZZ_TARGETS:-unixbench csv label text db}
bin=${FUZZ_BIN:-build/fuzz}
status=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sysab-fuzz.XXXXXX") || exit 2
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for t in $targets; do
	exe=$bin/fuzz_$t
	if [ ! -x "$exe" ]; then
		echo "smoke: $exe is missing; run 'make fuzz' first" >&2
		status=2
		continue
	fi
	mkdir -p "$tmp/$t/corpus" "$tmp/$t/artifacts"
	cp tests/fuzz/corpus/"$t"/* "$tmp/$t/corpus/" && chmod -R u+w "$tmp/$t/corpus"
	dict=
	[ -f "tests/fuzz/$t.dict" ] && dict=-dict=tests/fuzz/$t.dict
	maxlen=8192
	[ "$t" = db ] && maxlen=65536 # a whole (small-page) database file
	if "$exe" -max_total_time="$secs" -max_len=$maxlen -timeout=10 -rss_limit_mb=2048 $dict \
		-artifact_prefix="$tmp/$t/artifacts/" "$tmp/$t/corpus" >"$tmp/$t/log" 2>&1 &&
		! grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)|runtime error:' "$tmp/$t/log"; then
		echo "smoke: $t ok ($(grep -o 'Done [0-9]* runs' "$tmp/$t/log" | tail -n 1))"
	else
		echo "smoke: $t FAILED; log and crashing inputs kept in $tmp/$t" >&2
		tail -n 30 "$tmp/$t/log" >&2
		status=1
	fi
done
[ "$status" -eq 0 ] && rm -rf "$tmp"
exit "$status"
