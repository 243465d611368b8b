#!/bin/sh
# qemu-dut.sh - the LAVA device's connection command: put the job's overlay into the initramfs and boot it under QEMU (TCG) on this terminal.
# Usage: qemu-dut.sh GUEST_DIR WORK_DIR JOB_ID. GUEST_DIR holds vmlinuz and dut.cpio.gz (tests/lava/run.sh
# builds it); the overlay is the tarball lava-run wrote for job JOB_ID under its download directory.
set -eu
G=$1 W=$2 JOB=$3
ov=$(find /var/lib/lava/dispatcher/tmp/"$JOB" -name 'overlay*.tar.gz' 2>/dev/null | head -n 1)
[ -n "$ov" ] || { echo "qemu-dut.sh: no overlay for job $JOB under /var/lib/lava/dispatcher/tmp" >&2; exit 1; }
rm -rf "$W/overlay" && mkdir -p "$W/overlay"
tar -xzf "$ov" -C "$W/overlay"
(cd "$W/overlay" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$W/overlay.cpio.gz"
cat "$G/dut.cpio.gz" "$W/overlay.cpio.gz" >"$W/initrd.gz"
exec qemu-system-x86_64 -machine q35,accel=tcg -cpu max -smp 2 -m 1024 -nographic -no-reboot \
	-kernel "$G/vmlinuz" -initrd "$W/initrd.gz" -append "console=ttyS0 panic=-1 rdinit=/init"
