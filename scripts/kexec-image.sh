#!/bin/sh
# kexec-image.sh - the check-kexec guest: a minimal Debian system (systemd, kexec-tools, Debian's
# kernel and initramfs) on an ext4 disk image, with a static sysab, its two exec helpers and the
# test's driver unit.
# Usage: scripts/kexec-image.sh BUILD_DIR STATIC_SYSAB STATIC_HELPER EXECL_HELPER
# STATIC_HELPER is kernel.proc.exec's sysab-exec-helper, EXECL_HELPER unixbench.execl's dynamic
# sysab-execl-helper (libc only: the guest's Debian has its loader and C library); both go next
# to sysab, where it looks for them.
# The Debian root is made once with mmdebstrap from this machine's own apt sources and cached as
# BUILD_DIR/kexec/base.tar (delete it for a fresh one); the disk image is made anew each time
# without mounting anything (mke2fs -d). Writes BUILD_DIR/kexec/{disk.img,vmlinuz,initrd.img}.
# Needs root (the Debian root is made in a chroot), mmdebstrap and e2fsprogs.
set -eu
B=$1 SYSAB=$2 HELPER=$3 EXECL=$4
K=$B/kexec
here=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" = 0 ] || { echo "kexec-image.sh: needs root (mmdebstrap builds the guest's Debian in a chroot)" >&2; exit 2; }
for t in mmdebstrap mke2fs; do
	command -v $t >/dev/null || { echo "kexec-image.sh: $t is missing: apt-get install mmdebstrap e2fsprogs" >&2; exit 2; }
done
mkdir -p "$K"
if [ ! -s "$K/base.tar" ]; then
	# the suite and the mirrors this machine's apt uses: no package host is named here
	. /etc/os-release
	srcs=""
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -s "$f" ] && grep -q '^[^#]*deb' "$f" && srcs="$srcs $f"
	done
	[ -n "$srcs" ] || { echo "kexec-image.sh: no apt sources on this machine to build the guest from" >&2; exit 2; }
	# shellcheck disable=SC2086 # one argument per sources file
	mmdebstrap --format=tar --variant=minbase --include=systemd-sysv,udev,kexec-tools,linux-image-amd64 \
		"$VERSION_CODENAME" "$K/base.tar.tmp" $srcs
	mv "$K/base.tar.tmp" "$K/base.tar"
fi
R=$K/root
rm -rf "$R" "$K/disk.img.tmp"
mkdir -p "$R"
tar -C "$R" -xf "$K/base.tar"
cp "$R"/boot/vmlinuz-* "$K/vmlinuz"
cp "$R"/boot/initrd.img-* "$K/initrd.img"
install -m 755 "$SYSAB" "$R/usr/local/bin/sysab"
install -m 755 "$HELPER" "$R/usr/local/bin/sysab-exec-helper"
install -m 755 "$EXECL" "$R/usr/local/bin/sysab-execl-helper"
# the dynamic one must run in the guest's system as it is (this script runs as root)
chroot "$R" /usr/local/bin/sysab-execl-helper 2 1 >/dev/null ||
	{ echo "kexec-image.sh: sysab-execl-helper does not run in the guest's Debian (ldd $EXECL)" >&2; exit 1; }
install -D -m 755 "$here/tests/kexec/guest-driver.sh" "$R/usr/local/lib/sysab-check/guest-driver.sh"
install -m 644 "$here/tests/kexec/sysab-check-kexec.service" "$R/etc/systemd/system/sysab-check-kexec.service"
mkdir -p "$R/etc/systemd/system/multi-user.target.wants"
ln -sf /etc/systemd/system/sysab-check-kexec.service "$R/etc/systemd/system/multi-user.target.wants/"
echo "sysab-kexec" >"$R/etc/hostname"
printf '/dev/vda / ext4 rw 0 1\n' >"$R/etc/fstab"
# no password prompt needed: the console is only read
mke2fs -q -t ext4 -L root -d "$R" "$K/disk.img.tmp" 2G
rm -rf "$R"
mv "$K/disk.img.tmp" "$K/disk.img"
echo "kexec guest: $K/disk.img, kernel $(tar -tf "$K/base.tar" | sed -n "s|^\./boot/vmlinuz-||p" | head -n 1)"
