# analyze: the published pernode/pie numbers refuse a verdict (t_published.sh holds their point estimates); a factorial with data gives effects.
expect 0 "$SYSAB" import csv "$REPO/examples/unixbench-pernode.csv"
contains "$OUT" "4 values as runs 1-4 on 4 boots"
expect 0 "$SYSAB" analyze --factors pernode,pie
contains "$OUT" "pernode: yes vs no"
contains "$OUT" "pernode x pie"
contains "$OUT" "point estimates, no interval"
contains "$(printf '%s' "$OUT" | tr -s ' \n' '  ')" "No interval: 1 boot per cell, so no verdict"
contains "$(printf '%s' "$OUT" | tr -s ' \n' '  ')" "a verdict needs each configuration on at least 2 boots (1 run on each will do)"
# plan says it in the same words about the same data (issue 32: one replication rule)
expect 0 "$SYSAB" plan 'pernode=no pie=no' 'pernode=yes pie=no' -w index
contains "$(printf '%s' "$OUT" | tr -s ' \n' '  ')" "a verdict needs each configuration on at least 2 boots (1 run on each will do)"
case "$OUT" in *"already decided"*) fail "plan says 'already decided' without an interval: $OUT" ;; esac
case "$OUT" in *faster* | *slower* | *equivalent*) fail "a verdict from one value per cell" ;; esac
expect 0 "$SYSAB" analyze --factors pernode,pie --json
v=$(printf '%s' "$OUT" | jq -r '[.rows[0].effects[].verdict] | unique | join(",")')
[ "$v" = no_data ] || fail "effects verdicts: $v"
v=$(printf '%s' "$OUT" | jq -r '.data.any_interval|tostring')
[ "$v" = false ] || fail "any_interval: $v"
expect 0 "$SYSAB" analyze --factors pie --ref pie=yes pernode=no
contains "$OUT" "pie: no vs yes"

bad() {
	msg=$1
	shift
	expect 2 "$SYSAB" "$@"
	contains "$ERR" "$msg"
}
bad "give the factors" analyze
bad "label key '9x' must start" analyze --factors 9x
bad "given twice" analyze --factors pie,pie
bad "factor 'nope': no selected run" analyze --factors pie,nope
bad "has one level" analyze --factors pie pernode=no pie=no
bad "'zz' is not one of the factors" analyze --factors pie --ref zz=1
bad "no selected run has that level" analyze --factors pie --ref pie=maybe

# a 2x2 design with 3 boots per cell: effects get intervals and verdicts
export SYSAB_DB="$T/fact.db"
{
	echo "workload,unit,value,run,boot,a,b"
	for a in lo hi; do for b in lo hi; do for k in 1 2 3; do for s in 1 2 3 4 5; do
		base=1000
		[ $a = hi ] && base=1100
		echo "w.x,ops/s,$((base + k + s)),$a$b$k,$a$b$k,$a,$b"
	done; done; done; done
} >"$T/fact.csv"
expect 0 "$SYSAB" import csv "$T/fact.csv"
expect 0 "$SYSAB" analyze --factors a,b --ref a=lo --json
v=$(printf '%s' "$OUT" | jq -r '.rows[0].effects[] | select(.kind == "main" and .factor == "a") | .verdict')
[ "$v" = faster ] || fail "main effect of a: $v"
v=$(printf '%s' "$OUT" | jq -r '.rows[0].effects[] | select(.kind == "main" and .factor == "b") | .verdict')
[ "$v" = equivalent ] || fail "main effect of b: $v"
