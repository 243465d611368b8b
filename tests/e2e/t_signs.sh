# signs: a table and its plot use one sign convention per row. The HTML page's forest plot
# puts each row's point on the side of 0 that the table's change has (time/op rows: the
# change in time, negative = faster), and markdown and JSON (display_pct) say the same.
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
    for g in re.findall(r'<g class="effect"[^>]*>(.*?)</g>', svg, re.S):
        label = html.unescape(re.search(r'class="effect-label">(.*?)</text>', g, re.S).group(1))
        label = re.sub(r" \(time\)$", "", label)
        pt = re.search(r'<circle cx="([-\d.]+)"[^>]*class="effect-pt"', g)
        if not pt:
            continue
        x = float(pt.group(1))
        s = 0 if abs(x - zero) < 0.05 else (1 if x > zero else -1)
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
