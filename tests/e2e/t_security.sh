# Temp files of a live run are private: the run's directory and each workload's directory are
# mode 0700 and owned by the user, files in them 0600; stale entries that are not a dead
# run's own directory (a planted symlink, another's file) are left alone by the reaper.
mkdir "$T/victim"
echo keep >"$T/victim/file"
ln -s "$T/victim" "$TMPDIR/sysab.999999999.planted"
"$SYSAB" run -w unixbench.shell1 -w unixbench.fstime --sample-ms 20 --samples 100000 --warmup-ms 0 -q \
	>"$T/out" 2>"$T/err" &
pid=$!
wait_samples "$SYSAB_DB" 2
d=$(ls -d "$TMPDIR/sysab.$pid".*)
[ "$(stat -c %a "$d")" = 700 ] || fail "run directory $d is mode $(stat -c %a "$d")"
[ "$(stat -c %u "$d")" = "$(id -u)" ] || fail "run directory not owned by the user"
# the directory's lock (src/core/live.c) is a regular file of the user's, not world-writable
[ -f "$d/lock" ] && [ ! -L "$d/lock" ] && [ "$(stat -c %u "$d/lock")" = "$(id -u)" ] || fail "no lock of the user's in $d"
case $(stat -c %a "$d/lock") in 600 | 644) ;; *) fail "the lock of $d is mode $(stat -c %a "$d/lock")" ;; esac
for j in "$d"/*; do
	[ "$j" = "$d/lock" ] && continue
	[ "$(stat -c %a "$j")" = 700 ] || fail "workload directory $j is mode $(stat -c %a "$j")"
done
for f in "$d"/unixbench.shell1.1/shell.*; do
	[ "$(stat -c %a "$f")" = 600 ] || fail "workload file $f is mode $(stat -c %a "$f")"
done
kill -INT $pid
wait $pid
[ "$(cat "$T/victim/file")" = keep ] || fail "the planted symlink was followed"
[ -L "$TMPDIR/sysab.999999999.planted" ] || fail "the planted symlink was removed"
rm "$TMPDIR/sysab.999999999.planted"
