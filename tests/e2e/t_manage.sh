# manage: sysab rm and sysab relabel change runs in one transaction and name what they touched (issue 17 item 8).
expect 0 "$SYSAB" import csv "$REPO/examples/unixbench-pernode.csv"
# more than one run needs --yes, and nothing is removed without it
expect 2 "$SYSAB" rm pernode=yes
contains "$ERR" "this would remove 2 runs (2,4); add --yes"
expect 0 "$SYSAB" list --json
[ "$(printf '%s' "$OUT" | jq '.runs | length')" = 4 ] || fail "rm without --yes removed something"
# one run goes alone, with its samples and its boot (no orphans), and is named
expect 0 "$SYSAB" rm run:1
contains "$OUT" "removed run 1 (csv, imported; pernode=no pie=no)"
[ "$(sqlite3 "$SYSAB_DB" 'SELECT count(*) FROM sample WHERE run = 1')" = 0 ] || fail "samples of run 1 left"
[ "$(sqlite3 "$SYSAB_DB" 'SELECT count(*) FROM boot WHERE id NOT IN (SELECT boot FROM run)')" = 0 ] ||
	fail "a boot without runs was left"
# an unknown run or a selector matching nothing changes nothing: exit 2
expect 2 "$SYSAB" rm run:99
expect 2 "$SYSAB" rm 'pernode=nosuch'
contains "$ERR" "no run has pernode=nosuch; the values of pernode are"
expect 2 "$SYSAB" rm
# relabel: set, replace and remove, each run named with old and new values
expect 0 "$SYSAB" relabel pernode=yes -l pernode=adaptive -l pie= -l note=x
contains "$OUT" "run 2: pernode=adaptive (was yes) pie removed (was no) note=x (new)"
contains "$OUT" "run 4: pernode=adaptive (was yes) pie removed (was yes) note=x (new)"
expect 0 "$SYSAB" list pernode=adaptive --json
[ "$(printf '%s' "$OUT" | jq '[.runs[] | select(.labels.pie != null)] | length')" = 0 ] || fail "pie not removed"
[ "$(printf '%s' "$OUT" | jq '.runs | length')" = 2 ] || fail "relabel did not reach both runs"
# a bad label is refused before anything changes
expect 2 "$SYSAB" relabel run:2 -l 'bad key=1'
expect 2 "$SYSAB" relabel run:2
contains "$ERR" "give at least one -l KEY=VALUE"
# rm --yes removes them all in one go
expect 0 "$SYSAB" rm pernode=adaptive --yes
contains "$OUT" "removed run 2"
contains "$OUT" "removed run 4"
expect 0 "$SYSAB" list --json
[ "$(printf '%s' "$OUT" | jq '.runs | length')" = 1 ] || fail "rm --yes"
true
