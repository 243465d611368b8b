# -o (export, report): written through a fresh O_EXCL|O_NOFOLLOW temporary file renamed into
# place; a planted link is never followed; devices, FIFOs and stdout are written, never replaced.
printf '%s\n' 'workload,unit,value,run,boot,a' 'w.x,ops/s,100.5,r1,b1,x' 'w.x,ops/s,101,r2,b1,y' >"$T/in.csv"
expect 0 "$SYSAB" import csv "$T/in.csv"
mkdir "$T/o"
# a planted F.tmp symlink (the old predictable name) must not redirect the write
echo secret >"$T/victim"
ln -s "$T/victim" "$T/o/out.csv.tmp"
ln -s "$T/victim" "$T/o/page.html.tmp"
expect 0 "$SYSAB" export -o "$T/o/out.csv"
[ "$(cat "$T/victim")" = secret ] || fail "export -o followed a planted .tmp symlink"
[ -f "$T/o/out.csv" ] && [ ! -L "$T/o/out.csv" ] || fail "out.csv is not a regular file"
head -1 "$T/o/out.csv" | grep -q '^run,' || fail "out.csv content: $(head -c 200 "$T/o/out.csv")"
expect 0 "$SYSAB" report 'a=x' -o "$T/o/page.html"
[ "$(cat "$T/victim")" = secret ] || fail "report -o followed a planted .tmp symlink"
[ -f "$T/o/page.html" ] && [ ! -L "$T/o/page.html" ] || fail "page.html is not a regular file"
# only the planted links remain besides the outputs: no temporary file left
[ "$(ls -A "$T/o" | sort | tr '\n' ' ')" = "out.csv out.csv.tmp page.html page.html.tmp " ] ||
	fail "files left in the output directory: $(ls -A "$T/o")"
# rewriting keeps the file's mode
chmod 640 "$T/o/out.csv"
expect 0 "$SYSAB" export -o "$T/o/out.csv"
[ "$(stat -c %a "$T/o/out.csv")" = 640 ] || fail "mode changed to $(stat -c %a "$T/o/out.csv")"
# a symbolic link given as the target: written through, never replaced
echo old >"$T/o/target"
ln -s "$T/o/target" "$T/o/link.csv"
expect 0 "$SYSAB" export -o "$T/o/link.csv"
[ -L "$T/o/link.csv" ] || fail "export replaced the link"
cmp -s "$T/o/target" "$T/o/out.csv" || fail "the link's file does not hold the export"
expect 0 "$SYSAB" report 'a=x' -o "$T/o/link.csv"
[ -L "$T/o/link.csv" ] && grep -q '<html' "$T/o/target" || fail "report replaced the link or wrote elsewhere"
ln -s "$T/nothing" "$T/o/dangling"
expect 2 "$SYSAB" export -o "$T/o/dangling"
[ -L "$T/o/dangling" ] && [ ! -e "$T/nothing" ] || fail "a dangling link was replaced or followed"
rm "$T/o/link.csv" "$T/o/target" "$T/o/dangling"
# a directory: refused
expect 2 "$SYSAB" export -o "$T/o"
contains "$ERR" "a directory"
# standard output through a link to /proc/self/fd/1 (as /dev/stdout is): written, link kept
ln -s /proc/self/fd/1 "$T/o/stdout"
"$SYSAB" export -o "$T/o/stdout" >"$T/piped" 2>"$T/err" || fail "export -o stdout-link: $(cat "$T/err")"
[ -L "$T/o/stdout" ] || fail "the stdout link was replaced"
head -1 "$T/piped" | grep -q '^run,' || fail "nothing printed through the stdout link"
"$SYSAB" export -o "$T/o/stdout" | cat >"$T/piped2" || fail "export -o stdout-link into a pipe"
[ -s "$T/piped2" ] && [ -L "$T/o/stdout" ] || fail "stdout link into a pipe"
# a FIFO: written to its reader, still a FIFO
mkfifo "$T/o/fifo"
cat "$T/o/fifo" >"$T/fromfifo" &
reader=$!
expect 0 "$SYSAB" export -o "$T/o/fifo"
wait $reader
[ -p "$T/o/fifo" ] || fail "the FIFO was replaced"
cmp -s "$T/fromfifo" "$T/o/out.csv" || fail "the FIFO's reader got other bytes"
# a character device, in a private mount namespace on a private tmpfs (never the real /dev)
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	mkdir "$T/dev"
	unshare -m sh -c '
		mount --make-rprivate / && mount -t tmpfs -o size=64k sysab-dev "$1" && mknod "$1/null" c 1 3 || exit 3
		"$2" export -o "$1/null" || exit 4
		"$2" report "a=x" -o "$1/null" || exit 5
		[ -c "$1/null" ] || exit 6
		[ "$(ls -A "$1")" = null ] || exit 7' sh "$T/dev" "$SYSAB" >"$T/err" 2>&1
	r=$?
	[ $r = 0 ] || fail "character device as -o (step $r): $(cat "$T/err")"
else
	echo "skip: the character-device case needs root and unshare -m (mknod in a private mount namespace)"
fi
