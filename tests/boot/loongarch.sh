#!/bin/sh
# loongarch.sh - make check-boot-loongarch: a real campaign on LoongArch boots under qemu-system-loongarch64 (TCG).
# Debian unstable's loong64 kernel boots sysab's guest (a LoongArch sysab in a busybox
# initramfs) through the qemu backend, the architecture told from the kernel image's header:
# 2 configurations (init_on_free=1 and =0 on the kernel command line) x 2 boots. Every run
# must be on its own boot of that kernel (uname -m loongarch64, the configuration's command
# line) and tagged as measured under TCG; analyze and compare must give the same verdict (or
# an honest inconclusive) with the emulation caveat beside it. (Debian's loong64 kernel is
# built without KASLR, CONFIG_RANDOMIZE_BASE, so kaslr/nokaslr would compare a kernel with
# itself; init_on_free, zeroing every page as it is freed, is a switch this kernel has. With
# it the allocator skips zeroing at allocation, so kernel.fault.anon, whose munmap is
# untimed, tends to come out faster: any verdict passes, since it is TCG's noise that decides.)
# Timing is never asserted (the machine may be shared); timeouts are generous.
: "${SYSAB:?set SYSAB to the binary under test}" "${GUEST:?set GUEST to the LoongArch guest directory}"
: "${QEMU:?set QEMU to qemu-system-loongarch64}"
set -u
T=$(mktemp -d "${TMPDIR:-/tmp}/sysab-boot-la.XXXXXX")
mkdir -p "$T/tmp"
export TMPDIR="$T/tmp" SYSAB_DB="$T/results.db" HOME="$T/home"
# the whole target's time from CHECK_START (make check-boot-loongarch's first step, before the
# extraction of the sysroot, qemu and the guest), and this script's (the campaign's) own
start_all=$(date +%s)
start_target=${CHECK_START:-$start_all}
fail() {
	echo "FAIL: $*" >&2
	echo "(kept $T for inspection)" >&2
	exit 1
}
step() { echo "check-boot-loongarch: $* ($(($(date +%s) - start_all)) s)"; }
q() { sqlite3 "$SYSAB_DB" "$1"; }
# each run's environment value of key, one line per run, in run order
env_of() { q "SELECT e.value FROM environment e JOIN campaign_run cr ON cr.run = e.run WHERE e.key = '$1' ORDER BY e.run"; }
release=$(cat "$GUEST/kernel-release") || fail "no $GUEST/kernel-release"

step "campaign: init_on_free=1 vs 0, 2 boots each, kernel $release"
"$SYSAB" campaign new la --backend qemu --image "$GUEST" --qemu "$QEMU" --boots 2 --boot-timeout 600 \
	--config 'init_on_free=on' --append 'init_on_free=1' --config 'init_on_free=off' --append 'init_on_free=0' \
	-- --quick --samples 10 --sample-ms 20 -q -w kernel.syscall.null -w kernel.fault.anon >"$T/new.out" ||
	fail "campaign new: $(cat "$T/new.out")"
# the dry run: the LoongArch machine, told from the kernel's header, under TCG (no KVM for a foreign guest)
"$SYSAB" campaign start la --dry-run >"$T/dry.out" 2>&1 || fail "campaign start --dry-run: $(cat "$T/dry.out")"
grep -q "^accelerator: tcg, tcg: the guest is loongarch64 and this host $(uname -m) " "$T/dry.out" ||
	fail "the dry run chose no TCG for a LoongArch guest: $(grep accelerator "$T/dry.out")"
grep -q "would run: $QEMU -machine virt -accel tcg .* -kernel $GUEST/vmlinuz .*-append 'console=ttyS0 panic=-1 initcall_blacklist=i8042_init init_on_free=1 sysab.boot=la:[0-9]'" "$T/dry.out" ||
	fail "the dry run's qemu command line: $(grep 'would run' "$T/dry.out")"
t0=$(date +%s)
"$SYSAB" campaign start la >"$T/la.out" 2>&1
rc=$?
t1=$(date +%s)
sed 's/^/    /' "$T/la.out"
[ $rc = 0 ] || fail "campaign start la"
[ "$(q "SELECT state FROM campaign WHERE name = 'la'")" = done ] || fail "campaign la is not done"
[ "$(q "SELECT count(*) FROM campaign_slot WHERE state = 'done'")" = 4 ] || fail "not 4 slots done"
grep -q "campaign la: qemu emulates the guest's CPU (TCG, no KVM)" "$T/la.out" || fail "the campaign did not say it ran under TCG"

# every run on its own boot of the LoongArch kernel, with its configuration's command line
[ "$(q "SELECT count(DISTINCT b.boot_id) FROM campaign_run cr JOIN run r ON r.id = cr.run JOIN boot b ON b.id = r.boot")" = 4 ] ||
	fail "the 4 runs are not on 4 distinct boots"
[ "$(env_of kernel.arch | sort -u)" = loongarch64 ] || fail "kernel.arch of the runs: $(env_of kernel.arch | tr '\n' ' ')"
[ "$(env_of arch.build | sort -u)" = loongarch64 ] || fail "arch.build of the runs: $(env_of arch.build | tr '\n' ' ')"
[ "$(env_of kernel.release | sort -u)" = "$release" ] || fail "kernel.release of the runs: $(env_of kernel.release | tr '\n' ' ')"
[ "$(env_of campaign.accel | sort -u)" = tcg ] || fail "campaign.accel of the runs: $(env_of campaign.accel | tr '\n' ' ')"
case $(env_of campaign.accel_note | sort -u) in "tcg: the guest is loongarch64 and this host "*) ;;
*) fail "campaign.accel_note: $(env_of campaign.accel_note | sort -u)" ;; esac
bad=$(q "SELECT count(*) FROM campaign_run cr JOIN label l ON l.run = cr.run AND l.key = 'init_on_free'
	JOIN environment e ON e.run = cr.run AND e.key = 'kernel.cmdline'
	WHERE e.value NOT LIKE 'console=ttyS0 panic=-1 initcall_blacklist=i8042_init init_on_free=' ||
		CASE l.value WHEN 'on' THEN '1' ELSE '0' END || ' sysab.boot=la:' || cr.slot")
[ "$bad" = 0 ] || fail "$bad runs booted another command line than their configuration's"
q "SELECT l.value || ': ' || e.value FROM campaign_run cr JOIN label l ON l.run = cr.run AND l.key = 'init_on_free'
	JOIN environment e ON e.run = cr.run AND e.key = 'kernel.cmdline' ORDER BY cr.slot" | sed 's/^/    /'
step "4 boots in $((t1 - t0)) s ($(((t1 - t0) / 4)) s per boot, runs included), every one loongarch64 $release"

# the verdict, the same from analyze and compare, with the emulation caveat beside it
"$SYSAB" analyze campaign:la >"$T/analyze.txt" || fail "analyze campaign:la"
sed 's/^/    /' "$T/analyze.txt"
grep -q "^emulated: some of the runs were measured under an emulator (qemu TCG:" "$T/analyze.txt" ||
	fail "analyze shows no emulation caveat"
line=$(grep -A4 '^kernel.fault.anon' "$T/analyze.txt" | grep '^  init_on_free: on vs off ') ||
	fail "analyze has no init_on_free effect line for kernel.fault.anon"
va=$(echo "$line" | grep -oE ' (faster|slower|equivalent|inconclusive)( |$)' | tr -d ' ') ||
	fail "analyze's verdict line has no verdict: $line"
vj=$("$SYSAB" analyze campaign:la --json | jq -r '.rows[] | select(.workload == "kernel.fault.anon") | .effects[0].verdict')
[ "$(jq '.emulated | length' <<EOF
$("$SYSAB" analyze campaign:la --json)
EOF
)" = 1 ] || fail "analyze --json has no emulated entry"
"$SYSAB" compare 'campaign:la init_on_free=off' 'campaign:la init_on_free=on' >"$T/compare.txt" || fail "compare"
grep -q "emulated: runs of A and B were measured under an emulator" "$T/compare.txt" || fail "compare shows no emulation caveat"
vc=$("$SYSAB" compare 'campaign:la init_on_free=off' 'campaign:la init_on_free=on' --json |
	jq -r '.rows[] | select(.workload == "kernel.fault.anon") | .verdict')
[ "$vj" = "$vc" ] || fail "analyze says $vj, compare $vc for kernel.fault.anon"
[ "$va" = "$vj" ] || fail "analyze's text says '$va', its JSON '$vj'"
step "kernel.fault.anon, init_on_free on vs off: $vj (analyze and compare agree; emulation caveat shown): $line"

pgrep -f "sysab.boot=la:" >/dev/null && fail "qemu processes left behind"
[ -z "$(ls -A "$TMPDIR")" ] || fail "temp files left: $(ls -A "$TMPDIR")"
now=$(date +%s)
echo "check-boot-loongarch: all passed ($((now - start_target)) s in all, of which the campaign and its checks $((now - start_all)) s)"
rm -rf "$T"
