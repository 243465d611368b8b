#!/bin/sh
# run.sh - make check-lava: a real lava-run job on a QEMU (TCG) device runs contrib/lava/sysab.yaml; LAVA's recorded results must match the database it kept.
# Needs root (lava-run keeps its files under /var/lib/lava/dispatcher/tmp), lava-dispatcher,
# qemu-system-x86 and the guest of make guest (GUEST: its directory, SYSAB: the host sysab).
set -eu
[ "$(id -u)" = 0 ] || { echo "check-lava: lava-run must run as root (it keeps its files under /var/lib/lava)" >&2; exit 2; }
: "${SYSAB:?set SYSAB}" "${GUEST:?set GUEST}"
command -v lava-run >/dev/null || { echo "check-lava: lava-run is missing: apt-get install lava-dispatcher (make check-lava does)" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/sysab-lava.XXXXXX")
JOB=$((100000 + $$ % 100000))
cleanup() {
	[ -z "${KEEP_LAVA:-}" ] || { echo "check-lava: kept $W" >&2; return; }
	rm -rf "$W" "/var/lib/lava/dispatcher/tmp/$JOB"
}
trap cleanup EXIT INT TERM
fail() {
	echo "check-lava: FAIL: $*" >&2
	exit 1
}

# the device's initramfs: the campaign guest with every busybox applet and a shell as /init
mkdir -p "$W/root"
(cd "$W/root" && gzip -dc "$GUEST/initramfs.cpio.gz" | cpio -id --quiet)
for a in $(busybox --list); do
	[ -e "$W/root/bin/$a" ] || ln -s busybox "$W/root/bin/$a"
done
cp "$here/dut-init.sh" "$W/root/init"
chmod 755 "$W/root/init"
(cd "$W/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$W/dut.cpio.gz"
cp "$GUEST/vmlinuz" "$W/vmlinuz"

# the test definition comes from a git repository, as a lab takes it: this checkout's HEAD
git clone -q --no-hardlinks "$repo" "$W/sysab.git" 2>/dev/null || fail "cannot clone $repo"
commit=$(git -C "$W/sysab.git" rev-parse HEAD)

sed -e "s|@CONNECT@|sh $here/qemu-dut.sh $W $W $JOB|" "$here/device.yaml" >"$W/device.yaml"
sed -e "s|@REPO@|$W/sysab.git|" -e "s|@COMMIT@|$commit|" "$here/job.yaml" >"$W/job.yaml"
start=$(date +%s)
lava-run --job-id "$JOB" --output-dir "$W/out" --device "$W/device.yaml" "$W/job.yaml" >"$W/lava-run.log" 2>&1 ||
	echo "check-lava: lava-run exited $?" >&2
echo "check-lava: lava-run took $(($(date +%s) - start)) s"
SYSAB=$SYSAB python3 "$here/results.py" "$W/out" "$W" || { tail -n 40 "$W/lava-run.log" >&2; fail "LAVA's results (see above)"; }
