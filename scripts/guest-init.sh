#!/bin/sh
# guest-init.sh - /init of the qemu campaign guest: run the job the host appended, send the database back.
# The host appends /job/run.sh (the `sysab run` commands of this boot) to the initramfs. The
# database goes back over the second serial port, base64 between marker lines, after the
# kernel's identity; then the guest powers off. Without a job it drops to a shell.
export PATH=/bin HOME=/root
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
if [ ! -f /job/run.sh ]; then
	echo "sysab guest: no job; here is a shell"
	exec sh
fi
echo "sysab guest: $(uname -r) $(cat /proc/cmdline)"
cd /tmp
sh /job/run.sh
rc=$?
out=/dev/ttyS1
stty -F $out raw -echo 2>/dev/null
{
	echo "SYSAB-BOOT-ID $(cat /proc/sys/kernel/random/boot_id)"
	echo "SYSAB-KERNEL $(uname -r)"
	echo "SYSAB-CMDLINE $(cat /proc/cmdline)"
	echo "SYSAB-STATUS $rc"
	if [ -f /tmp/guest.db ]; then
		echo "SYSAB-DB-BEGIN $(wc -c </tmp/guest.db)"
		base64 /tmp/guest.db
		echo "SYSAB-DB-END"
	fi
	echo "SYSAB-DONE"
} >$out
sync
poweroff -f
