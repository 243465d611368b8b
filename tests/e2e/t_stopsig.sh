# SIGQUIT (Ctrl-\) and SIGXFSZ (ulimit -f) are stop signals like INT, TERM and HUP: the run is
# incomplete naming the signal, nothing is left in TMPDIR, no run stays `running`.
db="$SYSAB_DB"
"$SYSAB" run -w harness.null --samples 100000 --sample-ms 20 -q >"$T/out" 2>"$T/err" &
pid=$!
wait_samples "$db" 3
kill -QUIT $pid
wait $pid
r=$?
[ $r = 131 ] || fail "SIGQUIT: exit $r, wanted 131; $(cat "$T/err")"
[ "$(sqlite3 "$db" 'SELECT status || ": " || reason FROM run ORDER BY id DESC LIMIT 1')" = "incomplete: stopped by SIGQUIT" ] ||
	fail "SIGQUIT: run $(sqlite3 "$db" 'SELECT status, reason FROM run ORDER BY id DESC LIMIT 1')"
no_sysab_left
# a file size limit reached by the database's log while samples are stored (300 KiB: past the
# schema of every table): not killed silently (exit 153, no message)
db2="$T/f.db"
(exec prlimit --fsize=307200 "$SYSAB" run --quick -w 'harness.*' -w 'kernel.syscall.*' -q --db "$db2") >"$T/out" 2>"$T/err"
r=$?
[ $r != 153 ] || fail "SIGXFSZ killed sysab (exit 153): $(cat "$T/err")"
[ $r = 2 ] || fail "file size limit: exit $r; $(cat "$T/err")"
[ -s "$T/err" ] || fail "file size limit: no message"
no_tmp_left "$T/tmp"
expect 0 "$SYSAB" list --db "$db2"
printf '%s\n' "$OUT" | grep -q ' running ' && fail "a run stays running: $OUT"
db_ok "$db2"
