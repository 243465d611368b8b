# lib.sh - helpers for end-to-end tests of the real sysab binary. Sourced by each test.
# Each test runs in its own scratch directory ($T) with its own TMPDIR and database.
set -u

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect RC CMD...: run CMD, store stdout in $OUT and stderr in $ERR, check the exit code.
expect() {
	want=$1
	shift
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	OUT=$(cat "$T/out")
	ERR=$(cat "$T/err")
	if [ "$got" != "$want" ]; then
		echo "--- stdout" >&2
		head -c 3000 "$T/out" >&2
		echo "--- stderr" >&2
		head -c 3000 "$T/err" >&2
		fail "exit $got, wanted $want: $*"
	fi
}

# contains HAYSTACK NEEDLE
contains() {
	case "$1" in
	*"$2"*) ;;
	*) fail "expected to find '$2' in: $(printf '%s' "$1" | head -c 600)" ;;
	esac
}

# no_sysab_left: no process of the binary under test survives.
no_sysab_left() {
	sleep 0.2
	left=$(pgrep -f -- "^$SYSAB( |$)" 2>/dev/null || true)
	[ -z "$left" ] || { ps -o pid,ppid,stat,cmd -p $left >&2; fail "processes left behind: $left"; }
}

db_ok() {
	r=$(sqlite3 "$1" 'PRAGMA integrity_check' 2>&1)
	[ "$r" = ok ] || fail "integrity_check of $1: $r"
}
