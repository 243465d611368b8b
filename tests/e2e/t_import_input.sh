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
# Hostile headers: the layout of an export (ops_per_s, boot_id) without its unit column used
# to index the row's fields at -1 (a read before the field array; UBSan aborts under make asan).
# Now: a message naming the file and the missing column, exit 2, nothing stored.
n_before=$("$SYSAB" list | wc -l)
printf 'ops_per_s,boot_id\n1,b\n' >"$T/nounit.csv"
expect 2 "$SYSAB" import csv "$T/nounit.csv"
contains "$ERR" "nounit.csv:1:1: the header has ops_per_s and boot_id"
contains "$ERR" "no 'unit' column"
printf 'ops_per_s,boot_id,unit,ops_per_s\n1,b,op,2\n' >"$T/twice.csv"
expect 2 "$SYSAB" import csv "$T/twice.csv"
contains "$ERR" "twice.csv:1:24: column 'ops_per_s' appears twice"
[ "$("$SYSAB" list | wc -l)" = "$n_before" ] || fail "a refused import stored runs"
