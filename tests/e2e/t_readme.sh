# The README runs top to bottom: every ```sh block of README.md, in order, on a fresh default
# database (a new HOME, no SYSAB_DB), from a directory where build/sysab is the binary under test
# and examples/ the repository's; any command that exits non-zero fails the test.
# A block may be skipped only with the line
#   <!-- readme-test: skip: REASON -->
# right before its opening fence (the reason is required and shown here); at most 3 are.
R=$T/readme
mkdir -p "$R/build" "$R/home"
ln -s "$SYSAB" "$R/build/sysab"
ln -s "$REPO/examples" "$R/examples"
awk -v dir="$R" '
	/^<!-- readme-test: skip/ { skip = $0; next }
	/^```sh$/ { n++; f = sprintf("%s/block%02d.sh", dir, n); inblk = 1
		if (skip != "") print skip > (f ".skip"); skip = ""; next }
	/^```/ && inblk { inblk = 0; close(f); next }
	inblk { print > f; next }
	/[^ \t]/ { skip = "" }
' "$REPO/README.md"
blocks=$(ls "$R"/block*.sh 2>/dev/null | wc -l)
[ "$blocks" -ge 5 ] || fail "found $blocks sh blocks in README.md"
skipped=0
for b in "$R"/block*.sh; do
	if [ -f "$b.skip" ]; then
		why=$(sed -n 's/^<!-- readme-test: skip: *\(.*[^ ]\) *-->$/\1/p' "$b.skip")
		[ -n "$why" ] || fail "$(basename "$b"): a skip needs a reason: $(cat "$b.skip")"
		echo "skip $(basename "$b" .sh): $why"
		skipped=$((skipped + 1))
		continue
	fi
	if ! (cd "$R" && env -u SYSAB_DB HOME="$R/home" sh -e "$b") >"$T/block.out" 2>&1; then
		echo "--- $(basename "$b")" >&2
		cat "$b" >&2
		echo "--- output" >&2
		tail -n 30 "$T/block.out" >&2
		fail "a README block failed"
	fi
done
[ "$skipped" -le 3 ] || fail "$skipped README blocks skipped; at most 3 may be"
[ -s "$R/home/.local/share/sysab/results.db" ] || fail "the README's runs went to no default database"
for f in report.html compare.html samples.csv kcidb.json; do
	[ -s "$R/$f" ] || fail "the README's $f was not written"
done
