# Hostile text: CSV export neutralises spreadsheet formulas (--raw keeps the bytes); list and
# show escape control bytes from a crafted database; JSON never drops or cuts a value silently.
printf '%s\n' 'workload,unit,value,run,f,g' "w.x,ops/s,1,r1,=cmd|' /C calc'!A0,+SUM(1)" >"$T/in.csv"
expect 0 "$SYSAB" import csv "$T/in.csv"
expect 0 "$SYSAB" run --quick -w harness.null -q -l f=@x -l g=-2
expect 0 "$SYSAB" export
contains "$OUT" "\"'=cmd|' /C calc'!A0\",\"'+SUM(1)\""
contains "$OUT" "\"'@x\",\"'-2\""
printf '%s\n' "$OUT" | grep -q ',=\|,+S\|,@x\|,-2' && fail "a formula cell left raw: $OUT"
expect 0 "$SYSAB" export --raw
contains "$OUT" ",=cmd|' /C calc'!A0,+SUM(1)"
contains "$OUT" ",@x,-2"
expect 0 "$SYSAB" export --format json
[ "$(printf '%s' "$OUT" | jq -r '.runs[0].labels.f')" = "=cmd|' /C calc'!A0" ] || fail "json changed the label"
# a crafted database: escape sequences in a label, an environment key and value, a reason
sqlite3 "$SYSAB_DB" "UPDATE label SET value = 'a' || char(27) || ']0;pwned' || char(7) || 'b' WHERE run = 1 AND key = 'f';
	INSERT INTO environment VALUES(2, 'k' || char(27) || '[2J', 'v' || char(155) || char(13));
	UPDATE run SET reason = 'r' || char(27) || 'c' WHERE id = 1;
	UPDATE slot SET reason = 'x' || char(27) || '[31m' WHERE run = 2;"
for c in "list" "show 1" "show 2" "list --json" "show 2 --json"; do
	expect 0 "$SYSAB" $c
	printf '%s' "$OUT" | LC_ALL=C grep -q "$(printf '[\033\007\r]')" && fail "$c printed a raw control byte"
	printf '%s' "$OUT" | LC_ALL=C grep -q "$(printf '\302\233')" && fail "$c printed a raw C1 control"
done
expect 0 "$SYSAB" show 1
contains "$OUT" 'a\x1b]0;pwned\x07b'
contains "$OUT" 'r\x1bc'
expect 0 "$SYSAB" show 2
contains "$OUT" 'k\x1b[2J'
contains "$OUT" 'v\xc2\x9b\x0d'
# the export keeps the exact bytes when it goes to a file or a pipe
expect 0 "$SYSAB" export --raw
printf '%s' "$OUT" | LC_ALL=C grep -q "$(printf '\033]0;pwned')" || fail "export changed the bytes of a label"
# invalid UTF-8 and NUL: refused with a message naming the run, never dropped or cut
for v in "x'41ff42'" "x'410042'"; do
	sqlite3 "$SYSAB_DB" "UPDATE label SET value = CAST($v AS TEXT) WHERE run = 1 AND key = 'g'"
	for c in "export --format json" "export" "list" "show 1"; do
		expect 2 "$SYSAB" $c
		contains "$ERR" "run 1 has a label whose key or value is not valid UTF-8 or holds a NUL byte"
	done
done
