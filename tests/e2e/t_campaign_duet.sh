# campaign new --duet: the refusals (another backend, not two configurations, too few host
# CPUs, with --numa) and a dry run that shows both guests of each block pinned to disjoint host
# CPU sets (taskset -c), swapped every block, with the go channel. Real boots: make check-boot's
# duet part.
RUN="--quick -w harness.null --samples 3 --sample-ms 10 --warmup-ms 0 -q"
expect 2 "$SYSAB" campaign new dx --backend command --duet --boots 2 --config 'k=a' --command true --config 'k=b' --command true -- $RUN
contains "$ERR" "--duet: two guests booted at once are qemu guests"
expect 2 "$SYSAB" campaign new dx --backend qemu --duet --boots 2 --config 'k=a' --config 'k=b' --config 'k=c' -- $RUN
contains "$ERR" "exactly two configurations"
expect 2 "$SYSAB" campaign new dx --backend qemu --duet --boots 2 --config 'k=a' -- $RUN
contains "$ERR" "exactly two configurations"
expect 2 "$SYSAB" campaign new dx --backend qemu --duet --boots 2 --smp 256 --config 'k=a' --config 'k=b' -- $RUN
contains "$ERR" "need disjoint host CPUs, 2 x --smp 256 = 512"
expect 2 "$SYSAB" campaign new dx --backend qemu --duet --boots 2 --numa 2 --smp 2 --mem 1024 --config 'k=a' --config 'k=b' -- $RUN
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign")" = 0 ] || fail "a refused duet was stored"
ncpu=$(nproc)
if [ "$ncpu" -lt 2 ]; then
	expect 2 "$SYSAB" campaign new d1 --backend qemu --duet --boots 2 --config 'k=a' --config 'k=b' -- $RUN
	echo "t_campaign_duet: 1 CPU here: only the refusals"
	exit 0
fi
expect 0 "$SYSAB" campaign new d1 --backend qemu --arch x86_64 --accel tcg --duet --boots 2 --seed 5 \
	--config 'k=a' --append 'x=1' --config 'k=b' --append 'x=2' -- $RUN
contains "$OUT" "duet: each block boots both configurations at once, pinned to host CPU sets 0"
expect 0 "$SYSAB" campaign show d1 --json
[ "$(printf '%s' "$OUT" | jq -c '[.slots[].duet_cpu_set]')" != null ] || fail "show --json: no duet_cpu_set"
[ "$(printf '%s' "$OUT" | jq -r '.duet.cpu_sets | length')" = 2 ] || fail "show --json: duet.cpu_sets"
expect 0 "$SYSAB" campaign start d1 --dry-run
dry=$OUT
# one qemu per slot, each under taskset; the block's two on different sets, and k=a's set swapped
[ "$(printf '%s\n' "$dry" | grep -c '  would run: taskset -c [0-9,-]* qemu-system-x86_64 ')" = 4 ] || fail "not 4 pinned qemu commands: $dry"
cpus_of() { # the taskset CPU list of the qemu booting marker $1
	printf '%s\n' "$dry" | grep "sysab.boot=$1'" | sed 's/.*taskset -c \([^ ]*\) .*/\1/'
}
set_of() { sqlite3 "$SYSAB_DB" "SELECT (config + block) % 2 FROM campaign_slot WHERE slot = $1"; }
for s in 0 1 2 3; do
	c=$(cpus_of "d1:$s")
	[ -n "$c" ] || fail "slot $s: no taskset: $dry"
	printf '%s\n' "$dry" | grep "sysab.boot=d1:$s'" | grep -q -- "-device isa-serial,chardev=go,iobase=0x3e8,irq=5" ||
		fail "slot $s: no go channel"
	printf '%s\n' "$dry" | grep "sysab.boot=d1:$s'" | grep -q "path=TMPDIR/go.set$(set_of $s)," || fail "slot $s: go socket of another set"
done
for b in 0 1; do
	s=$(sqlite3 "$SYSAB_DB" "SELECT group_concat(slot, ' ') FROM campaign_slot WHERE block = $b")
	set -- $s
	[ "$(cpus_of "d1:$1")" != "$(cpus_of "d1:$2")" ] || fail "block $b: both guests on CPUs $(cpus_of "d1:$1")"
done
a0=$(sqlite3 "$SYSAB_DB" "SELECT slot FROM campaign_slot WHERE block = 0 AND config = 0")
a1=$(sqlite3 "$SYSAB_DB" "SELECT slot FROM campaign_slot WHERE block = 1 AND config = 0")
[ "$(cpus_of "d1:$a0")" != "$(cpus_of "d1:$a1")" ] || fail "k=a kept CPUs $(cpus_of "d1:$a0") in both blocks: not swapped"
contains "$dry" "(duet: at once with the other slot of block 0; host CPU set 0)"
# pasteable: the first command's argv survives sh -c
line=$(printf '%s\n' "$dry" | grep -m1 '  would run: taskset' | sed 's/^  would run: //')
sh -c "set -- $line; [ \"\$1 \$2\" = 'taskset -c' ]" || fail "the dry run's command does not parse: $line"
# nothing was started or changed
[ "$(sqlite3 "$SYSAB_DB" "SELECT state FROM campaign WHERE name = 'd1'")" = new ] || fail "a dry run changed the campaign"
