# The database's own disk fills up mid-run (a 600 KiB tmpfs): exit 2 naming the full disk; the
# database stays readable while the disk is full (its pages are in the write-ahead log, which the
# header check now counts), and once there is room the dead run is marked interrupted.
if [ "$(id -u)" = 0 ] && mkdir "$T/full" && mount -t tmpfs -o size=600k,mode=0755 sysab-test "$T/full" 2>/dev/null; then
	trap 'umount "$T/full" 2>/dev/null' EXIT
	db="$T/full/r.db"
	expect 2 "$SYSAB" run --quick -w 'harness.*' -w 'kernel.syscall.*' -q --db "$db"
	contains "$ERR" "the disk is full: free space and retry"
	[ -s "$db-wal" ] || fail "no write-ahead log left: the case is not the one under test"
	n=$(sqlite3 "$db" 'SELECT count(*) FROM sample')
	[ "$n" -gt 0 ] || fail "no samples kept"
	# still full: reading works, nothing lost
	expect 0 "$SYSAB" list --db "$db"
	contains "$OUT" "   1 "
	expect 0 "$SYSAB" export --db "$db"
	[ "$(printf '%s\n' "$OUT" | wc -l)" = $((n + 1)) ] || fail "export while full: not $n samples"
	# room again (the tmpfs grows, as if space were freed): the dead run is reaped, and runs go on
	mount -o remount,size=4m "$T/full" || fail "cannot grow the tmpfs"
	expect 0 "$SYSAB" list --db "$db"
	printf '%s\n' "$OUT" | grep -q ' running ' && fail "the run stays running once there is room: $OUT"
	printf '%s\n' "$OUT" | grep -Eq ' (interrupted|incomplete) ' || fail "run 1: $OUT"
	expect 0 "$SYSAB" run --quick -w harness.null -q --db "$db"
	db_ok "$db"
	[ "$(sqlite3 "$db" 'SELECT count(*) FROM sample WHERE run = 1')" = "$n" ] || fail "samples of run 1 changed"
	umount "$T/full" || fail "cannot unmount the tmpfs"
	trap - EXIT
else
	echo "skip: cannot mount a tmpfs here (needs root); the full database disk is not tested"
fi
