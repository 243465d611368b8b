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
# Empty, huge, binary and non-UTF-8 input (argv cannot hold NUL bytes; files with them are below).
big=$(head -c 100000 /dev/zero | tr '\0' a)
bad "malformed label ''" run -l ""
bad "-w: give a workload name" run -w ""
bad "--db: empty path" run --db ""
bad "--db: empty path" list --db ""
bad "value longer than 256 bytes" run -l "k=$big"
bad "longer than 64 characters" run -l "$big=v"
bad "too long for any workload name" run -w "$big"
bad "not clean UTF-8" run -l "k=$(printf 'a\001b')"
bad "not clean UTF-8" run -l "k=$(printf 'a\nb')"
bad "-w: give a workload name" run -w "$(printf '\377\376')"
# Input quoted back in a message cannot drive the terminal: control and invalid bytes are escaped.
bad "label key '\x1b]0;x\x07\xff' must start" run -l "$(printf '\033]0;x\007\377')=v"
bad "unknown command 'x\x1b'" "$(printf 'x\033')"
printf '%s' "$ERR" | grep -q "$(printf '\033')" && fail "an escape byte reached the terminal"
# Numbers out of range or malformed.
bad "--samples: 100001 is out of range" run --samples 100001
bad "-c: 1025 is out of range" run -c 1025
bad "-c: ' 1' is not a whole number" run -c " 1"
bad "--samples: '1e3' is not a whole number" run --samples 1e3
bad "--sample-ms: 0 is out of range" run --sample-ms 0
bad "--seed: '-1' is not a whole number" run --seed -1
bad "--seed: 99999999999999999999999 is out of range" run --seed 99999999999999999999999
bad "--warmup-ms: 600001 is out of range" run --warmup-ms 600001
bad "--target-ci: 60% is out of range" run --target-ci 60%
bad "--max-time: 'zz' is not a positive duration" run --target-ci 1% --max-time zz
bad "--cpus: empty list" run --cpus ""
bad "--cpus: bad range in '1-0'" run --cpus 1-0
bad "run id: 0 is out of range" show 0
bad "run id: 99999999999999999999 is out of range" show 99999999999999999999
# Duplicates and conflicts.
bad "-c 1 is given twice" run -c 1 -c 1
bad "--max-time needs --target-ci" run --max-time 10m
bad "unexpected argument 'x'" workloads x
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

# Files full of NUL bytes or random bytes behind a SQLite header, an empty file, and another
# program's SQLite database: named, refused, untouched.
head -c 5000 /dev/zero >"$T/zero.db"
(printf 'SQLite format 3\000'; head -c 8000 /dev/urandom) >"$T/noise.db"
: >"$T/empty.db"
sqlite3 "$T/other.db" 'CREATE TABLE t(x); INSERT INTO t VALUES(1)'
for f in zero noise empty other; do cp "$T/$f.db" "$T/$f.orig"; done
bad "$T/zero.db: not a SQLite database" run --quick -w harness.null --db "$T/zero.db"
bad "$T/zero.db: not a SQLite database" show 1 --db "$T/zero.db"
bad "$T/noise.db: cannot read the schema version: file is not a database" list --db "$T/noise.db"
bad "$T/noise.db: cannot read the schema version: file is not a database" run --quick -w harness.null --db "$T/noise.db"
bad "$T/empty.db: an empty database with no runs yet" list --db "$T/empty.db"
bad "$T/other.db: a SQLite database of another program" run --quick -w harness.null --db "$T/other.db"
bad "$T/other.db: a SQLite database of another program" list --db "$T/other.db"
for f in zero noise empty other; do cmp -s "$T/$f.db" "$T/$f.orig" || fail "$f.db was changed"; done

# A directory where the database should be.
mkdir "$T/dir.db"
bad "not a regular file" list --db "$T/dir.db"
