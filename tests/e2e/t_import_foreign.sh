# import db of hostile or odd sources (issue 34 items 2-5): every value a sysab run could not
# have written is refused, views and endless triggers end at once, a run that sits only in the
# source's -wal is imported (older schema too, and from a read-only mount); each refusal is
# exit 2 naming the file, the target byte for byte unchanged, no temp file left.
env -u SYSAB_DB HOME="$T/h" "$SYSAB" run --quick -w harness.null --samples 3 --sample-ms 10 --warmup-ms 0 -q -l a=1 \
	>/dev/null 2>&1 || fail "run"
env -u SYSAB_DB HOME="$T/h" "$SYSAB" run --quick -w harness.null --samples 3 --sample-ms 10 --warmup-ms 0 -q -l a=2 \
	>/dev/null 2>&1 || fail "second run"
SRC=$T/h/.local/share/sysab/results.db
# the target: a database with one other run in it
env -u SYSAB_DB HOME="$T/g" "$SYSAB" run --quick -w harness.null --samples 3 --sample-ms 10 --warmup-ms 0 -q \
	>/dev/null 2>&1 || fail "target run"
cp "$T/g/.local/share/sysab/results.db" "$SYSAB_DB"
sum() { md5sum "$SYSAB_DB" | cut -d' ' -f1; ls "$SYSAB_DB"* | tr '\n' ' '; }
before=$(sum)

# refused: exit 2 within 20 s, the message names the file and contains $2, target unchanged
refused() { # refused FILE NEEDLE
	start=$(date +%s)
	expect 2 timeout 60 "$SYSAB" import db "$1"
	[ $(($(date +%s) - start)) -le 20 ] || fail "import db of $1 took more than 20 s"
	contains "$ERR" "$1"
	contains "$ERR" "$2"
	[ "$(sum)" = "$before" ] || fail "a refused import of $1 changed the target"
}
# mutate NAME SQL: a copy of the source with SQL applied
mutate() { cp "$SRC" "$T/$1.db" && sqlite3 "$T/$1.db" "$2" || fail "mutate $1"; }

# item 3: the values the CSV and log importers refuse
mutate biglabel "UPDATE label SET value = hex(zeroblob(33554432)) WHERE key = 'a'"
refused "$T/biglabel.db" "longer than 256 bytes"
mutate bigwl "UPDATE sample SET workload = 'w' || hex(zeroblob(524288)) WHERE workload = 'harness.null'"
refused "$T/bigwl.db" "is not a letter, then letters"
mutate copiesneg "UPDATE slot SET copies = -3; UPDATE sample SET copies = -3"
refused "$T/copiesneg.db" "copies -3 is out of range"
mutate copiesbig "UPDATE slot SET copies = 2147483647; UPDATE sample SET copies = 2147483647"
refused "$T/copiesbig.db" "copies 2147483647 is out of range"
mutate negops "UPDATE sample SET ops = -5"
refused "$T/negops.db" "ops or elapsed time is negative"
mutate huge "UPDATE sample SET value = 1e300"
refused "$T/huge.db" "sample value 1e+300 is out of range"
mutate inf "UPDATE sample SET value = 9e999"
refused "$T/inf.db" "sample value inf is out of range"
mutate nulluuid "UPDATE run SET uuid = NULL WHERE id = (SELECT min(id) FROM run)"
refused "$T/nulluuid.db" "run uuid '' is not 32 lowercase hex digits"
mutate dupuuid "DROP INDEX run_uuid; UPDATE run SET uuid = (SELECT min(uuid) FROM run)"
refused "$T/dupuuid.db" "two runs share the uuid"
mutate badlabel "UPDATE label SET value = 'x' || char(27) || '[2J'"
refused "$T/badlabel.db" "not clean UTF-8"

# item 4: views where sysab has tables, an endless trigger in an older schema
mutate endless "DROP TABLE sample_counter; CREATE VIEW sample_counter AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT 0 AS sample, 'e' AS event, x AS value FROM c"
refused "$T/endless.db" "a view named 'sample_counter'"
mutate bigview "DROP TABLE bisect_step; DROP TABLE bisect; DROP TABLE campaign_adaptive_look; DROP TABLE campaign_adaptive; DROP TABLE campaign_run; DROP TABLE campaign_slot; DROP TABLE campaign_config; DROP TABLE campaign; CREATE VIEW campaign AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) SELECT x AS id, 'c' || x AS name, 'u' || x AS uuid, 'command' AS backend, 0 AS seed, 1 AS boots, 1 AS runs, '[]' AS run_args, '{}' AS options, 'new' AS state, NULL AS reason, 0 AS created_ns, 0 AS looks FROM c"
refused "$T/bigview.db" "a view named 'campaign'"
downgrade='DROP INDEX run_uuid; ALTER TABLE run DROP COLUMN uuid; DROP TABLE bisect_step; DROP TABLE bisect; DROP TABLE campaign_adaptive_look; DROP TABLE campaign_adaptive; DROP TABLE campaign_run; DROP TABLE campaign_slot; DROP TABLE campaign_config; DROP TABLE campaign; DROP TABLE sample_counter; DROP TRIGGER sample_added_summary; DROP TRIGGER sample_changed_summary; DROP TRIGGER sample_deleted_summary; DROP TRIGGER environment_added_summary; DROP TRIGGER environment_changed_summary; DROP TRIGGER environment_deleted_summary; DROP TABLE run_summary; DROP TABLE summary_meta; ALTER TABLE sample DROP COLUMN dropped; DROP TABLE look; PRAGMA user_version = 1'
mutate oldtrig "$downgrade; CREATE TRIGGER evil AFTER UPDATE ON run BEGIN SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c); END"
start=$(date +%s)
expect 0 timeout 60 "$SYSAB" import db --db "$T/t4.db" "$T/oldtrig.db"
[ $(($(date +%s) - start)) -le 20 ] || fail "import db of a source with an endless trigger took more than 20 s"
contains "$OUT" "2 runs with"
[ "$(sum)" = "$before" ] || fail "an import into another database changed the target"

# item 2: runs that sit only in the source's -wal, current and older schema
walcopy() { # walcopy SRC DEST: DEST (+ -wal) holds SRC plus one more run, committed only in the log
	python3 - "$1" "$2" <<'PY' || fail "walcopy"
import shutil, sqlite3, sys, os
src, dst = sys.argv[1], sys.argv[2]
shutil.copy(src, dst)
c = sqlite3.connect(dst, isolation_level=None)
c.execute("PRAGMA journal_mode=WAL")
c.execute("PRAGMA wal_autocheckpoint=0")
cols = [r[1] for r in c.execute("PRAGMA table_info(run)")]
has_uuid = "uuid" in cols
c.execute("BEGIN")
c.execute("INSERT INTO run(boot, started_ns, finished_ns, status, reason, source, seed, settings, pid, overhead_ns%s) "
          "SELECT boot, started_ns + 1, finished_ns, status, reason, source, seed, settings, pid, overhead_ns%s FROM run "
          "ORDER BY id LIMIT 1" % ((", uuid", ", 'ffffffffffffffffffffffffffffffff'") if has_uuid else ("", "")))
new = c.execute("SELECT max(id) FROM run").fetchone()[0]
old = c.execute("SELECT min(id) FROM run").fetchone()[0]
c.execute("INSERT INTO label SELECT ?, key, value || 'w' FROM label WHERE run = ?", (new, old))
scols = [r[1] for r in c.execute("PRAGMA table_info(sample)") if r[1] not in ("id", "run")]
c.execute("INSERT INTO slot SELECT ?, workload, copies, unit, latency, status, reason, batch_ops, overhead_ns, checks "
          "FROM slot WHERE run = ?", (new, old))
c.execute("INSERT INTO sample(run, %s) SELECT ?, %s FROM sample WHERE run = ?" % (", ".join(scols), ", ".join(scols)),
          (new, old))
c.execute("COMMIT")
shutil.copy(dst, dst + ".main")
shutil.copy(dst + "-wal", dst + ".wal")
os._exit(0)  # no close: the log is not checkpointed
PY
	mv "$2.main" "$2" && mv "$2.wal" "$2-wal" && rm -f "$2-shm"
	[ -s "$2-wal" ] || fail "walcopy left no log"
}
mkdir -p "$T/w"
walcopy "$SRC" "$T/w/cur.db"
expect 0 "$SYSAB" import db --db "$T/t2.db" "$T/w/cur.db"
contains "$OUT" "3 runs with"
cp "$SRC" "$T/w/old0.db" && sqlite3 "$T/w/old0.db" "$downgrade"
walcopy "$T/w/old0.db" "$T/w/old.db"
oldsum=$(cat "$T/w/old.db" "$T/w/old.db-wal" | md5sum)
expect 0 "$SYSAB" import db --db "$T/t3.db" "$T/w/old.db"
contains "$OUT" "3 runs with"
[ "$(sqlite3 "$T/t3.db" "SELECT count(*) FROM label WHERE value = '1w'")" = 1 ] || fail "the run in the older source's -wal was not imported"
[ "$(cat "$T/w/old.db" "$T/w/old.db-wal" | md5sum)" = "$oldsum" ] || fail "the older source or its log was written"

# item 5: a source with its -wal on a read-only mount is read (root: a private read-only tmpfs)
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	mkdir -p "$T/ro"
	expect 0 unshare -m sh -c "mount -t tmpfs -o size=16m tmpfs '$T/ro' && cp '$T/w/cur.db' '$T/w/cur.db-wal' '$T/ro/' &&
		mount -o remount,ro '$T/ro' && '$SYSAB' import db --db '$T/t5.db' '$T/ro/cur.db'"
	contains "$OUT" "3 runs with"
else
	echo "skip: the read-only mount needs root and unshare -m"
fi
[ "$(sum)" = "$before" ] || fail "the target changed"
db_ok "$SYSAB_DB"
