#!/bin/sh
# cross.sh - set up cross builds and qemu-user for make check-cross: `cross.sh setup TRIPLET...`.
# Idempotent: each step is skipped when its result is already there.
#
# The target's libraries go into a sysroot, build/sysroot/TRIPLET, extracted (not installed)
# from Debian packages by mmdebstrap. Why not multiarch (dpkg --add-architecture): Debian 12's
# libgsl-dev is not co-installable with itself (Multi-Arch: no; it ships /usr/bin/gsl-config),
# so libgsl-dev:arm64 removes the native libgsl-dev; and Debian 12 has no riscv64 port at all,
# so riscv64 libraries come from Debian 13, whose riscv64 port is official. loong64 exists
# only in Debian unstable (sid); its sysroot serves make check-loongarch-syntax (headers only,
# so no gcc-TRIPLET or binfmt entry is set up for it: `cross.sh sysroot TRIPLET`).
set -eu
cd "$(dirname "$0")/.."

# Debian architecture and suite of the sysroot for a GNU triplet.
debarch() {
	case "$1" in
	aarch64-linux-gnu) echo arm64 ;;
	riscv64-linux-gnu) echo riscv64 ;;
	loongarch64-linux-gnu) echo loong64 ;;
	*) echo "cross.sh: no sysroot recipe for '$1'; known: aarch64-linux-gnu riscv64-linux-gnu loongarch64-linux-gnu" >&2; exit 2 ;;
	esac
}
suite() {
	case "$1" in
	riscv64-linux-gnu) echo trixie ;; # Debian 12 has no riscv64 port
	loongarch64-linux-gnu) echo sid ;; # loong64 is only in unstable
	*) echo bookworm ;;
	esac
}
qemu_name() { echo "${1%%-*}"; }

SYSROOT_PKGS=libc6-dev,libsqlite3-dev,libjansson-dev,libgsl-dev,libcmocka-dev

setup_packages() {
	pkgs="qemu-user-static mmdebstrap"
	for t in "$@"; do
		pkgs="$pkgs gcc-$t"
	done
	sh scripts/deps.sh $pkgs
}

# Register qemu-user for the target with binfmt_misc, with Debian's entry (flags OCPF).
setup_binfmt() {
	dir=/proc/sys/fs/binfmt_misc
	[ -e $dir/register ] || mount -t binfmt_misc binfmt_misc $dir 2>/dev/null || {
		echo "cross.sh: binfmt_misc is not mounted and cannot be (not root, or not allowed here)" >&2
		exit 1
	}
	for t in "$@"; do
		q=$(qemu_name "$t")
		[ -e "$dir/qemu-$q" ] && continue
		conf=/usr/lib/binfmt.d/qemu-$q.conf
		[ -r "$conf" ] || { echo "cross.sh: $conf is missing; install qemu-user-static" >&2; exit 1; }
		cat "$conf" >$dir/register
	done
}

setup_sysroot() {
	t=$1
	root=build/sysroot/$t
	stamp="$root/.sysab-sysroot"
	want="$(suite "$t") $(debarch "$t") $SYSROOT_PKGS"
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
		return 0
	fi
	rm -rf "$root"
	mkdir -p build/sysroot
	echo "cross.sh: extracting $SYSROOT_PKGS for $(debarch "$t") from Debian $(suite "$t") into $root" >&2
	# Valid-Until off: a mirror that serves a dated snapshot of sid has an expired Release.
	mmdebstrap --quiet --aptopt='Acquire::Check-Valid-Until "false"' --variant=extract --architectures="$(debarch "$t")" --include="$SYSROOT_PKGS" \
		"$(suite "$t")" "$root" >"build/sysroot/$t.log" 2>&1 || {
		tail -20 "build/sysroot/$t.log" >&2
		echo "cross.sh: mmdebstrap failed for $t (log: build/sysroot/$t.log)" >&2
		exit 1
	}
	# Debian 13 ships merged /usr without the top-level links; the loader path is /lib/...
	for d in lib lib64 bin sbin; do
		[ -e "$root/$d" ] || [ ! -d "$root/usr/$d" ] || ln -s "usr/$d" "$root/$d"
	done
	echo "$want" >"$stamp"
}

case "${1:-}" in
setup)
	shift
	[ $# -gt 0 ] || { echo "usage: cross.sh setup TRIPLET..." >&2; exit 2; }
	for t in "$@"; do debarch "$t" >/dev/null; done
	setup_packages "$@"
	setup_binfmt "$@"
	for t in "$@"; do
		setup_sysroot "$t"
	done
	;;
sysroot)
	shift
	[ $# -gt 0 ] || { echo "usage: cross.sh sysroot TRIPLET..." >&2; exit 2; }
	sh scripts/deps.sh mmdebstrap
	for t in "$@"; do
		setup_sysroot "$t"
	done
	;;
*)
	echo "usage: cross.sh setup|sysroot TRIPLET..." >&2
	exit 2
	;;
esac
