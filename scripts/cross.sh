#!/bin/sh
# cross.sh - set up cross builds and qemu-user for make check-cross: `cross.sh setup TRIPLET...`.
# `cross.sh qemu` extracts Debian 13's qemu alone (make check-boot-loongarch boots its
# qemu-system-loongarch64). Idempotent: each step is skipped when its result is already there.
#
# The target's libraries go into a sysroot, build/sysroot/TRIPLET, extracted (not installed)
# from Debian packages by mmdebstrap. Why not multiarch (dpkg --add-architecture): Debian 12's
# libgsl-dev is not co-installable with itself (Multi-Arch: no; it ships /usr/bin/gsl-config),
# so libgsl-dev:arm64 removes the native libgsl-dev; and Debian 12 has no riscv64 port at all,
# so riscv64 libraries come from Debian 13, whose riscv64 port is official. loong64 exists
# only in Debian unstable (sid). Debian 12 has no LoongArch gcc, so clang-19 and lld-19 build
# for it (the Makefile picks them for loongarch64-*); and sid's libc uses LSX instructions,
# which Debian 12's qemu-user (7.2) lacks (SIGILL), so LoongArch binaries run under Debian 13's
# qemu-user-static, extracted (not installed) into build/qemu-trixie and registered from there.
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
# lld links against libgcc itself (crtbeginT.o, -lgcc, -lgcc_eh), which gcc brings elsewhere
sysroot_pkgs() {
	case "$1" in
	loongarch64-*) echo "$SYSROOT_PKGS,libgcc-15-dev" ;;
	*) echo "$SYSROOT_PKGS" ;;
	esac
}
QEMU13=build/qemu-trixie
# One extraction serves both: qemu-user for make check-cross, qemu-system-loongarch64 (in
# qemu-system-misc) for make check-boot-loongarch.
QEMU13_PKGS=qemu-user-static,qemu-system-misc

setup_packages() {
	pkgs="qemu-user-static mmdebstrap"
	for t in "$@"; do
		case "$t" in
		loongarch64-*) pkgs="$pkgs clang-19 lld-19" ;;
		*) pkgs="$pkgs gcc-$t" ;;
		esac
	done
	sh scripts/deps.sh $pkgs
}

# Debian 13's qemu-user-static and qemu-system-misc for LoongArch, extracted once.
setup_qemu13() {
	stamp="$QEMU13/.sysab-qemu"
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "trixie $QEMU13_PKGS" ] && return 0
	rm -rf "$QEMU13"
	mkdir -p build
	echo "cross.sh: extracting $QEMU13_PKGS from Debian trixie into $QEMU13 (LoongArch needs qemu >= 8 for LSX; its 10.0 boots a LoongArch kernel without firmware)" >&2
	mmdebstrap --quiet --variant=extract --include="$QEMU13_PKGS" trixie "$QEMU13" >"build/qemu-trixie.log" 2>&1 || {
		tail -20 build/qemu-trixie.log >&2
		echo "cross.sh: mmdebstrap failed for $QEMU13_PKGS (log: build/qemu-trixie.log)" >&2
		exit 1
	}
	qemu13_system_wrapper
	echo "trixie $QEMU13_PKGS" >"$stamp"
}

# $QEMU13/bin/qemu-system-loongarch64: the extracted (dynamic, Debian 13) binary run by its own
# loader with its own libraries, modules and data files, since Debian 12's are older.
qemu13_system_wrapper() {
	ld=$(ls "$QEMU13"/usr/lib/*-linux-gnu*/ld-linux*.so.* 2>/dev/null | head -n 1)
	[ -n "$ld" ] && [ -x "$QEMU13/usr/bin/qemu-system-loongarch64" ] ||
		{ echo "cross.sh: $QEMU13 has no loader or no qemu-system-loongarch64" >&2; exit 1; }
	lib=${ld#"$QEMU13"/}
	lib=${lib%/*}
	mkdir -p "$QEMU13/bin"
	cat >"$QEMU13/bin/qemu-system-loongarch64" <<-EOF
	#!/bin/sh
	# Debian 13's qemu-system-loongarch64, extracted by scripts/cross.sh, with its own loader and libraries.
	R=\$(cd "\$(dirname "\$0")/.." && pwd)
	QEMU_MODULE_DIR="\$R/$lib/qemu" exec "\$R/${ld#"$QEMU13"/}" --library-path "\$R/$lib" \\
		"\$R/usr/bin/qemu-system-loongarch64" -L "\$R/usr/share/qemu" "\$@"
	EOF
	chmod 755 "$QEMU13/bin/qemu-system-loongarch64"
}

# The binfmt entry for LoongArch: Debian 13's, with the extracted interpreter (F: the kernel
# opens it now, so its path need not exist elsewhere). An entry naming another interpreter
# (Debian 12's qemu 7.2) is replaced.
setup_binfmt_loong() {
	dir=/proc/sys/fs/binfmt_misc
	interp="$(pwd)/$QEMU13/usr/libexec/qemu-binfmt/loongarch64-binfmt-P"
	conf="$QEMU13/usr/lib/binfmt.d/qemu-loongarch64.conf"
	[ -r "$conf" ] && [ -e "$interp" ] || { echo "cross.sh: $conf or $interp is missing" >&2; exit 1; }
	if [ -e $dir/qemu-loongarch64 ]; then
		grep -qx "interpreter $interp" $dir/qemu-loongarch64 && return 0
		echo -1 >$dir/qemu-loongarch64
	fi
	IFS=: read -r _ name type off magic mask _ flags <"$conf"
	printf ':%s:%s:%s:%s:%s:%s:%s' "$name" "$type" "$off" "$magic" "$mask" "$interp" "$flags" >$dir/register
}

# Register qemu-user for the target with binfmt_misc, with Debian's entry (flags OCPF).
setup_binfmt() {
	dir=/proc/sys/fs/binfmt_misc
	[ -e $dir/register ] || mount -t binfmt_misc binfmt_misc $dir 2>/dev/null || {
		echo "cross.sh: binfmt_misc is not mounted and cannot be (not root, or not allowed here)" >&2
		exit 1
	}
	for t in "$@"; do
		case "$t" in loongarch64-*) setup_qemu13; setup_binfmt_loong; continue ;; esac
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
	want="$(suite "$t") $(debarch "$t") $(sysroot_pkgs "$t")"
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
		return 0
	fi
	rm -rf "$root"
	mkdir -p build/sysroot
	echo "cross.sh: extracting $(sysroot_pkgs "$t") for $(debarch "$t") from Debian $(suite "$t") into $root" >&2
	# Valid-Until off: a mirror that serves a dated snapshot of sid has an expired Release.
	mmdebstrap --quiet --aptopt='Acquire::Check-Valid-Until "false"' --variant=extract --architectures="$(debarch "$t")" --include="$(sysroot_pkgs "$t")" \
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
qemu)
	sh scripts/deps.sh mmdebstrap
	setup_qemu13
	;;
*)
	echo "usage: cross.sh setup|sysroot TRIPLET... | cross.sh qemu" >&2
	exit 2
	;;
esac
