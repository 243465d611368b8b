# The committed man page and bash completion match what the option tables generate.
"$SYSAB" __man >"$T/sysab.1" || fail "__man failed"
cmp -s "$T/sysab.1" "$REPO/docs/sysab.1" || fail "docs/sysab.1 is stale: run make docs"
"$SYSAB" __completion >"$T/comp" || fail "__completion failed"
cmp -s "$T/comp" "$REPO/docs/sysab.bash-completion" || fail "docs/sysab.bash-completion is stale: run make docs"
bash -n "$T/comp" || fail "completion is not valid bash"
contains "$(cat "$T/sysab.1")" ".SH EXIT STATUS"
# every command's --help works and mentions each of its options
for c in $("$SYSAB" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}'); do
	expect 0 "$SYSAB" "$c" --help
	contains "$OUT" "usage: sysab $c"
done
expect 0 "$SYSAB" --version
contains "$OUT" "sysab "
