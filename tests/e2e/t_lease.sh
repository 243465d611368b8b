# A campaign's lease planted by someone else (issue 52, item 8): a hard link at
# DB.campaign-NAME.lease (to a file of ours, so no sysctl is needed), a file with two links,
# one owned by another user (root only) or a symbolic link: `campaign start` refuses it, exit 2,
# naming the file, and the file it points at is not truncated, for a missing campaign too.
printf '%s\n' 'workload,unit,value,run,boot,a' 'w.x,ops/s,100.5,r1,b1,x' >"$T/in.csv"
expect 0 "$SYSAB" import csv "$T/in.csv"
lease="$SYSAB_DB.campaign-c1.lease"
echo "precious" >"$T/victim"
ln "$T/victim" "$lease"
expect 2 "$SYSAB" campaign start c1
contains "$ERR" "$lease: the campaign's lease is unsafe: 2 links and owner uid"
contains "$ERR" "remove it (it only names the driver) and retry"
[ "$(cat "$T/victim")" = precious ] || fail "campaign start truncated the hard link's target"
rm "$lease"
# a symbolic link: not followed
ln -s "$T/victim" "$lease"
expect 2 "$SYSAB" campaign start c1
contains "$ERR" "$lease: cannot open the campaign's lease"
[ "$(cat "$T/victim")" = precious ] || fail "campaign start followed a symbolic link"
rm "$lease"
# another user's file (root only: others cannot give a file away)
if [ "$(id -u)" = 0 ]; then
	echo "pid 1 on elsewhere" >"$lease"
	chown 65534 "$lease"
	expect 2 "$SYSAB" campaign start c1
	contains "$ERR" "owner uid 65534, wanted 1 link and uid 0"
	[ "$(cat "$lease")" = "pid 1 on elsewhere" ] || fail "campaign start truncated another user's lease"
	rm "$lease"
else
	echo "skip: not root, so a lease owned by another user cannot be made"
fi
# a lease of our own with one link is taken as before (the campaign is missing: that error)
expect 2 "$SYSAB" campaign start c1
case "$ERR" in *"lease"*) fail "an ordinary lease was refused: $ERR" ;; esac
