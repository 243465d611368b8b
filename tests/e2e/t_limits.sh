# Resource exhaustion: a low process limit, a low open file limit and a full file system make
# the affected workloads "no-resource" with the reason while the rest of the run completes;
# and each process-creating workload stays within its documented bound of live processes.

slot() { # slot DB WORKLOAD COPIES: "status|reason" of that slot in the latest run
	sqlite3 "$1" "SELECT status || '|' || coalesce(reason, '') FROM slot WHERE workload = '$2' AND copies = $3
		AND run = (SELECT max(id) FROM run)"
}
UDB=$T/u/results.db

if unpriv_setup; then
	# ulimit -u: room for sysab and one worker at a time (blocked order), so a workload's own
	# fork fails; and (rounds) room for a 1-copy worker but not for 4 copies.
	base=$(user_procs)
	expect 0 as_user prlimit --nproc=$((base + 2)) "$SYSAB" run -w unixbench.spawn -w unixbench.shell8 \
		-w kernel.syscall.null --order blocked --quick --samples 3 -q
	contains "$(slot "$UDB" unixbench.spawn 1)" "no-resource|fork: Resource temporarily unavailable"
	contains "$(slot "$UDB" unixbench.shell8 1)" "no-resource|fork"
	contains "$(slot "$UDB" kernel.syscall.null 1)" "ok|"
	contains "$(sqlite3 "$UDB" "SELECT status FROM run WHERE id = (SELECT max(id) FROM run)")" complete
	base=$(user_procs)
	expect 0 as_user prlimit --nproc=$((base + 3)) "$SYSAB" run -w kernel.syscall.null -c 1 -c 4 --quick --samples 3 -q
	contains "$(slot "$UDB" kernel.syscall.null 4)" "no-resource|fork of worker"
	contains "$(slot "$UDB" kernel.syscall.null 4)" "ulimit -u"
	contains "$(slot "$UDB" kernel.syscall.null 1)" "ok|"

	# The bound of live processes (threads included) per copy, worker included, of every workload
	# that creates processes or threads: the kernel enforces it through RLIMIT_NPROC, so a
	# workload that ever went above it would fail its fork and not be "ok". Under the sanitizers
	# a process that exits starts one leak-checker thread, so the limit is one higher there.
	extra=0
	[ -n "${SYSAB_ASAN:-}" ] && extra=1
	for wb in unixbench.spawn:2 unixbench.execl:2 kernel.proc.exec:2 kernel.proc.fork:2 unixbench.context1:2 \
		kernel.ctx.pipe:2 kernel.ctx.pipe-cross:2 kernel.fault.cow:2 kernel.futex.pingpong:2 \
		kernel.ipi.membarrier:2 unixbench.shell1:5 unixbench.shell8:33; do
		w=${wb%:*} b=$((${wb#*:} + extra))
		wl=$("$SYSAB" workloads | awk -v w="$w" '$1 == w')
		[ -n "$wl" ] || fail "no workload $w"
		base=$(user_procs)
		# (--no-host-ref: host.ref's worker would take one of the processes the bound counts)
		expect 0 as_user prlimit --nproc=$((base + 1 + b)) "$SYSAB" run -w "$w" --quick --samples 3 --warmup-ms 0 \
			--no-host-ref -q
		st=$(slot "$UDB" "$w" 1)
		case "$st" in ok\|*|unsupported\|*) ;; *) fail "$w went above $b live processes: $st" ;; esac
	done
	no_tmp_left "$T/u/tmp"
	db_ok "$UDB"
fi

# ulimit -n: 16 copies need 32 pipe ends in sysab; 1 copy fits.
expect 0 prlimit --nofile=24 "$SYSAB" run -w kernel.syscall.null -w unixbench.fstime -c 1 -c 16 --quick --samples 3 -q
contains "$(slot "$SYSAB_DB" kernel.syscall.null 16)" "no-resource|pipe for worker"
contains "$(slot "$SYSAB_DB" kernel.syscall.null 16)" "ulimit -n"
contains "$(slot "$SYSAB_DB" kernel.syscall.null 1)" "ok|"
contains "$(slot "$SYSAB_DB" unixbench.fstime 1)" "ok|"

# A full file system as TMPDIR (a 1 MiB tmpfs; needs root and mount permission).
mkdir "$T/full"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m,mode=0755 sysab-test "$T/full" 2>/dev/null; then
	trap 'umount "$T/full" 2>/dev/null' EXIT
	expect 0 env TMPDIR="$T/full" "$SYSAB" run -w unixbench.fstime -w unixbench.fsdisk -w unixbench.fsbuffer-r \
		-w unixbench.shell1 -w kernel.syscall.null -c 1 --quick --samples 3 -q
	contains "$(slot "$SYSAB_DB" unixbench.fstime 1)" "no-resource|write source file: No space left on device"
	contains "$(slot "$SYSAB_DB" unixbench.fsdisk 1)" "no-resource|"
	contains "$(slot "$SYSAB_DB" kernel.syscall.null 1)" "ok|"
	contains "$(slot "$SYSAB_DB" unixbench.fsbuffer-r 1)" "ok|"
	contains "$(slot "$SYSAB_DB" unixbench.shell1 1)" "ok|"
	no_tmp_left "$T/full"
	# No room even for the run's temp directory: a clear error, exit 2, no run recorded.
	umount "$T/full"
	mount -t tmpfs -o size=1m,nr_inodes=1 sysab-test "$T/full"
	before=$(last_run "$SYSAB_DB")
	expect 2 env TMPDIR="$T/full" "$SYSAB" run -w kernel.syscall.null --quick -q
	contains "$ERR" "cannot create a temporary directory under $T/full"
	[ "$(last_run "$SYSAB_DB")" = "$before" ] || fail "a run was recorded without a temp directory"
	umount "$T/full"
	trap - EXIT
else
	echo "skip: cannot mount a tmpfs here (needs root); the full file system case is not tested"
fi
db_ok "$SYSAB_DB"
