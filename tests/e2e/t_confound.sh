# confound: the confounder block leaves out, in one line per cause, what the change under test
# explains (a label or a kernel command-line word that differs, by confound.c's table:
# mitigations explains vuln.*), and lists the rest by how much it can move the workloads
# (clocksource high, glibc and cache.source low, which sort before it by name). Two runs of each comparison on this boot, their environments
# then set as two machines would differ (the stored summaries follow: the triggers drop them).
run1() {
	expect 0 "$SYSAB" run -w kernel.syscall.null --samples 8 --sample-ms 2 --warmup-ms 0 -c 1 -q --no-probe -l "$1"
}
run1 mitigations=auto
run1 mitigations=off
run1 mit=a
run1 mit=b
env_set() { # RUN KEY VALUE
	sqlite3 "$SYSAB_DB" "INSERT OR REPLACE INTO environment(run, key, value) VALUES($1, '$2', '$3')" ||
		fail "set $2 of run $1"
}
for r in 1 3; do
	env_set $r kernel.cmdline 'console=ttyS0 quiet'
	env_set $r clocksource tsc
	env_set $r vuln.spectre_v2 'Mitigation: Retpolines'
	env_set $r vuln.mds 'Mitigation: Clear CPU buffers'
	env_set $r vuln.meltdown 'Mitigation: PTI'
	env_set $r glibc 2.36
	env_set $r cache.source sysfs
done
for r in 2 4; do
	env_set $r kernel.cmdline 'console=ttyS0 quiet mitigations=off'
	env_set $r clocksource hpet
	env_set $r vuln.spectre_v2 Vulnerable
	env_set $r vuln.mds 'Vulnerable; SMT vulnerable'
	env_set $r vuln.meltdown Vulnerable
	env_set $r glibc 2.37
	env_set $r cache.source cpuid
done

# the label names the change: the command line and the vuln keys are its own doing
expect 0 env COLUMNS=80 "$SYSAB" compare mitigations=auto mitigations=off --unit run
block=$(printf '%s\n' "$OUT" | sed -n '/^confounders/,/^$/p')
first=$(printf '%s\n' "$block" | sed -n 2p)
case $first in "  clocksource "*"A: tsc | B: hpet") ;; *) fail "the first confounder is not the clocksource: $block" ;; esac
[ "$(printf '%s\n' "$block" | sed -n '3,4p' | cut -c3-14 | tr -s ' \n' '  ')" = "cache.source glibc " ] ||
	fail "the low-impact keys are not last, by name: $block"
printf '%s\n' "$block" | grep -Eq '^  (vuln\.|kernel\.cmdline)' && fail "an explained key listed on its own line: $block"
contains "$(printf '%s' "$block" | tr -s ' \n' '  ')" "explained by the change under test (label mitigations): kernel.cmdline, vuln.mds, vuln.meltdown, vuln.spectre_v2"
n=$(printf '%s\n' "$block" | grep -c 'explained by')
[ "$n" = 1 ] || fail "$n explanation lines: $block"
expect 0 "$SYSAB" compare mitigations=auto mitigations=off --unit run --json
v=$(printf '%s' "$OUT" | jq -r '[.confounders[] | [.key, .impact, (.explained_as // "-")] | join(":")] | join(" ")')
[ "$v" = "clocksource:high:- kernel.cmdline:high:label vuln.mds:high:label vuln.meltdown:high:label vuln.spectre_v2:high:label cache.source:low:- glibc:low:-" ] ||
	fail "JSON confounders: $v"
expect 0 "$SYSAB" compare mitigations=auto mitigations=off --unit run --format html -o "$T/cf.html"
grep -q 'not a label: clocksource' "$T/cf.html" || fail "HTML: no clocksource warning"
grep -q 'not a label: vuln\.' "$T/cf.html" && fail "HTML: an explained key warned of on its own"
grep -q 'explained by the change under test (label mitigations): kernel.cmdline, vuln.mds' "$T/cf.html" ||
	fail "HTML: no line of the explained keys"

# labels that say nothing of it: the command line is listed, and explains the vuln keys
expect 0 env COLUMNS=80 "$SYSAB" compare mit=a mit=b --unit run
block=$(printf '%s\n' "$OUT" | sed -n '/^confounders/,/^$/p')
case $(printf '%s\n' "$block" | sed -n 2p) in "  clocksource "*) ;; *) fail "the first confounder is not the clocksource: $block" ;; esac
printf '%s\n' "$block" | grep -q '^  kernel\.cmdline ' || fail "the differing command line is not listed: $block"
printf '%s\n' "$block" | grep -q '^  vuln\.' && fail "a vuln key listed on its own line: $block"
contains "$(printf '%s' "$block" | tr -s ' \n' '  ')" "explained by mitigations=off on the kernel command line: vuln.mds, vuln.meltdown, vuln.spectre_v2"
