#!/bin/sh
# run.sh - make check-kexec: the self-rebooting path for real. A QEMU guest running Debian with
# systemd and kexec-tools (scripts/kexec-image.sh) plans a kexec campaign of 2 configurations x 2
# boots on its first boot and starts it; sysab's resume unit then kexecs the guest into each
# slot's command line, runs, and kexecs again until the campaign is done and the unit is gone;
# the driver powers off. The host then reads the guest's database out of the disk image
# (debugfs, nothing mounted) and checks: the campaign done, 4 runs on 4 distinct boots, each
# labelled and booted as its slot's configuration, unixbench.execl and kernel.proc.exec ok in each
# (the image carries both exec helpers), the resume unit removed.
# Timing is never asserted; the guest is killed after KEXEC_TIMEOUT seconds (default 1500).
: "${SYSAB:?set SYSAB to the binary under test}" "${KEXEC:?set KEXEC to the kexec guest directory}"
set -u
T=$(mktemp -d "${TMPDIR:-/tmp}/sysab-kexec.XXXXXX")
start=$(date +%s)
fail() {
	echo "FAIL: $*" >&2
	[ -s "$T/console.log" ] && tail -n 40 "$T/console.log" | tr -d '\r' >&2
	echo "(kept $T for inspection)" >&2
	exit 1
}
step() { echo "check-kexec: $* ($(($(date +%s) - start)) s)"; }
cp "$KEXEC/disk.img" "$T/disk.img" || fail "no guest disk image in $KEXEC (make check-kexec builds it)"
step "booting the guest (TCG); the campaign kexecs it 4 times"
timeout -k 10 "${KEXEC_TIMEOUT:-1500}" qemu-system-x86_64 -accel tcg -m 1024 -smp 1 -nographic -no-reboot \
	-kernel "$KEXEC/vmlinuz" -initrd "$KEXEC/initrd.img" \
	-append "root=/dev/vda rw console=ttyS0 panic=-1 systemd.show_status=0" \
	-drive "file=$T/disk.img,format=raw,if=virtio" -nic none </dev/null >"$T/console.log" 2>&1
rc=$?
step "the guest stopped (qemu exit $rc)"
grep -a "check-kexec:" "$T/console.log" | tr -d '\r'
[ $rc = 0 ] || fail "qemu exit $rc (124: timed out)"
grep -aq "check-kexec: FAILED" "$T/console.log" && fail "the guest driver reported a failure"
grep -aq "SYSAB-KEXEC-DONE" "$T/console.log" || fail "the guest never reported the campaign done"
kexecs=$(grep -ac "kexec_core: Starting new kernel" "$T/console.log")
[ "$kexecs" = 4 ] || fail "$kexecs kexecs on the console, want 4 (one per slot)"
debugfs -R "dump /var/lib/sysab-check/results.db $T/guest.db" "$T/disk.img" 2>/dev/null
[ -s "$T/guest.db" ] || fail "no database in the guest's disk"
if debugfs -R "stat /etc/systemd/system/sysab-campaign-kx.service" "$T/disk.img" 2>&1 | grep -q "Inode:"; then
	fail "the resume unit is still installed"
fi
q() { sqlite3 "$T/guest.db" "$1"; }
[ "$(q "SELECT state FROM campaign WHERE name = 'kx'")" = done ] || fail "campaign kx is $(q "SELECT state FROM campaign WHERE name = 'kx'")"
[ "$(q "SELECT count(*) FROM campaign_slot WHERE state = 'done'")" = 4 ] || fail "not 4 slots done"
n=$(q "SELECT count(DISTINCT b.boot_id) FROM campaign_run cr JOIN run r ON r.id = cr.run JOIN boot b ON b.id = r.boot")
[ "$n" = 4 ] || fail "the campaign's runs are on $n distinct boots, want 4"
bad=$(q "SELECT count(*) FROM campaign_run cr JOIN run r ON r.id = cr.run JOIN boot b ON b.id = r.boot JOIN campaign_slot s ON s.campaign = cr.campaign AND s.slot = cr.slot WHERE s.boot_id <> b.boot_id")
[ "$bad" = 0 ] || fail "$bad runs carry another boot id than their slot"
for c in a b; do
	n=$(q "SELECT count(*) FROM label WHERE key = 'cmd' AND value = '$c'")
	[ "$n" = 2 ] || fail "$n runs labelled cmd=$c, want 2"
	n=$(q "SELECT count(*) FROM label l JOIN environment e ON e.run = l.run WHERE l.key = 'cmd' AND l.value = '$c' AND e.key = 'kernel.cmdline' AND e.value LIKE '%sysab_check=$c%'")
	[ "$n" = 2 ] || fail "$n runs labelled cmd=$c booted with sysab_check=$c on the command line, want 2"
done
# the image's exec helpers ran in every boot: unixbench.execl's dynamic one, kernel.proc.exec's static one
for w in unixbench.execl kernel.proc.exec; do
	n=$(q "SELECT count(*) FROM slot s JOIN campaign_run cr ON cr.run = s.run WHERE s.workload = '$w' AND s.copies = 1 AND s.status = 'ok'")
	[ "$n" = 4 ] || fail "$w ran ok in $n of the 4 boots: $(q "SELECT group_concat(DISTINCT status || ' ' || coalesce(reason, '')) FROM slot WHERE workload = '$w'")"
done
"$SYSAB" campaign show kx --db "$T/guest.db" || fail "campaign show on the guest's database"
"$SYSAB" compare cmd=a cmd=b --db "$T/guest.db" -w kernel.syscall.null || fail "compare on the guest's database"
step "done: 4 slots on 4 boots, $kexecs kexecs seen on the console, the unit removed"
rm -rf "$T"
