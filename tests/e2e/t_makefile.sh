# The Makefile's echoed recipes say nothing false: building the exec helper (which make run and
# make check do) prints its compile command, and the "no static C library" warning only when
# the helper really came out dynamic.
command -v make >/dev/null || { echo "skip: make is missing"; return 0 2>/dev/null || exit 0; }
expect 0 make --no-print-directory -C "$REPO" B="$T/b" "$T/b/sysab-exec-helper"
all="$OUT$ERR"
contains "$all" "-static -o $T/b/sysab-exec-helper"
if readelf -l "$T/b/sysab-exec-helper" 2>/dev/null | grep -q INTERP; then
	contains "$all" "warning: no static C library"
else
	case "$all" in *"no static C library"*) fail "a static helper, yet make printed: $all" ;; esac
fi
