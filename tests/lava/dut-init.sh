#!/bin/sh
# dut-init.sh - /init of the LAVA device under test: a busybox shell on the serial console, with LAVA's overlay already in /.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
hostname sysab-dut
cd /root
echo "sysab-dut: $(uname -r) ready"
export PS1='sysab-dut# '
while true; do
	setsid cttyhack sh
done
