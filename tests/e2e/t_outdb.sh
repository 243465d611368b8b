# -o naming the database (issue 52, item 1): every command that prints refuses an output that is
# the database or its -wal/-shm file, by inode as well as by name (a hard link, a symbolic link,
# "x/../results.db", the database from SYSAB_DB or --db), exit 2, the database byte for byte
# untouched.
printf '%s\n' 'workload,unit,value,run,boot,a' 'w.x,ops/s,100.5,r1,b1,x' 'w.x,ops/s,101,r2,b1,y' \
	'w.x,ops/s,100,r3,b2,x' 'w.x,ops/s,102,r4,b2,y' >"$T/in.csv"
expect 0 "$SYSAB" import csv "$T/in.csv"
DB="$T/results.db"
cp "$DB" "$T/orig.db"
mkdir "$T/x"
ln "$DB" "$T/hard.db"
ln -s "$DB" "$T/sym.db"
# refused: every way of naming the database, for every printing command
untouched() {
	cmp -s "$DB" "$T/orig.db" || fail "$* changed the database"
	[ ! -e "$DB-wal" ] || [ ! -s "$DB-wal" ] || fail "$* left a WAL"
}
for o in results.db "$DB" ./x/../results.db "$T/hard.db" "$T/sym.db" results.db-wal results.db-shm; do
	for c in "export" "list" "show 1" "compare a=x a=y" "report a=x a=y" "analyze --factors a" "history -w w.x"; do
		expect 2 "$SYSAB" $c -o "$o"
		contains "$ERR" "-o $o: that is the database"
		contains "$ERR" "write the report to another file"
		untouched "$c -o $o"
	done
	# through --db as well as SYSAB_DB
	expect 2 env -u SYSAB_DB "$SYSAB" list --db "$DB" -o "$o"
	contains "$ERR" "that is the database"
	untouched "list --db -o $o"
	# a run stores nothing when its output is refused
	expect 2 "$SYSAB" run -w harness.null --quick --no-probe -q -o "$o"
	contains "$ERR" "that is the database"
	untouched "run -o $o"
done
[ -L "$T/sym.db" ] || fail "the symbolic link was replaced"
# a new database named by -o as well: refused before it is created
expect 2 "$SYSAB" run -w harness.null --quick --no-probe -q --db "$T/new.db" -o "$T/x/../new.db"
[ ! -e "$T/new.db" ] || fail "run created the database it then refused to print over"
# another file is fine
expect 0 "$SYSAB" list -o "$T/list.txt"
[ -s "$T/list.txt" ] || fail "list -o wrote nothing"
db_ok "$DB"
