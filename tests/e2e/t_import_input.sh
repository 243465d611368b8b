# Import inputs are regular files or - (standard input): a FIFO or a device is refused at once
# (it used to block for ever), a directory too.
mkfifo "$T/fifo"
for kind in csv unixbench; do
	timeout 20 "$SYSAB" import $kind "$T/fifo" >"$T/out" 2>"$T/err"
	r=$?
	[ $r = 2 ] || fail "import $kind of a FIFO: exit $r (124 = it blocked)"
	grep -q "fifo: not a regular file" "$T/err" || fail "message: $(cat "$T/err")"
	expect 2 "$SYSAB" import $kind /dev/zero
	contains "$ERR" "not a regular file"
	expect 2 "$SYSAB" import $kind "$T"
	contains "$ERR" "not a regular file"
done
printf 'workload,unit,value\nw.x,ops/s,1\n' >"$T/in.csv"
expect 0 sh -c '"$1" import csv - <"$2"' sh "$SYSAB" "$T/in.csv"
expect 0 "$SYSAB" list
contains "$OUT" "imported"
