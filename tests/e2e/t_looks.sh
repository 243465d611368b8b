# Repeated looks (docs/METHOD.md, "Repeated looks"): compare and analyze record each look at a
# question; printing it again is the same look; comparing again after adding boots is a later
# look whose verdicts are withheld (every format, --fail-on) unless a design was declared from
# the first look; --fresh judges only runs no earlier look judged; a read-only database compares.

# boots FILE FROM TO: CSV of workload w.x, cfg a and b, boots FROM..TO of each, 2 runs of 6 values,
# B 6% slower than A (so every look that may judge calls it)
boots() {
	awk -v f="$2" -v t="$3" 'BEGIN { srand(11 + f)
		print "workload,unit,value,run,boot,cfg"
		for (c = 0; c < 2; c++) for (b = f; b <= t; b++) {
			bo = (c ? 0.94 : 1) * (1 + 0.01 * (rand() - 0.5))
			for (r = 0; r < 2; r++) for (i = 0; i < 6; i++)
				printf "w.x,ops/s,%.3f,%s%d.%d,%sboot%d,%s\n", 1000 * bo * (1 + 0.01 * (rand() - 0.5)),
					(c ? "b" : "a"), b, r, (c ? "b" : "a"), b, (c ? "b" : "a")
		} }' >"$1"
}
looks() { sqlite3 "$SYSAB_DB" 'SELECT count(*) FROM look'; }

boots "$T/b12.csv" 1 2
boots "$T/b34.csv" 3 4
boots "$T/b56.csv" 5 6
expect 0 "$SYSAB" import csv "$T/b12.csv"

# look 1: today's full-alpha verdict, recorded once however often it is printed
expect 0 "$SYSAB" compare cfg=a cfg=b --json
v=$(printf '%s' "$OUT" | jq -r '[.look.question, .look.number, .look.verdicts_withheld, .rows[0].verdict, .rows[0].withheld_for] | map(tostring) | join(" ")')
[ "$v" = "1 1 false slower null" ] || fail "look 1: $v"
first=$OUT
expect 0 "$SYSAB" compare cfg=a cfg=b
contains "$OUT" "slower"
case "$OUT" in *withheld*) fail "look 1 withheld: $OUT" ;; esac
expect 0 "$SYSAB" compare cfg=a cfg=b --format markdown
expect 0 "$SYSAB" compare 'cfg=b' 'cfg=a' # B against A asks the same question
expect 0 "$SYSAB" compare cfg=a cfg=b --json
[ "$OUT" = "$first" ] || fail "printing look 1 again changed it"
[ "$(looks)" = 1 ] || fail "re-reads recorded looks: $(looks)"
expect 1 "$SYSAB" compare cfg=a cfg=b --fail-on slower

# boots added: look 2 is withheld, in every format, and --fail-on judges nothing
expect 0 "$SYSAB" import csv "$T/b34.csv"
expect 0 "$SYSAB" compare cfg=a cfg=b --fail-on slower
contains "$OUT" "withheld: this is look 2 of this question"
contains "$OUT" "--fresh"
contains "$OUT" "1 withheld (a later look)"
contains "$ERR" "judged no row whose verdict was withheld as a later look"
[ "$(looks)" = 2 ] || fail "look 2 not recorded: $(looks)"
expect 0 "$SYSAB" compare cfg=a cfg=b --json
v=$(printf '%s' "$OUT" | jq -r '[.look.question, .look.number, .look.verdicts_withheld, .look.rows_withheld, .rows[0].verdict, .rows[0].withheld_for] | map(tostring) | join(" ")')
[ "$v" = "1 2 true 1 withheld later_look" ] || fail "look 2: $v"
expect 0 "$SYSAB" compare cfg=a cfg=b --format markdown
contains "$OUT" "withheld: this is look 2 of this question"
expect 0 "$SYSAB" report compare cfg=a cfg=b -o "$T/r.html"
grep -q "withheld: this is look 2 of this question" "$T/r.html" || fail "the page does not say look 2 is withheld"
[ "$(looks)" = 2 ] || fail "re-reads of look 2 recorded looks: $(looks)"
# a new question is another key: -w, --unit
expect 0 "$SYSAB" compare cfg=a cfg=b -w w.x --json
[ "$(printf '%s' "$OUT" | jq -r .look.number)" = 1 ] || fail "-w is not another question"

# --fresh: nothing new yet, then the new boots alone as question 2
expect 2 "$SYSAB" compare cfg=a cfg=b --fresh
contains "$ERR" "add boots first"
expect 0 "$SYSAB" import csv "$T/b56.csv"
expect 0 "$SYSAB" compare cfg=a cfg=b --fresh
contains "$OUT" "--fresh: question 2 of these selectors, over the runs no earlier look judged"
contains "$OUT" "4 runs on 2 boots"
contains "$OUT" "slower"
expect 0 "$SYSAB" compare cfg=a cfg=b --fresh --json
v=$(printf '%s' "$OUT" | jq -r '[.look.question, .look.number, .look.fresh, .look.runs_left_out, .rows[0].verdict] | map(tostring) | join(" ")')
[ "$v" = "2 1 true 16 slower" ] || fail "--fresh: $v"
n=$(looks)
expect 0 "$SYSAB" compare cfg=a cfg=b --fresh
[ "$(looks)" = "$n" ] || fail "--fresh printed again recorded a look"
expect 0 "$SYSAB" compare cfg=a cfg=b # all runs: a later look of question 2
contains "$OUT" "withheld: this is look 2 of this question"

# a design declared from the first look goes on; a look that does not declare it is withheld
export SYSAB_DB="$T/seq.db"
expect 0 "$SYSAB" import csv "$T/b12.csv"
expect 0 "$SYSAB" compare cfg=a cfg=b --max-boots 6 --look 1 --json
[ "$(printf '%s' "$OUT" | jq -r .look.declared_max_boots)" = 6 ] || fail "declared look 1"
expect 0 "$SYSAB" import csv "$T/b34.csv"
expect 0 "$SYSAB" compare cfg=a cfg=b
contains "$OUT" "give --max-boots 6 --look 2"
expect 0 "$SYSAB" compare cfg=a cfg=b --max-boots 6 --look 2 --json
v=$(printf '%s' "$OUT" | jq -r '[.look.number, .look.verdicts_withheld, .rows[0].alpha < 0.05] | map(tostring) | join(" ")')
[ "$v" = "2 false true" ] || fail "declared look 2: $v"

# analyze records its looks the same way (its key holds the factors)
expect 0 "$SYSAB" analyze --factors cfg --json
[ "$(printf '%s' "$OUT" | jq -r '.look.number')" = 1 ] || fail "analyze look 1"
expect 0 "$SYSAB" import csv "$T/b56.csv"
expect 0 "$SYSAB" analyze --factors cfg
contains "$OUT" "withheld: this is look 2 of this question"
expect 0 "$SYSAB" analyze --factors cfg --json
v=$(printf '%s' "$OUT" | jq -r '[.look.number, .look.verdicts_withheld, .rows[0].effects[0].verdict, .rows[0].effects[0].withheld_for] | map(tostring) | join(" ")')
[ "$v" = "2 true withheld later_look" ] || fail "analyze look 2: $v"
# the declared design's look 3, given as --look 2: sysab counted the looks, and judges it as look 3
expect 0 "$SYSAB" compare cfg=a cfg=b --max-boots 6 --look 2
contains "$OUT" "look 3 of the declared design"
contains "$OUT" "judged as"
expect 0 "$SYSAB" compare cfg=a cfg=b --max-boots 6 --look 2 --json
v=$(printf '%s' "$OUT" | jq -r '[.look.number, .look.verdicts_withheld] | map(tostring) | join(" ")')
[ "$v" = "3 false" ] || fail "declared look 3: $v"
expect 0 "$SYSAB" compare cfg=a cfg=b --max-boots 6 --look 2 # printed again: the same look, the same lines
contains "$OUT" "look 3 of the declared design"

# a read-only database still compares: the look cannot be recorded, and it says so
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null || { echo "skip: setpriv is missing"; return 0 2>/dev/null || exit 0; }
	reach_sysab 65534 || { return 0 2>/dev/null || exit 0; }
	reader() { setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$T/ro" "$@"; }
else
	reader() { "$@"; }
fi
mkdir -p "$T/ro"
SYSAB_DB="$T/ro/r.db" "$SYSAB" import csv "$T/b12.csv" >/dev/null 2>&1 || fail "import"
chmod 755 "$T"
chmod 444 "$T/ro/r.db"
chmod 555 "$T/ro"
expect 0 reader "$SYSAB" --db "$T/ro/r.db" compare cfg=a cfg=b
contains "$OUT" "slower"
contains "$ERR" "this look was not recorded, as the database is read-only to you"
chmod 755 "$T/ro"
