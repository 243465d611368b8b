# Counter rows of compare (issue 14): per-op counts estimated by the nested estimator of the
# time rows, from injected counts. Counts that differ between boots give an interval far
# wider than one that takes the samples as independent; a real difference is "more"; events
# on one side only and samples without counts are left out; the time rows' JSON and table
# are byte-identical with and without counters, and counter rows never trigger --fail-on.

# 2 configurations x 4 boots x 2 runs x 8 samples of one workload; B 0.6% faster, with boot
# offsets of ±2-3 ops/s, so its time row has a p-value near 0.03, which a Benjamini-Hochberg
# family shared with the counter rows would raise.
awk 'BEGIN {
	print "workload,unit,value,run,boot,cfg"
	split("3 -3 2 -2", bo, " ")
	for (c = 0; c < 2; c++) for (b = 0; b < 4; b++) for (r = 0; r < 2; r++) for (i = 0; i < 8; i++) {
		cfg = c ? "b" : "a"
		printf "w.x,ops/s,%.3f,%s-b%d-r%d,%s-b%d,%s\n", 1000 + bo[b + 1] + 6 * c + (i * 7 + r * 3 + b) % 5, cfg, b, r,
			cfg, b, cfg
	}
}' >"$T/rows.csv"
expect 0 "$SYSAB" import csv "$T/rows.csv"
sqlite3 "$SYSAB_DB" "UPDATE sample SET ops = 1000"

expect 0 "$SYSAB" compare cfg=a cfg=b --json
before_json=$(printf '%s' "$OUT" | jq -c .rows)
printf '%s' "$OUT" | jq -e 'has("counters") | not' >/dev/null || fail "counters in a database without counts"
expect 0 "$SYSAB" compare cfg=a cfg=b
before_text=$OUT
contains "$OUT" "faster"
expect 1 "$SYSAB" compare cfg=a cfg=b --fail-on change
contains "$ERR" "matched 1 row:"
[ -n "$before_json" ] || fail "no rows"

# Per op: page-faults 2 + a boot offset (±0.2, ±0.3; the same set of boot means on both
# sides, so no real difference) + a jitter of ±0.02 between samples; instructions:k 100 + 10
# times the offset in A, 110 + that in B (a real difference of +10 per op); cycles:u in A
# only. The first sample of every run has no counts.
off="CASE substr(bt.boot_id, -1) WHEN '0' THEN 0.3 WHEN '1' THEN -0.3 WHEN '2' THEN 0.2 ELSE -0.2 END"
side="(CASE WHEN bt.boot_id LIKE '%:b-b%' THEN -1 ELSE 1 END)"
jit="0.01 * ((s.seq * 7 + s.run) % 5 - 2)"
from="FROM sample s JOIN run r ON r.id = s.run JOIN boot bt ON bt.id = r.boot WHERE s.seq > 0"
sqlite3 "$SYSAB_DB" "INSERT INTO sample_counter(sample, event, value)
	SELECT s.id, 'page-faults', CAST(round(s.ops * (2 + $off * $side + $jit)) AS INTEGER) $from;
	INSERT INTO sample_counter(sample, event, value)
	SELECT s.id, 'instructions:k', CAST(round(s.ops * (100 + 10 * $off + $jit + (CASE WHEN bt.boot_id LIKE '%:b-b%'
		THEN 10 ELSE 0 END))) AS INTEGER) $from;
	INSERT INTO sample_counter(sample, event, value)
	SELECT s.id, 'cycles:u', 3000 * s.ops $from AND bt.boot_id LIKE '%:a-b%'"

expect 0 "$SYSAB" compare cfg=a cfg=b --json
J=$OUT
[ "$(printf '%s' "$J" | jq -c .rows)" = "$before_json" ] || fail "the time rows changed when counters were stored"
printf '%s' "$J" | jq -e '.counters | map(.event) == ["instructions:k", "page-faults"]' >/dev/null ||
	fail "counter rows: $(printf '%s' "$J" | jq -c '[.counters[] | .event]') (cycles:u is in A only)"
pf() { printf '%s' "$J" | jq -r ".counters[] | select(.event == \"page-faults\") | $1"; }
# every sample but the first of each run: 8 runs x 7 per side; 4 boots, 2 runs each
[ "$(pf '[.a.samples, .b.samples, .a.boots, .a.runs] | join(" ")')" = "56 56 4 8" ] ||
	fail "page-faults counted $(pf '[.a.samples, .b.samples, .a.boots, .a.runs] | join(" ")')"
[ "$(pf .verdict)" = inconclusive ] || fail "page-faults: $(pf .verdict), the boots differ and the means do not"
# The interval a sample-level Welch test gives (what compare showed before): far narrower.
old=$(sqlite3 -separator ' ' "$SYSAB_DB" "SELECT bt.boot_id LIKE '%:b-b%', CAST(c.value AS REAL) / s.ops
	FROM sample_counter c JOIN sample s ON s.id = c.sample JOIN run r ON r.id = s.run JOIN boot bt ON bt.id = r.boot
	WHERE c.event = 'page-faults'" | awk '{ n[$1]++; m[$1] += $2; q[$1] += $2 * $2 }
	END { se2 = 0; for (g = 0; g < 2; g++) { mu = m[g] / n[g]; se2 += (q[g] / n[g] - mu * mu) * n[g] / (n[g] - 1) / n[g] }
	      printf "%.6f\n", 2 * 1.98 * sqrt(se2) }')
new=$(pf '.diff_hi - .diff_lo')
echo "page-faults interval width: nested $new, sample-level $old" >&2
awk -v o="$old" -v n="$new" 'BEGIN { exit !(n > 2.5 * o) }' ||
	fail "page-faults: the nested interval ($new wide) is not much wider than the sample-level one ($old)"
ins() { printf '%s' "$J" | jq -r ".counters[] | select(.event == \"instructions:k\") | $1"; }
[ "$(ins .verdict)" = more ] || fail "instructions:k: $(ins .verdict), not more"
ins '(.diff > 9.9 and .diff < 10.1 and .diff_lo > 0 and .diff_lo < 9 and .q < 0.05 and .unit == "boot")' |
	grep -qx true || fail "instructions:k: $(ins -c .)"

# The text table: the time rows as before, then the counter rows in a block of their own.
expect 0 "$SYSAB" compare cfg=a cfg=b
n=$(printf '%s\n' "$before_text" | grep -n 'need BH q' | head -1 | cut -d: -f1)
[ "$(printf '%s\n' "$OUT" | head -n $((n - 2)))" = "$(printf '%s\n' "$before_text" | head -n $((n - 2)))" ] ||
	fail "the time rows' table changed when counters were stored"
contains "$OUT" "counters: 1 more, 1 inconclusive of 2 rows per op; --counters lists them"
case $OUT in *" · "*) fail "counter rows without --counters: $OUT" ;; esac
expect 0 "$SYSAB" compare cfg=a cfg=b --counters
contains "$OUT" "w.x · instructions:k/op"
contains "$OUT" "1 more, 1 inconclusive of 2 rows per op"
printf '%s\n' "$OUT" | grep -Eq '[0-9]e[-+][0-9]' && fail "e-notation in the counter rows: $OUT"
expect 0 "$SYSAB" compare cfg=a cfg=b --counters -v
contains "$OUT" "never trigger --fail-on"
printf '%s\n' "$OUT" | grep -A1 ' · ' | grep -Eq 'faster|slower' && fail "a counter row called faster or slower: $OUT"
contains "$OUT" "w.x · page-faults/op"
# "more" is no gate: the time rows decide --fail-on, as before (the one faster row)
expect 1 "$SYSAB" compare cfg=a cfg=b --fail-on change
contains "$ERR" "matched 1 row:"
expect 0 "$SYSAB" compare cfg=a cfg=b --fail-on slower
expect 1 "$SYSAB" compare cfg=a cfg=b --fail-on faster
contains "$ERR" "matched 1 row:"
# --unit run: A and B ran on different boots, so runs are no unit here: refused (issue 31 item 3)
expect 2 "$SYSAB" compare cfg=a cfg=b --unit run --json
contains "$ERR" "--unit run compares runs within the same boots"
# one boot per side: no boot replication, so no verdict with the default unit, as for time rows
expect 0 "$SYSAB" compare 'cfg=a run:1,2' 'cfg=b run:9,10' --json
printf '%s' "$OUT" | jq -e '.counters[] | select(.event == "instructions:k")
	| (.verdict == "inconclusive" and (.caveats | index("no_boot_replication")) != null)' >/dev/null ||
	fail "one boot per side: $(printf '%s' "$OUT" | jq -c .counters)"
# markdown and HTML carry the same rows
expect 0 "$SYSAB" compare cfg=a cfg=b --format markdown --counters
contains "$OUT" "| w.x · instructions:k/op | count/op |"
contains "$OUT" "| more |"
expect 0 "$SYSAB" report compare cfg=a cfg=b -o "$T/c.html"
tr -d '\n' <"$T/c.html" | grep -q '<td class="wl">w.x · instructions:k/op</td>.*<td class="verdict v-more">more</td>' ||
	fail "the HTML page lacks the counter rows"
# -w filters the counter rows with their workload
expect 0 "$SYSAB" compare cfg=a cfg=b -w w.x --json
[ "$(printf '%s' "$OUT" | jq '.counters | length')" = 2 ] || fail "-w w.x dropped counter rows"
