#!/bin/sh
# deps.sh - install the missing Debian packages given as arguments (as root),
# or print the command that would (as anyone else). Exit 0 when all are present.
# apt-get waits up to DEPS_LOCK_WAIT seconds (default 300) for a dpkg/apt lock that another
# process holds (another apt-get, unattended-upgrades), saying so, instead of failing at once.
# deps.sh --lock-holder prints "PID COMMAND" of a process holding one of those locks
# (DEPS_LOCKS: the lock files, a test seam), and exits 1 when none does.
DEPS_LOCK_WAIT=${DEPS_LOCK_WAIT:-300}
DEPS_LOCKS=${DEPS_LOCKS:-/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock}
lock_holder() {
	command -v lslocks >/dev/null 2>&1 || return 1
	# one lock file per line, for an exact match of lslocks' PATH column
	printf '%s\n' $DEPS_LOCKS >"${TMPDIR:-/tmp}/deps-locks.$$"
	pid=$(lslocks -n -r -o PID,PATH 2>/dev/null | awk -v f="${TMPDIR:-/tmp}/deps-locks.$$" '
		BEGIN { while ((getline l < f) > 0) want[l] = 1 } ($2 in want) { print $1; exit }')
	rm -f "${TMPDIR:-/tmp}/deps-locks.$$"
	[ -n "$pid" ] || return 1
	echo "$pid $(cat "/proc/$pid/comm" 2>/dev/null || echo '?')"
}
if [ "${1:-}" = --lock-holder ]; then
	lock_holder
	exit
fi
missing=""
if command -v dpkg-query >/dev/null 2>&1; then
	for p in "$@"; do
		s=$(dpkg-query -W -f '${Status}' "$p" 2>/dev/null)
		case "$s" in *" installed") ;; *) missing="$missing $p" ;; esac
	done
else
	# Not Debian: trust pkg-config for the libraries and say what is needed.
	for lib in sqlite3 jansson gsl; do
		pkg-config --exists "$lib" 2>/dev/null || missing="$missing $lib"
	done
	if [ -n "$missing" ]; then
		echo "sysab needs the development files of:$missing (and cmocka for the tests); install them with your package manager" >&2
		exit 1
	fi
	exit 0
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "installing:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	if h=$(lock_holder); then
		echo "deps.sh: process $h holds a dpkg/apt lock; waiting for it (at most $DEPS_LOCK_WAIT s)" >&2
	fi
	apt="apt-get -o DPkg::Lock::Timeout=$DEPS_LOCK_WAIT"
	$apt install -y --no-install-recommends $missing >/dev/null 2>&1 ||
		{ $apt update -q >/dev/null 2>&1 && $apt install -y --no-install-recommends $missing >/dev/null; } ||
		{ echo "apt-get could not install:$missing${h:+ (a dpkg/apt lock was held by process $h)}" >&2; exit 1; }
else
	echo "sysab needs these Debian packages:$missing" >&2
	echo "run:  sudo apt-get install -y$missing" >&2
	exit 1
fi
