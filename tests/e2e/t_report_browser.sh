# report in a browser: the HTML page of a 2x2 design renders headless in chromium with its
# charts, rows and verdicts; a label holding a script tag shows as text and runs nothing.
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	echo "SKIP: chromium not installed"
	exit 0
fi
# a 2x2 design (a, b), 3 boots per cell, 2 runs per boot, 4 samples per run: a=hi is 10%
# faster on w.fast and b makes no difference on w.same; every run carries the hostile label.
{
	echo "workload,unit,value,run,boot,a,b,note"
	for a in lo hi; do for b in lo hi; do for k in 1 2 3; do for r in 1 2; do for s in 1 2 3 4; do
		v=$((1000 + k * 3 + r + s))
		f=$v
		[ $a = hi ] && f=$((v * 11 / 10))
		echo "w.fast,ops/s,$f,$a$b$k$r,$a$b$k,$a,$b,<script>alert(1)</script>"
		echo "w.same,ns/op,$v,$a$b$k$r,$a$b$k,$a,$b,<script>alert(1)</script>"
	done; done; done; done; done
} >"$T/design.csv"
expect 0 "$SYSAB" import csv "$T/design.csv" --machine 'lab<1>' --kernel "6.1'rc\"x"
expect 0 "$SYSAB" report analyze --factors a,b --ref a=lo -o "$T/report.html"
[ -s "$T/report.html" ] || fail "no report written"
[ ! -e "$T/report.html.tmp" ] || fail "temporary page left behind"
# self-contained: no script, nothing fetched
grep -qi '<script' "$T/report.html" && fail "a script element in the page"
grep -Eqi '(src|href)=|@import|url\(' "$T/report.html" && fail "the page refers to an outside resource"

# chromium keeps its profile and temp files outside the test's TMPDIR, and is cleaned up
U="$T/chromium-profile"
CT="$T/chromium-tmp"
mkdir -p "$U" "$CT"
chromium_run() {
	TMPDIR="$CT" timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$U" "$@" "file://$T/report.html" 2>"$T/chromium.err"
}
chromium_cleanup() {
	left=$(pgrep -f -- "--user-data-dir=$U" 2>/dev/null || true)
	[ -n "$left" ] && kill $left 2>/dev/null
	rm -rf "$U" "$CT"
}
trap chromium_cleanup EXIT
chromium_run --dump-dom >"$T/dom.html" || { cat "$T/chromium.err" >&2; fail "chromium --dump-dom failed"; }
DOM=$(cat "$T/dom.html")
for id in strip-0 strip-1 forest-0 forest-1; do
	contains "$DOM" "id=\"$id\""
done
n=$(grep -o '<svg[^>]*class="strip"' "$T/dom.html" | wc -l)
[ "$n" = 2 ] || fail "strip plots: $n, wanted 2"
n=$(grep -o '<svg[^>]*class="forest"' "$T/dom.html" | wc -l)
[ "$n" = 2 ] || fail "forest plots: $n, wanted 2"
n=$(grep -o '<tr class="row effect">' "$T/dom.html" | wc -l)
[ "$n" = 6 ] || fail "effect rows: $n, wanted 6 (3 effects x 2 workloads)"
n=$(grep -o '<tr class="cell">' "$T/dom.html" | wc -l)
[ "$n" = 8 ] || fail "cell rows: $n, wanted 8"
n=$(grep -o 'class="runmean' "$T/dom.html" | wc -l)
[ "$n" = 48 ] || fail "run means drawn: $n, wanted 48 (24 runs x 2 workloads)"
contains "$DOM" "a: hi vs lo"
contains "$DOM" "a x b"
contains "$DOM" 'class="verdict verdict-faster">faster</text>'
contains "$DOM" 'class="verdict v-faster">faster</td>'
contains "$DOM" 'class="verdict v-equivalent">equivalent</td>'
contains "$DOM" 'id="environment"'
contains "$DOM" '<tr class="differs"><td>label.a</td>'
contains "$DOM" 'id="warnings"'
# the hostile strings are text, escaped, and no script element exists
contains "$DOM" '&lt;script&gt;alert(1)&lt;/script&gt;'
contains "$DOM" 'lab&lt;1&gt;'
case "$DOM" in *"<script"*) fail "a script element in the rendered DOM" ;; esac
# a screenshot
chromium_run --screenshot="$T/shot.png" --window-size=1200,2000 || { cat "$T/chromium.err" >&2; fail "chromium --screenshot failed"; }
[ "$(head -c 8 "$T/shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "no PNG written"
[ "$(stat -c %s "$T/shot.png")" -gt 10000 ] || fail "the screenshot is suspiciously small"

# the other two forms of the page
expect 0 "$SYSAB" report compare 'a=lo b=lo' 'a=hi b=lo' -o "$T/cmp.html"
contains "$(cat "$T/cmp.html")" 'id="forest"'
contains "$(cat "$T/cmp.html")" 'class="verdict v-faster">faster</td>'
expect 0 "$SYSAB" report 'a=lo' -o "$T/one.html"
contains "$(cat "$T/one.html")" 'id="strip-0"'
expect 2 "$SYSAB" report compare 'a=lo' -o "$T/bad.html"
contains "$ERR" "give two selectors"
expect 2 "$SYSAB" report 'a=lo'
contains "$ERR" "-o FILE"
expect 2 "$SYSAB" report 'a=lo' -o "$T/no/such/dir/r.html"
contains "$ERR" "cannot create it"
