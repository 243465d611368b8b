# campaign new: a backend's own options are parsed by that backend once --backend is known
# (given before or after it), stored under the keys older databases hold, refused on a
# backend that has no such option (naming the one that has), and not stored for it.
RUN="--quick -w harness.null --samples 3 --sample-ms 10 --warmup-ms 0 -q"
mkdir -p "$T/img"
expect 0 "$SYSAB" campaign new q1 --smp 2 --mem 1024 --numa 2 --accel tcg --arch x86_64 --image "$T/img" \
	--boot-timeout 60 --backend qemu --boots 1 --config 'k=a' -- $RUN
contains "$OUT" "guest: 2 CPUs, 1024 MB, accel tcg, arch x86_64, 2 NUMA nodes emulated by qemu -numa (1 CPU, 512 MB each)"
opts=$(sqlite3 "$SYSAB_DB" "SELECT options FROM campaign WHERE name = 'q1'")
[ "$opts" = "{\"accel\":\"tcg\",\"arch\":\"x86_64\",\"boot_timeout_s\":60,\"image\":\"$T/img\",\"max_failures\":2,\"mem_mb\":1024,\"numa\":2,\"settle_load\":1.0,\"settle_timeout_s\":0,\"smp\":2,\"unit_dir\":\"/etc/systemd/system\"}" ] ||
	fail "qemu options stored as $opts"
expect 0 "$SYSAB" campaign show q1 --json
[ "$(printf '%s' "$OUT" | jq -c .guest)" = '{"smp":2,"mem_mb":1024,"numa":2,"accel":"tcg","arch":"x86_64"}' ] ||
	fail "show --json guest: $(printf '%s' "$OUT" | jq -c .guest)"
# a backend without options of its own stores the generic ones only
expect 0 "$SYSAB" campaign new c1 --backend command --boots 1 --max-failures 3 --config 'k=a' --command true -- $RUN
opts=$(sqlite3 "$SYSAB_DB" "SELECT options FROM campaign WHERE name = 'c1'")
[ "$opts" = '{"max_failures":3,"settle_load":1.0,"settle_timeout_s":0,"unit_dir":"/etc/systemd/system"}' ] ||
	fail "command options stored as $opts"
# a stored qemu key on such a campaign (as older databases hold) is passed over
sqlite3 "$SYSAB_DB" "UPDATE campaign SET options = json_set(options, '\$.smp', 4, '\$.accel', 'auto') WHERE name = 'c1'"
expect 0 "$SYSAB" campaign show c1
# qemu's options on another backend: refused, naming the backend that takes them; nothing stored
expect 2 "$SYSAB" campaign new c2 --smp 2 --backend command --boots 1 --config 'k=a' --command true -- $RUN
contains "$ERR" "--smp: an option of the qemu backend; the command backend has no such option"
expect 2 "$SYSAB" campaign new c2 --backend kexec --boots 1 --accel tcg --config 'k=a' --kernel /bin/true -- $RUN
contains "$ERR" "--accel: an option of the qemu backend; the kexec backend"
expect 2 "$SYSAB" campaign new c2 --backend qemu --boots 1 --image "$T/none" --config 'k=a' -- $RUN
contains "$ERR" "--image $T/none: no such directory"
[ "$(sqlite3 "$SYSAB_DB" "SELECT count(*) FROM campaign WHERE name = 'c2'")" = 0 ] || fail "a refused option stored a campaign"
