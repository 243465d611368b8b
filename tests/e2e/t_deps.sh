# scripts/deps.sh waits for a dpkg/apt lock another process holds, and names the holder: its
# --lock-holder finds a process holding one of the lock files (DEPS_LOCKS), and nothing when
# none is held; the install itself passes DPkg::Lock::Timeout to apt-get.
command -v lslocks >/dev/null || { echo "skip: lslocks is missing"; return 0 2>/dev/null || exit 0; }
command -v python3 >/dev/null || { echo "skip: python3 is missing"; return 0 2>/dev/null || exit 0; }
: >"$T/lock"
expect 1 env DEPS_LOCKS="$T/lock" sh "$REPO/scripts/deps.sh" --lock-holder
python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "w"); fcntl.lockf(f, fcntl.LOCK_EX); open(sys.argv[2], "w").close(); time.sleep(30)' \
	"$T/lock" "$T/held" &
holder=$!
i=0
while [ ! -e "$T/held" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
expect 0 env DEPS_LOCKS="$T/other $T/lock" sh "$REPO/scripts/deps.sh" --lock-holder
kill $holder
wait $holder 2>/dev/null
[ "$OUT" = "$holder python3" ] || fail "lock holder: '$OUT', wanted '$holder python3'"
expect 1 env DEPS_LOCKS="$T/lock" sh "$REPO/scripts/deps.sh" --lock-holder
grep -q 'DPkg::Lock::Timeout=\$DEPS_LOCK_WAIT' "$REPO/scripts/deps.sh" || fail "apt-get does not wait for the lock"
no_tmp_left "$T/tmp"
