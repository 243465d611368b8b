# A per-node campaign end to end (issue 48 item 4): a campaign whose runs are `sysab run --nodes
# all` ends with a closing hint that keeps node as a factor, `analyze campaign:NAME` takes
# --factors LABELS,node by default and says so (explicit --factors still win), and `plan` from
# it prints a campaign line with --nodes that runs as printed. The command backend with simulated
# boots (as in t_campaign and t_nodes); two nodes from a fake sysfs, whose node 1 stands for this
# machine's node 0 (nodeK/sysab_bind), so that the runs are real on a one-node machine.

quick="--quick --no-probe --counters none -w harness.null -c 1 --samples 4"
ncpu=$(getconf _NPROCESSORS_ONLN)
cpu1=1
[ "$ncpu" -ge 2 ] || cpu1=0
mkdir -p "$T/two/node0" "$T/two/node1" "$T/proc" "$T/units"
echo 0-1 >"$T/two/online"
echo 0-1 >"$T/two/has_memory"
echo 0 >"$T/two/node0/cpulist"
echo "$cpu1" >"$T/two/node1/cpulist"
echo 0 >"$T/two/node1/sysab_bind"
export SYSAB_NODE_SYSFS="$T/two" SYSAB_CAMPAIGN_PROC="$T/proc"
echo 6.1.0-test >"$T/proc/osrelease"
# qemu-user (make check-cross) passes no NUMA system call on: every node is unsupported and no
# run is stored, so nothing here can be tested (t_nodes checks that refusal itself)
probe=$(SYSAB_DB="$T/probe.db" "$SYSAB" run --nodes 1 $quick 2>&1 || true)
case "$probe" in *"set_mempolicy(MPOL_BIND): Function not implemented"*)
	echo "t_campaign_nodes: set_mempolicy is not implemented here (an emulator?): not tested" >&2
	exit 0 ;;
esac
rm -f "$T"/probe.db*
bootcmd='echo "$SYSAB_APPEND" >'"$T/armed"
boot() { cp "$T/armed" "$T/proc/cmdline"; cat /proc/sys/kernel/random/uuid >"$T/proc/boot_id"; }
# run_campaign NAME: start it and resume it on each simulated boot until it is done
run_campaign() {
	expect 0 "$SYSAB" campaign start "$1"
	while [ "$(sqlite3 "$SYSAB_DB" "SELECT state FROM campaign WHERE name = '$1'")" = running ]; do
		boot
		expect 0 "$SYSAB" campaign resume "$1"
		[ "$(sqlite3 "$SYSAB_DB" "SELECT state FROM campaign WHERE name = '$1'")" = running ] || break
	done
	[ "$(sqlite3 "$SYSAB_DB" "SELECT state FROM campaign WHERE name = '$1'")" = done ] || fail "campaign $1 is not done"
}
# The runs of each slot read this machine's one boot id; give each slot's runs a boot of their
# own, as the simulated reboots would have (the self-rebooting backends run on real boots).
own_boots() {
	sqlite3 "$SYSAB_DB" "INSERT INTO boot SELECT 1000 * c.id + cr.slot, 'simulated-' || c.name || '-' || cr.slot,
		b.machine, b.kernel_release, b.kernel_version, b.first_seen_ns FROM campaign_run cr
		JOIN campaign c ON c.id = cr.campaign JOIN run r ON r.id = cr.run JOIN boot b ON b.id = r.boot
		WHERE c.name = '$1' GROUP BY cr.slot;
	UPDATE run SET boot = (SELECT 1000 * cr.campaign + cr.slot FROM campaign_run cr WHERE cr.run = run.id)
		WHERE id IN (SELECT run FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign WHERE c.name = '$1');
	DELETE FROM boot WHERE id NOT IN (SELECT boot FROM run)"
}

# A campaign whose runs are not per node: the hint names no node
expect 0 "$SYSAB" campaign new flat --unit-dir "$T/units" --backend command --boots 1 \
	--config kernel=a --append 'ro k=a' --command "$bootcmd" --config kernel=b --append 'ro k=b' --command "$bootcmd" -- $quick
run_campaign flat
contains "$OUT" "done; \`sysab analyze campaign:flat\` analyzes it"
case "$OUT" in *"node kept"*) fail "a campaign without --nodes: the hint keeps node" ;; esac

expect 0 "$SYSAB" campaign new pn --unit-dir "$T/units" --backend command --boots 2 --runs 2 \
	--config kernel=a --append 'ro k=a' --command "$bootcmd" --config kernel=b --append 'ro k=b' --command "$bootcmd" \
	-- --nodes all $quick
run_campaign pn
contains "$OUT" "done; \`sysab analyze campaign:pn\` analyzes it (node kept as a factor: the runs are per node)"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign WHERE c.name = 'pn'")" = 16 ] ||
	fail "pn stored $(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign_run") runs, want 4 slots x 2 runs x 2 nodes"
own_boots pn
expect 0 "$SYSAB" campaign show pn
contains "$OUT" "analysis: \`sysab analyze campaign:pn\` analyzes it (node kept as a factor: the runs are per node); the final look"
expect 2 "$SYSAB" campaign start pn
contains "$ERR" "campaign 'pn' is done; \`"
contains "$ERR" "analyze campaign:pn\` analyzes it (node kept as a factor: the runs are per node)"

# analyze's default factors: the configurations' labels, and node; said on stderr
expect 0 "$SYSAB" analyze campaign:pn
contains "$ERR" "factors kernel,node: the labels that differ between the configurations of campaign pn; node kept as a factor: the runs are per node"
contains "$OUT" "within-boot factors: node"
expect 0 "$SYSAB" analyze campaign:pn --json
printf '%s' "$OUT" | jq -e '[.factors[] | .name] == ["kernel", "node"]' >/dev/null ||
	fail "analyze campaign:pn: factors $(printf '%s' "$OUT" | jq -c '[.factors[] | .name]')"
printf '%s' "$OUT" | jq -e '[.factors[] | select(.name == "node") | .within_boot] == [true]' >/dev/null ||
	fail "analyze campaign:pn: node is not a within-boot factor: $(printf '%s' "$OUT" | jq -c .factors)"
# the kernel x node row, paired inside each of the 4 boots
printf '%s' "$OUT" | jq -e '[.rows[0].effects[] | select(.kind == "interaction" and .factor == "kernel" and
	.factor2 == "node")] | length == 1 and .[0].paired and .[0].boots == 4' >/dev/null ||
	fail "analyze campaign:pn: no paired kernel x node effect: $(printf '%s' "$OUT" | jq -c '[.rows[0].effects[]]')"
# explicit --factors win, and the note is not printed
expect 0 "$SYSAB" analyze campaign:pn --factors kernel --json
printf '%s' "$OUT" | jq -e '[.factors[] | .name] == ["kernel"]' >/dev/null || fail "analyze --factors kernel: not only kernel"
case "$ERR" in *"node kept"*) fail "explicit --factors: the default's note was printed" ;; esac
# the flat campaign's default stays its labels
expect 0 "$SYSAB" analyze campaign:flat --json
printf '%s' "$OUT" | jq -e '[.factors[] | .name] == ["kernel"]' >/dev/null || fail "analyze campaign:flat: not kernel alone"

# plan from the per-node pilot: one configuration per kernel, the runs keep --nodes all
expect 0 "$SYSAB" plan --factors kernel,node --target 50% campaign:pn --campaign pn2 --json
line=$(printf '%s' "$OUT" | jq -r '.campaign_line.line // empty')
[ -n "$line" ] || fail "plan: no campaign line: $(printf '%s' "$OUT" | jq -c '.campaign_line')"
contains "$line" " -- --nodes all "
contains "$line" "--config kernel=a"
contains "$line" "--config kernel=b"
case "$line" in *node=*) fail "plan's campaign line configures a node: $line" ;; esac
expect 0 "$SYSAB" plan --factors kernel,node --target 50% campaign:pn --campaign pn2
case "$OUT" in *"run the pilot as a campaign"*) fail "plan: the false hint is back: $OUT" ;; esac
# it runs as printed (sysab is $SYSAB; the command backend boots nothing real)
line=$(printf '%s' "$line" | sed "s|^sysab |'$SYSAB' |; s|&& sysab |\&\& '$SYSAB' |")
expect 0 sh -c "$line"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign_config cc JOIN campaign c ON c.id = cc.campaign WHERE c.name = 'pn2'")" = 2 ] ||
	fail "pn2 does not boot the 2 kernels"
expect 0 "$SYSAB" campaign show pn2
contains "$OUT" "each run: sysab run --nodes all"
contains "$OUT" " x 2 nodes of --nodes, a run per node)"
boot
expect 0 "$SYSAB" campaign resume pn2
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(DISTINCT l.value) FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign
	JOIN label l ON l.run = cr.run AND l.key = 'node' WHERE c.name = 'pn2'")" = 2 ] || fail "pn2's first slot did not run on both nodes"
expect 0 "$SYSAB" campaign stop pn2
db_ok "$SYSAB_DB"
