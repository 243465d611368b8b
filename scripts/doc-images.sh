#!/bin/sh
# doc-images.sh SYSAB - regenerate docs/img/report-*.png, the README's screenshots of the
# HTML report, from the synthetic example data (examples/pernode-pie-boots.csv) with the
# README's own commands, in headless Chromium (Debian package chromium). `make doc-images`.
set -eu
SYSAB=${1:?usage: doc-images.sh SYSAB}
here=$(cd "$(dirname "$0")/.." && pwd)
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "doc-images: chromium not installed (apt-get install chromium)" >&2; exit 2; }
w=$(mktemp -d "${TMPDIR:-/tmp}/sysab-docimg.XXXXXX")
trap 'rm -rf "$w"' EXIT
export SYSAB_DB="$w/results.db" NO_COLOR=1
"$SYSAB" import csv "$here/examples/pernode-pie-boots.csv" >/dev/null
"$SYSAB" report analyze --factors pernode,pie data=synthetic -o "$w/report-analyze.html"
"$SYSAB" report compare 'pernode=no pie=yes data=synthetic' 'pernode=yes pie=yes data=synthetic' \
	-o "$w/report-compare.html"
shot() { # NAME HEIGHT
	TMPDIR="$w" timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
		--user-data-dir="$w/profile" --window-size="1100,$2" --screenshot="$w/$1.png" \
		"file://$w/$1.html" >/dev/null 2>"$w/chromium.err" || { cat "$w/chromium.err" >&2; exit 1; }
	cp "$w/$1.png" "$here/docs/img/$1.png"
	echo "doc-images: docs/img/$1.png"
}
shot report-analyze 1500
shot report-compare 1250
