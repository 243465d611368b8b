# The exec helpers found next to sysab, or each exec workload unsupported saying why: missing,
# linked the wrong way, or a dynamic one whose loader or C library is not there (a guest image
# without them); the run itself still succeeds.
command -v cc >/dev/null || { echo "skip: no C compiler to build broken helpers"; return 0 2>/dev/null || exit 0; }
mkdir -p "$T/bin"
cp "$SYSAB" "$T/bin/sysab"
cc -O2 -o "$T/probe" "$REPO/src/helper/exec_helper.c" 2>/dev/null || { echo "skip: cc cannot build the helper"; return 0 2>/dev/null || exit 0; }
# a cross-built sysab under qemu-user: this machine's cc builds helpers of another architecture
[ "$(od -An -tx1 -j18 -N2 "$SYSAB")" = "$(od -An -tx1 -j18 -N2 "$T/probe")" ] ||
	{ echo "skip: $SYSAB is not of cc's architecture"; return 0 2>/dev/null || exit 0; }
reason() { # WORKLOAD: its reason in the last run's JSON ($OUT)
	printf '%s' "$OUT" | jq -r --arg w "$1" '[.results[] | select(.workload == $w and .copies == 1)][0] | "\(.status): \(.reason // "")"'
}
quick() {
	expect 0 "$T/bin/sysab" run --quick --no-probe -c 1 -w unixbench.execl -w kernel.proc.exec --json
}

# none installed
quick
contains "$(reason unixbench.execl)" "unsupported: helper not found at $T/bin/sysab-execl-helper"
contains "$(reason kernel.proc.exec)" "unsupported: helper not found at $T/bin/sysab-exec-helper"

# a dynamic execl helper whose loader is missing (what a busybox guest without its libc has)
cc -O2 -o "$T/bin/sysab-execl-helper" "$REPO/src/helper/exec_helper.c" -Wl,--dynamic-linker=/nonexistent/ld-sysab.so.2
quick
contains "$(reason unixbench.execl)" "unsupported: the dynamic loader /nonexistent/ld-sysab.so.2 of helper $T/bin/sysab-execl-helper is missing"

# its loader there, a library it needs gone
printf 'int sysab_t_helpers(void) { return 0; }\n' >"$T/lib.c"
cc -shared -fPIC -o "$T/libsysabgone.so" "$T/lib.c"
cc -O2 -o "$T/bin/sysab-execl-helper" "$REPO/src/helper/exec_helper.c" -Wl,--no-as-needed -L"$T" -lsysabgone
rm -f "$T/libsysabgone.so"
quick
contains "$(reason unixbench.execl)" "unsupported: helper $T/bin/sysab-execl-helper does not run here"
contains "$(reason unixbench.execl)" "finds no C library"

# a static one where the dynamic one belongs, and the other way round
if cc -O2 -static -o "$T/static" "$REPO/src/helper/exec_helper.c" 2>/dev/null; then
	cp "$T/static" "$T/bin/sysab-execl-helper"
	cp "$T/probe" "$T/bin/sysab-exec-helper"
	quick
	contains "$(reason unixbench.execl)" "is statically linked, so the op would leave out the dynamic loading"
	contains "$(reason kernel.proc.exec)" "is dynamically linked"
	# both as make builds them: both run
	cp "$T/probe" "$T/bin/sysab-execl-helper"
	cp "$T/static" "$T/bin/sysab-exec-helper"
	quick
	[ "$(reason unixbench.execl)" = "ok: " ] || fail "execl with its helper: $(reason unixbench.execl)"
	[ "$(reason kernel.proc.exec)" = "ok: " ] || fail "proc.exec with its helper: $(reason kernel.proc.exec)"
fi

# A run of index members whose execl has no helper: no sysab-index, and the brief, show and
# its JSON say which member ran without samples, and why
rm -f "$T/bin/sysab-execl-helper"
expect 0 "$T/bin/sysab" run --quick --no-probe --no-host-ref -c 1 -w unixbench.pipe -w unixbench.execl --samples 3
contains "$OUT" "index: no sysab-index (1 copy): unixbench.execl unsupported: helper not found"
id=$("$T/bin/sysab" list --json | jq '.runs | map(.id) | max')
expect 0 "$T/bin/sysab" show "$id"
contains "$OUT" "no sysab-index (1 copy): it needs every member, and"
expect 0 "$T/bin/sysab" show "$id" --json
printf '%s' "$OUT" | jq -e '(.index | length) == 0 and (.index_missing | length) == 1 and .index_missing[0].name == "sysab-index"
	and .index_missing[0].copies == 1 and (.index_missing[0].why | startswith("unixbench.execl unsupported: helper not found"))' >/dev/null ||
	fail "show --json does not say why there is no sysab-index: $OUT"
# a run of one member only, all of it measured, gets no such note (a -w subset is no reason)
expect 0 "$T/bin/sysab" run --quick --no-probe --no-host-ref -c 1 -w unixbench.pipe --samples 3
case "$OUT" in *"no sysab-index"*) fail "a subset run got a missing-index note: $OUT" ;; esac
