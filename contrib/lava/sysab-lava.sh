#!/bin/sh
# sysab-lava.sh - the steps of contrib/lava/sysab.yaml: install sysab if needed, run it, report lava-test-case lines, keep the database.
# Runs on the device inside a LAVA test shell (lava-test-case and lava-test-reference on PATH),
# from the root of a sysab checkout. Settings come from the environment (see sysab.yaml params).
WORKLOADS=${WORKLOADS:-kernel.syscall.null}
PROFILE=${PROFILE:-}
RUN_ARGS=${RUN_ARGS:-}
LABELS=${LABELS:-}
DB=${DB:-sysab-results.db}
BUILD=${BUILD:-yes}
DB_UPLOAD=${DB_UPLOAD:-}
DB_LOG=${DB_LOG:-log}
# WORKLOADS, LABELS and RUN_ARGS are lists separated by spaces, as sysab.yaml documents: split
# on spaces only, and never expanded as globs (WORKLOADS='*' is sysab's pattern, not the
# files of this checkout; a tab or newline stays inside a word, where sysab refuses it)
set -f
IFS=' '

# sysab: on PATH, else built from this checkout into ./sysab-install
if ! command -v sysab >/dev/null 2>&1; then
	if [ "$BUILD" = yes ] && [ -f Makefile ] && make -j"$(nproc 2>/dev/null || echo 2)" && make install PREFIX="$PWD/sysab-install"; then
		PATH=$PWD/sysab-install/bin:$PATH
		lava-test-case sysab-install --result pass
	else
		lava-test-case sysab-install --result fail
		echo "sysab-lava: sysab is not on PATH and could not be built here (BUILD=$BUILD)" >&2
		exit 1
	fi
fi
sysab --version 2>/dev/null || true

set -- run -q --db "$DB"
case "$PROFILE" in
quick | full) set -- "$@" "--$PROFILE" ;;
"") ;;
*) echo "sysab-lava: PROFILE must be quick, full or empty, not '$PROFILE'" >&2; lava-test-case sysab-run --result fail; exit 1 ;;
esac
for w in $WORKLOADS; do set -- "$@" -w "$w"; done
for l in $LABELS; do set -- "$@" -l "$l"; done
# shellcheck disable=SC2086 # RUN_ARGS is a list of options
set -- "$@" $RUN_ARGS
echo "sysab-lava: sysab $*"
if sysab "$@"; then
	lava-test-case sysab-run --result pass
else
	echo "sysab-lava: sysab run exited $?" >&2
	lava-test-case sysab-run --result fail
fi

# one lava-test-case per (workload, copies) of the runs in the database
if sysab export --db "$DB" --format lava -o sysab-cases.sh; then
	cat sysab-cases.sh
	. ./sysab-cases.sh
else
	lava-test-case sysab-export --result fail
fi

# keep the database for sysab import db
if [ -f "$DB" ]; then
	if [ -n "$DB_UPLOAD" ]; then
		if curl -fsS -T "$DB" "$DB_UPLOAD"; then
			lava-test-reference sysab-db --result pass --reference "$DB_UPLOAD"
		else
			lava-test-case sysab-db --result fail
		fi
	fi
	if [ "$DB_LOG" = log ]; then
		echo "SYSAB-DB-BEGIN $(wc -c <"$DB")"
		base64 "$DB"
		echo "SYSAB-DB-END"
	fi
fi
exit 0
