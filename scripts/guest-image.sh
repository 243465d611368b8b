#!/bin/sh
# guest-image.sh - build the qemu campaign guest: Debian's kernel and a busybox initramfs with a static sysab.
# Usage: [SYSROOT=DIR] scripts/guest-image.sh BUILD_DIR STATIC_SYSAB STATIC_HELPER EXECL_HELPER [ARCH]
# STATIC_HELPER is kernel.proc.exec's sysab-exec-helper; EXECL_HELPER unixbench.execl's
# sysab-execl-helper, dynamic (libc only), linked for the guest's own loader: the image gets the
# loader and the libraries it names (readelf), copied from SYSROOT (a cross build's; / when
# unset) to the same paths, where the loader's default directories find them.
# Writes BUILD_DIR/guest/vmlinuz and BUILD_DIR/guest/initramfs.cpio.gz; the kernel is cached in
# BUILD_DIR/guest/ (delete it to fetch a newer one). ARCH x86_64 (the default): Debian 12's
# linux-image-amd64 (apt-get download) and the host's busybox-static. ARCH loongarch64: Debian
# unstable's linux-image-loong64 and busybox-static for loong64, extracted with mmdebstrap;
# its vmlinuz is an EFI zboot image compressed with zstd, which qemu (10.0) cannot unpack, so
# the EFI image inside is unpacked here and kept as vmlinuz. Needs apt-get, dpkg-deb,
# busybox-static and cpio (x86_64), mmdebstrap and zstd (loongarch64); the Makefile installs them.
set -eu
B=$1 SYSAB=$2 HELPER=$3 EXECL=$4 ARCH=${5:-x86_64}
LIBROOT=${SYSROOT:-}
LIBROOT=${LIBROOT%/}
G=$B/guest
mkdir -p "$G"
need() {
	for t in "$@"; do
		command -v $t >/dev/null || { echo "guest-image.sh: $t is missing; make guest installs what it needs (as root)" >&2; exit 2; }
	done
}
case $ARCH in
x86_64)
	need cpio gzip apt-get dpkg-deb readelf
	BUSYBOX=/bin/busybox
	[ -x $BUSYBOX ] && ! ldd $BUSYBOX >/dev/null 2>&1 ||
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
	;;
loongarch64)
	need cpio gzip mmdebstrap zstd od readelf
	D=$G/debian # the kernel's and busybox's packages, extracted (kept for the busybox)
	BUSYBOX=$D/usr/bin/busybox
	if [ ! -s "$G/vmlinuz" ] || [ ! -x "$BUSYBOX" ]; then
		rm -rf "$D" "$G/vmlinuz"
		echo "guest-image.sh: extracting linux-image-loong64 and busybox-static from Debian unstable (loong64)" >&2
		# Valid-Until off, as for the sysroot (scripts/cross.sh): a dated snapshot of sid has an expired Release
		mmdebstrap --quiet --aptopt='Acquire::Check-Valid-Until "false"' --variant=extract --architectures=loong64 \
			--include=linux-image-loong64,busybox-static sid "$D" >"$G/debian.log" 2>&1 || {
			tail -20 "$G/debian.log" >&2
			echo "guest-image.sh: mmdebstrap failed (log: $G/debian.log)" >&2
			exit 1
		}
		# Debian installs the image as /usr/lib/modules/RELEASE/vmlinuz (older ones as /boot/vmlinuz-RELEASE)
		k=$(ls "$D"/usr/lib/modules/*/vmlinuz "$D"/boot/vmlinuz-* 2>/dev/null | head -n 1)
		[ -n "$k" ] || { echo "guest-image.sh: linux-image-loong64 brought no vmlinuz (see $D)" >&2; exit 1; }
		case $k in */boot/vmlinuz-*) rel=${k##*/vmlinuz-} ;; *) rel=${k%/vmlinuz}; rel=${rel##*/} ;; esac
		# EFI zboot: "MZ", "zimg" at 4, the payload's offset and size (u32 LE) at 8 and 12, its
		# compression ("zstd", "gzip") at 24; the payload is the kernel's plain EFI image
		if [ "$(dd if="$k" bs=1 skip=4 count=4 2>/dev/null)" = zimg ]; then
			off=$(od -An -tu4 -j8 -N4 "$k" | tr -d ' ')
			size=$(od -An -tu4 -j12 -N4 "$k" | tr -d ' ')
			comp=$(dd if="$k" bs=1 skip=24 count=8 2>/dev/null | tr -d '\0')
			case $comp in
			zstd) unpack="zstd -dqc" ;;
			gzip) unpack="gzip -dc" ;;
			*) echo "guest-image.sh: $k is a zboot image compressed with '$comp', which this script cannot unpack" >&2; exit 1 ;;
			esac
			tail -c +$((off + 1)) "$k" | head -c "$size" | $unpack >"$G/vmlinuz.tmp"
		else
			cp "$k" "$G/vmlinuz.tmp"
		fi
		echo "$rel" >"$G/kernel-release"
		mv "$G/vmlinuz.tmp" "$G/vmlinuz"
	fi
	;;
*)
	echo "guest-image.sh: no guest recipe for '$ARCH'; known: x86_64 loongarch64" >&2
	exit 2
	;;
esac
R=$G/root
rm -rf "$R"
mkdir -p "$R/bin" "$R/sbin" "$R/proc" "$R/sys" "$R/dev" "$R/tmp" "$R/root" "$R/etc" "$R/usr/bin" "$R/usr/libexec/sysab"
cp "$BUSYBOX" "$R/bin/busybox"
for a in sh mount umount cat echo mkdir sleep poweroff reboot base64 stty wc date uname dd sync rm ls tr head cut sed; do
	ln -s busybox "$R/bin/$a"
done
cp "$SYSAB" "$R/bin/sysab"
cp "$HELPER" "$R/bin/sysab-exec-helper"
cp "$EXECL" "$R/bin/sysab-execl-helper"

# host_path P: the file that the guest's path P is in LIBROOT, its symbolic links followed
# inside LIBROOT (a sysroot's absolute links point into the sysroot, not this machine)
host_path() {
	p=$1 n=0
	while [ -L "$LIBROOT$p" ] && [ $n -lt 40 ]; do
		t=$(readlink "$LIBROOT$p")
		case $t in /*) p=$t ;; *) p=${p%/*}/$t ;; esac
		n=$((n + 1))
	done
	[ -f "$LIBROOT$p" ] && echo "$LIBROOT$p"
}
# copy_deps ELF: the loader ELF names and every library it needs, each once, to its guest path
copied=" "
copy_deps() {
	for lib in $(readelf -dW "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		[ "$lib" != "${interp##*/}" ] || continue # the loader itself (libc names it)
		case $copied in *" $lib "*) continue ;; esac
		at=""
		for d in /lib/$ARCH-linux-gnu /usr/lib/$ARCH-linux-gnu /lib64 /usr/lib64 /lib /usr/lib; do
			f=$(host_path "$d/$lib") && { at=$d; break; }
		done
		[ -n "$at" ] || { echo "guest-image.sh: $lib, which $1 needs, is in none of the library directories of ${LIBROOT:-/}" >&2; exit 1; }
		mkdir -p "$R$at"
		cp "$f" "$R$at/$lib"
		copied="$copied$lib "
		copy_deps "$f"
	done
}
interp=$(readelf -lW "$EXECL" | sed -n 's/.*Requesting program interpreter: \(.*\)\]$/\1/p')
[ -n "$interp" ] || { echo "guest-image.sh: $EXECL names no dynamic loader; it must be the dynamic sysab-execl-helper" >&2; exit 2; }
case $interp in "${LIBROOT:-/nonexistent}"/*)
	echo "guest-image.sh: $EXECL names the loader $interp inside the build's sysroot; link it for the guest (make guest does)" >&2
	exit 2 ;;
esac
f=$(host_path "$interp") || { echo "guest-image.sh: the loader $interp of $EXECL is not in ${LIBROOT:-/}" >&2; exit 1; }
mkdir -p "$R${interp%/*}"
cp "$f" "$R$interp"
copy_deps "$EXECL"
# On this machine's own architecture, as root, the helper must run in the image's root alone
if [ "$(id -u)" = 0 ] && [ "$(uname -m)" = "$ARCH" ] && command -v chroot >/dev/null; then
	chroot "$R" /bin/sysab-execl-helper 2 1 >/dev/null ||
		{ echo "guest-image.sh: sysab-execl-helper does not run in the image (its loader and libraries:$copied$interp)" >&2; exit 1; }
fi
cp scripts/guest-init.sh "$R/init"
chmod 755 "$R/init" "$R/bin/sysab"
(cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$G/initramfs.tmp"
mv "$G/initramfs.tmp" "$G/initramfs.cpio.gz"
echo "guest: $G/vmlinuz ($(cat "$G/kernel-release")) and $G/initramfs.cpio.gz (sysab-execl-helper with $interp,$copied)"
