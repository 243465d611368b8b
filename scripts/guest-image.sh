#!/bin/sh
# guest-image.sh - build the qemu campaign guest: Debian's kernel and a busybox initramfs with a static sysab.
# Usage: scripts/guest-image.sh BUILD_DIR STATIC_SYSAB STATIC_HELPER
# Writes BUILD_DIR/guest/vmlinuz and BUILD_DIR/guest/initramfs.cpio.gz; the kernel package is
# cached in BUILD_DIR/guest/ (delete it to fetch a newer one). Needs apt-get, dpkg-deb,
# busybox-static and cpio (the Makefile installs them first).
set -eu
B=$1 SYSAB=$2 HELPER=$3
G=$B/guest
mkdir -p "$G"
for t in cpio gzip apt-get dpkg-deb; do
	command -v $t >/dev/null || { echo "guest-image.sh: $t is missing; make guest installs what it needs (as root)" >&2; exit 2; }
done
[ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 ||
	{ echo "guest-image.sh: needs a static /bin/busybox: apt-get install busybox-static" >&2; exit 2; }
if [ ! -s "$G/vmlinuz" ]; then
	# the kernel the linux-image-amd64 metapackage points at, e.g. linux-image-6.1.0-50-amd64
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n 1)
	[ -n "$pkg" ] || { echo "guest-image.sh: apt-cache knows no linux-image-amd64; run apt-get update" >&2; exit 2; }
	rm -rf "$G/pkg" && mkdir -p "$G/pkg"
	(cd "$G/pkg" && apt-get download "$pkg" >/dev/null)
	dpkg-deb -x "$G"/pkg/*.deb "$G/pkg/root"
	cp "$G"/pkg/root/boot/vmlinuz-* "$G/vmlinuz.tmp"
	basename "$G"/pkg/root/boot/vmlinuz-* | sed 's/^vmlinuz-//' >"$G/kernel-release"
	rm -rf "$G/pkg"
	mv "$G/vmlinuz.tmp" "$G/vmlinuz"
fi
R=$G/root
rm -rf "$R"
mkdir -p "$R/bin" "$R/sbin" "$R/proc" "$R/sys" "$R/dev" "$R/tmp" "$R/root" "$R/etc" "$R/usr/bin" "$R/usr/libexec/sysab"
cp /bin/busybox "$R/bin/busybox"
for a in sh mount umount cat echo mkdir sleep poweroff reboot base64 stty wc date uname dd sync rm ls tr head cut sed; do
	ln -s busybox "$R/bin/$a"
done
cp "$SYSAB" "$R/bin/sysab"
cp "$HELPER" "$R/bin/sysab-exec-helper"
cp scripts/guest-init.sh "$R/init"
chmod 755 "$R/init" "$R/bin/sysab"
(cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$G/initramfs.tmp"
mv "$G/initramfs.tmp" "$G/initramfs.cpio.gz"
echo "guest: $G/vmlinuz ($(cat "$G/kernel-release")) and $G/initramfs.cpio.gz"
