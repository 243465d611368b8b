# history: a synthetic kernel series with a spike at 30 and a 3% slowdown from 60 (6.13-rc1);
# the same series without the slowdown; the version order; bad input.
python3 "$REPO/examples/gen-history.py" >"$T/step.csv" || fail "gen-history.py"
python3 "$REPO/examples/gen-history.py" --aa >"$T/aa.csv" || fail "gen-history.py --aa"
expect 0 "$SYSAB" --db "$T/step.db" import csv "$T/step.csv"
expect 0 "$SYSAB" --db "$T/aa.db" import csv "$T/aa.csv"

expect 0 "$SYSAB" --db "$T/step.db" history -w kernel.syscall.null --by kernel --json
v=$(printf '%s' "$OUT" | jq -r '[.kind, (.change_points|length), (.change_points[0].index_lo <= 60 and .change_points[0].index_hi >= 60),
	.change_points[0].direction, (.change_points[0].pct < -1.5 and .change_points[0].pct > -4.5),
	(.change_points[0].pct_lo < -3 and .change_points[0].pct_hi > -3 or .change_points[0].pct_hi < -1.5),
	.change_points[0].label_after, (.boots|length), .boots[0].label, .boots[99].label, .boots[60].label] | map(tostring) | join(" ")')
[ "$v" = "history 1 true slower true true 6.13-rc1 100 6.1-rc1 6.20 6.13-rc1" ] || fail "history step: $v"

expect 0 "$SYSAB" --db "$T/step.db" history -w kernel.syscall.null --by kernel
contains "$OUT" "100 boots (200 runs)"
contains "$OUT" "-> 6.13-rc1, -2.58% slower"
contains "$OUT" "change: after vs before in throughput (+ = faster)"
# the ends, where a change has too few boots on one side to be found, are marked in every format
contains "$OUT" "boots 96..99 (6.20-rc2..6.20): too few boots after this point to judge (a change needs 5 after it)"
contains "$OUT" "boots 1..4 (6.1-rc2..6.1): too few boots before this point to judge"
expect 0 "$SYSAB" --db "$T/step.db" history -w kernel.syscall.null --by kernel --format markdown
contains "$OUT" "| \`6.12\` | \`6.13-rc1\` |"
contains "$OUT" "- boots 96..99 (6.20-rc2..6.20): too few boots after this point to judge"
expect 0 "$SYSAB" --db "$T/step.db" history -w kernel.syscall.null --by kernel --format html -o "$T/h.html"
grep -q '<svg' "$T/h.html" || fail "history html: no plot"
grep -q '6.13-rc1' "$T/h.html" || fail "history html: no change row"
grep -q 'too few boots after this point to judge' "$T/h.html" || fail "history html: the last boots not marked"

# the same series without the slowdown: no change, not even at the spike
expect 0 "$SYSAB" --db "$T/aa.db" history -w kernel.syscall.null --by kernel --json
v=$(printf '%s' "$OUT" | jq -r '.change_points|length')
[ "$v" = "0" ] || fail "history A/A found $v changes"
v=$(printf '%s' "$OUT" | jq -r '.unjudged | [.min_boots, .too_few_after_from, .too_few_before_to] | map(tostring) | join(" ")')
[ "$v" = "5 96 4" ] || fail "history A/A unjudged: $v"
expect 0 "$SYSAB" --db "$T/aa.db" history -w kernel.syscall.null --by kernel
contains "$OUT" "no change"
contains "$OUT" "boots 96..99 (6.20-rc2..6.20): too few boots after this point to judge"
expect 0 "$SYSAB" --db "$T/aa.db" history -w kernel.syscall.null --by kernel --format markdown
contains "$OUT" "- boots 96..99 (6.20-rc2..6.20): too few boots after this point to judge"

# a series whose between-boot sd doubles from boot 120 of 300, with no change of mean: the change
# of spread is its own finding in every format, and no change of mean is reported
python3 "$REPO/examples/gen-history.py" --spread --boots 300 >"$T/spread.csv" || fail "gen-history.py --spread"
expect 0 "$SYSAB" --db "$T/spread.db" import csv "$T/spread.csv"
expect 0 "$SYSAB" --db "$T/spread.db" history -w kernel.syscall.null --by kernel --json
v=$(printf '%s' "$OUT" | jq -r '[(.change_points|length), .spread_tested, .spread_change.index, .spread_change.label,
	(.spread_change.ratio > 1.6 and .spread_change.ratio < 2.5), (.spread_change.p <= .alpha),
	(.spread_change.between_boot_sd_after > .spread_change.between_boot_sd_before)] | map(tostring) | join(" ")')
[ "$v" = "0 true 120 6.25-rc1 true true true" ] || fail "history spread: $v"
expect 0 "$SYSAB" --db "$T/spread.db" history -w kernel.syscall.null --by kernel
contains "$OUT" "no change (family-wise"
contains "$OUT" "spread change from boot 120 (6.25-rc1): boot spread x2.00, between-boot sd"
contains "$OUT" "a change of spread, not of the mean"
case "$OUT" in *"change at boot"*) fail "history spread: a change of mean reported" ;; esac
expect 0 "$SYSAB" --db "$T/spread.db" history -w kernel.syscall.null --by kernel --format markdown
contains "$OUT" "- spread change from boot 120 (6.25-rc1): boot spread x2.00"
expect 0 "$SYSAB" --db "$T/spread.db" history -w kernel.syscall.null --by kernel --format html -o "$T/sp.html"
grep -q 'spread change from boot 120' "$T/sp.html" || fail "history html: no spread change"
# the series of constant spread has none
expect 0 "$SYSAB" --db "$T/aa.db" history -w kernel.syscall.null --by kernel --json
v=$(printf '%s' "$OUT" | jq -r '[.spread_tested, .spread_change] | map(tostring) | join(" ")')
[ "$v" = "true null" ] || fail "history A/A spread: $v"

# bad input: a label no run has, no -w, a pattern matching nothing, too few boots
expect 2 "$SYSAB" --db "$T/step.db" history -w kernel.syscall.null --by nosuch
contains "$ERR" "no selected run has the label nosuch"
contains "$ERR" "kernel"
expect 2 "$SYSAB" --db "$T/step.db" history --by kernel
contains "$ERR" "give the workload to follow with -w"
expect 2 "$SYSAB" --db "$T/step.db" history -w nosuch.workload --by kernel
contains "$ERR" "no workload of the selected runs matches"
expect 2 "$SYSAB" --db "$T/step.db" history -w kernel.syscall.null --by kernel 'boot:nosuchboot'
contains "$ERR" "no usable run matches"
head -101 "$T/step.csv" >"$T/few.csv"
expect 0 "$SYSAB" --db "$T/few.db" import csv "$T/few.csv"
expect 2 "$SYSAB" --db "$T/few.db" history -w kernel.syscall.null --by kernel
contains "$ERR" "a history needs at least 6"

# one boot whose runs disagree on the label is refused
printf 'workload,unit,value,run,boot,kernel\n' >"$T/mixed.csv"
for b in 1 2 3 4 5 6 7; do
	printf 'w.x,ops/s,100,r%sa,b%s,6.%s\nw.x,ops/s,101,r%sb,b%s,6.%s\n' $b $b $b $b $b $b >>"$T/mixed.csv"
done
printf 'w.x,ops/s,100,r9,b1,6.9\n' >>"$T/mixed.csv"
expect 0 "$SYSAB" --db "$T/mixed.db" import csv "$T/mixed.csv"
expect 2 "$SYSAB" --db "$T/mixed.db" history -w w.x --by kernel
contains "$ERR" "has runs with kernel=6.1 and kernel=6.9"

# --by time: the boots in the order they ran (imported: the file's order), label null
expect 0 "$SYSAB" --db "$T/aa.db" history -w kernel.syscall.null --by time --json
v=$(printf '%s' "$OUT" | jq -r '[.by, (.boots|length), (.boots[0].label|tostring)] | join(" ")')
[ "$v" = "time 100 null" ] || fail "history --by time: $v"
# kernel, machine and source are read as selectors read them, also without such a label
expect 0 "$SYSAB" --db "$T/mixed.db" history -w w.x --by source --json
v=$(printf '%s' "$OUT" | jq -r '[(.boots|length), .boots[0].label, (.change_points|length)] | map(tostring) | join(" ")')
[ "$v" = "7 csv 0" ] || fail "history --by source: $v"

# --confirm: the A/B campaign that settles the change, sized by plan; without a campaign that
# booted either side no line (and the flags it needs), with one a line that runs as printed
expect 0 "$SYSAB" --db "$T/step.db" history -w kernel.syscall.null --by kernel --confirm
contains "$OUT" "confirm: "
contains "$OUT" "boots of each side"
contains "$OUT" "no campaign booted kernel=6.12"
contains "$OUT" "--kernel/--append, --entry or --command"
expect 2 "$SYSAB" --db "$T/step.db" history -w kernel.syscall.null --by kernel --run
contains "$ERR" "--run starts the campaigns that --confirm prints"
expect 0 "$SYSAB" --db "$T/step.db" history -w kernel.syscall.null --by kernel --confirm --run
expect 0 "$SYSAB" --db "$T/step.db" campaign show
contains "$OUT" "no campaigns yet"
# the JSON carries why there is no line, as a sentence and a word
expect 0 "$SYSAB" --db "$T/step.db" history -w kernel.syscall.null --by kernel --confirm --json
v=$(printf '%s' "$OUT" | jq -r '.change_points[0].confirm | [.reason, (.why | startswith("no campaign booted kernel=6.12")), .line] | map(tostring) | join(" ")')
[ "$v" = "not-booted true null" ] || fail "history --confirm --json without a campaign: $v"
expect 0 "$SYSAB" --db "$T/step.db" campaign new series --backend command --boots 1 \
	--config 'kernel=6.12' --command "echo 'boot 6.12'" --config 'kernel=6.13-rc1' --command 'echo boot 6.13' \
	-- --quick -q -w 'kernel.*' -c 2 --samples=10
expect 0 "$SYSAB" --db "$T/step.db" history -w kernel.syscall.null --by kernel --confirm --json
c=$(printf '%s' "$OUT" | jq -c '.change_points[0].confirm')
boots=$(printf '%s' "$c" | jq -r '.boots')
[ "$(printf '%s' "$c" | jq -r '[.planned, .campaign, (.boots >= 2), .runs >= 1] | map(tostring) | join(" ")')" = \
	"true confirm-kernel-6.12-6.13-rc1 true true" ] || fail "history --confirm --json: $c"
# the printed line, run by a shell as printed (its `campaign new` half), makes that campaign
line=$(printf '%s' "$c" | jq -r '.line')
case $line in *"&& sysab campaign start confirm-kernel-6.12-6.13-rc1 --db"*) ;; *) fail "no start in: $line" ;; esac
sysab() { "$SYSAB" "$@"; }
eval "${line%% && *}" >/dev/null || fail "the printed line does not run: $line"
expect 0 "$SYSAB" --db "$T/step.db" campaign show confirm-kernel-6.12-6.13-rc1 --json
v=$(printf '%s' "$OUT" | jq -r '[.backend, .boots, ([.configs[].command] | join("|")), (.run_args | join(" "))] | map(tostring) | join(" ; ")')
[ "$v" = "command ; $boots ; echo 'boot 6.12'|echo boot 6.13 ; --quick -q -w kernel.syscall.null -c 1 --samples $(printf '%s' "$c" | jq -r .samples)" ] ||
	fail "the confirming campaign: $v"
# the HTML page carries the same lines
expect 0 "$SYSAB" --db "$T/step.db" history -w kernel.syscall.null --by kernel --confirm --format html -o "$T/c.html"
grep -q 'confirm: .* boots of each side' "$T/c.html" || fail "history --confirm html: no confirm lines"
# a second --confirm names its campaign apart from the one now taken
expect 0 "$SYSAB" --db "$T/step.db" history -w kernel.syscall.null --by kernel --confirm
contains "$OUT" "campaign new confirm-kernel-6.12-6.13-rc1-2 "

# --confirm offers `sysab bisect` when the two sides are far apart: a campaign knows 8 kernels, the
# history holds boots of 6.1-6.3 and 6.7-6.8 with a 20% step between 6.3 and 6.7, so 6.4-6.6 lie
# between (configured out of order); the printed series file is 6.3..6.7 in version order and the printed line runs (--dry-run)
printf 'workload,unit,value,run,boot,kernel\n' >"$T/far.csv"
for v in 1 2 3 7 8; do
	for b in 1 2 3 4 5 6; do
		x=$([ $v -ge 7 ] && echo 800 || echo 1000)
		printf 'w.x,ops/s,%s,r%s%sa,b%s%s,6.%s\nw.x,ops/s,%s,r%s%sb,b%s%s,6.%s\n' $((x + b)) $v $b $v $b $v \
			$((x - b)) $v $b $v $b $v >>"$T/far.csv"
	done
done
expect 0 "$SYSAB" --db "$T/far.db" import csv "$T/far.csv"
cfgs=""
for v in 8 1 5 3 7 2 6 4; do cfgs="$cfgs --config kernel=6.$v --command 'echo boot 6.$v'"; done
eval "\"\$SYSAB\" --db \"\$T/far.db\" campaign new eight --backend command --boots 1 $cfgs -- --quick -q -w 'w.*'" >/dev/null ||
	fail "campaign eight"
expect 0 "$SYSAB" --db "$T/far.db" history -w w.x --by kernel --confirm --json
b=$(printf '%s' "$OUT" | jq -c '.change_points[0].confirm.bisect')
v=$(printf '%s' "$b" | jq -r '[.good, .bad, .between, (.series|length), .series_file] | map(tostring) | join(" ")')
[ "$v" = "6.3 6.7 3 5 bisect-kernel-6.3-6.7.series" ] || fail "history --confirm bisect: $b"
printf '%s' "$b" | jq -r '.series[]' >"$T/bisect-kernel-6.3-6.7.series"
printf "kernel=6.%s --command 'echo boot 6.%s'\n" 3 3 4 4 5 5 6 6 7 7 >"$T/want.series"
cmp -s "$T/want.series" "$T/bisect-kernel-6.3-6.7.series" || fail "the printed series: $(cat "$T/bisect-kernel-6.3-6.7.series")"
line=$(printf '%s' "$b" | jq -r '.line')
case $line in "sysab bisect new bisect-kernel-6.3-6.7 --series bisect-kernel-6.3-6.7.series --good 1 --bad 5 "*"--backend command"*" -- --quick -q -w w.x "*) ;;
*) fail "the bisect line: $line" ;; esac
new=${line%% && *}
(cd "$T" && eval "${new% -- *} --dry-run -- ${new#* -- }") >"$T/dry.out" 2>&1 || fail "the printed bisect line does not run: $(cat "$T/dry.out")"
grep -q 'step 1' "$T/dry.out" || fail "bisect --dry-run: $(cat "$T/dry.out")"
expect 0 "$SYSAB" --db "$T/far.db" history -w w.x --by kernel --confirm
contains "$OUT" "bisect: 3 configurations lie between 6.3 and 6.7"
contains "$OUT" "save these 5 lines as bisect-kernel-6.3-6.7.series:"
contains "$OUT" "      kernel=6.5 --command 'echo boot 6.5'"
expect 0 "$SYSAB" --db "$T/far.db" history -w w.x --by kernel --confirm --format markdown
contains "$OUT" "sysab bisect new bisect-kernel-6.3-6.7"
# the change between adjacent kernels offers none: the step moved to 6.4, which the history now holds
sed 's/,6\.7$/,6.4/' "$T/far.csv" >"$T/near.csv"
expect 0 "$SYSAB" --db "$T/near.db" import csv "$T/near.csv"
eval "\"\$SYSAB\" --db \"\$T/near.db\" campaign new eight --backend command --boots 1 $cfgs -- --quick -q -w 'w.*'" >/dev/null ||
	fail "campaign eight (near)"
expect 0 "$SYSAB" --db "$T/near.db" history -w w.x --by kernel --confirm --json
v=$(printf '%s' "$OUT" | jq -r '.change_points[0] | [.label_before, .label_after, (.confirm.line != null), .confirm.bisect] | map(tostring) | join(" ")')
[ "$v" = "6.3 6.4 true null" ] || fail "history --confirm adjacent: $v"
