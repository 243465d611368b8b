#!/bin/sh
# run.sh - make check-boot: real kernel boots under QEMU through `sysab campaign` (qemu backend).
# 1. a 2x2 pti x thp campaign, 3 boots per configuration in randomized blocks: analyze must call
#    kernel.syscall.null slower for pti=on, every run on its own boot;
# 2. A/A: two labels, the same kernel and command line, 3 boots each: no workload called
#    faster or slower after Benjamini-Hochberg (bound: at most floor(0.05 * m) of m = 0);
# 3. resume: the host side killed mid-boot, the guest powered off mid-run; every slot ends
#    done after one retry, nothing duplicated, and a guest database merged twice stores nothing twice;
# 4. numa: a guest with 2 NUMA nodes (campaign new --numa 2) runs `sysab run --nodes all` on 2
#    configurations x 2 boots: a run per node labelled node=K on node K's CPU, placement
#    self-checks held, the emulated nodes recorded; the closing hint and analyze campaign:nm keep
#    node as a factor, and each row's kernel x node effect is paired within the 4 boots. Mechanics
#    only: qemu's nodes have no real distance, so no latency claim is made.
# 5. duet: a 2-block --duet A/A campaign (the same kernel in both slots): both guests of a block
#    at once on their own host CPU, the sets swapped between blocks, their go times together,
#    labels and tags, and compare pairs them by block (duet_paired). Mechanics only.
# 6. kill: a guest's qemu killed early in its boot (SIGKILL, as the OOM killer does; issue 52):
#    the slot is retried and the campaign ends done with exactly its runs, alone and in a duet;
#    with its attempts spent the campaign ends failed (exit 2, the slot named), and `campaign
#    start` boots the slot again.
# 7. adpti: an adaptive pti=off/on campaign (campaign new --until decided, cap 6): it stops
#    before its cap, decided, with kernel.syscall.null "slower" for pti=on.
# 8. adaa: an adaptive A/A campaign with a cap of 4 boots: it stops at its cap, saying so, with
#    the MDE the 4 boots reached.
# 9. execl: one boot running unixbench.execl and kernel.proc.exec: the guest image carries both
#    exec helpers, the dynamic one with its loader and C library, so both run ok there.
# Timing is never asserted (the machine may be shared); timeouts are generous.
: "${SYSAB:?set SYSAB to the binary under test}" "${GUEST:?set GUEST to the guest directory}"
set -u
T=$(mktemp -d "${TMPDIR:-/tmp}/sysab-boot.XXXXXX")
mkdir -p "$T/tmp"
export TMPDIR="$T/tmp" SYSAB_DB="$T/results.db" HOME="$T/home"
start_all=$(date +%s)
fail() {
	echo "FAIL: $*" >&2
	echo "(kept $T for inspection)" >&2
	exit 1
}
step() { echo "check-boot: $* ($(($(date +%s) - start_all)) s)"; }
# shown FILE CMD...: run CMD with its output shown as it comes (indented; a campaign prints a
# line per slot, so a run of many minutes shows its progress) and kept in FILE; CMD's status.
shown() {
	f=$1
	shift
	{ "$@" 2>&1; echo $? >"$f.rc"; } | tee "$f" | sed -u 's/^/    /'
	return "$(cat "$f.rc")"
}
q() { sqlite3 "$SYSAB_DB" "$1"; }
only() { [ -z "${BOOT_ONLY:-}" ] || [ "$BOOT_ONLY" = "$1" ]; } # BOOT_ONLY=f22|aa|rs|numa|duet|kill|adpti|adaa runs one part
accel=auto
QUICK="--quick --samples 6 --sample-ms 20 -q"

# ---- 1. the 2x2 factorial on real boots ----
if only f22; then
step "2x2 pti x thp, 12 boots"
"$SYSAB" campaign new f22 --backend qemu --image "$GUEST" --boots 3 --accel auto \
	--config 'pti=on thp=always' --append 'pti=on transparent_hugepage=always' \
	--config 'pti=on thp=never' --append 'pti=on transparent_hugepage=never' \
	--config 'pti=off thp=always' --append 'pti=off transparent_hugepage=always' \
	--config 'pti=off thp=never' --append 'pti=off transparent_hugepage=never' \
	-- $QUICK -w kernel.syscall.null -w kernel.fault.anon >"$T/new.out" || fail "campaign new"
t0=$(date +%s)
shown "$T/f22.out" "$SYSAB" campaign start f22 || fail "campaign start f22"
t1=$(date +%s)
[ "$(q "SELECT state FROM campaign WHERE name = 'f22'")" = done ] || fail "f22 is not done"
[ "$(q "SELECT count(*) FROM campaign_slot WHERE state = 'done' AND campaign = (SELECT id FROM campaign WHERE name = 'f22')")" = 12 ] || fail "not 12 slots done"
n=$(q "SELECT count(DISTINCT b.boot_id) FROM campaign_run cr JOIN run r ON r.id = cr.run JOIN boot b ON b.id = r.boot JOIN campaign c ON c.id = cr.campaign WHERE c.name = 'f22'")
[ "$n" = 12 ] || fail "the 12 runs are on $n distinct boots, want 12"
bad=$(q "SELECT count(*) FROM campaign_run cr JOIN run r ON r.id = cr.run JOIN boot b ON b.id = r.boot JOIN campaign_slot s ON s.campaign = cr.campaign AND s.slot = cr.slot WHERE s.boot_id <> b.boot_id")
[ "$bad" = 0 ] || fail "$bad runs carry another boot id than their slot's guest reported"
bad=$(q "SELECT count(*) FROM campaign_run cr JOIN campaign_slot s ON s.campaign = cr.campaign AND s.slot = cr.slot JOIN campaign_config k ON k.campaign = s.campaign AND k.idx = s.config JOIN label l ON l.run = cr.run AND l.key = 'pti' WHERE l.value <> json_extract(k.labels, '\$.pti')")
[ "$bad" = 0 ] || fail "$bad runs are labelled with another configuration than their slot's"
accel=$(q "SELECT group_concat(DISTINCT value) FROM environment WHERE key = 'campaign.accel'")
case "$accel" in kvm | tcg) ;; *) fail "campaign.accel is '$accel'" ;; esac
"$SYSAB" analyze --factors pti,thp --ref pti=off campaign:f22 >"$T/analyze.txt" || fail "analyze"
cat "$T/analyze.txt"
v=$("$SYSAB" analyze --factors pti,thp --ref pti=off campaign:f22 --json |
	jq -r '.rows[] | select(.workload == "kernel.syscall.null") | .effects[] | select(.kind == "main" and .factor == "pti") | .verdict')
[ "$v" = slower ] || fail "kernel.syscall.null with pti=on is '$v', want slower"
# under TCG the campaign said so at its start, and every format of compare, analyze and
# report carries the emulation caveat (under KVM none does)
A='campaign:f22 pti=off thp=never' B='campaign:f22 pti=on thp=never'
emu_out() { # emu_out FILE WHAT: FILE mentions emulation exactly when the campaign ran under TCG
	if [ "$accel" = tcg ]; then grep -q "$2" "$1" || fail "$1 has no emulation caveat under TCG"
	else ! grep -q "emulated: " "$1" || fail "$1 has an emulation caveat under KVM"; fi
}
"$SYSAB" compare "$A" "$B" >"$T/c.txt"; emu_out "$T/c.txt" "emulated: runs of A and B were measured under an emulator"
"$SYSAB" compare "$A" "$B" --format markdown >"$T/c.md"; emu_out "$T/c.md" "> \*\*emulated: runs of A and B"
"$SYSAB" compare "$A" "$B" --json >"$T/c.json"
[ "$(jq -r '[.emulated[].group] | join(",")' "$T/c.json")" = "$([ "$accel" = tcg ] && echo A,B)" ] ||
	fail "compare --json: emulated is $(jq -c .emulated "$T/c.json") under $accel"
"$SYSAB" report compare "$A" "$B" -o "$T/c.html"; emu_out "$T/c.html" 'class="caveat"><strong>emulated: runs of A and B'
emu_out "$T/analyze.txt" "emulated: some of the runs were measured under an emulator"
"$SYSAB" analyze --factors pti,thp --ref pti=off campaign:f22 --json >"$T/a.json"
[ "$(jq '.emulated | length' "$T/a.json")" = "$([ "$accel" = tcg ] && echo 1 || echo 0)" ] || fail "analyze --json: emulated"
"$SYSAB" report analyze --factors pti,thp campaign:f22 -o "$T/a.html"; emu_out "$T/a.html" 'class="caveat"><strong>emulated: some'
emu_out "$T/f22.out" "campaign f22: qemu emulates the guest's CPU (TCG, no KVM)"
step "2x2 done in $((t1 - t0)) s under $accel"

# ---- 1b. plan -> campaign -> analyze on the f22 pilot, nothing edited by hand ----
# (a target of ±80%: pti costs about +2000% under TCG, and the planned boots, which grow
# as 1/target^2 with the pilot's noise, stay a few; ±30% planned 8 boots per configuration
# on one run and 21 on the next)
step "plan from the f22 pilot; the printed campaign line pasted as is"
"$SYSAB" plan 'campaign:f22 pti=off thp=never' 'campaign:f22 pti=on thp=never' -w kernel.syscall.null \
	--target 80% --campaign pl >"$T/plan.txt" || fail "plan"
sed 's/^/    /' "$T/plan.txt"
grep -q "(measured: median of [0-9]* boots of campaign f22)" "$T/plan.txt" || fail "plan: the boot cost is not measured"
line=$(grep '^sysab campaign new pl ' "$T/plan.txt") || fail "plan printed no campaign line"
case $line in *BACKEND* | *KEY=* | *OTHER*) fail "a placeholder in the plan's line: $line" ;; esac
sysab() { "$SYSAB" "$@"; }
shown "$T/pl.out" eval "$line" || fail "the plan's line, pasted, failed: $line"
[ "$(q "SELECT state FROM campaign WHERE name = 'pl'")" = done ] || fail "campaign pl is not done"
"$SYSAB" analyze campaign:pl >"$T/pl-analyze.txt" || fail "analyze campaign:pl"
sed 's/^/    /' "$T/pl-analyze.txt"
v=$("$SYSAB" analyze campaign:pl --json | jq -r '.rows[] | select(.workload == "kernel.syscall.null") | .effects[0].verdict')
case $v in slower | inconclusive) ;; *) fail "analyze campaign:pl: kernel.syscall.null with pti=on is '$v'" ;; esac
step "plan loop: $(q "SELECT count(*) FROM campaign_slot WHERE campaign = (SELECT id FROM campaign WHERE name = 'pl')") boots, pti=on $v"
fi

# ---- 2. A/A on real boots ----
if only aa; then
step "A/A, 6 boots"
"$SYSAB" campaign new aa --backend qemu --image "$GUEST" --boots 3 --accel "$accel" \
	--config 'aa=a' --append 'pti=off' --config 'aa=b' --append 'pti=off' \
	-- $QUICK -w kernel.syscall.null -w kernel.syscall.read -w kernel.fault.anon -w cpu.int >/dev/null || fail "campaign new aa"
shown "$T/aa.out" "$SYSAB" campaign start aa || fail "campaign start aa"
[ "$(q "SELECT state FROM campaign WHERE name = 'aa'")" = done ] || fail "aa is not done"
"$SYSAB" compare 'aa=a campaign:aa' 'aa=b campaign:aa' >"$T/aa.txt" || fail "compare A/A"
cat "$T/aa.txt"
m=$("$SYSAB" compare 'aa=a campaign:aa' 'aa=b campaign:aa' --json | jq '[.rows[]] | length')
called=$("$SYSAB" compare 'aa=a campaign:aa' 'aa=b campaign:aa' --json | jq '[.rows[] | select(.verdict == "faster" or .verdict == "slower")] | length')
bound=$(awk -v m="$m" 'BEGIN { printf "%d", 0.05 * m }')
[ "$called" -le "$bound" ] || fail "A/A: $called of $m workloads called faster or slower (bound floor(0.05 * $m) = $bound)"
step "A/A: $called of $m rows called, bound $bound"
fi

# ---- 3. resume after kills ----
if only rs; then
step "resume: kill the host mid-boot, power the guest off mid-run"
"$SYSAB" campaign new rs --backend qemu --image "$GUEST" --boots 1 --accel "$accel" --runs 2 --boot-timeout 400 \
	--config 'r=1' --append 'pti=off' --config 'r=2' --append 'pti=off' \
	-- $QUICK -w kernel.syscall.null >/dev/null || fail "campaign new rs"
slot_state() { q "SELECT state FROM campaign_slot WHERE slot = $1 AND campaign = (SELECT id FROM campaign WHERE name = 'rs')"; }
"$SYSAB" campaign start rs >"$T/rs1.out" 2>&1 &
host=$!
step "slot 0 booting; killing the host side once it boots"
i=0
until [ "$(slot_state 0)" = booting ] && pgrep -f "sysab.boot=rs:0" >/dev/null; do
	i=$((i + 1)); [ $i -lt 600 ] || fail "slot 0 never started booting"; sleep 0.1
done
sleep 2
kill -9 $host
wait $host 2>/dev/null
i=0
while pgrep -f "sysab.boot=rs:" >/dev/null; do
	i=$((i + 1)); [ $i -lt 100 ] || fail "qemu outlived the killed host side"; sleep 0.1
done
step "host side killed; resuming"
"$SYSAB" campaign resume rs >"$T/rs2.out" 2>&1 &
host=$!
tail -f "$T/rs2.out" --pid=$host 2>/dev/null | sed -u 's/^/    /' &
# the retry of slot 0 finishes; then slot 1 boots: power its guest off once its runs started
i=0
while :; do
	pid=$(pgrep -f "sysab.boot=rs:1" | head -n 1)
	if [ -n "$pid" ]; then
		con=$({ tr '\0' '\n' </proc/$pid/cmdline; } 2>/dev/null | sed -n 's/^file:\(.*console\)$/\1/p' | head -n 1)
		if [ -n "$con" ] && grep -q "sysab guest:" "$con" 2>/dev/null; then
			sleep 1
			kill -9 "$pid"
			break
		fi
	fi
	i=$((i + 1)); [ $i -lt 9000 ] || fail "slot 1 never reached its runs"; sleep 0.1
done
wait $host || fail "resume rs"
[ "$(q "SELECT state FROM campaign WHERE name = 'rs'")" = done ] || fail "rs is not done"
v=$(q "SELECT group_concat(state || '/' || attempts, ' ') FROM (SELECT state, attempts FROM campaign_slot WHERE campaign = (SELECT id FROM campaign WHERE name = 'rs') ORDER BY slot)")
[ "$v" = "done/2 done/2" ] || fail "slots after the kills: $v, want each done on its retry"
n=$(q "SELECT count(*) FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign WHERE c.name = 'rs'")
[ "$n" = 4 ] || fail "rs holds $n runs, want 2 slots x 2 runs"
d=$(q "SELECT count(*) - count(DISTINCT uuid) FROM run")
[ "$d" = 0 ] || fail "$d duplicated run uuids"
gdb=$(ls "$SYSAB_DB".campaign-rs.slot1.try2.db) || fail "the guest database of slot 1 was not kept"
before=$(q "SELECT count(*) FROM run; SELECT count(*) FROM sample")
"$SYSAB" import db "$gdb" >"$T/again.out" || fail "import db of a guest database"
grep -q "nothing new (2 runs already stored)" "$T/again.out" || fail "merging a guest database twice: $(cat "$T/again.out")"
[ "$(q "SELECT count(*) FROM run; SELECT count(*) FROM sample")" = "$before" ] || fail "merging twice stored something"
[ "$(q 'PRAGMA integrity_check')" = ok ] || fail "integrity check"
[ -z "$(ls -A "$TMPDIR")" ] || fail "temp files left: $(ls -A "$TMPDIR")"
fi
# ---- 4. per-node runs in a guest with 2 emulated NUMA nodes ----
if only numa; then
step "numa: --nodes all in a 2-node guest, 2 configurations x 2 boots"
"$SYSAB" campaign new nm --backend qemu --image "$GUEST" --boots 2 --accel "$accel" --numa 2 --smp 2 --mem 1024 \
	--config 'kernel=pti-off' --append 'pti=off' --config 'kernel=pti-on' --append 'pti=on' \
	-- $QUICK -w kernel.syscall.null -w kernel.fault.anon --nodes all >"$T/nm-new.out" || fail "campaign new nm"
grep -q "2 NUMA nodes emulated by qemu -numa (1 CPU, 512 MB each)" "$T/nm-new.out" || fail "campaign new nm: $(cat "$T/nm-new.out")"
shown "$T/nm.out" "$SYSAB" campaign start nm || fail "campaign start nm"
grep -q "guest NUMA 2 nodes, emulated by qemu -numa" "$T/nm.out" || fail "campaign start nm did not say the nodes are emulated"
grep -q "analyze campaign:nm\` analyzes it (node kept as a factor: the runs are per node)" "$T/nm.out" ||
	fail "campaign start nm: the closing hint does not keep node"
[ "$(q "SELECT state FROM campaign WHERE name = 'nm'")" = done ] || fail "nm is not done"
R="SELECT cr.run FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign WHERE c.name = 'nm'"
[ "$(q "SELECT count(*) FROM ($R)")" = 8 ] || fail "nm holds $(q "SELECT count(*) FROM ($R)") runs, want 4 boots x 2 nodes"
v=$(q "SELECT group_concat(n, ' ') FROM (SELECT boot, group_concat(value, ',') AS n FROM (SELECT r.boot, l.value FROM run r JOIN label l ON l.run = r.id AND l.key = 'node' WHERE r.id IN ($R) ORDER BY r.boot, l.value) GROUP BY boot)")
[ "$v" = "0,1 0,1 0,1 0,1" ] || fail "node labels per boot: '$v', want '0,1' on each of 4 boots"
env_of() { echo "(SELECT value FROM environment e WHERE e.run = l.run AND e.key = '$1')"; }
bad=$(q "SELECT count(*) FROM label l WHERE l.key = 'node' AND l.run IN ($R) AND (coalesce($(env_of run.node.cpus), '') <> l.value OR coalesce($(env_of run.node.mempolicy), '') <> 'bind:' || l.value OR coalesce($(env_of campaign.numa), '') <> '2')")
[ "$bad" = 0 ] || fail "$bad runs whose run.node.cpus, run.node.mempolicy or campaign.numa is not their node's"
n=$(q "SELECT count(*) FROM slot s, json_each(s.checks) j WHERE s.run IN ($R) AND s.workload IN ('kernel.syscall.null', 'kernel.fault.anon') AND json_extract(j.value, '\$.name') LIKE '%(placement)' AND json_extract(j.value, '\$.checked') = 1 AND json_extract(j.value, '\$.ok') = 1")
[ "$n" = 32 ] || fail "$n placement checks held, want 8 runs x 2 workloads x 2"
bad=$(q "SELECT count(*) FROM slot s, json_each(s.checks) j WHERE s.run IN ($R) AND json_extract(j.value, '\$.ok') = 0")
[ "$bad" = 0 ] || fail "$bad self-checks failed in the per-node runs"
# analyze's default factors: the configurations' label, and node (the runs are per node)
"$SYSAB" analyze campaign:nm >"$T/nm-analyze.txt" 2>"$T/nm-analyze.err" || fail "analyze campaign:nm: $(cat "$T/nm-analyze.err")"
sed 's/^/    /' "$T/nm-analyze.err" "$T/nm-analyze.txt"
grep -q "factors kernel,node: .*node kept as a factor: the runs are per node" "$T/nm-analyze.err" ||
	fail "analyze campaign:nm did not keep node as a factor: $(cat "$T/nm-analyze.err")"
grep -q "within-boot factors: node" "$T/nm-analyze.txt" || fail "analyze campaign:nm: node is not a within-boot factor"
"$SYSAB" analyze campaign:nm --json >"$T/nm-analyze.json" || fail "analyze campaign:nm --json"
rows=$(jq '[.rows[] | select(.effects[]?.factor == "node")] | length' "$T/nm-analyze.json")
[ "$rows" -ge 2 ] || fail "analyze campaign:nm: $rows rows with a node effect, want 2"
# the kernel x node row of each workload, estimated from the node differences inside each of
# the 4 boots: paired, its unit the boot, 4 boots and none left out, df from those boots
boots=$(q "SELECT count(DISTINCT r.boot) FROM run r WHERE r.id IN ($R)")
[ "$boots" = 4 ] || fail "nm's runs are on $boots boots, want 4"
bad=$(jq --argjson b "$boots" '[.rows[] | [.effects[] | select(.kind == "interaction" and .factor == "kernel" and .factor2 == "node")]
	| select(length != 1 or (.[0] | (.paired | not) or .boots != $b or .boots_left_out != 0 or .comparison.unit != "boot"
	  or (.comparison.caveats | index("paired")) == null or .comparison.df > $b - 2 + 1e-9))] | length' "$T/nm-analyze.json")
[ "$bad" = 0 ] || fail "analyze campaign:nm: $bad rows without a kernel x node effect paired within the $boots boots: $(jq -c '[.rows[] | .effects[] | select(.kind == "interaction") | {paired, boots, boots_left_out, unit: .comparison.unit, df: .comparison.df}]' "$T/nm-analyze.json")"
jq -e '.emulated[0].how | contains("qemu -numa")' "$T/nm-analyze.json" >/dev/null || fail "analyze --json: the emulated nodes are not named"
grep -q "the NUMA nodes were emulated" "$T/nm-analyze.txt" || fail "analyze: the emulated nodes are not named"
[ -z "$(ls -A "$TMPDIR")" ] || fail "temp files left: $(ls -A "$TMPDIR")"
step "numa: 8 runs (node 0 and 1 on each of 4 boots), 32 placement checks ok, $rows rows by node, kernel x node paired in $boots boots"
echo "check-boot: numa checks mechanics only (placement, labels, analysis): qemu's emulated nodes have no real distance, so no latency claim is made"
fi
# ---- 5. duet: A and B booted at once on disjoint host CPUs ----
if only duet && [ "$(nproc)" -ge 2 ]; then
step "duet: 2 blocks of 2 guests at once, the same kernel in both slots"
"$SYSAB" campaign new du --backend qemu --image "$GUEST" --boots 2 --accel "$accel" --duet \
	--config 'duet=a' --config 'duet=b' -- $QUICK -w kernel.syscall.null -w kernel.fault.anon >"$T/du-new.out" ||
	fail "campaign new du"
grep -q "duet: each block boots both configurations at once" "$T/du-new.out" || fail "campaign new du: $(cat "$T/du-new.out")"
shown "$T/du.out" "$SYSAB" campaign start du || fail "campaign start du"
[ "$(grep -c 'got their go' "$T/du.out")" = 2 ] || fail "campaign start du did not start both guests of each block together"
[ "$(q "SELECT state FROM campaign WHERE name = 'du'")" = done ] || fail "du is not done"
R="SELECT cr.run FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign WHERE c.name = 'du'"
[ "$(q "SELECT count(DISTINCT b.boot_id) FROM run r JOIN boot b ON b.id = r.boot WHERE r.id IN ($R)")" = 4 ] ||
	fail "du: the runs are not on 4 distinct boots"
ev() { echo "(SELECT value FROM environment e WHERE e.run = r.id AND e.key = '$1')"; }
lab() { echo "(SELECT value FROM label l WHERE l.run = r.id AND l.key = 'duet')"; }
# per run: its label, block, CPU set and go time; each block has a and b on different sets
rows=$(q "SELECT $(lab) || ' ' || $(ev campaign.duet_block) || ' ' || $(ev campaign.duet_cpu_set) FROM run r WHERE r.id IN ($R) ORDER BY 1")
echo "$rows" | sed 's/^/    label block set: /'
for b in 0 1; do
	[ "$(q "SELECT count(DISTINCT $(ev campaign.duet_cpu_set)) || count(DISTINCT $(lab)) FROM run r WHERE r.id IN ($R) AND $(ev campaign.duet_block) = '$b'")" = 22 ] ||
		fail "block $b: not a and b on two CPU sets"
done
[ "$(q "SELECT count(DISTINCT $(ev campaign.duet_cpu_set)) FROM run r WHERE r.id IN ($R) AND $(lab) = 'a'")" = 2 ] ||
	fail "duet=a kept its CPU set in both blocks: not swapped"
bad=$(q "SELECT count(*) FROM run r WHERE r.id IN ($R) AND abs($(ev campaign.duet_go) - $(ev campaign.duet_partner_go)) > 1")
[ "$bad" = 0 ] || fail "$bad runs got their go more than 1 s from their partner's"
bad=$(q "SELECT count(*) FROM run r WHERE r.id IN ($R) AND ($(ev campaign.duet_cpus) IS NULL OR $(ev campaign.name) <> 'du')")
[ "$bad" = 0 ] || fail "$bad runs without campaign.duet_cpus or campaign.name"
"$SYSAB" compare 'campaign:du duet=a' 'campaign:du duet=b' >"$T/du-compare.txt" 2>&1 || fail "compare du: $(cat "$T/du-compare.txt")"
sed 's/^/    /' "$T/du-compare.txt"
grep -q "paired by duet block" "$T/du-compare.txt" || fail "compare du: the rows are not paired by duet block"
"$SYSAB" compare 'campaign:du duet=a' 'campaign:du duet=b' --json >"$T/du-compare.json" 2>/dev/null || fail "compare du --json"
n=$(jq '[.rows[] | select(.comparison.caveats // .caveats | index("duet_paired"))] | length' "$T/du-compare.json")
[ "$n" -ge 1 ] || fail "compare du --json: no row with caveat duet_paired"
[ -z "$(ls -A "$TMPDIR")" ] || fail "temp files left: $(ls -A "$TMPDIR")"
step "duet: 4 guests in 2 blocks, CPU sets swapped, $n rows paired by block"
echo "check-boot: duet checks mechanics only (pinning, go, labels, pairing): 2 blocks under TCG say nothing about the host's noise"
fi
# ---- 6. a guest's qemu killed early in its boot ----
if only kill; then
step "kill: qemu killed early in a boot, alone, in a duet, and on every attempt"
# campaign new --qemu names this wrapper: the real qemu, killed 1 s after it starts (before the
# guest kernel says anything) when it boots slot $KILL_SLOT: its first boot with KILL_ONCE,
# else every one; each kill is logged
cat >"$T/kill-qemu" <<'WRAP'
#!/bin/sh
m=$(printf '%s\n' "$*" | grep -o 'sysab\.boot=[^ ]*' | head -n 1)
m=${m#sysab.boot=}
if [ "$m" = "${KILL_SLOT:-}" ] && { [ -z "${KILL_ONCE:-}" ] || ! grep -qx "$m" "$KILL_LOG" 2>/dev/null; }; then
	echo "$m" >>"$KILL_LOG"
	(sleep 1; kill -KILL $$) &
fi
exec qemu-system-x86_64 "$@"
WRAP
chmod +x "$T/kill-qemu"
export KILL_LOG="$T/kills"
: >"$KILL_LOG"
slots_of() { q "SELECT group_concat(state || '/' || attempts, ' ') FROM (SELECT state, attempts FROM campaign_slot WHERE campaign = (SELECT id FROM campaign WHERE name = '$1') ORDER BY slot)"; }
runs_of() { q "SELECT count(*) FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign WHERE c.name = '$1'"; }
# tcg: a boot killed here is about retries, not the accelerator (a KVM probe per campaign would
# cost a minute on machines whose guest kernel hangs under KVM)
K="--backend qemu --image $GUEST --accel tcg --arch x86_64 --boot-timeout 400 --qemu $T/kill-qemu"
"$SYSAB" campaign new kk $K --boots 2 --config 'kk=a' --append 'pti=off' -- $QUICK -w kernel.syscall.null >/dev/null ||
	fail "campaign new kk"
KILL_SLOT=kk:0 KILL_ONCE=1 shown "$T/kk.out" "$SYSAB" campaign start kk || fail "campaign start kk"
grep -q "slot 1/2: interrupted: qemu was killed by signal 9" "$T/kk.out" || fail "kk: the killed boot is not named"
[ "$(q "SELECT state FROM campaign WHERE name = 'kk'")" = done ] || fail "kk is not done"
[ "$(slots_of kk)" = "done/2 done/1" ] || fail "kk slots: $(slots_of kk), want done/2 done/1"
[ "$(runs_of kk)" = 2 ] || fail "kk holds $(runs_of kk) runs, want 2"
if [ "$(nproc)" -ge 2 ]; then
	"$SYSAB" campaign new kd $K --duet --boots 1 --config 'kd=a' --config 'kd=b' -- $QUICK -w kernel.syscall.null >/dev/null ||
		fail "campaign new kd"
	KILL_SLOT=kd:0 KILL_ONCE=1 shown "$T/kd.out" "$SYSAB" campaign start kd || fail "campaign start kd"
	grep -q "slot 1/2: interrupted: qemu was killed by signal 9" "$T/kd.out" || fail "kd: the killed boot is not named"
	[ "$(q "SELECT state FROM campaign WHERE name = 'kd'")" = done ] || fail "kd is not done"
	[ "$(slots_of kd)" = "done/2 done/1" ] || fail "kd slots: $(slots_of kd), want done/2 done/1"
	[ "$(runs_of kd)" = 2 ] || fail "kd holds $(runs_of kd) runs, want 2"
fi
"$SYSAB" campaign new ke $K --boots 1 --config 'ke=a' --append 'pti=off' -- $QUICK -w kernel.syscall.null >/dev/null ||
	fail "campaign new ke"
KILL_SLOT=ke:0 shown "$T/ke.out" "$SYSAB" campaign start ke && fail "campaign start ke: exit 0 with its only slot killed twice"
[ "$(cat "$T/ke.out.rc")" = 2 ] || fail "campaign start ke: exit $(cat "$T/ke.out.rc"), want 2"
grep -q "campaign 'ke' ended without all its runs, so it is failed, not done: slot 1/1 (ke=a) skipped after 2 attempts" "$T/ke.out" ||
	fail "ke: the message does not name the slot"
grep -q "campaign start ke\` boots these slots again" "$T/ke.out" || fail "ke: the message does not say what to do"
[ "$(q "SELECT state FROM campaign WHERE name = 'ke'")" = failed ] || fail "ke is not failed"
[ "$(grep -c '^ke:0$' "$KILL_LOG")" = 2 ] || fail "ke: $(grep -c '^ke:0$' "$KILL_LOG") boots killed, want 2"
shown "$T/ke2.out" "$SYSAB" campaign start ke || fail "campaign start ke again"
[ "$(q "SELECT state FROM campaign WHERE name = 'ke'")" = done ] || fail "ke is not done after start"
[ "$(slots_of ke)" = "done/3" ] && [ "$(runs_of ke)" = 1 ] || fail "ke: slots $(slots_of ke), $(runs_of ke) runs"
[ -z "$(ls -A "$TMPDIR")" ] || fail "temp files left: $(ls -A "$TMPDIR")"
step "kill: $(wc -l <"$KILL_LOG") boots killed; every slot retried, done with exactly its runs"
fi
# ---- 7. adaptive: a real effect stops before the cap ----
if only adpti; then
step "adaptive pti=off/on, at most 6 boots each"
"$SYSAB" campaign new adpti --backend qemu --image "$GUEST" --accel "$accel" --until decided --target 5% --max-boots 6 \
	--config 'pti=off' --append 'pti=off' --config 'pti=on' --append 'pti=on' \
	-- $QUICK -w kernel.syscall.null >/dev/null || fail "campaign new adpti"
shown "$T/adpti.out" "$SYSAB" campaign start adpti || fail "campaign start adpti"
b=$(q "SELECT c.boots FROM campaign c JOIN campaign_adaptive a ON a.campaign = c.id WHERE c.name = 'adpti' AND c.state = 'done' AND a.stopped = 'decided'")
[ -n "$b" ] && [ "$b" -lt 6 ] || fail "adpti did not stop decided before its cap: $(q "SELECT c.state, c.boots, a.stopped FROM campaign c JOIN campaign_adaptive a ON a.campaign = c.id WHERE c.name = 'adpti'")"
grep -q "kernel.syscall.null .* slower" "$T/adpti.out" || fail "adpti: kernel.syscall.null not slower"
step "adaptive pti: decided after $b boots per configuration"
fi

# ---- 8. adaptive A/A: stops at its cap ----
if only adaa; then
step "adaptive A/A, at most 4 boots each"
"$SYSAB" campaign new adaa --backend qemu --image "$GUEST" --accel "$accel" --until decided --target 1% --max-boots 4 \
	--config 'aa=a' --append 'pti=off' --config 'aa=b' --append 'pti=off' \
	-- $QUICK -w kernel.syscall.null >/dev/null || fail "campaign new adaa"
shown "$T/adaa.out" "$SYSAB" campaign start adaa || fail "campaign start adaa"
[ "$(q "SELECT c.state || ' ' || c.boots || ' ' || a.stopped FROM campaign c JOIN campaign_adaptive a ON a.campaign = c.id WHERE c.name = 'adaa'")" = "done 4 cap" ] ||
	fail "adaa did not stop at its cap: $(q "SELECT c.state, c.boots, a.stopped FROM campaign c JOIN campaign_adaptive a ON a.campaign = c.id WHERE c.name = 'adaa'")"
grep -q "reached with 4 boots per configuration" "$T/adaa.out" || fail "adaa: no MDE reached"
step "adaptive A/A: stopped at its cap of 4"
fi

# ---- 9. the exec helpers inside the guest ----
if only execl; then
step "execl: unixbench.execl and kernel.proc.exec in one guest"
"$SYSAB" campaign new xl --backend qemu --image "$GUEST" --accel "$accel" --boots 1 --config 'x=1' \
	-- $QUICK -c 1 -w unixbench.execl -w kernel.proc.exec >/dev/null || fail "campaign new xl"
shown "$T/xl.out" "$SYSAB" campaign start xl || fail "campaign start xl"
st=$("$SYSAB" list campaign:xl --json | jq -r '.runs[0].id') || fail "list campaign:xl"
"$SYSAB" show --json "$st" >"$T/xl.json" || fail "show the guest's run"
for w in unixbench.execl kernel.proc.exec; do
	s=$(jq -r --arg w "$w" '[.results[] | select(.workload == $w)][0] | "\(.status) \(.reason // "")"' "$T/xl.json")
	[ "$s" = "ok " ] || fail "$w in the guest: $s"
done
step "execl: both exec helpers ran in the guest"
fi

# this run's VMs only (their files are under $T): another check-boot may share the machine
pgrep -f -- "-initrd $T/.* sysab.boot=" >/dev/null && fail "qemu processes left behind"
step "all passed"
cp "$T/analyze.txt" "${BOOT_REPORT:-/dev/null}" 2>/dev/null
rm -rf "$T"
