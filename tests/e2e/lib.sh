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
	left=$(pgrep -f -- "^([^ ]*qemu[^ ]* )?$SYSAB( |$)" 2>/dev/null || true)
	[ -z "$left" ] || { ps -o pid,ppid,stat,cmd -p $left >&2; fail "processes left behind: $left"; }
}

db_ok() {
	r=$(sqlite3 "$1" 'PRAGMA integrity_check' 2>&1)
	[ "$r" = ok ] || fail "integrity_check of $1: $r"
}

# no_proc_in DIR: no process has its working directory or an open file under DIR
# (catches grandchildren of workers, such as shell scripts, that pgrep cannot name).
no_proc_in() {
	sleep 0.1
	left=$(find /proc/[0-9]*/cwd -maxdepth 0 -lname "$1/*" 2>/dev/null | cut -d/ -f3 | tr '\n' ' ')
	[ -z "$left" ] || { ps -o pid,ppid,stat,cmd -p $left >&2; fail "processes still work in $1: $left"; }
}

# no_tmp_left DIR: DIR exists and is empty.
no_tmp_left() {
	[ -z "$(ls -A "$1" 2>/dev/null)" ] || fail "temp files left in $1: $(ls -A "$1")"
}

# last_run DB: the id of the latest run in DB, 0 when there is none.
last_run() {
	r=0
	[ -s "$1" ] && r=$(sqlite3 "$1" "SELECT coalesce(max(id), 0) FROM run" 2>/dev/null)
	echo "${r:-0}"
}

# wait_samples DB N [TIMEOUT_TENTHS] [AFTER_RUN]: wait until DB holds at least N samples of a
# run newer than AFTER_RUN (default: of the latest run).
wait_samples() {
	i=0
	while [ $i -lt "${3:-150}" ]; do
		n=0
		[ -s "$1" ] && n=$(sqlite3 "$1" "SELECT count(*) FROM sample WHERE run = (SELECT max(id) FROM run)
			AND run > ${4:-0}" 2>/dev/null)
		[ "${n:-0}" -ge "$2" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "no $2 samples in $1 after $((${3:-150} / 10)) s"
}

# wait_run DB [AFTER_RUN]: wait until DB records a running run newer than AFTER_RUN.
wait_run() {
	i=0
	while [ $i -lt 100 ]; do
		n=0
		[ -s "$1" ] && n=$(sqlite3 "$1" "SELECT count(*) FROM run WHERE status = 'running' AND id > ${2:-0}" 2>/dev/null)
		[ "${n:-0}" -ge 1 ] && return 0
		sleep 0.05
		i=$((i + 1))
	done
	fail "no running run in $1"
}

# signum NAME: the number of signal NAME (INT, TERM, HUP, KILL).
signum() {
	case $1 in INT) echo 2 ;; HUP) echo 1 ;; TERM) echo 15 ;; KILL) echo 9 ;; esac
}

# reach_sysab UID: make the binary under test one that UID can execute. A clone in a private
# directory (root's 0700 home, a mktemp -d) puts $SYSAB out of another uid's reach; then
# $SYSAB and its exec helper are copied into $T/bin (with $T made 0755) and SYSAB names the
# copy. Returns 1, saying why, only when even $T is out of UID's reach (a private TMPDIR).
reach_sysab() {
	setpriv --reuid="$1" --regid="$1" --clear-groups env "$SYSAB" --version >/dev/null 2>&1 && return 0
	mkdir -p "$T/bin"
	cp "$SYSAB" "$T/bin/sysab"
	for h in sysab-exec-helper sysab-execl-helper; do
		[ ! -e "$(dirname "$SYSAB")/$h" ] || cp "$(dirname "$SYSAB")/$h" "$T/bin/"
	done
	chmod 755 "$T" "$T/bin" "$T/bin/"*
	# run, not only -x: a cross build's loader sits in its sysroot, in the clone (make check-cross);
	# through env, since setpriv itself still holds root's capabilities when it execs (so its
	# own exec finds a file the uid cannot reach); the program it starts holds none
	if ! setpriv --reuid="$1" --regid="$1" --clear-groups env "$T/bin/sysab" --version >/dev/null 2>&1; then
		echo "skip: uid $1 can run neither $SYSAB nor $T/bin/sysab (a private directory above $T, or above the loader of a cross build's sysroot)"
		return 1
	fi
	SYSAB=$T/bin/sysab
}

# Running as an unprivileged user. As root, commands run through setpriv as UNPRIV_UID (root
# bypasses file permissions and RLIMIT_NPROC); otherwise as the current user. The user gets
# its own HOME, TMPDIR and database under $T/u (which the caller's leak checks do not see:
# tests check $T/u/tmp themselves).
UNPRIV_UID=${SYSAB_TEST_UID:-65534}
unpriv_setup() {
	mkdir -p "$T/u/tmp" "$T/u/home"
	if [ "$(id -u)" = 0 ]; then
		command -v setpriv >/dev/null || { echo "skip: setpriv is missing"; return 1; }
		chmod 755 "$T"
		chown -R "$UNPRIV_UID:$UNPRIV_UID" "$T/u"
		reach_sysab "$UNPRIV_UID" || return 1
	else
		UNPRIV_UID=$(id -u)
	fi
	return 0
}
as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid="$UNPRIV_UID" --regid="$UNPRIV_UID" --clear-groups \
			env HOME="$T/u/home" TMPDIR="$T/u/tmp" SYSAB_DB="$T/u/results.db" "$@"
	else
		env HOME="$T/u/home" TMPDIR="$T/u/tmp" SYSAB_DB="$T/u/results.db" "$@"
	fi
}
# user_procs: tasks (threads included, as RLIMIT_NPROC counts them) of UNPRIV_UID now, not
# counting those of the count itself (ps, awk and the subshell running them: the caller's own
# when it is that user).
user_procs() {
	ps -L -U "$UNPRIV_UID" --no-headers -o pid=,ppid=,comm= 2>/dev/null |
		awk '{ pid[NR] = $1; comm[NR] = $3; if ($3 == "ps") sub_ = $2 }
			END { n = 0; for (i = 1; i <= NR; i++) if (comm[i] != "ps" && comm[i] != "awk" && pid[i] != sub_) n++; print n }'
}

# wait_exit PID TENTHS [PIDS]: wait for sysab's PID to end within TENTHS tenths of a second; else
# continue and kill it (and PIDS, e.g. a lock holder) and fail, with its stderr ($T/err).
wait_exit() {
	i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt "$2" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -CONT "$1" 2>/dev/null
		kill -KILL "$1" ${3:-} 2>/dev/null
		fail "sysab still running after $(($2 / 10)) s: $(cat "$T/err")"
	fi
}

# fake_reboots: a simulated machine for the command backend (t_campaign_adaptive, t_bisect):
# $T/proc as SYSAB_CAMPAIGN_PROC with numbered boot ids (SYSAB_BOOT_ID, which the fake samples
# draw from), a boot loader $BOOTCMD that records in $T/armed what it was asked to boot, and
# fake_boot, the reboot into it.
fake_reboots() {
	mkdir -p "$T/proc" "$T/units"
	export SYSAB_CAMPAIGN_PROC="$T/proc" SYSAB_BOOT_ID="$T/proc/boot_id"
	echo 6.1.0-test >"$T/proc/osrelease"
	echo "BOOT_IMAGE=/vmlinuz ro" >"$T/proc/cmdline"
	echo boot-0 >"$T/proc/boot_id"
	echo 0 >"$T/nboots"
	printf '#!/bin/sh\necho "$SYSAB_APPEND" >>%s\n' "$T/armed" >"$T/bootcmd"
	chmod +x "$T/bootcmd"
	BOOTCMD=$T/bootcmd
}
fake_boot() {
	n=$(($(cat "$T/nboots") + 1))
	echo $n >"$T/nboots"
	tail -n 1 "$T/armed" >"$T/proc/cmdline"
	echo "boot-$n" >"$T/proc/boot_id"
}
