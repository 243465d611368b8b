# formats: one --format/-o on every result-printing command, --json as its alias, unknown formats refused up front.
expect 0 "$SYSAB" import csv "$REPO/examples/pernode-pie-boots.csv"
A='pernode=no pie=yes'
B='pernode=yes pie=yes'
# --json is --format json, byte for byte
for c in "list" "show 1" "workloads" "plan" "compare|$A|$B" "analyze --factors pernode,pie"; do
	IFS='|' read -r c1 c2 c3 <<X
$c
X
	if [ -n "$c2" ]; then
		expect 0 "$SYSAB" $c1 "$c2" "$c3" --json; j=$OUT
		expect 0 "$SYSAB" $c1 "$c2" "$c3" --format json
	else
		expect 0 "$SYSAB" $c1 --json; j=$OUT
		expect 0 "$SYSAB" $c1 --format json
	fi
	[ "$j" = "$OUT" ] || fail "$c1: --json and --format json differ"
	printf '%s' "$OUT" | jq -e .kind >/dev/null || fail "$c1 --format json: not a JSON document"
done
# workloads --json lists each self-check with its bounds, and which ones need an idle machine
expect 0 "$SYSAB" workloads --json
printf '%s' "$OUT" | jq -e '[.workloads[] | select(.name == "kernel.ipi.membarrier") | .checks[0] | .needs_idle == true and .lo == 0.9 and .hi == 3] == [true]' >/dev/null ||
	fail "workloads --json: membarrier's needs_idle check"
printf '%s' "$OUT" | jq -e '[.workloads[] | select(.name == "harness.null") | .checks[0].needs_idle] == [false]' >/dev/null ||
	fail "workloads --json: harness.null's check"
# -o writes the file and prints nothing; the text equals what stdout gets
expect 0 "$SYSAB" compare "$A" "$B" -o "$T/cmp.txt"
[ -z "$OUT" ] || fail "compare -o printed to stdout"
expect 0 "$SYSAB" compare "$A" "$B"
[ "$OUT" = "$(cat "$T/cmp.txt")" ] || fail "compare -o: file differs from standard output"
expect 0 "$SYSAB" list -o "$T/list.json" --json
jq -e '.runs | length > 0' "$T/list.json" >/dev/null || fail "list -o --json"
# html from compare and analyze, the same page report writes
expect 0 "$SYSAB" compare "$A" "$B" --format html -o "$T/cmp.html"
expect 0 "$SYSAB" report compare "$A" "$B" -o "$T/rep.html"
cmp "$T/cmp.html" "$T/rep.html" || fail "compare --format html differs from report compare"
expect 0 "$SYSAB" analyze --factors pernode,pie --format html -o "$T/fa.html"
grep -q '<svg' "$T/fa.html" || fail "analyze --format html: no plot"
expect 0 "$SYSAB" report analyze --factors pernode,pie --format json -o "$T/fa.json"
jq -e '.kind == "analyze"' "$T/fa.json" >/dev/null || fail "report --format json"
# formats a command cannot print are refused before any work, naming the ones it can
expect 2 "$SYSAB" run --format csv -w sys.null
contains "$ERR" "cannot print 'csv'; use text, json or markdown"
expect 2 "$SYSAB" compare "$A" "$B" --format csv
contains "$ERR" "use text, json, html, kcidb or markdown"
# markdown (issue 17 item 7): a GitHub table with the verdict summary line, for show too
expect 0 "$SYSAB" compare "$A" "$B" --format markdown
contains "$OUT" "| workload | unit | A | B | change | 95% CI | q | verdict |"
contains "$OUT" "(faster/slower need BH q < 0.05)**"
expect 0 "$SYSAB" show 1 --format markdown
contains "$OUT" "| workload | copies | median | unit | CI95 | CV | n |"
expect 0 "$SYSAB" analyze --factors pernode,pie --format markdown
contains "$OUT" "| effect | change | 95% CI | q | verdict |"
contains "$OUT" "| pernode x pie |"
expect 0 "$SYSAB" report analyze --factors pernode,pie --format markdown -o "$T/fa.md"
grep -q '| cell | estimate, 95% CI | runs | boots |' "$T/fa.md" || fail "report analyze --format markdown"
expect 2 "$SYSAB" export --format html
contains "$ERR" "use csv, json, kcidb or lava"
expect 2 "$SYSAB" list -o ""
contains "$ERR" "-o: give a file name"
ls "$T" | grep -q '\.tmp$' && fail "a temporary file was left"
true
