# signs: one sign convention in every command and format (docs/METHOD.md, "Signs and words"):
# a change is the change of the number its row shows, so + is faster on a rate row and slower
# on a time/op row, and every legend says so, naming time/op rows only when its table has one.
# The HTML page's forest plot puts each row's point on the side of 0 that the table's change
# has, rate and time/op rows on axes of their own whose ends name the faster side; text,
# markdown, JSON (display_pct) and plan say the same; history agrees with compare.
# A time/op row 14 times slower (+1300% in time, -93% in rate) and a rate row 10% faster,
# 3 boots of 2 runs per group; then the README's synthetic 2x2 data (compare and analyze).
{
	echo "workload,unit,value,run,boot,cfg"
	for g in a b; do for k in 1 2 3; do for r in 1 2; do for s in 1 2 3 4; do
		v=$((1000 + k * 7 + r * 3 + s))
		t=$v
		f=$v
		[ $g = b ] && t=$((v * 14)) && f=$((v * 11 / 10))
		echo "w.time,ns/op,$t,$g$k$r,$g$k,$g"
		echo "w.rate,ops/s,$f,$g$k$r,$g$k,$g"
	done; done; done; done
} >"$T/signs.csv"
expect 0 "$SYSAB" import csv "$T/signs.csv"
expect 0 "$SYSAB" import csv "$REPO/examples/pernode-pie-boots.csv"

# check_page HTML: every forest row's point lies on the side of the zero line that its
# table row's change has; prints "name sign" per row, table order.
check_page() {
	python3 - "$1" <<'PY' || fail "$1: a plotted sign differs from the table's"
import html, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
def cells(tr):
    return [html.unescape(re.sub(r"<[^>]*>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
def sign(text):
    m = re.match(r"\s*([+-])?(\d+(?:\.\d+)?)%", text)
    if not m or float(m.group(2)) == 0:
        return 0
    return -1 if m.group(1) == "-" else 1
# the table rows: compare's results (name, A, B, change, ...) and analyze's effects (name, change, ...)
table = {}
for tr in re.findall(r'<tr class="row(?: effect)?">(.*?)</tr>', page, re.S):
    c = cells(tr)
    ch = c[1] if 'class="row effect"' in tr or len(c) == 5 else c[3]
    table.setdefault(c[0], []).append(sign(ch))
plotted = 0
for svg in re.findall(r'<svg[^>]*class="forest"[^>]*>(.*?)</svg>', page, re.S):
    zero = float(re.search(r'<line x1="([-\d.]+)"[^>]*class="zero"', svg).group(1))
    # the ends of the axis: "faster" on one side of zero only, "slower" on the other
    sides = {}
    for x, word in re.findall(r'<text x="([-\d.]+)"[^>]*class="side">[^<]*?(faster|slower)', svg):
        sides.setdefault(word, set()).add(1 if float(x) > zero else -1)
    if sorted(sides) != ["faster", "slower"] or any(len(v) != 1 for v in sides.values()) or \
            sides["faster"] == sides["slower"]:
        sys.exit("%s: a forest plot's ends do not name one faster and one slower side: %r" % (sys.argv[1], sides))
    for v, g in re.findall(r'<g class="effect" data-verdict="([a-z_]+)"[^>]*>(.*?)</g>', svg, re.S):
        label = html.unescape(re.search(r'class="effect-label">(.*?)</text>', g, re.S).group(1))
        label = re.sub(r" \(time\)$", "", label)
        pt = re.search(r'<circle cx="([-\d.]+)"[^>]*class="effect-pt"', g)
        if not pt:
            continue
        x = float(pt.group(1))
        s = 0 if abs(x - zero) < 0.05 else (1 if x > zero else -1)
        if v in sides and s != 0 and {s} != sides[v]:
            sys.exit("%s: %r is %s but drawn on the other side of 0" % (sys.argv[1], label, v))
        want = table.get(label)
        if not want:
            sys.exit("%s: no table row for the plotted row %r" % (sys.argv[1], label))
        t = want.pop(0)
        if t != 0 and s != 0 and s != t:
            sys.exit("%s: %r: the table says %+d, the plot %+d" % (sys.argv[1], label, t, s))
        print(label, "%+d" % t)
        plotted += 1
if not plotted:
    sys.exit("%s: no plotted row" % sys.argv[1])
PY
}

expect 0 "$SYSAB" report compare cfg=a cfg=b -o "$T/cmp.html"
check_page "$T/cmp.html" >"$T/signs"
grep -qx 'w.time +1' "$T/signs" || fail "the slower time/op row: $(cat "$T/signs")"
grep -qx 'w.rate +1' "$T/signs" || fail "the faster rate row: $(cat "$T/signs")"
grep -q '>w.time (time)</text>' "$T/cmp.html" || fail "the time/op row's plot label does not say it runs in time"
# markdown and JSON give the same sign per row
expect 0 "$SYSAB" compare cfg=a cfg=b --format markdown
printf '%s\n' "$OUT" | grep -q '| w.time .*| +1[0-9]\{3\}% ' || fail "markdown: w.time's change: $OUT"
expect 0 "$SYSAB" compare cfg=a cfg=b --json
printf '%s' "$OUT" | jq -e '[.rows[] | select(.workload == "w.time") | .comparison.display_pct > 1000 and .comparison.pct < -90] == [true]' \
	>/dev/null || fail "JSON: w.time's display_pct and pct"
printf '%s' "$OUT" | jq -e '[.rows[] | select(.workload == "w.rate") | .comparison.display_pct == .comparison.pct and .comparison.pct > 5] == [true]' \
	>/dev/null || fail "JSON: w.rate's display_pct and pct"

# the README's synthetic data: kernel.syscall.null is -1.1% (faster) in the table and the plot
A='pernode=no pie=yes data=synthetic'
B='pernode=yes pie=yes data=synthetic'
expect 0 "$SYSAB" report compare "$A" "$B" -o "$T/readme.html"
check_page "$T/readme.html" >"$T/signs"
grep -qx 'kernel.syscall.null -1' "$T/signs" || fail "README data: kernel.syscall.null: $(cat "$T/signs")"
expect 0 "$SYSAB" report analyze --factors pernode,pie data=synthetic -o "$T/fa.html"
check_page "$T/fa.html" >/dev/null

# the same data in text, markdown and JSON: the same sign and word per row, and a legend
# that names time/op rows only when the table has one (and is the same sentence in each)
l_both='change: B vs A as shown (time/op rows: + = slower; others: + = faster)'
l_rate='change: B vs A in throughput (+ = faster)'
l_time='change: B vs A in time per op (+ = slower)'
expect 0 "$SYSAB" compare cfg=a cfg=b
printf '%s\n' "$OUT" | grep -q '^w.time .* +1[0-9]\{3\}% .* slower' || fail "text: w.time's change: $OUT"
printf '%s\n' "$OUT" | grep -q '^w.rate .* +10\.0% .* faster' || fail "text: w.rate's change: $OUT"
contains "$OUT" "$l_both"
for w in w.rate w.time; do
	leg=$l_rate
	[ $w = w.time ] && leg=$l_time
	expect 0 "$SYSAB" compare cfg=a cfg=b -w $w
	contains "$OUT" "$leg; -v: more"
	expect 0 "$SYSAB" compare cfg=a cfg=b -w $w --format markdown
	contains "$OUT" "$leg."
	expect 0 "$SYSAB" compare cfg=a cfg=b -w $w --json
	[ "$(printf '%s' "$OUT" | jq -r .change_legend)" = "$leg" ] || fail "JSON legend of $w: $(printf '%s' "$OUT" | jq .change_legend)"
	expect 0 "$SYSAB" report compare cfg=a cfg=b -w $w -o "$T/one.html"
	contains "$(cat "$T/one.html")" "$leg"
	check_page "$T/one.html" >/dev/null
done
expect 0 "$SYSAB" compare cfg=a cfg=b -w w.rate
case $OUT in *time/op*) fail "a legend of rate rows alone names time/op rows: $OUT" ;; esac
# plan's comparison of the two groups: the same display change as compare's
expect 0 "$SYSAB" plan cfg=a cfg=b --json
printf '%s' "$OUT" | jq -e '[.rows[] | select(.workload == "w.time") | .comparison.display_pct > 1000] == [true]' \
	>/dev/null || fail "plan JSON: w.time's display_pct: $(printf '%s' "$OUT" | jq -c '[.rows[].comparison.display_pct]')"
[ "$(printf '%s' "$OUT" | jq -r .change_legend)" = "$l_both" ] || fail "plan JSON legend: $(printf '%s' "$OUT" | jq .change_legend)"

# history agrees with compare: a time/op series 20% slower (in time) from its 9th boot
{
	echo "workload,unit,value,run,boot,kernel,seg"
	for k in $(seq 1 16); do
		seg=before
		[ $k -ge 9 ] && seg=after
		for r in 1 2; do for s in 1 2 3; do
			v=$((1000 + (k * 37 % 11) + r * 2 + s))
			[ $seg = after ] && v=$((v * 12 / 10))
			echo "w.lat,ns/op,$v,h$k$r,hb$k,6.$k,$seg"
		done; done
	done
} >"$T/lat.csv"
expect 0 "$SYSAB" --db "$T/lat.db" import csv "$T/lat.csv"
expect 0 "$SYSAB" --db "$T/lat.db" compare seg=before seg=after --json
c=$(printf '%s' "$OUT" | jq -r '.rows[0].comparison | [(.display_pct > 15 and .display_pct < 25), .verdict] | map(tostring) | join(" ")')
[ "$c" = "true slower" ] || fail "compare of the series' halves: $c"
expect 0 "$SYSAB" --db "$T/lat.db" history -w w.lat --by kernel --json
h=$(printf '%s' "$OUT" | jq -r '.change_points[0] | [(.display_pct > 15 and .display_pct < 25), .direction, (.pct < 0)] | map(tostring) | join(" ")')
[ "$h" = "true slower true" ] || fail "history of the series: $h (compare: $c)"
[ "$(printf '%s' "$OUT" | jq -r .change_legend)" = "change: after vs before in time per op (+ = slower)" ] ||
	fail "history JSON legend: $(printf '%s' "$OUT" | jq .change_legend)"
expect 0 "$SYSAB" --db "$T/lat.db" history -w w.lat --by kernel
printf '%s\n' "$OUT" | grep -q '6\.8 -> 6\.9, +[12][0-9]\.[0-9]*% slower' || fail "history text: $OUT"
contains "$OUT" "change: after vs before in time per op (+ = slower)"
expect 0 "$SYSAB" --db "$T/lat.db" history -w w.lat --by kernel --format markdown
printf '%s\n' "$OUT" | grep -q '| +[12][0-9]\.[0-9]*% slower |' || fail "history markdown: $OUT"
expect 0 "$SYSAB" --db "$T/lat.db" history -w w.lat --by kernel --format html -o "$T/h.html"
grep -q '>+[12][0-9]\.[0-9]*% slower<' "$T/h.html" || fail "history html: no +N% slower"
