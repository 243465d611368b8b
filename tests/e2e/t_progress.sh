# progress: `sysab run` draws phase, round and ETA on stderr when it is a terminal (given
# one by script(1)), and nothing on a pipe, with CI set, or with --quiet.
if ! command -v script >/dev/null 2>&1; then
	echo "SKIP: script (util-linux) not installed"
	exit 0
fi
tty_run() {
	env -u CI script -qfec "$*" /dev/null >"$T/tty.out" 2>&1 || { cat "$T/tty.out" >&2; fail "under script: $*"; }
}
tty_run "'$SYSAB' run --quick -w harness.null -w kernel.syscall.null -l t=tty"
TTY=$(cat "$T/tty.out")
contains "$TTY" "round "
contains "$TTY" "ETA "
contains "$TTY" "[#"
contains "$TTY" "harness.null"
contains "$TTY" "$(printf '\r')"
contains "$TTY" "stored as run 1"
# the progress line fits an 80-column terminal
long=$(tr '\r' '\n' <"$T/tty.out" | sed 's/\x1b\[K//g' | awk 'length > 79' | grep '^\[[#.]' || true)
[ -z "$long" ] || fail "progress line longer than 79 columns: $long"

# a pipe: no progress at all
env -u CI "$SYSAB" run --quick -w harness.null -l t=pipe >"$T/out" 2>"$T/err" || fail "piped run failed"
[ ! -s "$T/err" ] || fail "progress on a pipe: $(head -c 300 "$T/err")"
contains "$(cat "$T/out")" "stored as run 2"
# a terminal, but CI is set, or --quiet
env CI=1 script -qfec "'$SYSAB' run --quick -w harness.null -l t=ci" /dev/null >"$T/ci.out" 2>&1
grep -q 'round \|\[#' "$T/ci.out" && fail "progress with CI set"
tty_run "'$SYSAB' run --quick -w harness.null -l t=quiet --quiet"
grep -q 'round \|\[#' "$T/tty.out" && fail "progress with --quiet"
# colour: the table is coloured on a terminal, not with NO_COLOR or --no-color, never on a pipe
tty_run "'$SYSAB' list"
contains "$(cat "$T/tty.out")" "$(printf '\033[32m')complete"
env NO_COLOR=1 script -qfec "'$SYSAB' list" /dev/null >"$T/nc.out" 2>&1
grep -q "$(printf '\033')" "$T/nc.out" && fail "colour with NO_COLOR set"
tty_run "'$SYSAB' list --no-color"
grep -q "$(printf '\033')" "$T/tty.out" && fail "colour with --no-color"
env NO_COLOR= script -qfec "'$SYSAB' list" /dev/null >"$T/nc.out" 2>&1
grep -q "$(printf '\033')" "$T/nc.out" || fail "no colour with NO_COLOR empty"
expect 0 "$SYSAB" list
case "$OUT" in *"$(printf '\033')"*) fail "colour on a pipe" ;; esac
true
