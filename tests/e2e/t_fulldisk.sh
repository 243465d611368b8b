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

# Issue 52, item 9: a cleanly closed database on a full disk (no room for FILE-shm) is read by
# every reading command, as a snapshot they say they took; compare and analyze give their
# verdicts and say the look was not recorded; the database is byte for byte untouched.
# Item 10: -o on the full disk names the real cause (ENOSPC), exit 2, and leaves no file.
if [ "$(id -u)" = 0 ] && mkdir "$T/full2" && mount -t tmpfs -o size=600k,mode=0755 sysab-test "$T/full2" 2>/dev/null; then
	trap 'umount "$T/full2" 2>/dev/null' EXIT
	db="$T/full2/c.db"
	printf '%s\n' 'workload,unit,value,run,boot,cfg' >"$T/in2.csv"
	for b in 1 2 3; do for i in 1 2 3 4; do
		printf 'w.x,ops/s,%s,a%s,aboot%s,a\n' "$((1000 + i + b))" "$b" "$b"
		printf 'w.x,ops/s,%s,b%s,bboot%s,b\n' "$((900 + i + b))" "$b" "$b"
	done; done >>"$T/in2.csv"
	expect 0 "$SYSAB" import csv "$T/in2.csv" --db "$db"
	[ ! -e "$db-wal" ] && [ ! -e "$db-shm" ] || fail "the database is not cleanly closed: the case is not the one under test"
	dd if=/dev/zero of="$T/full2/fill" bs=4k 2>/dev/null
	sum=$(md5sum <"$db")
	for c in "list" "show 1" "export" "analyze --factors cfg" "compare cfg=a cfg=b" "check-db" "history -w w.x"; do
		expect 0 "$SYSAB" $c --db "$db"
		contains "$ERR" "its disk is full (or failing), so nothing can be written: read as it was when opened"
		[ "$(md5sum <"$db")" = "$sum" ] || fail "$c changed the database on a full disk"
	done
	expect 0 "$SYSAB" compare cfg=a cfg=b --db "$db"
	contains "$OUT" "slower"
	contains "$ERR" "this look was not recorded, as the database's disk is full"
	# -o on the full disk: the real cause, no file left behind
	for c in "list" "show 1" "export" "compare cfg=a cfg=b" "report cfg=a"; do
		expect 2 "$SYSAB" $c --db "$db" -o "$T/full2/out.txt"
		contains "$ERR" "-o $T/full2/out.txt: cannot write it (No space left on device)"
	done
	[ "$(ls "$T/full2" | tr '\n' ' ')" = "c.db c.db-shm c.db-wal fill " ] || [ "$(ls "$T/full2" | tr '\n' ' ')" = "c.db fill " ] ||
		fail "files left on the full disk: $(ls "$T/full2")"
	[ ! -s "$db-wal" ] || fail "a write-ahead log was written on the full disk"
	# room again: the look is recorded
	rm "$T/full2/fill"
	expect 0 "$SYSAB" compare cfg=a cfg=b --db "$db"
	[ "$(sqlite3 "$db" 'SELECT count(*) FROM look')" = 1 ] || fail "the look is not recorded once there is room"
	db_ok "$db"
	# a database whose FILE-shm is there (its log kept, as SQLite's persist_wal does): opened as
	# usual, and the look that cannot be written for want of space is said not to be recorded
	expect 0 "$SYSAB" import csv "$T/in2.csv" --db "$T/full2/w.db"
	printf '%s\n' '.filectrl persist_wal 1' 'SELECT count(*) FROM run;' | sqlite3 "$T/full2/w.db" >/dev/null
	[ -e "$T/full2/w.db-shm" ] || fail "no FILE-shm kept: the case is not the one under test"
	dd if=/dev/zero of="$T/full2/fill" bs=4k 2>/dev/null
	expect 0 "$SYSAB" compare cfg=a cfg=b --db "$T/full2/w.db"
	contains "$OUT" "slower"
	contains "$ERR" "this look was not recorded, as the database's disk is full"
	rm "$T/full2/fill"
	db_ok "$T/full2/w.db"
	umount "$T/full2" || fail "cannot unmount the tmpfs"
	trap - EXIT
else
	echo "skip: cannot mount a tmpfs here (needs root); reading a database on a full disk is not tested"
fi
