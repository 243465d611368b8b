#!/bin/sh
# run.sh - golden-output tests: tables and JSON of list/show/compare/analyze/plan on a
# fixture database built from checked-in CSV and UnixBench fixtures, compared with the
# expected files in tests/golden/expected/. `run.sh --update` (make golden) rewrites them.
# Normalised: wall-clock times (imports are stamped with the time of import) and, in JSON,
# numbers to 6 significant digits, so libm differences between machines do not matter.
set -u
: "${SYSAB:?set SYSAB to the binary under test}"
here=$(cd "$(dirname "$0")" && pwd)
repo="$here/../.."
exp="$here/expected"
update=0
[ "${1:-}" = --update ] && update=1
work=$(mktemp -d "${TMPDIR:-/tmp}/sysab-golden.XXXXXX")
trap 'rm -rf "$work"' EXIT
export SYSAB_DB="$work/golden.db" NO_COLOR=1
unset CI COLUMNS
fx="$repo/tests/fixtures/unixbench"
{
	"$SYSAB" import csv "$repo/examples/pernode-pie-boots.csv" &&
		"$SYSAB" import unixbench "$fx/host-2026-12-02-pass1.log" "$fx/host-2026-12-02-pass2.log" \
			"$fx/host-2026-12-02-pass3.log" -l set=a --kernel 6.1.0-a &&
		"$SYSAB" import unixbench "$fx/host-2026-12-02-pass4.log" "$fx/host-2026-12-02-pass5.log" \
			-l set=b --kernel 6.1.0-b
} >"$work/import.log" 2>&1 || { cat "$work/import.log"; exit 1; }

# NAME and the arguments of each case (a first argument VAR=VALUE is set in the environment)
cases() {
	cat <<'CASES'
list|list
list.json|list --json
show-csv|show 1
show-csv.json|show 1 --json
show-unixbench|show 33
show-unixbench.json|show 33 --json
compare-pernode|compare 'pernode=no pie=yes' 'pernode=yes pie=yes'
compare-pernode-verbose|compare 'pernode=no pie=yes' 'pernode=yes pie=yes' -v
compare-pernode.json|compare 'pernode=no pie=yes' 'pernode=yes pie=yes' --json
compare-unixbench|compare set=a set=b
compare-unixbench-verbose|compare set=a set=b -v
compare-unixbench-narrow|COLUMNS=64 compare set=a set=b
compare-unixbench.json|compare set=a set=b --json
compare-unixbench.md|compare set=a set=b --format markdown
compare-pernode.md|compare 'pernode=no pie=yes' 'pernode=yes pie=yes' --format markdown
show-unixbench.md|show 33 --format markdown
report-group|report 'pernode=no' --format text -o /dev/stdout
report-group-unixbench|report set=a --format text -o /dev/stdout
report-group.md|report 'pernode=no' --format markdown -o /dev/stdout
analyze|analyze --factors pernode,pie
analyze.json|analyze --factors pernode,pie --json
plan|plan 'pie=yes' --target 1%
plan.json|plan 'pie=yes' --target 1% --json
plan-unixbench|plan set=a set=b --target 2% -w unixbench.pipe -w unixbench.syscall
plan-power|plan 'pie=yes' --target 5% --power 0.8
system-intel-smt|system show --root "$repo/tests/fixtures/system/intel-smt"
system-intel-smt.json|system show --root "$repo/tests/fixtures/system/intel-smt" --json
system-amd-nosmt|system show --root "$repo/tests/fixtures/system/amd-nosmt"
system-acpi-tuned|system show --root "$repo/tests/fixtures/system/acpi-tuned"
system-vm-nocpufreq|system show --root "$repo/tests/fixtures/system/vm-nocpufreq"
system-vm-nocpufreq.json|system show --root "$repo/tests/fixtures/system/vm-nocpufreq" --json
CASES
}

# Dates and times to placeholders.
normalise() {
	sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}(:[0-9]{2})?/YYYY-MM-DD hh:mm/g' |
		sed -E 's/"(started_ns|finished_ns)": [0-9]+/"\1": 0/'
}

# JSON numbers with a fraction to 6 significant digits.
round_numbers() {
	awk '{
			out = ""; s = $0
			while (match(s, /-?[0-9]+\.[0-9]+([eE][-+]?[0-9]+)?/)) {
				out = out substr(s, 1, RSTART - 1) sprintf("%.6g", substr(s, RSTART, RLENGTH) + 0)
				s = substr(s, RSTART + RLENGTH)
			}
			print out s
		}'
}

fails=0
n=0
mkdir -p "$exp"
cases | while IFS='|' read -r name args; do
	eval "set -- $args"
	case ${1:-} in
	*=*) # VAR=VALUE, then the arguments
		v=$1
		shift
		env "$v" "$SYSAB" "$@" >"$work/raw" 2>&1
		;;
	*) "$SYSAB" "$@" >"$work/raw" 2>&1 ;;
	esac
	echo "exit $?" >>"$work/raw"
	case $name in
	*.json) normalise <"$work/raw" | round_numbers >"$work/$name" ;;
	*) normalise <"$work/raw" >"$work/$name" ;;
	esac
	if [ $update = 1 ]; then
		cp "$work/$name" "$exp/$name"
	elif ! cmp -s "$work/$name" "$exp/$name"; then
		echo "golden: $name differs from tests/golden/expected/$name (sysab $args):"
		diff -u "$exp/$name" "$work/$name" | head -40
		echo x >>"$work/failed"
	fi
done
if [ $update = 1 ]; then
	echo "golden: rewrote $(cases | wc -l) files in tests/golden/expected/; review them with git diff"
	exit 0
fi
if [ -s "$work/failed" ]; then
	echo "golden: $(wc -l <"$work/failed") of $(cases | wc -l) differ; if the change is intended, run make golden"
	exit 1
fi
echo "golden: $(cases | wc -l) outputs match"
