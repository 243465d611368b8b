# bash completion (generated from the option tables): commands, subcommands and option values.
command -v bash >/dev/null || { echo "skip: no bash"; return 0 2>/dev/null || exit 0; }
"$SYSAB" __completion >"$T/comp" || fail "__completion failed"
# complete WORDS...: what completing the last word (may be empty) offers, one line
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _sysab; printf "%s " "${COMPREPLY[@]}"' \
		_ "$T/comp" "$@"
}
[ "$(complete_words sysab comp)" = "compare " ] || fail "commands: $(complete_words sysab comp)"
[ "$(complete_words sysab system '')" = "show tune reset " ] || fail "system: $(complete_words sysab system '')"
[ "$(complete_words sysab import '')" = "csv unixbench db " ] || fail "import: $(complete_words sysab import '')"
[ "$(complete_words sysab campaign st)" = "status start stop " ] || fail "campaign: $(complete_words sysab campaign st)"
[ "$(complete_words sysab compare --format '')" = "text json markdown html kcidb " ] ||
	fail "compare --format: $(complete_words sysab compare --format '')"
[ "$(complete_words sysab analyze --format '')" = "text json markdown html " ] || fail "analyze --format"
[ "$(complete_words sysab export --format k)" = "kcidb " ] || fail "export --format"
[ "$(complete_words sysab export --kcidb-version '')" = "5.3 4.5 " ] || fail "export --kcidb-version: $(complete_words sysab export --kcidb-version '')"
[ "$(complete_words sysab compare a b --fail-on s)" = "slower " ] || fail "--fail-on"
[ "$(complete_words sysab run --counters '')" = "all software none " ] || fail "--counters"
[ "$(complete_words sysab run --nodes '')" = "all " ] || fail "--nodes"
# the backends, from their table in src/campaign/campaign.h
[ "$(complete_words sysab campaign new x --backend '')" = "qemu kexec grub command " ] ||
	fail "--backend: $(complete_words sysab campaign new x --backend '')"
contains "$(complete_words sysab system show --)" "--root"
contains "$(complete_words sysab run -w kernel.syscall.n)" "kernel.syscall.null"
