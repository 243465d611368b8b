#!/bin/sh
# run-unit.sh - run each cmocka test binary given; print a closing "N passed, N failed" line.
pass=0
fail=0
for t in "$@"; do
	if "$t"; then
		pass=$((pass + 1))
	else
		echo "FAILED: $t" >&2
		fail=$((fail + 1))
	fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
