#!/bin/sh
# deps.sh - install the missing Debian packages given as arguments (as root),
# or print the command that would (as anyone else). Exit 0 when all are present.
missing=""
if command -v dpkg-query >/dev/null 2>&1; then
	for p in "$@"; do
		s=$(dpkg-query -W -f '${Status}' "$p" 2>/dev/null)
		case "$s" in *" installed") ;; *) missing="$missing $p" ;; esac
	done
else
	# Not Debian: trust pkg-config for the libraries and say what is needed.
	for lib in sqlite3 jansson gsl; do
		pkg-config --exists "$lib" 2>/dev/null || missing="$missing $lib"
	done
	if [ -n "$missing" ]; then
		echo "sysab needs the development files of:$missing (and cmocka for the tests); install them with your package manager" >&2
		exit 1
	fi
	exit 0
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "installing:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends $missing >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 && apt-get install -y --no-install-recommends $missing >/dev/null; } ||
		{ echo "apt-get could not install:$missing" >&2; exit 1; }
else
	echo "sysab needs these Debian packages:$missing" >&2
	echo "run:  sudo apt-get install -y$missing" >&2
	exit 1
fi
