#!/bin/sh
# check-layers.sh - fail when a source file includes a header of a module it must not
# (docs/ARCHITECTURE.md, "Allowed includes"), or when headers include each other in a cycle
# (src/campaign: campaign.h <- backend.h <- the driver and one file per backend). Usage: check-layers.sh [SRC_DIR]
src=${1:-src}
[ -d "$src" ] || { echo "check-layers: no directory '$src'; give the source tree, e.g. src" >&2; exit 2; }

# module: the modules whose headers it may include (its own is always allowed).
# Data flows cli -> run -> store -> analysis -> stats; report renders analysis results.
rules='
main      cli workloads core
cli       study run campaign system store import analysis report stats workloads core
study     analysis campaign store stats core
campaign  run store import workloads core
run       store stats workloads core
import    store workloads core
analysis  store stats workloads core
report    study analysis campaign system stats store run workloads core
store     core
stats     core
system    core
workloads core
core
helper
'

cd "$src" || exit 2
status=0
find . -name '*.[ch]' | sort | awk -v rules="$rules" '
BEGIN {
	n = split(rules, line, "\n")
	for (i = 1; i <= n; i++) {
		k = split(line[i], w, /[ \t]+/)
		if (k < 1 || w[1] == "")
			continue
		known[w[1]] = 1
		ok[w[1], w[1]] = 1
		for (j = 2; j <= k; j++)
			ok[w[1], w[j]] = 1
	}
	bad = 0
}
# The module of a path relative to the source root: its first folder, or the file name
# without its extension for a file at the root (main.c -> main).
function module_of(p,   parts, k) {
	k = split(p, parts, "/")
	if (k == 1) {
		sub(/\.[ch]$/, "", parts[1])
		return parts[1]
	}
	return parts[1]
}
# Resolve an include written relative to the including file ("../util.h") or to the root.
function resolve(file, inc,   dir, parts, k, i, out, m) {
	if (inc !~ /^\.\.?\//)
		return inc
	dir = file
	sub(/[^\/]*$/, "", dir)
	k = split(dir inc, parts, "/")
	m = 0
	for (i = 1; i <= k; i++) {
		if (parts[i] == "" || parts[i] == ".")
			continue
		if (parts[i] == "..") { if (m > 0) m--; continue }
		out[++m] = parts[i]
	}
	p = out[1]
	for (i = 2; i <= m; i++)
		p = p "/" out[i]
	return p
}
{
	file = $0
	sub(/^\.\//, "", file)
	from = module_of(file)
	if (!(from in known)) {
		printf "%s: module %s has no line in the include rules of scripts/check-layers.sh; add one\n", file, from
		bad = 1
		next
	}
	ln = 0
	while ((getline text < $0) > 0) {
		ln++
		if (text !~ /^[ \t]*#[ \t]*include[ \t]*"/)
			continue
		inc = text
		sub(/^[^"]*"/, "", inc)
		sub(/".*$/, "", inc)
		target = resolve(file, inc)
		if (target !~ /\//) {
			# a header beside the file: same module
			continue
		}
		to = module_of(target)
		if (!((from, to) in ok)) {
			printf "%s:%d: %s must not include %s (module %s may include: %s)\n", file, ln, from, inc, from, allowed(from)
			bad = 1
		}
	}
	close($0)
}
function allowed(m,   s, x, y, parts) {
	s = ""
	for (x in ok) {
		split(x, parts, SUBSEP)
		if (parts[1] == m && parts[2] != m)
			s = s (s == "" ? "" : " ") parts[2]
	}
	return s == "" ? "nothing outside itself" : s
}
END { exit bad }
' || status=1

# Include cycles between headers: a header that reaches itself through its includes.
find . -name '*.h' | sort | awk '
function resolve(file, inc,   dir, parts, k, i, out, m, p) {
	if (inc !~ /\//) {
		dir = file
		sub(/[^\/]*$/, "", dir)
		return dir inc
	}
	if (inc !~ /^\.\.?\//)
		return inc
	dir = file
	sub(/[^\/]*$/, "", dir)
	k = split(dir inc, parts, "/")
	m = 0
	for (i = 1; i <= k; i++) {
		if (parts[i] == "" || parts[i] == ".")
			continue
		if (parts[i] == "..") { if (m > 0) m--; continue }
		out[++m] = parts[i]
	}
	p = out[1]
	for (i = 2; i <= m; i++)
		p = p "/" out[i]
	return p
}
{
	file = $0
	sub(/^\.\//, "", file)
	files[++nf] = file
	while ((getline text < $0) > 0) {
		if (text !~ /^[ \t]*#[ \t]*include[ \t]*"/)
			continue
		inc = text
		sub(/^[^"]*"/, "", inc)
		sub(/".*$/, "", inc)
		edge[file, ++ne[file]] = resolve(file, inc)
	}
	close($0)
}
# Depth-first search; state 1 = on the current path, 2 = finished.
function visit(f, path,   i, t) {
	state[f] = 1
	for (i = 1; i <= ne[f]; i++) {
		t = edge[f, i]
		if (state[t] == 1) {
			printf "include cycle: %s -> %s\n", path, t
			bad = 1
		} else if (!state[t])
			visit(t, path " -> " t)
	}
	state[f] = 2
}
END {
	for (i = 1; i <= nf; i++)
		if (!state[files[i]])
			visit(files[i], files[i])
	exit bad
}
' || status=1
exit $status
