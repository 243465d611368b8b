# sysab needs no root: every workload of the quick suite runs as an unprivileged user with the
# default database under its HOME, and the environment records whether a run ran as root.
if unpriv_setup; then
	expect 0 as_user env -u SYSAB_DB "$SYSAB" run --quick --samples 3 --sample-ms 10 --warmup-ms 0 -q
	db=$T/u/home/.local/share/sysab/results.db
	[ -s "$db" ] || fail "no database at the default place under HOME"
	# under qemu-user some workloads cannot work at all (no vDSO): tests/cross/run.sh checks
	# that they say why. Unsupported for a reason of the machine (one NUMA node, no huge
	# pages) is fine too; anything about permission is what this test is for
	bad=$(sqlite3 "$db" "SELECT workload || ': ' || status || ' ' || coalesce(reason, '') FROM slot WHERE status <> 'ok'
		AND NOT (status = 'unsupported' AND lower(coalesce(reason, '')) NOT LIKE '%permi%'
		AND lower(coalesce(reason, '')) NOT LIKE '%privile%' AND coalesce(reason, '') NOT LIKE '%EPERM%'
		AND coalesce(reason, '') NOT LIKE '%EACCES%' AND lower(coalesce(reason, '')) NOT LIKE '%root%')")
	[ -z "$bad" ] || fail "workloads that did not run unprivileged: $bad"
	n=$(sqlite3 "$db" "SELECT count(*) FROM slot")
	[ "$n" -ge 30 ] || fail "only $n workloads ran"
	[ "$(sqlite3 "$db" "SELECT value FROM environment WHERE key = 'user.root'")" = no ] || fail "user.root is not 'no'"
	expect 0 as_user env -u SYSAB_DB "$SYSAB" list
	contains "$OUT" complete
	expect 0 as_user env -u SYSAB_DB "$SYSAB" show 1
	contains "$OUT" "user.root"
	no_tmp_left "$T/u/tmp"
	db_ok "$db"
fi
if [ "$(id -u)" = 0 ]; then
	expect 0 "$SYSAB" run --quick -w harness.null -q
	[ "$(sqlite3 "$SYSAB_DB" "SELECT value FROM environment WHERE key = 'user.root'")" = yes ] ||
		fail "a run as root does not record user.root = yes"
fi
