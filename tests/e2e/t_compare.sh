# compare: real quick runs, CSV fixtures with known verdicts, --fail-on, JSON and bad input.
F="$REPO/tests/fixtures/csv"
for c in a a b b; do
	expect 0 "$SYSAB" run --quick -w harness.null -w kernel.syscall.null --samples 8 -q -l cfg=$c -l pie=yes
done
expect 0 "$SYSAB" compare cfg=a cfg=b
contains "$OUT" "A: cfg=a"
contains "$OUT" "2 runs on 1 boot"
contains "$OUT" "kernel.sys"
contains "$OUT" "time/op"
contains "$OUT" "inconclusive: no boot replication"
# the compact table leaves out the note the replication note implies; -v gives it
expect 0 "$SYSAB" compare cfg=a cfg=b -v
contains "$OUT" "1 boot per config: boot-to-boot (KASLR/layout) variation is not covered"
expect 0 "$SYSAB" compare 'cfg=a pie=yes' 'run:3,4' --json -w kernel.syscall.null
v=$(printf '%s' "$OUT" | jq -r '.kind + " " + (.schema_version|tostring) + " " + (.rows|length|tostring) + " " + .rows[0].workload')
[ "$v" = "compare 1 1 kernel.syscall.null" ] || fail "json: $v"
v=$(printf '%s' "$OUT" | jq -r '.rows[0].verdict')
case "$v" in faster | slower | equivalent | inconclusive | no_data) ;; *) fail "verdict enum: $v" ;; esac
v=$(printf '%s' "$OUT" | jq -r '.rows[0].a.runs + .rows[0].b.runs')
[ "$v" = 4 ] || fail "runs in json: $v"
# issue 38 item 2: host.ref rides in every run, is no row unless named, and --adjust host names
# its method and slope in every format
expect 0 "$SYSAB" compare cfg=a cfg=b --json
v=$(printf '%s' "$OUT" | jq -r '(.adjust|tostring) as $a | (.rows[0].host_adjust|tostring) as $h | ([.rows[].workload] | join(" ")) + " " + $a + " " + $h')
case "$v" in *host.ref*) fail "host.ref is a row without -w host.ref: $v" ;; esac
contains "$v" " null null"
[ "$(printf '%s' "$OUT" | jq -r .pairing)" = groups ] || fail "compare of two groups of their own boots: pairing is not groups"
expect 0 "$SYSAB" compare cfg=a cfg=b -w host.ref --json
v=$(printf '%s' "$OUT" | jq -r '[.rows[].workload] | join(" ")')
[ "$v" = host.ref ] || fail "-w host.ref: rows $v"
expect 0 "$SYSAB" compare cfg=a cfg=b --unit run --adjust host --json -w kernel.syscall.null
v=$(printf '%s' "$OUT" | jq -r '.adjust + " " + .rows[0].host_adjust.status + " " + (.rows[0].host_adjust.slope_from|tostring)')
case "$v" in "host adjusted runs_within_boots" | "host reference_differs runs_within_boots" | "host too_few_runs null") ;;
*) fail "--adjust host json: $v" ;; esac
case "$v" in *too_few*) ;; *)
	printf '%s' "$OUT" | jq -e '.rows[0].comparison.caveats | index("host_adjusted")' >/dev/null ||
		fail "adjusted row without the host_adjusted caveat" ;;
esac
expect 0 "$SYSAB" compare cfg=a cfg=b --unit run --adjust host -w kernel.syscall.null
contains "$OUT" "host speed"
expect 0 "$SYSAB" compare cfg=a cfg=b --unit run --adjust host -w kernel.syscall.null --format markdown
contains "$OUT" "Host-speed adjustment"
expect 0 "$SYSAB" analyze --factors cfg --unit run --adjust host -w kernel.syscall.null --json
v=$(printf '%s' "$OUT" | jq -r '.adjust + " " + (.rows[0].host_adjust.status|tostring)')
case "$v" in "host adjusted" | "host reference_differs" | "host too_few_runs") ;; *) fail "analyze --adjust host: $v" ;; esac
expect 2 "$SYSAB" compare cfg=a cfg=b --adjust speed
contains "$ERR" "--adjust"
b=$(sqlite3 "$SYSAB_DB" 'SELECT boot_id FROM boot LIMIT 1' | cut -c1-6)
expect 0 "$SYSAB" compare "boot:$b cfg=a" "kernel=$(uname -r) cfg=b" -w harness

# bad input: exit 2 with a message naming it
bad() { # bad MESSAGE-PART ARGS...
	msg=$1
	shift
	expect 2 "$SYSAB" "$@"
	contains "$ERR" "$msg"
}
bad "no run has a label 'cgf' (did you mean cfg?)" compare cgf=a cfg=b
bad "no usable run has cfg=zz; the values of cfg are " compare cfg=a cfg=zz
bad "no usable run has cfg=bb (did you mean b?); the values of cfg are " compare cfg=a cfg=bb
bad "there is no run 99" compare run:99 cfg=b
bad "matches both A" compare cfg=a pie=yes
bad "give two selectors" compare cfg=a
bad "--margin: 'x' is not" compare cfg=a cfg=b --margin x
bad "needs a '%' sign" compare cfg=a cfg=b --margin 1
bad "out of range" compare cfg=a cfg=b --alpha 0.9
bad "--fail-on: 'worse'" compare cfg=a cfg=b --fail-on worse
bad "-w nope: no workload of the selected runs matches" compare cfg=a cfg=b -w nope
bad "malformed label 'bogus'" compare bogus cfg=b
bad "run id list" compare run:x cfg=b

# known verdicts from CSV: B is 10% faster on 6 boots each
export SYSAB_DB="$T/differ.db"
expect 0 "$SYSAB" import csv "$F/differ.csv"
contains "$OUT" "60 values as runs 1-12 on 12 boots"
expect 0 "$SYSAB" compare cfg=a cfg=b
contains "$OUT" "faster"
contains "$OUT" "6 runs on 6 boots"
expect 1 "$SYSAB" compare cfg=a cfg=b --fail-on faster
# the gate names the rows that tripped it, with their verdict and change
contains "$ERR" "--fail-on faster matched 1 row:"
contains "$ERR" "  w.x: faster, +10."
expect 1 "$SYSAB" compare cfg=a cfg=b --fail-on change
contains "$ERR" "  w.x: faster, +10."
expect 0 "$SYSAB" compare cfg=a cfg=b --fail-on slower
[ -z "$ERR" ] || fail "--fail-on that did not match said: $ERR"
expect 1 "$SYSAB" compare cfg=b cfg=a --fail-on slower --json
v=$(printf '%s' "$OUT" | jq -r '.rows[0].verdict + " " + (.rows[0].comparison.pct < -8 | tostring)')
[ "$v" = "slower true" ] || fail "reverse compare: $v"

# identical tight values: equivalent within 1%, and not within 0.01%
export SYSAB_DB="$T/same.db"
expect 0 "$SYSAB" import csv "$F/same.csv"
expect 0 "$SYSAB" compare cfg=a cfg=b --fail-on change
contains "$OUT" "equivalent"
expect 0 "$SYSAB" compare cfg=a cfg=b --margin 0.01% --json
v=$(printf '%s' "$OUT" | jq -r '.rows[0].verdict')
[ "$v" = inconclusive ] || fail "tiny margin gave $v"
v=$(printf '%s' "$OUT" | jq -r '(.rows[0].comparison.more_boots == null) and (.rows[0].comparison.sequential_design == false)')
[ "$v" = true ] || fail "a fixed design must not advise adding boots: $v"
expect 0 "$SYSAB" compare cfg=a cfg=b --margin 0.01%
contains "$OUT" "inconclusive in a fixed design"

# a sequential design: look 1 of at most 12 boots per group spends less than alpha
expect 0 "$SYSAB" compare cfg=a cfg=b --margin 0.01% --look 1 --max-boots 12 --json
v=$(printf '%s' "$OUT" | jq -r '.rows[0].comparison | ((.alpha < 0.05) and (.interval_adjusted_for == "sequential_look") and (.caveats | index("sequential") != null))')
[ "$v" = true ] || fail "sequential look: $v"
bad "--look and --max-boots go together" compare cfg=a cfg=b --look 2
bad "--unit: 'boots' is not a replication unit" compare cfg=a cfg=b --unit boots
bad "--look: 'x'" compare cfg=a cfg=b --look x --max-boots 4

# one boot per configuration (the same boot): no verdict, and --fail-on never fires; --unit run
# says what it skips
printf 'workload,unit,value,run,boot,cfg\n' >"$T/oneboot.csv"
for c in a b; do
	for r in 1 2 3; do
		for i in 1 2 3 4 5 6; do
			v=$([ $c = a ] && echo 1000 || echo 1100)
			echo "w.x,ops/s,$v.$r$i,$c$r,shared-boot,$c" >>"$T/oneboot.csv"
		done
	done
done
export SYSAB_DB="$T/oneboot.db"
expect 0 "$SYSAB" import csv "$T/oneboot.csv"
expect 0 "$SYSAB" compare cfg=a cfg=b --fail-on change --json
v=$(printf '%s' "$OUT" | jq -r '.rows[0].verdict + " " + (.rows[0].comparison.caveats | index("no_boot_replication") != null | tostring)')
[ "$v" = "inconclusive true" ] || fail "one boot per group: $v"
# a fixed design offers no count of boots, in JSON too (FORMATS.md: null, and no sequential design)
v=$(printf '%s' "$OUT" | jq -r '.rows[0].comparison | "\(.more_boots) \(.settles_as) \(.sequential_design)"')
[ "$v" = "null null false" ] || fail "fixed design, more_boots settles_as sequential_design: $v"
expect 0 "$SYSAB" compare cfg=a cfg=b
contains "$OUT" "inconclusive: no boot replication"
expect 1 "$SYSAB" compare cfg=a cfg=b --fail-on change --unit run
contains "$OUT" "--unit run: runs are the replication unit"
# --unit run across boots compares configuration plus boot: refused, with the boot named (issue 31
# item 3), by compare and by analyze alike
printf 'workload,unit,value,run,boot,cfg\n' >"$T/twoboots.csv"
for c in a b; do
	for r in 1 2 3; do
		for i in 1 2 3 4 5 6; do
			echo "w.x,ops/s,1000.$r$i,$c$r,$c-boot,$c" >>"$T/twoboots.csv"
		done
	done
done
echo "w.x,ops/s,1000.5,a9,b-boot,a" >>"$T/twoboots.csv" # A also on B's boot: still not the same boots
export SYSAB_DB="$T/twoboots.db"
expect 0 "$SYSAB" import csv "$T/twoboots.csv"
expect 2 "$SYSAB" compare cfg=a cfg=b --unit run
contains "$ERR" "--unit run compares runs within the same boots, but A ran on boot import:"
contains "$ERR" " and B did not"
contains "$ERR" "(A: 2 boots, B: 1)"
expect 2 "$SYSAB" analyze --factors cfg --unit run
contains "$ERR" "--unit run compares runs within the same boots, but cell 'cfg=a' ran on boot import:"
expect 0 "$SYSAB" compare cfg=a cfg=b
export SYSAB_DB="$T/oneboot.db"
expect 0 "$SYSAB" analyze --factors cfg --unit run

# a sequential design shows the repeated interval at a look it goes on from, and the
# stage-wise one where it ends (here: the last look, 3 boots of at most 3)
printf 'workload,unit,value,run,boot,cfg\n' >"$T/seq.csv"
for c in a b; do
	for bt in 1 2 3; do
		for r in 1 2; do
			for i in 1 2 3 4 5; do
				echo "w.x,ops/s,$([ $c = a ] && echo 1000 || echo 1001).$bt$r$i,$c$bt$r,$c-boot$bt,$c" >>"$T/seq.csv"
			done
		done
	done
done
export SYSAB_DB="$T/seq.db"
expect 0 "$SYSAB" import csv "$T/seq.csv"
expect 0 "$SYSAB" compare cfg=a cfg=b --look 1 --max-boots 12 --json
v=$(printf '%s' "$OUT" | jq -r '.rows[0].comparison | .interval_adjusted_for + " " + (.caveats | index("stagewise") != null | tostring)')
[ "$v" = "sequential_look false" ] || fail "a look the design goes on from: $v"
expect 0 "$SYSAB" compare cfg=a cfg=b --look 2 --max-boots 3 --json
v=$(printf '%s' "$OUT" | jq -r '.rows[0].comparison | .interval_adjusted_for + " " + (.caveats | index("stagewise") != null | tostring) + " " + ((.pct_lo < .pct) and (.pct < .pct_hi) | tostring)')
[ "$v" = "sequential_stagewise true true" ] || fail "the last look: $v"
expect 0 "$SYSAB" compare cfg=a cfg=b --look 2 --max-boots 3
contains "$OUT" "the sequential design ends at this look: the interval is the stage-wise one"
# an early look of a long design spends almost no alpha: its interval prints as unbounded, never
# as the first digits of 1e78 (issue 31 item 5)
expect 0 "$SYSAB" compare cfg=a cfg=b --look 1 --max-boots 200
contains "$OUT" ",unbounded]"
printf '%s' "$OUT" | grep -Eq '[0-9]{8}' && fail "a bound printed as a long number: $OUT"

# values that repeat at their precision (published scores): a rounding variance, never p = 0
printf 'workload,unit,value,run,boot,cfg\nw.x,ops/s,100,a1,b1,a\nw.x,ops/s,100,a2,b2,a\nw.x,ops/s,103,b1,b3,b\nw.x,ops/s,103,b2,b4,b\n' >"$T/round.csv"
export SYSAB_DB="$T/round.db"
expect 0 "$SYSAB" import csv "$T/round.csv"
expect 0 "$SYSAB" compare cfg=a cfg=b --json
v=$(printf '%s' "$OUT" | jq -r '.rows[0].comparison | ((.p > 0) and (.pct_hi > .pct_lo) and (.caveats | index("quantised") != null))')
[ "$v" = true ] || fail "rounded values: $v"

# The HTML forest draws each row with its table's sign (t_signs.sh holds every row): a rate
# row and a time/op row both faster by about 10% sit right of zero (+10% throughput) and left
# of it (-10% time), the time row labelled so.
export SYSAB_DB="$T/dir.db"
{
	echo "workload,unit,value,run,boot,cfg"
	for b in 1 2 3 4; do
		for s in 1 2 3; do
			echo "w.rate,ops/s,100$b.$s,a$b,ab$b,a"
			echo "w.time,ns/op,10$b.$s,a$b,ab$b,a"
			echo "w.rate,ops/s,110$b.$s,b$b,bb$b,b"
			echo "w.time,ns/op,9$b.$s,b$b,bb$b,b"
		done
	done
} >"$T/dir.csv"
expect 0 "$SYSAB" import csv "$T/dir.csv"
expect 0 "$SYSAB" compare cfg=a cfg=b --format html -o "$T/dir.html"
n=$(grep -o '<g class="effect" data-verdict="faster" data-change="+[0-9.]*"' "$T/dir.html" | wc -l)
m=$(grep -o '<g class="effect" data-verdict="faster" data-change="-[0-9.]*"' "$T/dir.html" | wc -l)
[ "$n $m" = "1 1" ] || fail "forest: faster rows right and left of zero: $n $m: $(grep -o '<g class="effect"[^>]*>' "$T/dir.html")"
grep -q '>w.time (time)</text>' "$T/dir.html" || fail "forest: the time/op row is not labelled (time)"
contains "$(cat "$T/dir.html")" "time/op rows: + = slower; others: + = faster"
# rate rows and time/op rows never share an axis: one forest each, its ends naming the faster side
grep -q 'id="forest-time"' "$T/dir.html" || fail "forest: no plot of its own for the time/op rows"

# A strip plot's axis starts at 0 at the lowest: samples from 0.5 to 40 ms/op used to get an
# axis from a negative time.
export SYSAB_DB="$T/wide.db"
{
	echo "workload,unit,value,run,boot,cfg"
	for b in 1 2 3; do
		echo "w.wide,ms/op,0.5,a$b,ab$b,a"
		echo "w.wide,ms/op,3$b,a$b,ab$b,a"
		echo "w.wide,ms/op,0.6,b$b,bb$b,b"
		echo "w.wide,ms/op,4$b,b$b,bb$b,b"
	done
} >"$T/wide.csv"
expect 0 "$SYSAB" import csv "$T/wide.csv"
expect 0 "$SYSAB" compare cfg=a cfg=b --format html -o "$T/wide.html"
sed -n '/<svg[^>]*class="strip"/,/<\/svg>/p' "$T/wide.html" >"$T/strip.svg"
grep -q 'class="tick"' "$T/strip.svg" || fail "no strip plot ticks"
! grep -q 'class="tick"[^>]*>-' "$T/strip.svg" || fail "strip axis below 0: $(grep -o 'class="tick"[^<]*' "$T/strip.svg" | head -3)"

# One row with a huge interval does not squeeze the others: the forest axis stops at ±100%
# (unless a point estimate is farther) and the cut interval ends in an arrow (issue 17 item 6).
export SYSAB_DB="$T/wide.db"
{
	echo "workload,unit,value,run,boot,cfg"
	for b in 1 2; do
		for s in 1 2 3; do
			echo "w.calm,ops/s,100$b.$s,a$b,ab$b,a"
			echo "w.calm,ops/s,101$b.$s,b$b,bb$b,b"
		done
	done
	echo "w.wild,ops/s,100,a1,ab1,a"
	echo "w.wild,ops/s,400,a2,ab2,a"
	echo "w.wild,ops/s,150,b1,bb1,b"
	echo "w.wild,ops/s,900,b2,bb2,b"
} >"$T/wide.csv"
expect 0 "$SYSAB" import csv "$T/wide.csv"
expect 0 "$SYSAB" compare cfg=a cfg=b --json
hi=$(printf '%s' "$OUT" | jq '[.rows[].comparison.pct_hi] | max')
awk -v h="$hi" 'BEGIN { exit !(h > 200) }' || fail "the fixture should give an interval past +200%, got $hi"
expect 0 "$SYSAB" compare cfg=a cfg=b --format html -o "$T/wide.html"
ticks=$(sed -n '/id="forest"/,/<\/svg>/p' "$T/wide.html" | grep -o 'class="tick">[^<]*<' | sed 's/.*>\([-+0-9.]*\)%.*/\1/' | tr '\n' ' ')
for t in $ticks; do
	awk -v t="$t" 'BEGIN { exit !(t >= -100 && t <= 100) }' || fail "forest tick $t% is past ±100%: $ticks"
done
contains "$(cat "$T/wide.html")" 'class="clip"'
