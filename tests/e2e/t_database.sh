# The database under concurrent writers, and unwritable: three runs at once all complete and
# intact; a read-only file or directory refuses a run with a clear error naming the file and
# exit 2, leaves the file byte-for-byte unchanged, and can still be read.
sum() { cat "$1" "$1-wal" 2>/dev/null | md5sum; }

# Three writers into a database none of them finds (all three create it), then three more
# with readers alongside.
for round in 1 2; do
	pids=""
	for k in 1 2 3; do
		"$SYSAB" run -w harness.null -w kernel.syscall.null --quick --samples 5 --warmup-ms 0 -q -l writer=$k \
			>"$T/out.$k" 2>"$T/err.$k" &
		pids="$pids $!"
	done
	[ $round = 2 ] && for k in 1 2 3; do expect 0 "$SYSAB" list; done
	for p in $pids; do
		wait $p || fail "a concurrent run failed: $(cat "$T"/err.*)"
	done
done
db_ok "$SYSAB_DB"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM run WHERE status = 'complete'")" = 6 ] || fail "not 6 complete runs"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM sample WHERE workload <> 'host.ref'")" = 60 ] || fail "not 60 samples"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM slot WHERE status = 'ok' AND workload <> 'host.ref'")" = 12 ] || fail "not 12 slots ok"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(DISTINCT run) FROM label WHERE key = 'writer'")" = 6 ] || fail "labels lost"

# Permissions: root bypasses them, so as an unprivileged user.
if unpriv_setup; then
	mkdir "$T/u/ro"
	cp "$SYSAB_DB" "$T/u/ro/results.db"
	chown -R "$UNPRIV_UID" "$T/u/ro"
	chmod 444 "$T/u/ro/results.db"
	before=$(sum "$T/u/ro/results.db")
	expect 2 as_user "$SYSAB" run --quick -w harness.null -q --db "$T/u/ro/results.db"
	contains "$ERR" "$T/u/ro/results.db: the database is read-only"
	expect 0 as_user "$SYSAB" list --db "$T/u/ro/results.db"
	contains "$OUT" "writer=3"
	expect 0 as_user "$SYSAB" show 1 --db "$T/u/ro/results.db"
	[ "$(sum "$T/u/ro/results.db")" = "$before" ] || fail "the read-only database changed"
	chmod 644 "$T/u/ro/results.db"
	chmod 555 "$T/u/ro"
	expect 2 as_user "$SYSAB" run --quick -w harness.null -q --db "$T/u/ro/results.db"
	contains "$ERR" "$T/u/ro/results.db: the directory $T/u/ro is not writable"
	expect 0 as_user "$SYSAB" list --db "$T/u/ro/results.db"
	contains "$OUT" "writer=3"
	[ "$(sum "$T/u/ro/results.db")" = "$before" ] || fail "the database in a read-only directory changed"
	expect 2 as_user "$SYSAB" run --quick -w harness.null -q --db "$T/u/ro/new.db"
	contains "$ERR" "$T/u/ro/new.db: the directory $T/u/ro is not writable"
	[ ! -e "$T/u/ro/new.db" ] || fail "a database was created in a read-only directory"
	chmod 755 "$T/u/ro"
	no_tmp_left "$T/u/tmp"
fi
