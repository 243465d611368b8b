# campaign_migrate: a database whose campaign table still lists the backends (CHECK on backend,
# schema version 8, before the backends became a table in the code) opens, migrates on the first
# writing command with every campaign, configuration and slot kept, and its running campaign
# resumes; afterwards a backend the code does not know is refused where a campaign is loaded.
RUN="--quick -w harness.null --samples 3 --sample-ms 10 --warmup-ms 0 -q"
mkdir -p "$T/proc" "$T/units"
export SYSAB_CAMPAIGN_PROC="$T/proc"
echo 6.1.0-test >"$T/proc/osrelease"
echo "BOOT_IMAGE=/vmlinuz ro" >"$T/proc/cmdline"
BOOTCMD='echo "$SYSAB_APPEND" >>'"$T/armed"
boot() { tail -n 1 "$T/armed" >"$T/proc/cmdline"; cat /proc/sys/kernel/random/uuid >"$T/proc/boot_id"; }

expect 0 "$SYSAB" campaign new m --unit-dir "$T/units" --backend command --boots 2 --seed 7 \
	--config 'pti=on' --append 'pti=on' --command "$BOOTCMD" --config 'pti=off' --append 'pti=off' --command "$BOOTCMD" -- $RUN
expect 0 "$SYSAB" campaign new q --backend qemu --boots 1 --smp 2 --mem 256 --numa 2 --config 'k=a' --config 'k=b' -- $RUN
expect 0 "$SYSAB" campaign start m
[ "$(wc -l <"$T/armed")" = 1 ] || fail "start did not arm one boot"
rows() { sqlite3 "$SYSAB_DB" "SELECT c.name, c.backend, c.seed, c.options, f.idx, f.labels, f.command FROM campaign c JOIN campaign_config f ON f.campaign = c.id ORDER BY c.id, f.idx; SELECT c.name, s.slot, s.block, s.config FROM campaign c JOIN campaign_slot s ON s.campaign = c.id ORDER BY c.id, s.slot"; }
before=$(rows)
expect 0 "$SYSAB" campaign show q
show_q=$OUT

# the campaign table as version 8 made it: the same columns, the CHECK on backend
sqlite3 "$SYSAB_DB" "DROP TABLE bisect_step; DROP TABLE bisect; DROP TABLE campaign_adaptive_look; DROP TABLE campaign_adaptive;
CREATE TABLE campaign_old(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, uuid TEXT NOT NULL UNIQUE,
  backend TEXT NOT NULL CHECK(backend IN ('qemu','kexec','grub','command')),
  seed INTEGER NOT NULL, boots INTEGER NOT NULL, runs INTEGER NOT NULL, run_args TEXT NOT NULL DEFAULT '[]',
  options TEXT NOT NULL DEFAULT '{}', state TEXT NOT NULL CHECK(state IN ('new','running','stopped','failed','done')),
  reason TEXT, created_ns INTEGER NOT NULL, looks INTEGER NOT NULL DEFAULT 0);
INSERT INTO campaign_old SELECT * FROM campaign; DROP TABLE campaign; ALTER TABLE campaign_old RENAME TO campaign;
PRAGMA user_version = 8"
contains "$(sqlite3 "$SYSAB_DB" "SELECT sql FROM sqlite_master WHERE name = 'campaign'")" "CHECK(backend IN"
[ "$(rows)" = "$before" ] || fail "building the old table changed the campaigns"

# reading commands ask for the migration and change nothing
expect 2 "$SYSAB" campaign show m
contains "$ERR" "written by an older sysab"
[ "$(sqlite3 "$SYSAB_DB" "PRAGMA user_version")" = 8 ] || fail "a reading command migrated"

# the running campaign resumes: the first writing command migrates (with a backup) and goes on
boot
expect 0 "$SYSAB" campaign resume m
[ -f "$SYSAB_DB.v8.bak" ] || fail "no backup of the version-8 database"
[ "$(sqlite3 "$SYSAB_DB" "PRAGMA user_version")" = 11 ] || fail "not migrated to version 11"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign_adaptive")" = 0 ] || fail "migrated campaigns became adaptive"
case "$(sqlite3 "$SYSAB_DB" "SELECT sql FROM sqlite_master WHERE name = 'campaign'")" in
*"CHECK(backend"*) fail "the CHECK on backend is still there" ;;
esac
[ "$(rows)" = "$before" ] || fail "the migration changed the campaigns, configurations or slots: $(rows)"
[ "$(wc -l <"$T/armed")" = 2 ] || fail "resume after the migration did not arm the next boot"
[ "$(sqlite3 "$SYSAB_DB" "SELECT s.state FROM campaign_slot s JOIN campaign c ON c.id = s.campaign WHERE c.name = 'm' AND s.slot = 0")" = done ] ||
	fail "the slot booted before the migration was not collected"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign_run")" = 1 ] || fail "the resumed slot's run was not linked"
expect 0 "$SYSAB" campaign show q
[ "$OUT" = "$show_q" ] || fail "campaign show of a migrated qemu campaign differs"
contains "$OUT" "2 NUMA nodes emulated by qemu -numa (1 CPU, 128 MB each)"
expect 0 "$SYSAB" campaign stop m
db_ok "$SYSAB_DB"

# the database no longer lists the backends: the code's table refuses an unknown one at loading
sqlite3 "$SYSAB_DB" "UPDATE campaign SET backend = 'floppy' WHERE name = 'q'"
expect 2 "$SYSAB" campaign show q
contains "$ERR" "backend 'floppy' is none of qemu, kexec, grub or command"
