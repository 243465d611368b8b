# t_row_family.sh - an analyze row's effects are one family (Holm, then BH across workloads), and rows without a verdict print "–" for interval and q.

# A/A by construction: 2 kernels x 4 nodes x 3 boots, one run per boot and node, 4 samples a run,
# nothing differs but node 1, which by chance sits 0.3-1.3% above node 0 in every boot. Alone,
# "node: 1 vs 0" has p 0.013, which BH across one workload leaves at 0.013 (the old rule called
# it slower); as one of the row's 11 effects, Holm makes it 0.148: inconclusive.
awk 'BEGIN {
	split("0.9 0.4 1.3 0.6 1.2 0.3", delta, " "); split("0 0.6 -0.4 0.3 -0.5 0.2", base, " ")
	split("0 0 0.1 -0.1 0 0 -0.1 0.1 0 0 0.05 0 0 0 -0.05 0.05 0 0 0.1 0 0 0 0 -0.1", noise, " ")
	split("-0.3 0.1 -0.1 0.3", spread, " ")
	print "workload,unit,value,run,boot,kernel,node"
	for (b = 0; b < 6; b++) {
		k = b < 3 ? "a" : "b"
		for (n = 0; n < 4; n++) {
			m = base[b + 1] + noise[b * 4 + n + 1] + (n == 1 ? delta[b + 1] : 0)
			for (s = 1; s <= 4; s++)
				printf "kernel.syscall.null,ns/op,%.3f,%s%d-n%d,%s%d,%s,%d\n", 1000 * exp((m + spread[s]) / 100), k, b, n, k, b, k, n
		}
	}
}' >aa.csv
expect 0 "$SYSAB" import csv aa.csv
expect 0 "$SYSAB" analyze --factors kernel,node
contains "$OUT" "q: Holm within each workload's"
printf '%s\n' "$OUT" | grep -Eq '[0-9] (slower|faster)' && fail "an A/A row calls an effect: $OUT"
expect 0 "$SYSAB" analyze --factors kernel,node --json
n=$(printf '%s' "$OUT" | jq '[.rows[0].effects[] | select(.comparison.q != null)] | length')
[ "$n" = 11 ] || fail "tested effects: $n, wanted 11"
v=$(printf '%s' "$OUT" | jq -r '[.rows[0].effects[].comparison.adjusted_for] | unique | join(" ")')
[ "$v" = "row_holm+bh" ] || fail "adjusted_for: $v"
v=$(printf '%s' "$OUT" | jq -r '.rows[0].effects[] | select(.kind == "level" and .factor == "node" and .level == "1") | .comparison | "\(.verdict) \(.p < 0.02) \(.q > 0.1) \(.q == (.p * 11))"')
[ "$v" = "inconclusive true true true" ] || fail "node 1 vs 0: $v"
called=$(printf '%s' "$OUT" | jq '[.rows[].effects[] | select(.comparison.verdict == "faster" or .comparison.verdict == "slower")] | length')
[ "$called" = 0 ] || fail "$called effects called on A/A data"

# One boot (both kernels on it): an interval of the runs of one boot, no verdict, printed "–" with no q, in
# every format; JSON marks its scope within_boot and its q null.
export SYSAB_DB="$T/oneboot.db"
awk 'BEGIN {
	print "workload,unit,value,run,boot,kernel"
	split("-0.4 0.2 0.5 -0.1 0.3 -0.3", off, " ")
	for (g = 0; g < 2; g++)
		for (r = 0; r < 3; r++)
			for (s = 0; s < 5; s++)
				printf "kernel.syscall.null,ns/op,%.3f,%s-r%d,one,%s\n", 1000 * exp((g * 2.4 + off[r + 1] + 0.2 * (s - 2)) / 100), g ? "b" : "a", r, g ? "b" : "a"
}' >one.csv
expect 0 "$SYSAB" import csv one.csv
for cmd in "compare kernel=a kernel=b" "analyze --factors kernel"; do
	# shellcheck disable=SC2086
	expect 0 "$SYSAB" $cmd
	line=$(printf '%s\n' "$OUT" | grep 'inconclusive' | head -1)
	contains "$line" "+2.4%"
	contains "$line" "–"
	case "$line" in *"[+"* | *"[-"*) fail "$cmd: an interval on a row without a verdict: $line" ;; esac
	printf '%s' "$line" | grep -q '[0-9]\.[0-9][0-9][0-9]' && fail "$cmd: a q on a row without a verdict: $line"
	# shellcheck disable=SC2086
	expect 0 "$SYSAB" $cmd --format markdown
	contains "$OUT" "| +2.4% | – | – | inconclusive"
	# shellcheck disable=SC2086
	expect 0 "$SYSAB" $cmd --format html -o page.html
	grep -q '<td class="num">–</td><td class="num">–</td>' page.html || fail "$cmd: html cells"
done
expect 0 "$SYSAB" compare kernel=a kernel=b --json
v=$(printf '%s' "$OUT" | jq -r '.rows[0].comparison | "\(.verdict) \(.interval_scope) \(.q) \(.adjusted_for) \(.display_pct_lo) \(.pct_lo != null)"')
[ "$v" = "inconclusive within_boot null null null true" ] || fail "compare json: $v"
expect 0 "$SYSAB" analyze --factors kernel --json
v=$(printf '%s' "$OUT" | jq -r '.rows[0].effects[0].comparison | "\(.verdict) \(.interval_scope) \(.q)"')
[ "$v" = "inconclusive within_boot null" ] || fail "analyze json: $v"
# --unit run: the runs replicate, so the same rows have a verdict and their interval and q
expect 0 "$SYSAB" compare kernel=a kernel=b --unit run --json
v=$(printf '%s' "$OUT" | jq -r '.rows[0].comparison | "\(.interval_scope) \(.q != null)"')
[ "$v" = "verdict true" ] || fail "--unit run json: $v"
