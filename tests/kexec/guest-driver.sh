#!/bin/sh
# guest-driver.sh - runs at every boot of the check-kexec guest (a Debian system with systemd and
# kexec-tools), after sysab's own resume unit: on the first boot it plans a kexec campaign of
# 2 configurations x 2 boots and starts it; once the campaign is done it prints the result on the
# console between markers and powers the guest off. The boots in between are sysab's alone.
S=/usr/local/bin/sysab
DB=/var/lib/sysab-check/results.db
say() { echo "check-kexec: $*" >/dev/console; }
mkdir -p /var/lib/sysab-check
if [ ! -e /var/lib/sysab-check/planned ]; then
	base=$(cat /proc/cmdline)
	k=/boot/vmlinuz-$(uname -r) i=/boot/initrd.img-$(uname -r)
	"$S" campaign new kx --db "$DB" --backend kexec --boots 2 --seed 7 \
		--config 'cmd=a' --kernel "$k" --initrd "$i" --append "$base sysab_check=a" \
		--config 'cmd=b' --kernel "$k" --initrd "$i" --append "$base sysab_check=b" \
		-- --quick --samples 6 --sample-ms 20 -q -w harness.null -w kernel.syscall.null \
		-w unixbench.execl -w kernel.proc.exec >/dev/console 2>&1 ||
		{ say "FAILED: campaign new"; systemctl poweroff; exit 1; }
	touch /var/lib/sysab-check/planned
	sync
	say "starting the campaign on boot $(cat /proc/sys/kernel/random/boot_id)"
	"$S" campaign start kx --db "$DB" >/dev/console 2>&1 || { say "FAILED: campaign start"; systemctl poweroff; }
	exit 0
fi
st=$("$S" campaign status kx --db "$DB" 2>&1)
case "$(echo "$st" | sed -n 's/^state: \([a-z]*\).*/\1/p')" in
done)
	say "campaign done on boot $(cat /proc/sys/kernel/random/boot_id)"
	echo "$st" >/dev/console
	ls /etc/systemd/system/sysab-campaign-kx.service >/dev/null 2>&1 && say "FAILED: the resume unit is still there"
	sync
	echo "SYSAB-KEXEC-DONE" >/dev/console
	systemctl poweroff
	;;
failed | stopped)
	echo "$st" >/dev/console
	say "FAILED: the campaign ended badly"
	systemctl poweroff
	;;
esac
exit 0
