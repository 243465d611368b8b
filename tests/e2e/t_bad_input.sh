# Bad input: a clear message naming the input, exit 2, and the database untouched.
bad() { # bad MESSAGE-PART ARGS...
	msg=$1
	shift
	expect 2 "$SYSAB" "$@"
	contains "$ERR" "$msg"
}
bad "malformed label 'foo'" run -l foo
bad "empty key" run -l =x
bad "'k=' has an empty value" run -l k=
bad "given twice" run -l a=1 -l a=2
bad "not clean UTF-8" run -l "k=$(printf 'a\377b')"
bad "did you mean unixbench.syscall" run -w syscal
bad "no such workload" run -w zzzzzzzzzz
bad "conflict" run --quick --full
bad "-c: '0x'" run -c 0x
bad "out of range" run -c 0
bad "out of range" run --samples 1
bad "--cpus" run --cpus 9999
bad "--order" run --order sideways
bad "unknown option" run --bogus
bad "needs a value" run -w
bad "unexpected argument" run extra
bad "unknown command" frobnicate
bad "no database here yet" list
bad "no database here yet" show 1

# A run, then errors that must leave the database byte-for-byte unchanged.
expect 0 "$SYSAB" run --quick -w harness.null -q
sum() { cat "$1" "$1-wal" 2>/dev/null | md5sum; }
before=$(sum "$SYSAB_DB")
bad "no such run" show 42
bad "is not a whole number" show abc
[ "$(sum "$SYSAB_DB")" = "$before" ] || fail "database changed by a failed command"

# Not a database: named, untouched.
printf 'this is not sqlite\n' >"$T/junk.db"
cp "$T/junk.db" "$T/junk.orig"
bad "not a SQLite database" run --quick -w harness.null --db "$T/junk.db"
bad "not a SQLite database" list --db "$T/junk.db"
cmp -s "$T/junk.db" "$T/junk.orig" || fail "junk file was changed"

# Truncated database: named, untouched.
expect 0 "$SYSAB" run --quick -w harness.null -w kernel.syscall.null -q --db "$T/full.db"
sqlite3 "$T/full.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
head -c 8192 "$T/full.db" >"$T/trunc.db"
cp "$T/trunc.db" "$T/trunc.orig"
bad "truncated" list --db "$T/trunc.db"
bad "truncated" run --quick -w harness.null --db "$T/trunc.db"
cmp -s "$T/trunc.db" "$T/trunc.orig" || fail "truncated file was changed"

# A database from a newer sysab.
cp "$T/full.db" "$T/newer.db"
sqlite3 "$T/newer.db" 'PRAGMA user_version = 99'
cp "$T/newer.db" "$T/newer.orig"
bad "newer sysab" list --db "$T/newer.db"
bad "newer sysab" run --quick -w harness.null --db "$T/newer.db"
cmp -s "$T/newer.db" "$T/newer.orig" || fail "newer database was changed"

# A directory where the database should be.
mkdir "$T/dir.db"
bad "not a regular file" list --db "$T/dir.db"
