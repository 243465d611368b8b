# campaign: planning, the schedule, dry runs of every backend, and the safety rules of the
# self-rebooting path, with the command backend and a simulated boot loader (no reboots):
# the "boot" copies the command line the campaign armed into a fake /proc ($SYSAB_CAMPAIGN_PROC).
RUN="--quick -w harness.null --samples 3 --sample-ms 10 --warmup-ms 0 -q"
mkdir -p "$T/proc" "$T/units"
export SYSAB_CAMPAIGN_PROC="$T/proc"
echo 6.1.0-test >"$T/proc/osrelease"
echo "BOOT_IMAGE=/vmlinuz ro" >"$T/proc/cmdline"
# the boot loader: the campaign's command records what it was asked to boot
BOOTCMD='echo "$SYSAB_CONFIG|$SYSAB_SLOT|$SYSAB_APPEND|$SYSAB_LABEL_pti" >>'"$T/armed"
boot() { # simulate the reboot into what was armed ($1 = fail: the default kernel comes back)
	line=$(tail -n 1 "$T/armed")
	if [ "${1:-}" = fail ]; then echo "BOOT_IMAGE=/vmlinuz ro" >"$T/proc/cmdline"; else echo "$line" | cut -d'|' -f3 >"$T/proc/cmdline"; fi
	cat /proc/sys/kernel/random/uuid >"$T/proc/boot_id"
}
new() { expect 0 "$SYSAB" campaign new --unit-dir "$T/units" "$@"; }

# bad input: exit 2, naming what to fix, nothing stored
expect 2 "$SYSAB" campaign new x --backend qemu --boots 2
contains "$ERR" "--config"
expect 2 "$SYSAB" campaign new x --backend floppy --boots 2 --config a=1
contains "$ERR" "qemu, kexec, grub or command"
expect 2 "$SYSAB" campaign new x --backend kexec --boots 2 --config a=1
contains "$ERR" "needs --kernel"
expect 2 "$SYSAB" campaign new x --backend qemu --kernel /k --boots 2
contains "$ERR" "give --config"
expect 2 "$SYSAB" campaign new 'bad name' --backend qemu --boots 1 --config a=1
expect 2 "$SYSAB" campaign show nosuch
contains "$ERR" "no such campaign"
expect 2 "$SYSAB" campaign frobnicate x

# the schedule: randomized complete blocks from the recorded seed, the same for the same seed
new s1 --backend command --boots 3 --seed 42 --config 'pti=on' --command true --config 'pti=off' --command true --config 'pti=auto' --command true -- $RUN
contains "$OUT" "seed 42"
new s2 --backend command --boots 3 --seed 42 --config 'pti=on' --command true --config 'pti=off' --command true --config 'pti=auto' --command true -- $RUN
o1=$(sqlite3 "$SYSAB_DB" "SELECT group_concat(config, '') FROM (SELECT config FROM campaign_slot WHERE campaign = 1 ORDER BY slot)")
o2=$(sqlite3 "$SYSAB_DB" "SELECT group_concat(config, '') FROM (SELECT config FROM campaign_slot WHERE campaign = 2 ORDER BY slot)")
[ "$o1" = "$o2" ] || fail "same seed, different schedules: $o1 $o2"
for b in 0 1 2; do
	v=$(sqlite3 "$SYSAB_DB" "SELECT group_concat(config, '') FROM (SELECT config FROM campaign_slot WHERE campaign = 1 AND block = $b ORDER BY config)")
	[ "$v" = 012 ] || fail "block $b does not hold each configuration once: $v"
done
expect 2 "$SYSAB" campaign new s1 --backend command --boots 1 --config a=1 --command true
contains "$ERR" "exists"

# dry runs print every command and the unit, and change nothing
new k --backend kexec --boots 1 --config 'pti=on' --kernel /boot/vmlinuz-A --initrd /boot/initrd-A --append 'root=/dev/sda1 pti=on' --config 'pti=off' --kernel /boot/vmlinuz-B --append 'root=/dev/sda1 pti=off' -- $RUN
before=$(sqlite3 "$SYSAB_DB" "SELECT state FROM campaign WHERE name = 'k'; SELECT group_concat(state) FROM campaign_slot")
expect 0 "$SYSAB" campaign start k --dry-run
contains "$OUT" "kexec -l /boot/vmlinuz-"
contains "$OUT" "--append=root=/dev/sda1 pti="
contains "$OUT" "sysab.boot=k:0"
contains "$OUT" "systemctl kexec"
contains "$OUT" "[Service]"
contains "$OUT" "Type=oneshot"
contains "$OUT" "After=multi-user.target"
contains "$OUT" "campaign resume k --db $SYSAB_DB"
[ "$(sqlite3 "$SYSAB_DB" "SELECT state FROM campaign WHERE name = 'k'; SELECT group_concat(state) FROM campaign_slot")" = "$before" ] || fail "dry run changed the database"
[ -z "$(ls -A "$T/units")" ] || fail "dry run wrote a unit"
# grub cannot mark the kernel's command line: without --kernel (the image the entry boots) a
# fallback to the default kernel could not be told from the entry's boot
expect 2 "$SYSAB" campaign new g --backend grub --boots 1 --config 'pti=on' --entry 'Debian A' --append 'ro pti=on' -- $RUN
contains "$ERR" "needs --kernel, the image its entry boots"
new g --backend grub --boots 1 --config 'pti=on' --entry 'Debian A' --kernel /boot/vmlinuz-A --append 'ro pti=on' --config 'pti=off' --entry 2 --kernel /boot/vmlinuz-B --append 'ro pti=off' -- $RUN
expect 0 "$SYSAB" campaign start g --dry-run
contains "$OUT" "grub-reboot 'Debian A'"
contains "$OUT" "systemctl reboot"
# the guest architecture is named, so the dry run reads the same on every host (a kernel without a header would default to the host's)
new q --backend qemu --arch x86_64 --boots 1 --config 'pti=on' --append pti=on -- $RUN
expect 0 "$SYSAB" campaign start q --dry-run
contains "$OUT" "qemu-system-x86_64"
contains "$OUT" "sysab.boot=q:0"
# one node (the default) adds nothing to qemu's argv
contains "$OUT" " -m 512 -smp 1 -kernel "
! printf '%s' "$OUT" | grep -q -e ' -numa ' -e ' -object ' || fail "a campaign without --numa gives qemu -numa: $OUT"
# --numa 2: each node an even share of the CPUs and the memory, shown, and in qemu's argv
new qn --backend qemu --arch x86_64 --boots 1 --numa 2 --smp 2 --mem 1024 --config 'pti=on' -- $RUN --nodes all
contains "$OUT" "2 NUMA nodes emulated by qemu -numa (1 CPU, 512 MB each)"
expect 0 "$SYSAB" campaign show qn --json
[ "$(printf '%s' "$OUT" | jq -c .guest.numa)" = 2 ] || fail "campaign show --json: guest.numa"
expect 0 "$SYSAB" campaign start qn --dry-run
contains "$OUT" "guest NUMA: 2 nodes, emulated by qemu -numa"
contains "$OUT" " -m 1024 -smp 2 -object memory-backend-ram,id=m0,size=512M -object memory-backend-ram,id=m1,size=512M -numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1 -kernel "
new qn4 --backend qemu --arch x86_64 --boots 1 --numa 2 --smp 4 --mem 2048 --config 'pti=on' -- $RUN
expect 0 "$SYSAB" campaign start qn4 --dry-run
contains "$OUT" "-numa node,nodeid=0,cpus=0-1,memdev=m0 -numa node,nodeid=1,cpus=2-3,memdev=m1 "
# refused, exit 2, naming the options, nothing stored: an uneven split, more nodes than CPUs,
# a guest whose kernel does not get the nodes, a backend without a guest
expect 2 "$SYSAB" campaign new qx --backend qemu --boots 1 --numa 2 --smp 3 --config 'pti=on'
contains "$ERR" "--numa 2: --smp 3 does not divide evenly among 2 nodes"
expect 2 "$SYSAB" campaign new qx --backend qemu --boots 1 --numa 2 --smp 2 --mem 1025 --config 'pti=on'
contains "$ERR" "--numa 2: --mem 1025 does not divide evenly among 2 nodes"
expect 2 "$SYSAB" campaign new qx --backend qemu --boots 1 --numa 4 --smp 2 --config 'pti=on'
contains "$ERR" "give --smp at least 4"
expect 2 "$SYSAB" campaign new qx --backend qemu --arch loongarch64 --boots 1 --numa 2 --smp 2 --config 'pti=on'
contains "$ERR" "a loongarch64 guest gets no NUMA nodes"
expect 2 "$SYSAB" campaign new qx --backend command --boots 1 --numa 2 --smp 2 --config 'pti=on' --command true
contains "$ERR" "leave --numa out"
expect 2 "$SYSAB" campaign new qx --backend qemu --boots 1 --numa 0 --config 'pti=on'
contains "$ERR" "--numa"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign WHERE name = 'qx'")" = 0 ] || fail "a refused --numa stored a campaign"
# --arch auto: a LoongArch kernel (PE machine 0x6264) is told at start, and --numa refused there
{ printf 'MZ'; head -c 58 /dev/zero; printf '\100\0\0\0PE\0\0\144\142'; head -c 600 /dev/zero; } >"$T/loong.efi"
new ql --backend qemu --boots 1 --numa 2 --smp 2 --config 'pti=on' --kernel "$T/loong.efi" -- $RUN
expect 2 "$SYSAB" campaign start ql --dry-run
contains "$ERR" "slot 0: --numa 2: a loongarch64 guest gets no NUMA nodes"

# no root: kexec and grub say that they need it, and do nothing; qemu and command do not
if unpriv_setup; then
	cp "$SYSAB_DB" "$T/u/results.db"
	chown "$UNPRIV_UID" "$T/u/results.db"
	expect 2 as_user "$SYSAB" campaign start k
	contains "$ERR" "needs root"
	[ "$(sqlite3 "$T/u/results.db" "SELECT state FROM campaign WHERE name = 'k'")" = new ] || fail "refused start changed the state"
fi

# the full self-rebooting loop: start arms slot 0 and installs the unit; each boot resumes
new c --backend command --boots 2 --max-failures 2 --config 'pti=on' --append 'pti=on' --command "$BOOTCMD" --config 'pti=off' --append 'pti=off' --command "$BOOTCMD" -- $RUN
expect 0 "$SYSAB" campaign start c
[ -f "$T/units/sysab-campaign-c.service" ] || fail "no unit installed"
[ -L "$T/units/multi-user.target.wants/sysab-campaign-c.service" ] || fail "unit not enabled"
[ "$(wc -l <"$T/armed")" = 1 ] || fail "start did not arm exactly one boot"
contains "$(cat "$T/armed")" "sysab.boot=c:0"
first=$(cut -d'|' -f4 "$T/armed")
[ "$first" = "$(sqlite3 "$SYSAB_DB" "SELECT json_extract(labels, '$.pti') FROM campaign_config WHERE campaign = (SELECT id FROM campaign WHERE name = 'c') AND idx = (SELECT config FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name = 'c' AND slot = 0)")" ] || fail "the command got the wrong labels"
expect 2 "$SYSAB" campaign start c
contains "$ERR" "already running"
boot
expect 0 "$SYSAB" campaign resume c
contains "$(tail -n 1 "$T/armed")" "sysab.boot=c:1"
# wrong kernel: the default came back; the slot fails with the reason, the next is armed
boot fail
expect 0 "$SYSAB" campaign resume c
contains "$OUT" "wrong kernel"
v=$(sqlite3 "$SYSAB_DB" "SELECT s.state || ':' || s.reason FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name = 'c' AND slot = 1")
contains "$v" "failed:wrong kernel"
# power loss during the runs: the slot is interrupted and retried once, on the next boot
boot
sqlite3 "$SYSAB_DB" "UPDATE campaign_slot SET state = 'running' WHERE slot = 2 AND campaign = (SELECT id FROM campaign WHERE name = 'c')"
expect 0 "$SYSAB" campaign resume c
contains "$(tail -n 1 "$T/armed")" "sysab.boot=c:2"
[ "$(sqlite3 "$SYSAB_DB" "SELECT s.attempts FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name = 'c' AND slot = 2")" = 2 ] || fail "no retry of the interrupted slot"
boot
expect 0 "$SYSAB" campaign resume c
contains "$(tail -n 1 "$T/armed")" "sysab.boot=c:3"
boot
# the last slot: one slot lacks its run, so the campaign is failed, not done, and says which
expect 2 "$SYSAB" campaign resume c
contains "$ERR" "campaign 'c' ended without all its runs, so it is failed, not done: slot 2/4 (pti="
contains "$ERR" "failed after 1 attempt, 1 of 1 runs missing: wrong kernel"
contains "$ERR" "\`$SYSAB campaign start c\` boots these slots again"
[ "$(sqlite3 "$SYSAB_DB" "SELECT state || ':' || reason FROM campaign WHERE name = 'c'")" = "failed:1 of 4 slots lack runs (slot 2 of 4); \`sysab campaign start c\` boots them again" ] ||
	fail "campaign c: $(sqlite3 "$SYSAB_DB" "SELECT state || ':' || reason FROM campaign WHERE name = 'c'")"
[ ! -e "$T/units/sysab-campaign-c.service" ] || fail "the unit was not removed at the end"
[ ! -e "$T/units/multi-user.target.wants/sysab-campaign-c.service" ] || fail "the unit link was not removed"
[ "$(wc -l <"$T/armed")" = 5 ] || fail "armed $(wc -l <"$T/armed") boots, want 5"
expect 0 "$SYSAB" campaign show c
contains "$OUT" "3 of 4 slots done, 1 failed"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign WHERE c.name = 'c'")" = 3 ] || fail "want 3 runs in the campaign"
expect 0 "$SYSAB" export --format csv campaign:c
n=$(printf '%s\n' "$OUT" | cut -d, -f1 | sort -u | grep -c '^[0-9]')
[ "$n" = 3 ] || fail "campaign:c selects $n runs, want 3"
expect 2 "$SYSAB" campaign resume c
contains "$ERR" "campaign 'c' is failed (1 of 4 slots lack runs"
# plan --campaign from this pilot (issue 32): the boot cost measured on its slots, and a line
# that boots both configurations as c did, runnable as printed (its `campaign new` half here)
expect 0 "$SYSAB" plan 'campaign:c pti=on' 'campaign:c pti=off' --target 50% --campaign c2
contains "$OUT" "(measured: median of 3 boots of campaign c)"
line=$(printf '%s\n' "$OUT" | grep '^sysab campaign new c2 ') || fail "plan printed no campaign line: $OUT"
case $line in *BACKEND* | *KEY=* | *OTHER*) fail "a placeholder in: $line" ;; esac
contains "$line" "--backend command"
contains "$line" "&& sysab campaign start c2"
sysab() { "$SYSAB" "$@"; }
eval "${line%% && *}" >/dev/null || fail "the printed line does not run: $line"
expect 0 "$SYSAB" campaign show c2 --json
v=$(printf '%s' "$OUT" | jq -r '[.backend, ([.configs[].append] | join(",")), (.run_args | index("harness.null") != null)] | map(tostring) | join(" ")')
[ "$v" = "command pti=on,pti=off true" ] || fail "the planned campaign: $v"
# no line without a campaign that booted the configuration, and never a placeholder
expect 0 "$SYSAB" plan 'pti=on' --campaign c3
contains "$OUT" "no campaign line: "
contains "$OUT" "give that configuration as selector B"
expect 0 "$SYSAB" run $RUN -l x=1
expect 0 "$SYSAB" run $RUN -l x=2
expect 0 "$SYSAB" plan 'x=1' 'x=2' --campaign c3
contains "$OUT" "no campaign booted a configuration labelled 'x=1'"
contains "$OUT" "--kernel/--append, --entry or --command"
expect 0 "$SYSAB" plan 'campaign:c pti=on' 'campaign:c pti=off' --target 50% --campaign c2
contains "$OUT" "a campaign named c2 exists"
# plan --json carries the campaign line, or why there is none (issue 46)
expect 0 "$SYSAB" plan 'campaign:c pti=on' 'campaign:c pti=off' --target 50% --campaign c2 --json
v=$(printf '%s' "$OUT" | jq -r '.campaign_line | [.reason, .why, .line] | map(tostring) | join(" ; ")')
[ "$v" = "name-taken ; a campaign named c2 exists; give another name to --campaign ; null" ] || fail "plan --json: $v"
expect 0 "$SYSAB" plan 'campaign:c pti=on' 'campaign:c pti=off' --target 50% --campaign c4 --json
v=$(printf '%s' "$OUT" | jq -r '.campaign_line | [.campaign, .argv[0:4] == ["sysab", "campaign", "new", "c4"], (.line | startswith("sysab campaign new c4 ")), .why] | map(tostring) | join(" ")')
[ "$v" = "c4 true true null" ] || fail "plan --json: $v"
expect 0 "$SYSAB" plan 'campaign:c pti=on' 'campaign:c pti=off' --target 50% --json
[ "$(printf '%s' "$OUT" | jq -r 'has("campaign_line")')" = false ] || fail "plan --json without --campaign has a campaign_line"
# start again: the slot that lacks its run (and only it) is booted once more; then done
expect 0 "$SYSAB" campaign start c
contains "$OUT" "slot 2/4 lacks 1 run: booted again"
[ "$(wc -l <"$T/armed")" = 6 ] && contains "$(tail -n 1 "$T/armed")" "sysab.boot=c:1"
boot
expect 0 "$SYSAB" campaign resume c
contains "$OUT" "done"
[ "$(sqlite3 "$SYSAB_DB" "SELECT state FROM campaign WHERE name = 'c'")" = done ] || fail "c is not done after its slot was booted again"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign WHERE c.name = 'c'")" = 4 ] || fail "want 4 runs in c"
expect 2 "$SYSAB" campaign start c
contains "$ERR" "campaign 'c' is done"

# looks: analyzing a campaign before it is done is look K of a sequential design, counted
# in the campaign once the result is out; by hand (--look) nothing is counted; a done
# campaign looked at before is its final look; a failed analysis counts nothing
: >"$T/armed"
looks() { sqlite3 "$SYSAB_DB" "SELECT looks FROM campaign WHERE name = 'lk'"; }
new lk --backend command --boots 2 --config 'pti=on' --append 'pti=on' --command "$BOOTCMD" --config 'pti=off' --append 'pti=off' --command "$BOOTCMD" -- $RUN
expect 0 "$SYSAB" campaign start lk
boot
expect 0 "$SYSAB" campaign resume lk
expect 2 "$SYSAB" compare 'campaign:lk pti=on' 'campaign:lk pti=off'
[ "$(looks)" = 0 ] || fail "a compare that failed counted a look"
boot
expect 0 "$SYSAB" campaign resume lk
expect 0 "$SYSAB" compare 'campaign:lk pti=on' 'campaign:lk pti=off'
contains "$ERR" "this is look 1 of a group-sequential design with 2 boots"
[ "$(looks)" = 1 ] || fail "the first look was not counted: $(looks)"
expect 0 "$SYSAB" analyze --factors pti campaign:lk --json
[ "$(looks)" = 2 ] || fail "the second look was not counted: $(looks)"
expect 0 "$SYSAB" compare 'campaign:lk pti=on' 'campaign:lk pti=off' --look 1 --max-boots 2
[ "$(looks)" = 2 ] || fail "a look given by hand was counted"
boot
expect 0 "$SYSAB" campaign resume lk
boot
expect 0 "$SYSAB" campaign resume lk
contains "$OUT" "done"
expect 0 "$SYSAB" analyze --factors pti campaign:lk
contains "$ERR" "campaign lk is done: this is look 3"
[ "$(looks)" = 2 ] || fail "the final look was counted: $(looks)"
expect 0 "$SYSAB" compare 'campaign:c pti=on' 'campaign:c pti=off'
case "$ERR" in *look*) fail "a done campaign never looked at is not a sequential look: $ERR" ;; esac

# K consecutive failures stop it: no further boot is armed, the unit is removed
: >"$T/armed"
new f --backend command --boots 2 --max-failures 2 --config 'pti=on' --command "$BOOTCMD" --config 'pti=off' --command "$BOOTCMD" -- $RUN
expect 0 "$SYSAB" campaign start f
boot fail
expect 0 "$SYSAB" campaign resume f
boot fail
expect 2 "$SYSAB" campaign resume f
contains "$OUT" "2 consecutive slots failed"
contains "$ERR" "campaign 'f' failed: 2 consecutive slots failed"
[ "$(wc -l <"$T/armed")" = 2 ] || fail "armed more boots after K failures"
[ "$(sqlite3 "$SYSAB_DB" "SELECT state FROM campaign WHERE name = 'f'")" = failed ] || fail "not failed"
[ ! -e "$T/units/sysab-campaign-f.service" ] || fail "the unit stays after K failures"

# stop command and stop file: nothing is armed any more
: >"$T/armed"
new t --backend command --boots 2 --config 'pti=on' --command "$BOOTCMD" --config 'pti=off' --command "$BOOTCMD" -- $RUN
expect 0 "$SYSAB" campaign start t
expect 0 "$SYSAB" campaign stop t
[ ! -e "$T/units/sysab-campaign-t.service" ] || fail "stop left the unit"
boot
expect 2 "$SYSAB" campaign resume t
contains "$ERR" "stopped"
[ "$(wc -l <"$T/armed")" = 1 ] || fail "a stopped campaign armed a boot"
expect 0 "$SYSAB" campaign start t
boot
touch "$SYSAB_DB.t.stop"
expect 0 "$SYSAB" campaign resume t
contains "$OUT" "stopped on request"
[ "$(wc -l <"$T/armed")" = 2 ] || fail "the stop file did not stop the campaign"
[ "$(sqlite3 "$SYSAB_DB" "SELECT state FROM campaign WHERE name = 't'")" = stopped ] || fail "not stopped"
rm -f "$SYSAB_DB.t.stop"
db_ok "$SYSAB_DB"

# kexec and grub through a simulated boot loader: fake kexec, grub-reboot and systemctl on PATH
# record what they were asked; the "boot" then reports the entry the loader would have booted.
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$T/bin"
	for t in kexec grub-reboot systemctl; do
		printf '#!/bin/sh\necho "%s $*" >>"%s"\n' "$t" "$T/loader" >"$T/bin/$t"
		chmod +x "$T/bin/$t"
	done
	: >"$T/loader"
	new kx --backend kexec --boots 1 --config 'pti=on' --kernel /boot/vmlinuz-A --append 'ro pti=on' --config 'pti=off' --kernel /boot/vmlinuz-B --append 'ro pti=off' -- $RUN
	expect 0 env PATH="$T/bin:$PATH" "$SYSAB" campaign start kx
	contains "$(cat "$T/loader")" "kexec -l /boot/vmlinuz-"
	contains "$(cat "$T/loader")" "systemctl kexec"
	for i in 1 2; do
		# the kexec'd kernel boots with exactly the --append= command line that was loaded, and
		# its release is the one its file name says (no bzImage header to read here)
		sed -n 's/^kexec -l [^ ]* --append=\(.*\)$/\1/p' "$T/loader" | tail -n 1 >"$T/proc/cmdline"
		sed -n 's/^kexec -l \/boot\/vmlinuz-\([^ ]*\) .*$/\1/p' "$T/loader" | tail -n 1 >"$T/proc/osrelease"
		expect 0 env PATH="$T/bin:$PATH" "$SYSAB" campaign resume kx
	done
	[ "$(sqlite3 "$SYSAB_DB" "SELECT state FROM campaign WHERE name = 'kx'")" = done ] || fail "kexec campaign not done"
	[ "$(grep -c '^kexec -l' "$T/loader")" = 2 ] || fail "want 2 kexec loads"
	[ ! -e "$T/units/sysab-campaign-kx.service" ] || fail "kexec unit not removed"
	# the marker is there but another kernel release booted: the slot fails
	: >"$T/loader"
	new kr --backend kexec --boots 1 --config 'pti=on' --kernel /boot/vmlinuz-6.9.9 --append 'ro pti=on' -- $RUN
	expect 0 env PATH="$T/bin:$PATH" "$SYSAB" campaign start kr
	sed -n 's/^kexec -l [^ ]* --append=\(.*\)$/\1/p' "$T/loader" | tail -n 1 >"$T/proc/cmdline"
	echo 6.1.0-test >"$T/proc/osrelease"
	expect 2 env PATH="$T/bin:$PATH" "$SYSAB" campaign resume kr
	contains "$OUT" "wrong kernel: booted release 6.1.0-test, but /boot/vmlinuz-6.9.9 is 6.9.9"
	# grub (issue 52, item 5): an entry cannot carry the marker, so the image GRUB names in
	# BOOT_IMAGE= must be the configuration's --kernel. The two entries' kernels and the default
	# one announce the same release (fake bzImage headers) and every entry shares `quiet` with
	# the default: only the image tells a fallback to the default entry from the entry's boot.
	mkdir -p "$T/boot"
	for k in pn nopn; do
		f="$T/boot/vmlinuz-6.1.0-test-$k"
		head -c 1024 /dev/zero >"$f"
		printf 'HdrS' | dd of="$f" bs=1 seek=514 conv=notrunc 2>/dev/null
		printf '\000\001' | dd of="$f" bs=1 seek=526 conv=notrunc 2>/dev/null
		printf '6.1.0-test (fake@build) #1 SMP' | dd of="$f" bs=1 seek=768 conv=notrunc 2>/dev/null
	done
	: >"$T/loader"
	new gr --backend grub --boots 1 --config 'pti=on' --entry 'A' --kernel "$T/boot/vmlinuz-6.1.0-test-pn" --append 'quiet' \
		--config 'pti=off' --entry 'B' --kernel "$T/boot/vmlinuz-6.1.0-test-nopn" --append 'quiet' -- $RUN
	expect 0 env PATH="$T/bin:$PATH" "$SYSAB" campaign start gr
	e=$(sed -n 's/^grub-reboot //p' "$T/loader" | tail -n 1)
	[ "$e" = A ] && k=pn || k=nopn
	echo "BOOT_IMAGE=/vmlinuz-6.1.0-test-$k root=/dev/sda1 ro quiet" >"$T/proc/cmdline"
	echo 6.1.0-test >"$T/proc/osrelease"
	expect 0 env PATH="$T/bin:$PATH" "$SYSAB" campaign resume gr
	contains "$OUT" "slot 1/2: done"
	# the loader falls back to the default entry: the same release, `quiet` there too, but
	# another image: the slot fails, and the campaign ends failed (a slot lacks its run), exit 2
	echo "BOOT_IMAGE=/vmlinuz-6.1.0-test root=/dev/sda1 ro quiet" >"$T/proc/cmdline"
	expect 2 env PATH="$T/bin:$PATH" "$SYSAB" campaign resume gr
	contains "$OUT" "wrong kernel: booted 6.1.0-test with 'BOOT_IMAGE=/vmlinuz-6.1.0-test root=/dev/sda1 ro quiet': its image is /vmlinuz-6.1.0-test, not the configuration's --kernel $T/boot/vmlinuz-6.1.0-test-"
	contains "$ERR" "campaign 'gr' ended without all its runs"
	[ "$(grep -c '^systemctl reboot' "$T/loader")" = 2 ] || fail "want 2 grub reboots"
	[ ! -e "$T/units/sysab-campaign-gr.service" ] || fail "grub unit not removed"
	v=$(sqlite3 "$SYSAB_DB" "SELECT group_concat(s.state) FROM (SELECT s.state FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name = 'gr' ORDER BY s.slot) s")
	[ "$v" = "done,failed" ] || fail "grub slots: $v"
	# systemd stops every service on the way down, the one running sysab too: a `systemctl kexec`
	# killed by SIGTERM is the shutdown under way, not a failure (make check-kexec found the campaign
	# stopped and its unit removed this way); one that exits 1 is a failure
	printf '#!/bin/sh\necho "systemctl $*" >>"%s"\nkill -TERM $$\n' "$T/loader" >"$T/bin/systemctl"
	new kt --backend kexec --boots 1 --config 'pti=on' --kernel /boot/vmlinuz-A --config 'pti=off' --kernel /boot/vmlinuz-B -- $RUN
	expect 0 env PATH="$T/bin:$PATH" "$SYSAB" campaign start kt
	[ "$(sqlite3 "$SYSAB_DB" "SELECT state FROM campaign WHERE name = 'kt'")" = running ] || fail "a killed systemctl kexec stopped the campaign"
	[ -e "$T/units/sysab-campaign-kt.service" ] || fail "a killed systemctl kexec removed the unit"
	printf '#!/bin/sh\nexit 1\n' >"$T/bin/systemctl"
	new kf --backend kexec --boots 1 --config 'pti=on' --kernel /boot/vmlinuz-A --config 'pti=off' --kernel /boot/vmlinuz-B -- $RUN
	expect 2 env PATH="$T/bin:$PATH" "$SYSAB" campaign start kf
	[ "$(sqlite3 "$SYSAB_DB" "SELECT state FROM campaign WHERE name = 'kf'")" = stopped ] || fail "a failed systemctl kexec did not stop the campaign"
	[ ! -e "$T/units/sysab-campaign-kf.service" ] || fail "a failed systemctl kexec left the unit"
fi
db_ok "$SYSAB_DB"

# campaign new: the configurations as a table sorted by name (not in schedule order), then the
# schedule in boot order
export SYSAB_DB="$T/sorted.db"
expect 0 "$SYSAB" campaign new srt --backend command --boots 2 --config 'm=2' --command true --config 'm=1' \
	--command true --config 'a=9' --command true -- --quick -w harness.null
tab=$(printf '%s\n' "$OUT" | sed -n '/^configurations (by name), 2 boots each:$/,/^progress:/p' | awk 'NR > 2 && /^ / { print $1 " " $2 }')
[ "$(printf '%s' "$tab" | tr '\n' ',')" = "2 a=9,1 m=1,0 m=2" ] || fail "the configurations are not sorted: $tab; $OUT"
printf '%s\n' "$OUT" | sed -n '/^schedule (randomized, in boot order):$/,$p' | grep -q '^   0     0 ' ||
	fail "no schedule after the table: $OUT"

# a campaign damaged by other means (issue 52 item 10): campaign show without a name shows
# every good one and names the damaged one, exit 2 at the end; by name it is refused alone
H="$T/hurt.db"
for c in c-one c-two c-three; do
	expect 0 "$SYSAB" campaign new "$c" --db "$H" --backend command --boots 1 --config 'x=1' --command true
done
sqlite3 "$H" "UPDATE campaign SET options = '[1]' WHERE name = 'c-two'"
expect 2 "$SYSAB" campaign show --db "$H"
contains "$OUT" "c-one"
contains "$OUT" "c-three"
contains "$ERR" "campaign 'c-two'"
contains "$ERR" "options is not a JSON object"
contains "$ERR" "1 of 3 campaigns could not be shown (c-two"
expect 2 "$SYSAB" campaign show --db "$H" --json
[ "$(printf '%s' "$OUT" | jq -r '[.[].name] | join(",")')" = "c-one,c-three" ] || fail "show --json of the good campaigns: $OUT"
expect 0 "$SYSAB" campaign show c-three --db "$H"
expect 2 "$SYSAB" campaign show c-two --db "$H"
contains "$ERR" "damaged"
