# The committed man page and bash completion match what the option tables generate.
"$SYSAB" __man >"$T/sysab.1" || fail "__man failed"
cmp -s "$T/sysab.1" "$REPO/docs/sysab.1" || fail "docs/sysab.1 is stale: run make docs"
"$SYSAB" __completion >"$T/comp" || fail "__completion failed"
cmp -s "$T/comp" "$REPO/docs/sysab.bash-completion" || fail "docs/sysab.bash-completion is stale: run make docs"
bash -n "$T/comp" || fail "completion is not valid bash"
contains "$(cat "$T/sysab.1")" ".SH EXIT STATUS"
# the backends' names in the usage and the option's help, from their table (src/campaign/campaign.h)
contains "$(cat "$T/sysab.1")" 'sysab campaign new NAME \-\-backend qemu|kexec|grub|command'
contains "$(cat "$T/sysab.1")" 'new: qemu, kexec, grub or command'
# every command's --help works and mentions each of its options
for c in $("$SYSAB" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}'); do
	expect 0 "$SYSAB" "$c" --help
	contains "$OUT" "usage: sysab $c"
done
expect 0 "$SYSAB" --version
contains "$OUT" "sysab "
# the man page as a reader sees it (issue 17 item 11): every line of each command's details
# starts a line of its own, so selector terms, examples and verdict words never run together
command -v man >/dev/null || fail "man is missing: install man-db (make deps-test)"
MANWIDTH=80 man -l "$REPO/docs/sysab.1" 2>"$T/man.err" | col -bx >"$T/man.txt" || fail "man -l failed: $(cat "$T/man.err")"
[ -s "$T/man.txt" ] || fail "man -l rendered nothing"
for start in "Only complete, incomplete and imported runs" "A group never pools runs" "Example: sysab compare" \
	"Verdicts: faster/slower" "Exit 1 when --fail-on" "boot:PREFIX +the run.s boot id starts with PREFIX\$" \
	"Example: sysab list" "Each file is stored in one transaction"; do
	grep -Eq "^ +$start" "$T/man.txt" || fail "man page: '$start' does not start a line of its own (run together)"
done
# no word split by hyphenation (HOST-NAME), and no table in the docs without rows
grep -q 'HOST‐$' "$T/man.txt" && fail "man page hyphenates words"
for d in "$REPO"/docs/*.md "$REPO/README.md"; do
	awk -v f="$d" '/^\|/ { if (!t) { start = NR; rows = 0 } t = 1; rows++; next }
		{ if (t && rows <= 2) { print f ":" start ": a table with a header and no rows"; bad = 1 } t = 0 }
		END { if (t && rows <= 2) { print f ":" start ": a table with a header and no rows"; bad = 1 } exit bad }' "$d" ||
		fail "$(awk -v f="$d" '/^\|/{n++} END{print f}' "$d"): a table has no rows"
done
