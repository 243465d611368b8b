# origins: runs of different sources or machines are never pooled in one group (issue 17 item 4);
# the environment table says "mixed" when a group's runs differ.
U="$REPO/tests/fixtures/unixbench"
expect 0 "$SYSAB" import csv "$REPO/examples/unixbench-pernode.csv"
expect 0 "$SYSAB" import unixbench "$U/host-2026-12-02-pass1.log" -l pernode=no -l pie=no -l data=ub
expect 0 "$SYSAB" list source=unixbench --json
[ "$(printf '%s' "$OUT" | jq '.runs | length')" = 1 ] || fail "list source=unixbench"
# a group of a csv run and a unixbench run is refused, naming both origins and how to pick one
expect 2 "$SYSAB" compare 'pernode=no pie=no' 'pernode=yes pie=no'
contains "$ERR" "A 'pernode=no pie=no' holds runs of 2 origins, which sysab never pools"
contains "$ERR" "1 run with source=csv machine=imported"
contains "$ERR" "1 run with source=unixbench machine=imported"
expect 2 "$SYSAB" plan 'pernode=no pie=no'
contains "$ERR" "2 origins"
expect 0 "$SYSAB" compare 'pernode=no pie=no source=csv' 'pernode=yes pie=no' -w index
# the same per cell of an analysis, and with the source as a filter it goes through
expect 2 "$SYSAB" analyze --factors pernode,pie
contains "$ERR" "cell 'pernode=no pie=no' holds runs of 2 origins"
expect 0 "$SYSAB" analyze --factors pernode,pie source=csv
# the environment table: one value when the group agrees, "mixed" with "-" when some runs lack it
expect 0 "$SYSAB" import csv "$REPO/examples/pernode-pie-boots.csv"
expect 0 "$SYSAB" report analyze --factors pernode,pie source=csv -o "$T/r.html"
grep -q 'mixed: synthetic, -' "$T/r.html" || fail "env table: no 'mixed: synthetic, -' for label.data"
expect 0 "$SYSAB" report compare 'pernode=no pie=yes data=synthetic' 'pernode=yes pie=yes data=synthetic' -o "$T/c.html"
grep -q 'mixed:' "$T/c.html" && fail "env table: 'mixed' where every run agrees"
true
