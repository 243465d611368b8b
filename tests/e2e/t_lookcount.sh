# A hand-edited look counter (issue 52, item 10): a look number, question or boot count of INT_MAX
# (which the next look would add 1 to) or beyond is refused, exit 2, naming the row and what to do;
# nothing is recorded and the asan build's UBSan sees no overflow.
printf '%s\n' 'workload,unit,value,run,boot,cfg' >"$T/in.csv"
for b in 1 2 3 4; do for c in a b; do for i in 1 2 3; do
	printf 'w.x,ops/s,%s,%s%s,%sboot%s,%s\n' "$((1000 + i + b))" "$c" "$b" "$c" "$b" "$c" >>"$T/in.csv"
done; done; done
expect 0 "$SYSAB" import csv "$T/in.csv"
expect 0 "$SYSAB" compare cfg=a cfg=b
for col in k question max_boots; do
	for v in 2147483647 9223372036854775807 -1; do
		sqlite3 "$SYSAB_DB" "UPDATE look SET $col = $v WHERE id = 1"
		n=$(sqlite3 "$SYSAB_DB" 'SELECT count(*) FROM look')
		expect 2 "$SYSAB" compare cfg=a cfg=b
		contains "$ERR" "look 1 in the database has"
		contains "$ERR" "out of range"
		contains "$ERR" "DELETE FROM look WHERE id = 1"
		[ "$(sqlite3 "$SYSAB_DB" 'SELECT count(*) FROM look')" = "$n" ] || fail "a look was recorded over $col=$v"
		sqlite3 "$SYSAB_DB" "UPDATE look SET question = 1, k = 1, max_boots = 0 WHERE id = 1"
	done
done
# restored: compares again
expect 0 "$SYSAB" compare cfg=a cfg=b
db_ok "$SYSAB_DB"
