# A database the user cannot write (another user's 0444 file in a 0555 directory) can be read:
# list, show, compare, analyze, report, export and plan work on it and write nothing, with stale
# per-run summaries computed from the samples. As root the reader is an unprivileged uid
# (setpriv) and the owner another one; otherwise the file and directory are the user's own,
# made read-only (the modes stop SQLite from creating FILE-shm all the same).
expect 0 "$SYSAB" import csv "$REPO/examples/pernode-pie-boots.csv"
# the summaries of half the runs are stale, as after a method change: a writing command would
# refresh them; a reading one computes them from the samples
sqlite3 "$SYSAB_DB" "UPDATE run_summary SET method = 0 WHERE run % 2 = 0"
mkdir -p "$T/ro"
cp "$SYSAB_DB" "$T/ro/r.db"
want_cmp=$("$SYSAB" compare 'pernode=no' 'pernode=yes' --json --db "$T/ro/r.db")
want_an=$("$SYSAB" analyze --factors pernode,pie --json --db "$T/ro/r.db")
if [ "$(id -u)" = 0 ]; then
	if ! command -v setpriv >/dev/null; then
		echo "skip: setpriv is missing, so no other user can read the database"
		return 0 2>/dev/null || exit 0
	fi
	chmod 755 "$T"
	chown -R 4242:4242 "$T/ro"
	reach_sysab 65534 || { return 0 2>/dev/null || exit 0; }
	reader() { setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$T/ro" "$@"; }
else
	reader() { "$@"; }
fi
chmod 444 "$T/ro/r.db"
chmod 555 "$T/ro"
sum_before=$(cksum <"$T/ro/r.db")
R="$SYSAB --db $T/ro/r.db"
expect 0 reader $R list
contains "$OUT" "pernode=yes"
contains "$ERR" "read-only to you"
expect 0 reader $R show 1
expect 0 reader $R compare 'pernode=no' 'pernode=yes' --json
[ "$OUT" = "$want_cmp" ] || fail "compare on the read-only database differs from the writable one"
expect 0 reader $R analyze --factors pernode,pie --json
[ "$OUT" = "$want_an" ] || fail "analyze on the read-only database differs from the writable one"
mkdir -p "$T/w" && chmod 777 "$T/w"
expect 0 reader $R report compare 'pernode=no' 'pernode=yes' -o "$T/w/r.html"
grep -q "<svg" "$T/w/r.html" || fail "no page written"
expect 0 reader $R export --format csv
contains "$OUT" "pernode"
expect 0 reader $R plan 'pernode=no'
# writing commands say why they cannot
expect 2 reader $R relabel 'run:1' -l x=y
[ "$(cksum <"$T/ro/r.db")" = "$sum_before" ] || fail "a reading command changed the read-only database"
[ -z "$(ls -A "$T/ro" | grep -v '^r.db$')" ] || fail "files left beside the database: $(ls -A "$T/ro")"
chmod 755 "$T/ro"
