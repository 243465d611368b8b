# import db: two real databases made by `sysab run` under different HOMEs merge by run UUID,
# idempotently, all or nothing per file; a newer schema is refused, an older one migrated in a copy.
run_in() { env -u SYSAB_DB HOME="$T/$1" "$SYSAB" run --quick -w harness.null --samples 3 --sample-ms 10 --warmup-ms 0 -q -l host="$1"; }
run_in h1 >/dev/null 2>&1 || fail "run in h1"
run_in h1 >/dev/null 2>&1 || fail "second run in h1"
run_in h2 >/dev/null 2>&1 || fail "run in h2"
A=$T/h1/.local/share/sysab/results.db
B=$T/h2/.local/share/sysab/results.db
[ -s "$A" ] && [ -s "$B" ] || fail "no databases under the two HOMEs"
expect 0 "$SYSAB" import db "$A" "$B"
contains "$OUT" "results.db: 2 runs with"
contains "$OUT" "results.db: 1 run with"
q() { sqlite3 "$1" "$2"; }
for sql in "SELECT uuid, status, started_ns, finished_ns FROM run ORDER BY uuid" \
	"SELECT r.uuid, s.workload, s.copies, s.seq, s.value, s.ops, s.elapsed_ns, s.warmup FROM sample s JOIN run r ON r.id = s.run ORDER BY 1, 2, 3, 4" \
	"SELECT r.uuid, l.key, l.value FROM label l JOIN run r ON r.id = l.run ORDER BY 1, 2" \
	"SELECT r.uuid, e.key, e.value FROM environment e JOIN run r ON r.id = e.run ORDER BY 1, 2" \
	"SELECT r.uuid, s.workload, s.status, s.unit, s.batch_ops FROM slot s JOIN run r ON r.id = s.run ORDER BY 1, 2" \
	"SELECT r.uuid, s.workload, s.seq, c.event, c.value FROM sample_counter c JOIN sample s ON s.id = c.sample JOIN run r ON r.id = s.run ORDER BY 1, 2, 3, 4" \
	"SELECT r.uuid, b.boot_id, b.kernel_release, m.hostname, m.ncpus FROM run r JOIN boot b ON b.id = r.boot JOIN machine m ON m.id = b.machine ORDER BY 1"; do
	want=$( (q "$A" "$sql"; q "$B" "$sql") | sort)
	got=$(q "$SYSAB_DB" "$sql" | sort)
	[ "$want" = "$got" ] || fail "merged rows differ from the originals for: $sql"
done
[ "$(q "$SYSAB_DB" 'SELECT count(*) FROM run')" = 3 ] || fail "want 3 runs"
# a second import stores nothing and says so
sum() { sqlite3 "$1" 'SELECT count(*) FROM run; SELECT count(*) FROM sample; SELECT count(*) FROM environment; SELECT count(*) FROM label'; }
before=$(sum "$SYSAB_DB")
expect 0 "$SYSAB" import db "$A" "$B"
contains "$OUT" "results.db: nothing new (2 runs already stored)"
contains "$OUT" "results.db: nothing new (1 run already stored)"
[ "$(sum "$SYSAB_DB")" = "$before" ] || fail "a second import changed the database"
expect 0 "$SYSAB" compare host=h1 host=h2
contains "$OUT" harness.null
# campaigns travel with their runs; a campaign of the same name but another identity makes the
# whole file fail, and nothing of it is stored
expect 0 env HOME="$T/h1" "$SYSAB" campaign new c1 --db "$A" --backend command --boots 2 --config 'x=1' --command true --config 'x=2' --command true
run_in h1 >/dev/null 2>&1 || fail "third run in h1"
expect 0 "$SYSAB" campaign new c1 --backend command --boots 1 --config 'x=9' --command true
before=$(sum "$SYSAB_DB")
expect 2 "$SYSAB" import db "$A"
contains "$ERR" "campaign 'c1' differs"
contains "$ERR" "$A"
[ "$(sum "$SYSAB_DB")" = "$before" ] || fail "a failed import stored part of the file"
expect 0 "$SYSAB" campaign new c1 --db "$T/fresh.db" --backend command --boots 1 --config 'x=9' --command true
expect 0 "$SYSAB" import db --db "$T/other.db" "$A"
contains "$OUT" "1 campaign"
expect 0 "$SYSAB" campaign show c1 --db "$T/other.db"
contains "$OUT" "4 to go"
# a damaged campaign (issue 52 item 10) is refused by the check campaign show applies: exit 2
# naming it and what is wrong, nothing of the file stored (after it, show failed for all)
D="$T/dmg.db"
sqlite3 "$A" ".backup '$D'"
expect 0 "$SYSAB" campaign new good --db "$D" --backend command --boots 1 --config 'x=1' --command true
expect 0 "$SYSAB" campaign new bad --db "$D" --backend command --boots 1 --config 'x=2' --command true
sqlite3 "$D" "UPDATE campaign SET run_args = 'oops' WHERE name = 'bad'"
expect 2 "$SYSAB" import db --db "$T/dst.db" "$D"
contains "$ERR" "campaign 'bad' is damaged"
contains "$ERR" "run_args is not a JSON array"
contains "$ERR" "nothing of the file was stored"
[ "$(sqlite3 "$T/dst.db" "SELECT (SELECT count(*) FROM campaign) || '/' || (SELECT count(*) FROM run)" 2>/dev/null || echo 0/0)" = 0/0 ] || fail "a refused campaign left records behind"
# a newer schema is refused with exit 2 and the database is unchanged
cp "$B" "$T/newer.db"
sqlite3 "$T/newer.db" 'PRAGMA user_version = 99'
expect 2 "$SYSAB" import db "$T/newer.db"
contains "$ERR" "newer sysab"
[ "$(sum "$SYSAB_DB")" = "$before" ] || fail "a refused import changed the database"
# an older (version 1) database is read from a migrated copy; the file itself is untouched
cp "$B" "$T/old.db"
sqlite3 "$T/old.db" 'DROP INDEX run_uuid; ALTER TABLE run DROP COLUMN uuid; DROP TABLE bisect_step; DROP TABLE bisect; DROP TABLE campaign_adaptive_look; DROP TABLE campaign_adaptive; DROP TABLE campaign_run; DROP TABLE campaign_slot; DROP TABLE campaign_config; DROP TABLE campaign; DROP TABLE sample_counter; DROP TRIGGER sample_added_summary; DROP TRIGGER sample_changed_summary; DROP TRIGGER sample_deleted_summary; DROP TRIGGER environment_added_summary; DROP TRIGGER environment_changed_summary; DROP TRIGGER environment_deleted_summary; DROP TABLE run_summary; DROP TABLE summary_meta; ALTER TABLE sample DROP COLUMN dropped; DROP TABLE look; PRAGMA user_version = 1'
old=$(md5sum <"$T/old.db")
expect 0 "$SYSAB" import db --db "$T/o.db" "$T/old.db"
contains "$OUT" "1 run with"
[ "$(md5sum <"$T/old.db")" = "$old" ] || fail "the older database was written"
expect 2 "$SYSAB" import db "$SYSAB_DB"
contains "$ERR" "the database being imported into"
expect 2 "$SYSAB" import db "$T/nosuch.db"
contains "$ERR" "nosuch.db"
expect 2 "$SYSAB" import db "$A" -l k=v
db_ok "$SYSAB_DB"
