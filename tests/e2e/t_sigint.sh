# SIGINT during unixbench.spawn -c 2: children reaped, run incomplete, samples kept, exit 130.
"$SYSAB" run -w unixbench.spawn -c 2 --samples 1000 --sample-ms 50 --warmup-ms 0 -q >"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ $i -lt 100 ]; do
	n=0
	[ -s "$SYSAB_DB" ] && n=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM sample" 2>/dev/null)
	[ "${n:-0}" -ge 3 ] && break
	sleep 0.1
	i=$((i + 1))
done
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "exit $rc after SIGINT, wanted 130; $(cat "$T/err")"
no_sysab_left
st=$(sqlite3 "$SYSAB_DB" "SELECT status || '|' || reason FROM run")
contains "$st" "incomplete|stopped by SIGINT"
n=$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM sample")
[ "$n" -ge 3 ] || fail "samples taken before the signal were lost ($n)"
db_ok "$SYSAB_DB"
