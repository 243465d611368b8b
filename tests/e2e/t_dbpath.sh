# Where the database is: symbolic links in its directories are fine, a link as the file itself
# is refused; with HOME unset the password database's home is used, never the current
# directory; another program's SQLite file is refused whatever its user_version.
# (The links live in the test's own directory; no system path is touched, so no namespace.)
mkdir -p "$T/real/dir" "$T/realhome"
ln -s real "$T/link"
ln -s "$T/realhome" "$T/homelink"
# a link among the directories: --db, a linked ~/.local/share/sysab, a linked HOME
expect 0 "$SYSAB" run --quick -w harness.null -q --db "$T/link/dir/x.db"
[ -f "$T/real/dir/x.db" ] || fail "--db through a linked directory did not create the file"
expect 0 "$SYSAB" list --db "$T/link/dir/x.db"
contains "$OUT" "complete"
mkdir -p "$T/realhome/.local/share" "$T/elsewhere"
ln -s "$T/elsewhere" "$T/realhome/.local/share/sysab"
expect 0 env -u SYSAB_DB HOME="$T/homelink" "$SYSAB" run --quick -w harness.null -q
contains "$OUT" "$T/homelink/.local/share/sysab/results.db"
[ -f "$T/elsewhere/results.db" ] || fail "no database through the linked home and data directory"
expect 0 env -u SYSAB_DB HOME="$T/homelink" "$SYSAB" list
# the link as the last component: refused, the link and its file unchanged
ln -s x.db "$T/real/dir/y.db"
before=$(cksum <"$T/real/dir/x.db")
for c in "list" "run --quick -w harness.null -q" "export"; do
	expect 2 "$SYSAB" $c --db "$T/link/dir/y.db"
	contains "$ERR" "y.db: a symbolic link"
done
[ -L "$T/real/dir/y.db" ] && [ "$(cksum <"$T/real/dir/x.db")" = "$before" ] || fail "the linked database changed"
# HOME unset: the password database's home, never ./.local under the current directory
mkdir "$T/cwd"
pwhome=$(getent passwd "$(id -u)" | cut -d: -f6)
(cd "$T/cwd" && env -u HOME -u SYSAB_DB -u XDG_DATA_HOME "$SYSAB" list) >"$T/out" 2>"$T/err"
[ ! -e "$T/cwd/.local" ] || fail "HOME unset: a database directory under the current directory"
case "$pwhome" in
/*) [ -s "$pwhome/.local/share/sysab/results.db" ] || contains "$(cat "$T/err")" "$pwhome/.local/share/sysab/results.db" ;;
esac
# HOME relative: refused, naming HOME, --db and SYSAB_DB
(cd "$T/cwd" && env -u SYSAB_DB -u XDG_DATA_HOME HOME=rel "$SYSAB" run --quick -w harness.null -q) >"$T/out" 2>"$T/err"
[ $? = 2 ] || fail "HOME=rel: exit status"
ERR=$(cat "$T/err")
contains "$ERR" "HOME is 'rel'"
contains "$ERR" "--db"
contains "$ERR" "SYSAB_DB"
[ -z "$(ls -A "$T/cwd")" ] || fail "HOME=rel created files in the current directory"
# HOME unusable (a file): the error names the path and the options
echo x >"$T/afile"
expect 2 env -u SYSAB_DB -u XDG_DATA_HOME HOME="$T/afile" "$SYSAB" run --quick -w harness.null -q
contains "$ERR" "$T/afile/.local/share/sysab"
contains "$ERR" "--db FILE or set SYSAB_DB"
# another program's database, user_version -1, 1, 7: refused, byte for byte unchanged
for v in -1 1 7; do
	rm -f "$T/f.db"
	sqlite3 "$T/f.db" "CREATE TABLE notes(x); INSERT INTO notes VALUES('mine'); PRAGMA user_version=$v;"
	sum=$(cksum <"$T/f.db")
	expect 2 "$SYSAB" run --quick -w harness.null -q --db "$T/f.db"
	contains "$ERR" "another program"
	expect 2 "$SYSAB" list --db "$T/f.db"
	contains "$ERR" "another program"
	[ "$(cksum <"$T/f.db")" = "$sum" ] || fail "user_version $v: the foreign database was changed"
	[ "$(sqlite3 "$T/f.db" 'SELECT count(*) FROM sqlite_master')" = 1 ] || fail "tables added to the foreign database"
done
