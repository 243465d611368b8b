# campaign safety (issue 33): one driver (the lease), exact runs after kills, stop before every
# boot, validated records, private per-slot files, quoted units and dry runs, the KVM probe.
# A fake qemu-system-x86_64 on PATH plays the guest: it runs the job's `sysab run` lines on
# this host and sends the database back on the data channel, as scripts/guest-init.sh does.
RUN="--quick -w harness.null --samples 3 --sample-ms 10 --warmup-ms 0 -q"
mkdir -p "$T/bin" "$T/img" "$T/proc" "$T/units"
echo kernel >"$T/img/vmlinuz"
echo initramfs >"$T/img/initramfs.cpio.gz"
cat >"$T/bin/qemu-system-x86_64" <<'FAKE'
#!/bin/sh
accel= append= con= data= initrd=
while [ $# -gt 0 ]; do
	case "$1" in
	-accel) accel=$2; shift ;;
	-append) append=$2; shift ;;
	-initrd) initrd=$2; shift ;;
	-serial) if [ -z "$con" ]; then con=${2#file:}; else data=${2#file:}; fi; shift ;;
	esac
	shift
done
echo "boot $accel $append" >>"$FAKE_LOG"
# killed at once, before the guest prints anything, as the OOM killer would: the slot whose
# marker is $FAKE_KILL, every time, or only its first boot with FAKE_KILL_ONCE
m=${append##*sysab.boot=}
m=${m%% *}
if [ "$m" = "${FAKE_KILL:-}" ] && { [ -z "${FAKE_KILL_ONCE:-}" ] || [ ! -e "$FAKE_LOG.killed.$m" ]; }; then
	: >"$FAKE_LOG.killed.$m"
	kill -KILL $$
fi
# under KVM the guest hangs silently, as on this project's machines (unless FAKE_KVM_OK)
[ "$accel" = kvm ] && [ -z "${FAKE_KVM_OK:-}" ] && exec sleep 30
{ echo "Linux version 6.1.0-fake"; echo "Kernel command line: $append"; echo "sysab guest: running"; } >"$con"
g=$(dirname "$data")/fake-guest.db
rm -f "$g"
rc=0
grep -a '^sysab run --db /tmp/guest.db' "$initrd" | sed "s|^sysab run --db /tmp/guest.db|\"\$SYSAB\" run --db \"\$g\"|" >"$g.sh"
. "$g.sh"
rm -f "$g.sh"
sleep "${FAKE_SLEEP:-0}"
{
	echo "SYSAB-BOOT-ID $(cat /proc/sys/kernel/random/uuid)"
	echo "SYSAB-KERNEL 6.1.0-fake"
	echo "SYSAB-CMDLINE $append"
	echo "SYSAB-STATUS $rc"
	if [ -f "$g" ]; then echo "SYSAB-DB-BEGIN $(wc -c <"$g")"; base64 "$g"; echo "SYSAB-DB-END"; fi
	echo "SYSAB-DONE"
} >"$data"
rm -f "$g"
FAKE
chmod +x "$T/bin/qemu-system-x86_64"
export PATH="$T/bin:$PATH" FAKE_LOG="$T/boots" SYSAB
: >"$T/boots"
q() { n=$1; shift; expect 0 "$SYSAB" campaign new "$n" --backend qemu --image "$T/img" --accel tcg --unit-dir "$T/units" "$@"; }
sql() { sqlite3 "${DB:-$SYSAB_DB}" "$1"; }
runs_of() { sql "SELECT count(*) FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign WHERE c.name = '$1'"; }

# the fake guest works: 2 slots, 2 runs each, exactly 4 runs, tagged with the accelerator
q ok --boots 1 --runs 2 --config 'pti=on' --config 'pti=off' -- $RUN
expect 0 "$SYSAB" campaign start ok
[ "$(runs_of ok)" = 4 ] || fail "want 4 runs, got $(runs_of ok)"
[ "$(sql "SELECT count(*) FROM environment e JOIN campaign_run cr ON cr.run = e.run WHERE e.key = 'campaign.accel' AND e.value = 'tcg'")" = 4 ] ||
	fail "runs are not tagged campaign.accel=tcg"
expect 0 "$SYSAB" campaign show ok --json
contains "$OUT" '"state": "done"'
contains "$OUT" '"done": 2'

# 1. one driver: a second start (or resume) while the first drives refuses and names it;
#    the two together store exactly the planned runs
: >"$T/boots"
q one --boots 2 --config 'pti=on' --config 'pti=off' -- $RUN
FAKE_SLEEP=1 "$SYSAB" campaign start one >"$T/first.out" 2>&1 &
first=$!
i=0
while [ ! -s "$T/boots" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
expect 2 "$SYSAB" campaign start one
contains "$ERR" "is driven by another sysab (pid $first on"
expect 2 "$SYSAB" campaign resume one
contains "$ERR" "pid $first"
wait $first || fail "the first start failed: $(cat "$T/first.out")"
[ "$(runs_of one)" = 4 ] || fail "two starts stored $(runs_of one) runs, want 4"
[ "$(wc -l <"$T/boots")" = 4 ] || fail "two starts booted $(wc -l <"$T/boots") times, want 4"
#    a stale lease (its driver gone) is taken over
q stale --boots 1 --config 'pti=on' -- $RUN
echo "pid 999999 on elsewhere since 2026-01-01 00:00:00 UTC" >"$SYSAB_DB.campaign-stale.lease"
expect 0 "$SYSAB" campaign start stale
contains "$OUT" "took over the stale lease"
[ "$(runs_of stale)" = 1 ] || fail "stale: $(runs_of stale) runs"

# 2. killed between merging the guest's database and recording the slot: the runs are attached
#    with the merge; resume boots nothing again and adds no run
: >"$T/boots"
q crash --boots 1 --runs 2 --config 'pti=on' -- $RUN
SYSAB_CAMPAIGN_CRASH=after-merge "$SYSAB" campaign start crash >/dev/null 2>&1
[ "$(runs_of crash)" = 2 ] || fail "after the kill the slot holds $(runs_of crash) runs, want 2"
[ "$(sql "SELECT s.state FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name = 'crash'")" = booting ] ||
	fail "the kill did not hit between merge and record"
expect 0 "$SYSAB" campaign resume crash
[ "$(runs_of crash)" = 2 ] || fail "resume added runs: $(runs_of crash)"
[ "$(wc -l <"$T/boots")" = 1 ] || fail "resume booted the slot again"
[ "$(sql "SELECT state FROM campaign WHERE name = 'crash'")" = done ] || fail "crash campaign not done"
[ "$(sql "SELECT count(*) FROM run WHERE id NOT IN (SELECT run FROM campaign_run)")" = 0 ] || fail "orphan runs after the kill"

# 3. a guest killed early in its boot (issue 52, item 4: the OOM killer took qemu): the slot is
#    retried like any interrupted boot and the campaign ends done with exactly its planned runs;
#    with its attempts spent it is skipped and the campaign ends failed, exit 2, naming the slot
#    and `campaign start`, which boots it again
attempts_of() { sql "SELECT s.attempts FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name = '$1' AND s.slot = $2"; }
: >"$T/boots"
q kq --boots 2 --config 'pti=on' -- $RUN
FAKE_KILL=kq:0 FAKE_KILL_ONCE=1 expect 0 "$SYSAB" campaign start kq
contains "$OUT" "slot 1/2: interrupted: qemu was killed by signal 9 (Killed) early in the boot, by no one sysab knows"
[ "$(sql "SELECT state FROM campaign WHERE name = 'kq'")" = done ] || fail "kq is not done"
[ "$(runs_of kq)" = 2 ] || fail "kq: $(runs_of kq) runs, want 2"
[ "$(attempts_of kq 0)" = 2 ] && [ "$(attempts_of kq 1)" = 1 ] || fail "kq: attempts $(attempts_of kq 0) and $(attempts_of kq 1)"
[ "$(wc -l <"$T/boots")" = 3 ] || fail "kq booted $(wc -l <"$T/boots") times, want 3"
#    the duet: the killed guest's partner ends done, the killed one is retried alone
if [ "$(nproc)" -ge 2 ]; then
	: >"$T/boots"
	q kd --duet --boots 1 --config 'k=a' --config 'k=b' -- $RUN
	FAKE_KILL=kd:0 FAKE_KILL_ONCE=1 expect 0 "$SYSAB" campaign start kd
	contains "$OUT" "slot 1/2: interrupted: qemu was killed by signal 9"
	[ "$(sql "SELECT state FROM campaign WHERE name = 'kd'")" = done ] || fail "kd is not done"
	[ "$(runs_of kd)" = 2 ] || fail "kd: $(runs_of kd) runs, want 2"
	[ "$(attempts_of kd 0)" = 2 ] || fail "kd: slot 0 made $(attempts_of kd 0) attempts, want 2"
	[ "$(wc -l <"$T/boots")" = 3 ] || fail "kd booted $(wc -l <"$T/boots") times, want 3"
	contains "$(sql "SELECT e.value FROM environment e JOIN campaign_run cr ON cr.run = e.run JOIN campaign c ON c.id = cr.campaign WHERE c.name = 'kd' AND cr.slot = 0 AND e.key = 'campaign.duet_partner_slot'")" "none (booted alone"
fi
#    attempts spent: never done, never exit 0; `start` boots the slot again
: >"$T/boots"
q kx --boots 1 --config 'pti=on' -- $RUN
FAKE_KILL=kx:0 expect 2 "$SYSAB" campaign start kx
contains "$ERR" "campaign 'kx' ended without all its runs, so it is failed, not done: slot 1/1 (pti=on) skipped after 2 attempts, 1 of 1 runs missing: interrupted again on its retry"
contains "$ERR" "\`$SYSAB campaign start kx\` boots these slots again"
[ "$(sql "SELECT state FROM campaign WHERE name = 'kx'")" = failed ] || fail "kx is not failed"
[ "$(wc -l <"$T/boots")" = 2 ] || fail "kx booted $(wc -l <"$T/boots") times, want 2"
expect 0 "$SYSAB" campaign show kx --json
contains "$OUT" '"state": "failed"'
expect 0 "$SYSAB" campaign start kx
contains "$OUT" "slot 1/1 lacks 1 run: booted again"
[ "$(sql "SELECT state FROM campaign WHERE name = 'kx'")" = done ] || fail "kx is not done after start"
[ "$(runs_of kx)" = 1 ] || fail "kx: $(runs_of kx) runs, want 1"

# 4. stop while qemu drives: no boot after the slot under way, state stopped
: >"$T/boots"
q st --boots 3 --config 'pti=on' --config 'pti=off' -- $RUN
FAKE_SLEEP=2 "$SYSAB" campaign start st >"$T/st.out" 2>&1 &
pid=$!
i=0
while [ ! -s "$T/boots" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
expect 0 "$SYSAB" campaign stop st
wait $pid
[ "$(wc -l <"$T/boots")" = 1 ] || fail "stopped campaign booted $(wc -l <"$T/boots") times"
[ "$(sql "SELECT state FROM campaign WHERE name = 'st'")" = stopped ] || fail "not stopped: $(cat "$T/st.out")"

# 7. per-slot files: a planted symlink is not followed
echo precious >"$T/victim"
q ln --boots 1 --config 'pti=on' -- $RUN
ln -s "$T/victim" "$SYSAB_DB.campaign-ln.slot0.try1.log"
ln -s "$T/victim" "$SYSAB_DB.campaign-ln.slot0.try1.db"
expect 0 "$SYSAB" campaign start ln
[ "$(cat "$T/victim")" = precious ] || fail "a planted symlink was followed"
[ -f "$SYSAB_DB.campaign-ln.slot0.try1.log" ] && [ ! -L "$SYSAB_DB.campaign-ln.slot0.try1.log" ] || fail "no console log kept"

# 10. KVM: a device that opens but a guest silent under it: the bounded probe falls back to tcg,
#     says why, and records it in every run; a working KVM is kept; no device: tcg with the reason
: >"$T/boots"
expect 0 "$SYSAB" campaign new kv --backend qemu --image "$T/img" --boots 1 --config 'pti=on' -- $RUN
SYSAB_KVM_DEV=/dev/null SYSAB_KVM_PROBE_S=1 expect 0 "$SYSAB" campaign start kv
contains "$OUT" "tcg: under kvm the guest kernel printed nothing within 1 s"
[ "$(head -n 1 "$T/boots" | cut -d' ' -f2)" = kvm ] && [ "$(sed -n 2p "$T/boots" | cut -d' ' -f2)" = tcg ] || fail "boots: $(cat "$T/boots")"
contains "$(sql "SELECT e.value FROM environment e JOIN campaign_run cr ON cr.run = e.run JOIN campaign c ON c.id = cr.campaign WHERE c.name = 'kv' AND e.key = 'campaign.accel_note'")" "printed nothing within 1 s"
[ "$(sql "SELECT e.value FROM environment e JOIN campaign_run cr ON cr.run = e.run JOIN campaign c ON c.id = cr.campaign WHERE c.name = 'kv' AND e.key = 'campaign.accel'")" = tcg ] || fail "kv: accel not tcg"
expect 0 "$SYSAB" campaign new kw --backend qemu --image "$T/img" --boots 1 --config 'pti=on' -- $RUN
FAKE_KVM_OK=1 SYSAB_KVM_DEV=/dev/null SYSAB_KVM_PROBE_S=5 expect 0 "$SYSAB" campaign start kw
[ "$(sql "SELECT e.value FROM environment e JOIN campaign_run cr ON cr.run = e.run JOIN campaign c ON c.id = cr.campaign WHERE c.name = 'kw' AND e.key = 'campaign.accel'")" = kvm ] || fail "kw: a working kvm was not kept"
#     a first KVM boot killed before the guest kernel said anything settles nothing: the retry
#     probes again and falls back to tcg (it was taken for a working KVM, and hung)
: >"$T/boots"
expect 0 "$SYSAB" campaign new kp --backend qemu --image "$T/img" --boots 1 --config 'pti=on' -- $RUN
FAKE_KILL=kp:0 FAKE_KILL_ONCE=1 SYSAB_KVM_DEV=/dev/null SYSAB_KVM_PROBE_S=1 expect 0 "$SYSAB" campaign start kp
contains "$OUT" "tcg: under kvm the guest kernel printed nothing within 1 s"
[ "$(cut -d' ' -f2 "$T/boots" | tr '\n' ' ')" = "kvm kvm tcg " ] || fail "kp boots: $(cat "$T/boots")"
[ "$(runs_of kp)" = 1 ] || fail "kp: $(runs_of kp) runs"
expect 0 "$SYSAB" campaign new kn --backend qemu --image "$T/img" --boots 1 --config 'pti=on' -- $RUN
SYSAB_KVM_DEV="$T/no-kvm" expect 0 "$SYSAB" campaign start kn --dry-run
contains "$OUT" "accelerator: tcg, tcg: /dev/kvm cannot be opened (No such file or directory)"
contains "$OUT" "-accel tcg"

# 11. guest architectures (issue 35): told from the kernel image's header (a PE/EFI image or an
#     ELF file of LoongArch: qemu-system-loongarch64 -machine virt), or given by --arch; a guest
#     foreign to the host runs under tcg even when a KVM device opens, --accel kvm refuses it;
#     --qemu names the binary. (Under qemu-user for loongarch64 the host is loongarch64 itself.)
host_arch=$("$SYSAB" env | awk '$1 == "kernel.arch" { print $2 }')
[ -n "$host_arch" ] || fail "sysab env names no kernel.arch"
if [ "$host_arch" != loongarch64 ]; then
	mkdir -p "$T/la-pe" "$T/la-elf"
	# "MZ", the PE header's offset (0x40) at 0x3c, "PE\0\0" and machine 0x6264 (LoongArch64)
	{ printf 'MZ'; head -c 58 /dev/zero; printf '\100\000\000\000PE\000\000\144\142'; head -c 64 /dev/zero; } >"$T/la-pe/vmlinuz"
	# an ELF header with e_machine 258 (EM_LOONGARCH)
	{ printf '\177ELF\002\001\001'; head -c 11 /dev/zero; printf '\002\001'; head -c 64 /dev/zero; } >"$T/la-elf/vmlinuz"
	cp "$T/img/initramfs.cpio.gz" "$T/la-pe/"
	cp "$T/img/initramfs.cpio.gz" "$T/la-elf/"
	ln -s qemu-system-x86_64 "$T/bin/qemu-system-loongarch64"
	for img in la-pe la-elf; do
		expect 0 "$SYSAB" campaign new "$img" --backend qemu --image "$T/$img" --boots 1 --config 'pti=on' --append 'x=1' -- $RUN
		SYSAB_KVM_DEV=/dev/null expect 0 "$SYSAB" campaign start "$img" --dry-run
		# the host as sysab sees it: under qemu-user (make check-cross) the emulated architecture
		contains "$OUT" "accelerator: tcg, tcg: the guest is loongarch64 and this host $host_arch (KVM runs the host's architecture only)"
		contains "$OUT" "would run: qemu-system-loongarch64 -machine virt -accel tcg -m 512 -smp 1 -kernel $T/$img/vmlinuz"
		contains "$OUT" "-append 'console=ttyS0 panic=-1 initcall_blacklist=i8042_init x=1 sysab.boot=$img:0'"
	done
	: >"$T/boots"
	SYSAB_KVM_DEV=/dev/null expect 0 "$SYSAB" campaign start la-pe
	[ "$(cat "$T/boots")" = "boot tcg console=ttyS0 panic=-1 initcall_blacklist=i8042_init x=1 sysab.boot=la-pe:0" ] ||
		fail "la-pe booted: $(cat "$T/boots")"
	contains "$(sql "SELECT e.value FROM environment e JOIN campaign_run cr ON cr.run = e.run JOIN campaign c ON c.id = cr.campaign WHERE c.name = 'la-pe' AND e.key = 'campaign.accel_note'")" "the guest is loongarch64"
	# a plain EFI image announces its release in its banner: the fake guest's 6.1.0-fake, or another
	mkdir -p "$T/la-rel" "$T/la-other"
	for d in la-rel:6.1.0-fake la-other:9.9.9-other; do
		{ cat "$T/la-pe/vmlinuz"; printf 'Linux version %%s (\000Linux version %s (builder) #1\n' "${d#*:}"; } >"$T/${d%%:*}/vmlinuz"
		cp "$T/img/initramfs.cpio.gz" "$T/${d%%:*}/"
		expect 0 "$SYSAB" campaign new "${d%%:*}" --backend qemu --image "$T/${d%%:*}" --boots 1 --config 'pti=on' -- $RUN
		# the wrong release fails la-other's only slot: the campaign lacks its run, exit 2
		[ "${d%%:*}" = la-rel ] && want=0 || want=2
		expect $want "$SYSAB" campaign start "${d%%:*}"
	done
	[ "$(sql "SELECT s.state FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name = 'la-rel'")" = done ] ||
		fail "la-rel: the slot whose image announces the booted release is not done"
	contains "$(sql "SELECT s.reason FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name = 'la-other'")" \
		"wrong kernel: booted release 6.1.0-fake, but $T/la-other/vmlinuz is 9.9.9-other"
	expect 0 "$SYSAB" campaign new la-kvm --backend qemu --image "$T/la-pe" --accel kvm --boots 1 --config 'pti=on' -- $RUN
	SYSAB_KVM_DEV=/dev/null expect 2 "$SYSAB" campaign start la-kvm --dry-run
	contains "$ERR" "asks --accel kvm, but its guest is loongarch64 and this host $host_arch"
	expect 0 "$SYSAB" campaign new la-x86 --backend qemu --image "$T/la-pe" --arch x86_64 --qemu "$T/bin/qemu-system-x86_64" \
		--boots 1 --config 'pti=on' -- $RUN
	SYSAB_KVM_DEV="$T/no-kvm" expect 0 "$SYSAB" campaign start la-x86 --dry-run
	contains "$OUT" "would run: $T/bin/qemu-system-x86_64 -machine q35 -accel tcg"
	contains "$OUT" "-append 'console=ttyS0 panic=-1 sysab.boot=la-x86:0'"
	expect 2 "$SYSAB" campaign new la-bad --backend qemu --arch riscv64 --boots 1 --config 'pti=on' -- $RUN
	contains "$ERR" "--arch riscv64"
fi

# issue 30 item 9: dry runs can be pasted: each command round-trips through sh, with the
# accelerator chosen (never auto)
hostile="pti=on x='a b' \"q\" \$(touch $T/pwned) \`id\` * ; \\ end"
expect 0 "$SYSAB" campaign new dq --backend qemu --image "$T/img" --boots 1 --config 'pti=on' --append "$hostile" -- $RUN
SYSAB_KVM_DEV="$T/no-kvm" expect 0 "$SYSAB" campaign start dq --dry-run
line=$(printf '%s\n' "$OUT" | sed -n 's/^  would run: //p' | head -n 1)
case "$line" in *"-accel auto"*) fail "dry run says -accel auto" ;; esac
got=$(sh -c "set -- $line; while [ \$# -gt 0 ]; do [ \"\$1\" = -append ] && printf '%s' \"\$2\"; shift; done")
[ "$got" = "console=ttyS0 panic=-1 $hostile sysab.boot=dq:0" ] || fail "the -append did not round-trip: $got"
[ ! -e "$T/pwned" ] || fail "the dry run's command ran a substitution"
new_cmd() { expect 0 "$SYSAB" campaign new --unit-dir "$T/units" "$@"; }
new_cmd dc --backend command --boots 1 --config 'pti=on' --command "echo 'it''s' \$SYSAB_SLOT" -- $RUN
expect 0 "$SYSAB" campaign start dc --dry-run
line=$(printf '%s\n' "$OUT" | sed -n 's/^  would run: //p' | head -n 1)
got=$(sh -c "$line")
[ "$got" = "its 0" ] || fail "the command backend's dry run did not run as printed: $got"

# 8. the unit's ExecStart= quoted by systemd's rules for a database path with space, % and $
odd="$T/my dir %h \$HOME"
mkdir -p "$odd"
DB="$odd/r.db"
expect 0 "$SYSAB" campaign new u --db "$DB" --backend command --unit-dir "$T/units" --boots 1 --config 'pti=on' --command true -- $RUN
expect 0 "$SYSAB" campaign start u --db "$DB" --dry-run
exec_line=$(printf '%s\n' "$OUT" | grep '^ExecStart=')
[ "$exec_line" = "ExecStart=$SYSAB campaign resume u --db \"$T/my dir %%h \$\$HOME/r.db\"" ] || fail "unquoted unit: $exec_line"
unset DB

# 9. the stop file is derived from the database path, never from a stored field; names are
#    checked whenever read
echo precious >"$T/victim2"
new_cmd sf --backend command --boots 1 --config 'pti=on' --command true -- $RUN
sql "UPDATE campaign SET options = json_set(options, '\$.stop_file', '$T/victim2') WHERE name = 'sf'"
expect 0 "$SYSAB" campaign start sf
[ -f "$T/victim2" ] || fail "start unlinked a stored stop_file"
expect 0 "$SYSAB" campaign stop sf

# 3. reboot backend: an unrelated `sysab run` during a slot is not attached; a resume killed
#    during the slot's runs is finished by the next to exactly the planned runs, no orphan
export SYSAB_CAMPAIGN_PROC="$T/proc"
echo 6.1.0-test >"$T/proc/osrelease"
cat /proc/sys/kernel/random/uuid >"$T/proc/boot_id"
DB="$T/k.db"
expect 0 "$SYSAB" campaign new k3 --db "$DB" --unit-dir "$T/units" --backend command --boots 1 --runs 3 --config 'pti=on' --command "printf '%s' \"\$SYSAB_APPEND\" >$T/proc/cmdline" -- --quick -w harness.null --samples 20 --sample-ms 20 --warmup-ms 0 -q
expect 0 "$SYSAB" campaign start k3 --db "$DB"
expect 0 "$SYSAB" run --db "$DB" $RUN -l unrelated=yes
"$SYSAB" campaign resume k3 --db "$DB" >"$T/k3.out" 2>&1 &
pid=$!
i=0
while [ "$(sql "SELECT count(*) FROM campaign_run")" -lt 1 ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
kill -9 $pid
wait $pid 2>/dev/null
sleep 2 # the killed resume's `sysab run` child ends on its own
[ "$(sql "SELECT state FROM campaign_slot")" = running ] || fail "k3: the kill came too late: $(cat "$T/k3.out")"
expect 0 "$SYSAB" campaign resume k3 --db "$DB"
[ "$(sql "SELECT count(*) FROM campaign_run")" = 3 ] || fail "k3: $(sql "SELECT count(*) FROM campaign_run") runs, want 3"
[ "$(sql "SELECT state FROM campaign")" = done ] || fail "k3 not done"
[ "$(sql "SELECT count(*) FROM run WHERE id NOT IN (SELECT run FROM campaign_run)")" = 1 ] || fail "k3: orphans or the unrelated run attached"
[ "$(sql "SELECT count(*) FROM campaign_run cr JOIN label l ON l.run = cr.run WHERE l.key = 'unrelated'")" = 0 ] || fail "the unrelated run was attached"

# 4b. stop during a reboot backend's resume: the next slot is not armed
: >"$T/armed"
expect 0 "$SYSAB" campaign new k4 --db "$DB" --unit-dir "$T/units" --backend command --boots 1 --runs 3 --config 'pti=on' --command "printf '%s' \"\$SYSAB_APPEND\" >$T/proc/cmdline; echo x >>$T/armed" --config 'pti=off' --command "printf '%s' \"\$SYSAB_APPEND\" >$T/proc/cmdline; echo x >>$T/armed" -- --quick -w harness.null --samples 20 --sample-ms 20 --warmup-ms 0 -q
expect 0 "$SYSAB" campaign start k4 --db "$DB"
"$SYSAB" campaign resume k4 --db "$DB" >"$T/k4.out" 2>&1 &
pid=$!
sleep 0.3
expect 0 "$SYSAB" campaign stop k4 --db "$DB"
wait $pid
[ "$(wc -l <"$T/armed")" = 1 ] || fail "k4: a boot was armed after the stop: $(cat "$T/k4.out")"
[ "$(sql "SELECT state FROM campaign WHERE name = 'k4'")" = stopped ] || fail "k4 not stopped"
unset DB

# 6 and 9. damaged records (hand-edited or imported) give a clear error, never a crash
new_cmd bad --backend command --boots 1 --config 'pti=on' --command true --config 'pti=off' --command true -- $RUN
sql "UPDATE campaign_slot SET config = 7 WHERE slot = 0 AND campaign = (SELECT id FROM campaign WHERE name = 'bad')"
expect 2 "$SYSAB" campaign show bad
contains "$ERR" "slot 0 names configuration 7, but there are 2"
expect 2 "$SYSAB" campaign start bad
contains "$ERR" "damaged"
sql "UPDATE campaign_slot SET config = 0 WHERE slot = 0 AND campaign = (SELECT id FROM campaign WHERE name = 'bad')"
sql "UPDATE campaign SET run_args = '5' WHERE name = 'bad'"
expect 2 "$SYSAB" campaign show bad
contains "$ERR" "run_args is not a JSON array"
sql "UPDATE campaign SET run_args = '[\"--quick\"]', name = 'a' || char(10) || 'b' WHERE name = 'bad'"
expect 2 "$SYSAB" campaign show
contains "$ERR" "campaign name"
cp "$SYSAB_DB" "$T/other.db"
sql "DELETE FROM campaign WHERE name = 'a' || char(10) || 'b'"
expect 0 "$SYSAB" campaign new imp --db "$T/imp.db" --backend command --boots 1 --config 'pti=on' --command true -- $RUN
sqlite3 "$T/other.db" "UPDATE campaign SET name = 'dmg' WHERE name LIKE 'a%b'; UPDATE campaign_slot SET config = 9 WHERE campaign = (SELECT id FROM campaign WHERE name = 'dmg')"
"$SYSAB" import db --db "$T/imp.db" "$T/other.db" >/dev/null 2>&1
if sqlite3 "$T/imp.db" "SELECT 1 FROM campaign WHERE name = 'dmg'" | grep -q 1; then
	expect 2 "$SYSAB" campaign show dmg --db "$T/imp.db"
	contains "$ERR" "names configuration 9"
fi
expect 2 "$SYSAB" campaign show 'x
y'
contains "$ERR" "campaign name"
db_ok "$SYSAB_DB"
