# Every command sysab's output tells the user to run (a `sysab ...` hint in backticks) runs as
# printed: each hint is provoked, taken from the output and run here, with "sysab" meaning the
# binary under test. The last part holds the sources to it: a hint text in any printed string
# of src/ must be one this test runs, or in the list of exemptions below with its reason.
RUN="--quick -w harness.null --samples 3 --sample-ms 10 --warmup-ms 0 -q"
TESTED=""

# run_hint WANT TEXT: the first `sysab ...` in TEXT (a table may wrap it), run; its exit status
# must be WANT
run_hint() {
	# (an error's hint names the binary as invoked: $SYSAB, a path)
	h=$(printf '%s\n' "$2" | tr '\n' ' ' | tr -s ' ' | grep -o "\`\\(sysab\\|$SYSAB\\) [^\`]*\`" | head -n 1 | tr -d '`')
	[ -n "$h" ] || fail "no hint in: $2"
	h="sysab ${h#* }"
	expect "$1" sh -c "exec \"\$SYSAB\" ${h#sysab }"
	TESTED="$TESTED
$h"
}

# the command line and its help
expect 2 "$SYSAB" frobnicate
run_hint 0 "$ERR"
# a mistyped command, subcommand or option value: did you mean
expect 2 "$SYSAB" comapre a b
contains "$ERR" "did you mean compare?"
run_hint 0 "$ERR"
expect 2 "$SYSAB" system shwo
contains "$ERR" "did you mean show?"
run_hint 0 "$ERR"
expect 2 "$SYSAB" import cvs x.csv
contains "$ERR" "did you mean csv?"
expect 2 "$SYSAB" compare a b --fail-on slowr
contains "$ERR" "did you mean slower?"
expect 2 "$SYSAB" analyze --format csv
contains "$ERR" "use text, json, html or markdown"
expect 2 "$SYSAB" --db "$SYSAB_DB"
run_hint 0 "$ERR"
expect 0 "$SYSAB" --help
contains "$OUT" '`sysab --version`'
run_hint 0 "$(printf '%s\n' "$OUT" | sed 's/`sysab COMMAND --help`//')"
expect 2 "$SYSAB" list --frob
run_hint 0 "$ERR"
expect 2 "$SYSAB" compare -Z
run_hint 0 "$ERR"
expect 2 "$SYSAB" list --db
run_hint 0 "$ERR"
expect 2 "$SYSAB" env extra
run_hint 0 "$ERR"
expect 2 "$SYSAB" compare 'pie=no'
run_hint 0 "$ERR"
expect 2 "$SYSAB" plan a b c
run_hint 0 "$ERR"
expect 2 "$SYSAB" system
run_hint 0 "$ERR"
expect 2 "$SYSAB" run -w ''
run_hint 0 "$ERR"
expect 2 "$SYSAB" run -w kernel.syscal.null
contains "$ERR" "did you mean"
run_hint 0 "$ERR"
expect 2 "$SYSAB" run --cpus 1023
run_hint 0 "$ERR"

# selectors, runs and factors: on the published numbers and the synthetic 2x2 of examples/
expect 0 "$SYSAB" import csv "$REPO/examples/unixbench-pernode.csv"
expect 2 "$SYSAB" show
run_hint 0 "$ERR"
expect 2 "$SYSAB" show 999
run_hint 0 "$ERR"
expect 2 "$SYSAB" rm
run_hint 0 "$ERR"
expect 2 "$SYSAB" rm 'pernode=nosuch'
contains "$ERR" "the values of pernode are"
expect 2 "$SYSAB" compare 'run:999' 'pie=yes'
run_hint 0 "$ERR"
expect 2 "$SYSAB" compare 'nolabel=1' 'pie=yes'
run_hint 0 "$ERR"
expect 2 "$SYSAB" compare 'pie=ys' 'pie=yes'
contains "$ERR" "no usable run has pie=ys (did you mean yes?); the values of pie are no, yes"
expect 2 "$SYSAB" analyze
run_hint 0 "$ERR"
expect 2 "$SYSAB" analyze --factors nosuch
run_hint 0 "$ERR"
# no verdict without replication: "`sysab plan` sizes the experiment" in text and HTML
expect 0 "$SYSAB" analyze --factors pernode,pie
contains "$(printf '%s' "$OUT" | tr '\n' ' ')" '`sysab plan --factors pernode,pie`'
run_hint 0 "$OUT"
expect 0 "$SYSAB" report analyze --factors pernode,pie -o "$T/a.html"
run_hint 0 "$(cat "$T/a.html")"
expect 0 "$SYSAB" import csv "$REPO/examples/pernode-pie-boots.csv"
expect 0 "$SYSAB" compare 'pie=no data=synthetic' 'pie=yes data=synthetic' -v
if printf '%s\n' "$OUT" | grep -q '`sysab plan`'; then run_hint 0 "$OUT"; fi
# an inconclusive row in a fixed design: "`sysab plan` sizes a new one"
expect 0 "$SYSAB" compare 'pernode=no pie=yes data=synthetic' 'pernode=yes pie=yes data=synthetic'
contains "$OUT" '`sysab plan` sizes a new one'
run_hint 0 "$OUT"
# a stored summary that does not match its samples
sqlite3 "$SYSAB_DB" "UPDATE run_summary SET slots = x'0100000005000000' WHERE run = 1"
expect 1 "$SYSAB" check-db
run_hint 0 "$OUT"
expect 0 "$SYSAB" check-db

# boot campaigns through the command backend and a simulated boot loader (as t_campaign)
mkdir -p "$T/proc" "$T/units"
export SYSAB_CAMPAIGN_PROC="$T/proc"
echo 6.1.0-test >"$T/proc/osrelease"
echo "BOOT_IMAGE=/vmlinuz ro" >"$T/proc/cmdline"
BOOTCMD='echo "$SYSAB_APPEND" >>'"$T/armed"
boot() { tail -n 1 "$T/armed" >"$T/proc/cmdline"; cat /proc/sys/kernel/random/uuid >"$T/proc/boot_id"; }
new() { expect 0 "$SYSAB" campaign new --unit-dir "$T/units" "$@"; }
expect 2 "$SYSAB" campaign show nosuch
run_hint 0 "$ERR"
new h --backend command --boots 2 --config 'pti=on thp=y' --append 'pti=on' --command "$BOOTCMD" \
	--config 'pti=off thp=y' --append 'pti=off' --command "$BOOTCMD" -- $RUN
expect 2 "$SYSAB" campaign new h --backend command --boots 1 --config a=1 --command true
run_hint 0 "$ERR"
expect 2 "$SYSAB" campaign resume h
run_hint 0 "$ERR" # campaign start h
expect 2 "$SYSAB" campaign start h
contains "$ERR" "already running"
boot
run_hint 0 "$ERR" # campaign resume h
for i in 1 2 3; do
	boot
	expect 0 "$SYSAB" campaign resume h
done
contains "$OUT" "done"
# the hint at the end of a campaign analyzes it: the factors are its configurations' labels
# (the runs' own lines before it name `sysab show`)
run_hint 0 "$(printf '%s\n' "$OUT" | tr '\n' ' ' | tr -s ' ' | grep -o '`sysab analyze [^`]*`')"
contains "$ERR" "factors pti"
case "$ERR" in *thp*) fail "thp is the same in every configuration, so no factor: $ERR" ;; esac
contains "$OUT" "pti: on vs off"
expect 0 "$SYSAB" report analyze campaign:h -o "$T/h.html"
expect 2 "$SYSAB" campaign start h
run_hint 0 "$ERR"
new s --backend command --boots 1 --config 'pti=on' --command "$BOOTCMD" --config 'pti=off' --command "$BOOTCMD" -- $RUN
contains "$OUT" "\`$SYSAB campaign start s\`" # the program as invoked
run_hint 0 "$OUT"
expect 0 "$SYSAB" campaign stop s
run_hint 0 "$OUT"
expect 0 "$SYSAB" campaign stop s
boot
expect 2 "$SYSAB" campaign resume s
run_hint 0 "$ERR"
expect 0 "$SYSAB" campaign stop s
# a second driver is refused while another holds the campaign's lease, and told how to stop it
flock "$SYSAB_DB.campaign-s.lease" sleep 60 &
holder=$!
n=0
until [ $n -ge 100 ] || ! flock -n "$SYSAB_DB.campaign-s.lease" true; do n=$((n + 1)); sleep 0.1; done
expect 2 "$SYSAB" campaign start s
contains "$ERR" "driven by another sysab"
run_hint 0 "$ERR"
kill $holder 2>/dev/null
wait $holder 2>/dev/null

# a bisection: stored, its start hint boots its first step's first slot; stopped, its resume hint
# goes on; a second one of the same name names the one there is
printf '#!/bin/sh\n%s\n' "$BOOTCMD" >"$T/bootcmd" && chmod +x "$T/bootcmd"
printf 'v=1 --command %s\nv=2 --command %s\nv=3 --command %s\n' "$T/bootcmd" "$T/bootcmd" "$T/bootcmd" >"$T/series"
expect 0 "$SYSAB" bisect new b --series "$T/series" --good 1 --bad 3 --backend command --unit-dir "$T/units" -- $RUN
contains "$OUT" "stored"
run_hint 0 "$OUT" # bisect start b
expect 0 "$SYSAB" bisect stop b
run_hint 0 "$(printf "%s\n" "$OUT" | grep "^bisection b stopped")" # bisect resume b
[ "$(sqlite3 "$SYSAB_DB" "SELECT state FROM bisect WHERE name = 'b'")" = running ] || fail "bisect resume: not running"
expect 2 "$SYSAB" bisect new b --series "$T/series" --good 1 --bad 3 --backend command --unit-dir "$T/units" -- $RUN
contains "$ERR" "exists"
run_hint 0 "$ERR" # bisect show b
contains "$OUT" "bisection b"

# sysab system tune on a fake machine: the reset it names (with the state file given) restores it
cp -a "$REPO/tests/fixtures/system/intel-smt" "$T/tree"
cp -a "$REPO/tests/fixtures/system/intel-smt" "$T/orig"
expect 0 "$SYSAB" system tune --root "$T/tree" --state-file "$T/my state.json"
contains "$OUT" "--state-file '$T/my state.json'"
run_hint 0 "$OUT"
diff -r "$T/orig" "$T/tree" || fail "the reset the hint names did not restore the tree"

# The sources: every hint text in a printed string is one run above, or exempt here.
EXEMPT='`sysab COMMAND --help`	a template: the usage line says to put a command there
`sysab __completion`	the comment the generated completion script starts with
`sysab __man`	the comment the generated man page starts with
`sysab analyze campaign:NAME`	help text (campaign): NAME is the user'"'"'s; its output form is run above
`sysab campaign new NAME ...`	a template: a campaign needs the user'"'"'s configurations
`sysab campaign new NAME`	help text of plan --campaign, naming the line it prints
`sysab campaign new`	says which command takes --backend and --config, not one to run
`sysab compare`	markdown legend: says what compare prints
`sysab compare --counters`	markdown legend: names the option; the groups are the reader'"'"'s
`sysab show %lld -v`	a failed self-check'"'"'s note: t_trust provokes it and runs the hint
`sysab import`	names the command that adds runs; its forms need the user'"'"'s files
`sysab run`	runs the whole suite (minutes); also help text naming it. t_readme runs the suite
`sysab run --quick`	the quick suite (about a minute at best): t_readme runs it as the README does
`sysab bisect new %s ...`	a template: a bisection needs the user'"'"'s series; the hints of the one made above are run
`sysab bisect`	names the command (history --confirm'"'"'s offer and its help); the offer'"'"'s own line is run by t_history
`sysab bisect new`	says which command takes the series options, not one to run
`sysab bisect show`	says which command takes --format, not one to run
`sysab run --arm ... --until decided`	a template: the arms are the user'"'"'s; the withheld line prints the whole command, which t_armgrow runs as printed'
missing=""
for h in $(grep -rhoE '"[^"]*`sysab [^`]*`' "$REPO/src" | grep -o '`sysab [^`]*`' | sort -u | tr ' ' '~'); do
	h=$(printf '%s' "$h" | tr '~' ' ')
	printf '%s\n' "$EXEMPT" | cut -f1 | grep -qxF -- "$h" && continue
	# the printed form, with %s for what the message fills in
	pat=$(printf '%s' "$h" | tr -d '`' | sed 's/[.[*^$]/\\&/g; s/%s/[^ ]*/g; s/%lld/[0-9]*/g')
	printf '%s\n' "$TESTED" | grep -qx -- "$pat" || missing="$missing
$h"
done
[ -z "$missing" ] || fail "hints no test runs (run them above, or exempt them with a reason):$missing"
