# Trust at the seams (issue 30 items 2 and 3): a failed self-check withholds the verdict in
# every format and from --fail-on unless --allow-failed-checks says otherwise; runs measured
# under an emulator carry that caveat in every format; `run` ends with its tally line.

# flat: $OUT on one line, spaces squeezed (notes are wrapped at 80 columns)
flat() { printf '%s' "$OUT" | tr '\n' ' ' | tr -s ' '; }

# A real run whose self-check failed (the seam SYSAB_TEST_FAIL_CHECK), next to one that held:
# run's last line counts them and names the failed check.
export SYSAB_DB="$T/real.db"
expect 0 "$SYSAB" run --quick --no-probe --counters none -w unixbench.pipe -w harness.null -c 1 --samples 4 -l cfg=a
first=$(printf '%s\n' "$OUT" | head -n 1)
case "$first" in "run 1: complete; "*" ran ok, 0 unsupported, 0 failed a self-check") ;; *) fail "run's first line: $first" ;; esac
case "$OUT" in *"failed self-checks"*) fail "a failed check listed: $OUT" ;; esac
expect 0 env SYSAB_TEST_FAIL_CHECK=unixbench.pipe "$SYSAB" run --quick --no-probe --counters none -w unixbench.pipe \
	-w harness.null -c 1 --samples 4 -l cfg=b
case "$(printf '%s\n' "$OUT" | head -n 1)" in *" 1 failed a self-check") ;; *) fail "run's first line: $OUT" ;; esac
printf '%s\n' "$OUT" | grep -q '^  unixbench.pipe: .*, not in \[.*\]: bytes read per op$' || fail "the failed check's line: $OUT"
# compare names the failed check of B's run in its row, whatever the row's numbers
expect 0 "$SYSAB" compare cfg=a cfg=b --unit run --json
printf '%s' "$OUT" | jq -e '.rows[] | select(.workload == "unixbench.pipe") | .failed_check |
	.check == "bytes read per op" and .runs == 1 and .workload == "unixbench.pipe"' >/dev/null ||
	fail "compare --json does not name the failed check: $OUT"
printf '%s' "$OUT" | jq -e '.rows[] | select(.workload == "harness.null") | .failed_check == null' >/dev/null ||
	fail "a row whose checks held names a failed check: $OUT"
expect 0 "$SYSAB" compare cfg=a cfg=b --unit run
contains "$(flat)" "self-check 'bytes read per op' of unixbench.pipe failed in 1 run (\`sysab show 2 -v\` gives its values)"
expect 0 "$SYSAB" show 2 -v
contains "$OUT" "bytes read per op"

# Known verdicts (B 10% faster than A on 6 boots each, tests/fixtures/csv/differ.csv) with a
# failed self-check stored in one run of B: no verdict, and --fail-on does not fire.
export SYSAB_DB="$T/differ.db"
expect 0 "$SYSAB" import csv "$REPO/tests/fixtures/csv/differ.csv"
expect 1 "$SYSAB" compare cfg=b cfg=a --fail-on slower
sqlite3 "$SYSAB_DB" "UPDATE slot SET checks = '[{\"name\":\"minor faults per op\",\"value\":2,\"lo\":0.9,\"hi\":1.1,\"ok\":false},{\"name\":\"bytes\",\"value\":1,\"lo\":1,\"hi\":1,\"ok\":true}]' WHERE run = 8"
expect 0 "$SYSAB" compare cfg=b cfg=a --fail-on slower
contains "$OUT" "withheld"
contains "$(flat)" "no verdict: self-check 'minor faults per op' of w.x failed in 1 run"
contains "$(flat)" "--allow-failed-checks gives the verdict anyway"
contains "$ERR" "--fail-on slower judged no row whose verdict was withheld"
case "$(printf '%s\n' "$OUT" | grep '^w\.x ')" in *slower*) fail "a withheld row still says slower: $OUT" ;; esac
# -v too
expect 0 "$SYSAB" compare cfg=b cfg=a -v
contains "$OUT" "withheld"
contains "$OUT" "minor faults per op"
expect 0 "$SYSAB" compare cfg=b cfg=a --fail-on change --json
printf '%s' "$OUT" | jq -e '.rows[0].verdict == "withheld" and .rows[0].comparison.verdict == "withheld" and
	.rows[0].failed_check.verdict_withheld == true and .allow_failed_checks == false and .allowed_rows == 0' \
	>/dev/null || fail "compare --json of a withheld row: $OUT"
expect 0 "$SYSAB" compare cfg=b cfg=a --format markdown
contains "$OUT" "| withheld |"
contains "$(flat)" "- \`w.x\`: no verdict: self-check 'minor faults per op'"
expect 0 "$SYSAB" report compare cfg=b cfg=a -o "$T/withheld.html"
grep -q 'class="verdict v-withheld">withheld<' "$T/withheld.html" || fail "the page gives the withheld row a verdict"
grep -q "no verdict: self-check &#39;minor faults per op&#39; of w.x" "$T/withheld.html" || fail "the page does not name the check"
expect 0 "$SYSAB" analyze --factors cfg
contains "$(flat)" "no verdict: self-check 'minor faults per op' of w.x failed in 1 run"
contains "$OUT" "withheld"
expect 0 "$SYSAB" analyze --factors cfg --json
printf '%s' "$OUT" | jq -e '[.rows[0].effects[].verdict] == ["withheld"] and .rows[0].failed_check.runs == 1' >/dev/null ||
	fail "analyze --json of a withheld row: $OUT"
expect 0 "$SYSAB" report analyze --factors cfg -o "$T/withheld-analyze.html"
grep -q 'v-withheld' "$T/withheld-analyze.html" || fail "the analyze page gives the withheld row a verdict"
# one group: no verdict to withhold, but the failed check is named
expect 0 "$SYSAB" report cfg=b --format text -o "$T/group.txt"
grep -q "self-check 'minor faults per op' of w.x failed in 1 run" "$T/group.txt" || fail "one group's report hides the check"

# --allow-failed-checks gives the verdict back, and says so
expect 1 "$SYSAB" compare cfg=b cfg=a --fail-on slower --allow-failed-checks
contains "$(flat)" "--allow-failed-checks: 1 row kept its verdict although a self-check of its runs failed"
contains "$OUT" "slower"
contains "$(flat)" "self-check 'minor faults per op' of w.x failed in 1 run"
contains "$ERR" "--fail-on slower matched 1 row"
expect 0 "$SYSAB" compare cfg=b cfg=a --allow-failed-checks --json
printf '%s' "$OUT" | jq -e '.rows[0].verdict == "slower" and .rows[0].failed_check.verdict_withheld == false and
	.allow_failed_checks == true and .allowed_rows == 1' >/dev/null || fail "compare --json with the override: $OUT"
expect 0 "$SYSAB" analyze --factors cfg --allow-failed-checks --json
printf '%s' "$OUT" | jq -e '[.rows[0].effects[].verdict] == ["faster"] and .allowed_rows == 1' >/dev/null ||
	fail "analyze --json with the override: $OUT"
expect 0 "$SYSAB" compare cfg=b cfg=a --allow-failed-checks --format markdown
contains "$(flat)" "> **--allow-failed-checks: 1 row kept its verdict"
expect 0 "$SYSAB" report compare cfg=b cfg=a --allow-failed-checks -o "$T/allowed.html"
grep -q "allow-failed-checks: 1 row kept its verdict" "$T/allowed.html" || fail "the page does not note the override"
# a check that could not be judged ("checked": false, "ok": true) withholds nothing
sqlite3 "$SYSAB_DB" "UPDATE slot SET checks = '[{\"name\":\"cycles\",\"value\":null,\"ok\":true,\"checked\":false,\"why\":\"cannot check\"}]' WHERE run = 8"
expect 1 "$SYSAB" compare cfg=b cfg=a --fail-on slower

# Emulation: a run of B under qemu TCG (as a campaign records it), one of A under qemu-user.
# Every format carries the caveat, naming the group, the evidence and a run; A's is its own.
expect 0 "$SYSAB" compare cfg=a cfg=b
case "$OUT" in *emulat*) fail "a native comparison mentions emulation: $OUT" ;; esac
# NUMA nodes from qemu --numa (under KVM): the nodes were emulated, not the CPU
sqlite3 "$SYSAB_DB" "INSERT INTO environment(run, key, value) VALUES (9, 'campaign.numa', '2')"
expect 0 "$SYSAB" compare cfg=a cfg=b
contains "$(flat)" "emulated: runs of B were measured under an emulator (qemu -numa: campaign.numa"
contains "$(flat)" "first in run 9): their nodes are qemu's, on the host's memory alike, so a difference between nodes is not the machine's"
case "$OUT" in *"emulator's costs"*) fail "emulated nodes alone are not the emulator's costs: $OUT" ;; esac
expect 0 "$SYSAB" compare cfg=a cfg=b --json
printf '%s' "$OUT" | jq -e '.emulated[0].cpu == false' >/dev/null || fail "compare --json: emulated nodes: $OUT"
sqlite3 "$SYSAB_DB" "DELETE FROM environment WHERE key = 'campaign.numa'"
sqlite3 "$SYSAB_DB" "INSERT INTO environment(run, key, value) VALUES (8, 'campaign.accel', 'tcg'), (9, 'hypervisor', 'qemu-tcg')"
expect 0 "$SYSAB" compare cfg=a cfg=b
contains "$(flat)" "emulated: runs of B were measured under an emulator (qemu TCG: campaign.accel tcg; qemu TCG:"
contains "$(flat)" "first in run 8): their times are the emulator's costs"
case "$OUT" in *"runs of A"*) fail "A has no emulated run: $OUT" ;; esac
expect 0 "$SYSAB" compare cfg=a cfg=b --json
printf '%s' "$OUT" | jq -e '.emulated == [{"group": "B", "how": "qemu TCG: campaign.accel tcg; qemu TCG: hypervisor qemu-tcg", "first_run": 8, "cpu": true}]' \
	>/dev/null || fail "compare --json: emulated: $OUT"
expect 0 "$SYSAB" compare cfg=a cfg=b --format markdown
contains "$(flat)" "> **emulated: runs of B were measured under an emulator"
expect 0 "$SYSAB" report compare cfg=a cfg=b -o "$T/emu.html"
grep -q '<p class="caveat"><strong>emulated: runs of B were measured under an emulator' "$T/emu.html" ||
	fail "the compare page has no emulation caveat"
sqlite3 "$SYSAB_DB" "INSERT INTO environment(run, key, value) VALUES (2, 'emulated', 'yes: the kernel sees read(2) as system call 63')"
expect 0 "$SYSAB" analyze --factors cfg
contains "$(flat)" "emulated: some of the runs were measured under an emulator (qemu TCG: campaign.accel tcg; qemu TCG: hypervisor qemu-tcg; qemu-user: emulated yes; first in run 2)"
expect 0 "$SYSAB" analyze --factors cfg --json
printf '%s' "$OUT" | jq -e '.emulated[0].group == "runs" and .emulated[0].first_run == 2' >/dev/null ||
	fail "analyze --json: emulated: $OUT"
expect 0 "$SYSAB" report analyze --factors cfg -o "$T/emu-analyze.html"
grep -q '<p class="caveat"><strong>emulated: some of the runs' "$T/emu-analyze.html" || fail "the analyze page has no caveat"
expect 0 "$SYSAB" compare cfg=a cfg=b --json
printf '%s' "$OUT" | jq -e '[.emulated[].group] == ["A", "B"] and (.emulated[0].how | test("qemu-user"))' >/dev/null ||
	fail "compare --json: emulated A: $OUT"
expect 0 "$SYSAB" report cfg=a --format markdown -o "$T/group.md"
grep -q "emulated: some of the runs were measured" "$T/group.md" || fail "one group's markdown has no caveat"
expect 0 "$SYSAB" report cfg=a --format json -o "$T/group.json"
jq -e '.emulated[0].group == "runs"' "$T/group.json" >/dev/null || fail "one group's json: $(cat "$T/group.json")"

# campaign start says at its start that a TCG campaign measures the emulator (a fake qemu
# that exits at once: the slot fails, so the campaign ends failed with exit 2, which is not what
# this checks); KVM says nothing
export SYSAB_DB="$T/campaign.db"
mkdir -p "$T/img" "$T/bin"
: >"$T/img/vmlinuz"
echo x >"$T/img/initramfs.cpio.gz"
printf '#!/bin/sh\nexit 0\n' >"$T/bin/qemu-system-x86_64"
chmod +x "$T/bin/qemu-system-x86_64"
expect 0 "$SYSAB" campaign new t --backend qemu --boots 1 --config pti=on --accel tcg --image "$T/img" -- --quick -w harness.null
expect 0 "$SYSAB" campaign new k --backend qemu --boots 1 --config pti=on --accel kvm --image "$T/img" -- --quick -w harness.null
expect 0 "$SYSAB" campaign start k --dry-run
case "$OUT" in *emulat*) fail "a KVM campaign says it emulates: $OUT" ;; esac
expect 0 "$SYSAB" campaign start t --dry-run
contains "$OUT" "accelerator: tcg (costs measured in these guests are emulator costs (QEMU TCG))"
expect 2 env PATH="$T/bin:$PATH" "$SYSAB" campaign start t
contains "$OUT" "campaign t: qemu emulates the guest's CPU (TCG, no KVM): every cost it measures is the emulator's"

# A composite row (UnixBench's index of imported logs) is withheld when a member failed a check.
export SYSAB_DB="$T/ub.db"
fx="$REPO/tests/fixtures/unixbench"
expect 0 "$SYSAB" import unixbench "$fx/host-2026-12-02-pass1.log" "$fx/host-2026-12-02-pass2.log" -l set=a
expect 0 "$SYSAB" import unixbench "$fx/host-2026-12-02-pass4.log" "$fx/host-2026-12-02-pass5.log" -l set=b
sqlite3 "$SYSAB_DB" "UPDATE slot SET checks = '[{\"name\":\"bytes read per op\",\"value\":1,\"lo\":512,\"hi\":512,\"ok\":false}]' WHERE run = 1 AND workload = 'unixbench.pipe'"
expect 0 "$SYSAB" compare set=a set=b --json
v=$(printf '%s' "$OUT" | jq -r '[.rows[] | select(.failed_check != null) | .workload + ":" + .verdict + ":" + .failed_check.workload] | join(" ")')
[ "$v" = "unixbench.pipe:withheld:unixbench.pipe unixbench-index-partial:withheld:unixbench.pipe" ] ||
	fail "a failed member did not withhold the index: $v"
