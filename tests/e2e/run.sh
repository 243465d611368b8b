#!/bin/sh
# run.sh - run every end-to-end test (tests/e2e/t_*.sh) against $SYSAB, each in a scratch
# directory; after each test check that no sysab process and no temp file was left behind.
# E2E_ONLY=part runs only the matching tests; E2E_SKIP="t_a t_b" leaves those out.
: "${SYSAB:?set SYSAB to the binary under test}"
here=$(cd "$(dirname "$0")" && pwd)
pass=0
failed=0
names=""
for t in "$here"/t_*.sh; do
	[ -n "${E2E_ONLY:-}" ] && case "$t" in *"$E2E_ONLY"*) ;; *) continue ;; esac
	name=$(basename "$t" .sh)
	case " ${E2E_SKIP:-} " in *" $name "*) echo "skip $name (E2E_SKIP)"; continue ;; esac
	T=$(mktemp -d "${TMPDIR:-/tmp}/sysab-e2e.XXXXXX")
	mkdir -p "$T/tmp"
	start=$(date +%s)
	if (cd "$T" && T="$T" TMPDIR="$T/tmp" SYSAB_DB="$T/results.db" HOME="$T/home" XDG_DATA_HOME= \
		REPO="$here/../.." E2E="$here" sh -c ". \"\$E2E/lib.sh\"; . \"$t\"") >"$T/log" 2>&1; then
		ok=1
	else
		ok=0
	fi
	# Leak checks after every test.
	sleep 0.3
	# only this test's: processes of the binary whose environment points into $T (T, TMPDIR,
	# HOME and SYSAB_DB do), so a sysab that another job runs on the machine is left alone
	left=""
	# (and of its copy in $T/bin, made by reach_sysab for another uid)
	for p in $(pgrep -f -- "^([^ ]*qemu[^ ]* )?($SYSAB|$T/bin/sysab)( |$)" 2>/dev/null || true); do
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -q "^[A-Za-z_]*=$T\(/\|$\)" && left="$left $p"
	done
	left=${left# }
	if [ -n "$left" ]; then
		echo "leak: processes of sysab left by $name: $left" >>"$T/log"
		kill -9 $left 2>/dev/null
		ok=0
	fi
	inside=$(find /proc/[0-9]*/cwd -maxdepth 0 -lname "$T/*" 2>/dev/null | cut -d/ -f3 | tr '\n' ' ')
	if [ -n "$inside" ]; then
		echo "leak: processes left working in the test's directory by $name: $inside" >>"$T/log"
		kill -9 $inside 2>/dev/null
		ok=0
	fi
	if [ -n "$(ls -A "$T/tmp" 2>/dev/null)" ]; then
		echo "leak: temp files left by $name: $(ls -A "$T/tmp")" >>"$T/log"
		ok=0
	fi
	if [ $ok = 1 ]; then
		pass=$((pass + 1))
		echo "ok   $name ($(($(date +%s) - start))s)"
	else
		failed=$((failed + 1))
		names="$names $name"
		echo "FAIL $name"
		sed 's/^/    /' "$T/log" | tail -40
	fi
	rm -rf "$T"
done
echo "e2e: $pass passed, $failed failed"
[ $failed = 0 ] || { echo "failed:$names"; exit 1; }
