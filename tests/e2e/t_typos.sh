# Typos get the right suggestion, and hints name the program as the user invoked it: a
# mistyped option gets the closest option; a label value or factor the closest one only when
# it is a plausible typo ("test" is none of "yes"); rm, which takes runs of any status, does
# not speak of "usable" runs; `sysab ...` hints say build/sysab when that is how sysab was run.
expect 2 "$SYSAB" run --quik
contains "$ERR" "unknown option '--quik'; did you mean --quick?"
contains "$ERR" "\`$SYSAB run --help\`"
expect 2 "$SYSAB" run --quik=1
contains "$ERR" "did you mean --quick?"
expect 2 "$SYSAB" run --zzzzzz
case "$ERR" in *"did you mean"*) fail "a suggestion for --zzzzzz: $ERR" ;; esac
# the program as invoked: a relative path, or a bare name found on PATH
mkdir -p "$T/bin/build"
cp "$SYSAB" "$T/bin/build/sysab"
(cd "$T/bin" && build/sysab run --quik) >/dev/null 2>"$T/rel.err"
contains "$(cat "$T/rel.err")" "\`build/sysab run --help\`"
PATH="$T/bin/build:$PATH" sysab run --quik >/dev/null 2>"$T/path.err"
contains "$(cat "$T/path.err")" "see \`sysab run --help\`"
# an unknown command's hint, campaign new's
(cd "$T/bin" && build/sysab frobnicate) >/dev/null 2>"$T/rel.err"
contains "$(cat "$T/rel.err")" "; \`build/sysab --help\` lists the commands"
(cd "$T/bin" && build/sysab campaign new h --backend command --boots 1 --config a=1 --command true --config a=2 \
	--command true -- --quick) >"$T/rel.out" 2>&1
contains "$(cat "$T/rel.out")" "nothing boots until \`build/sysab campaign start h\`"
rm -f "$SYSAB_DB" "$SYSAB_DB-wal" "$SYSAB_DB-shm"

expect 0 "$SYSAB" import csv "$REPO/examples/pernode-pie-boots.csv"
expect 2 "$SYSAB" rm 'pernode=test'
contains "$ERR" "no run has pernode=test; the values of pernode are no, yes"
case "$ERR" in *"did you mean"* | *usable*) fail "rm pernode=test: $ERR" ;; esac
expect 2 "$SYSAB" rm 'pernode=yse'
contains "$ERR" "(did you mean yes?)"
expect 2 "$SYSAB" compare 'pernode=test' 'pernode=no'
contains "$ERR" "no usable run has pernode=test; the values"
expect 2 "$SYSAB" analyze --factors pernod,pie
contains "$ERR" "factor 'pernod': no selected run has a label 'pernod' (did you mean pernode?)"
expect 2 "$SYSAB" analyze --factors colour
case "$ERR" in *"did you mean"*) fail "a suggestion for colour: $ERR" ;; esac
