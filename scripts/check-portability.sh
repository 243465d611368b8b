#!/bin/sh
# check-portability.sh - fail on C code that builds only on x86 or only with the old system
# call table: an #if on an x86 macro with no #else/#elif branch, x86-only instructions or
# headers outside such an #if, and raw system calls that arm64, riscv64 and loongarch64 lack.
# Usage: check-portability.sh FILE...; prints file:line: reason for each finding, exits 1 if any.
[ $# -gt 0 ] || { echo "usage: check-portability.sh FILE..." >&2; exit 2; }
awk '
function is_x86(s) { return s ~ /__(x86_64|i386|amd64)(__)?|_M_X64|_M_IX86/ }
FNR == 1 { depth = 0 }
/^[ \t]*#[ \t]*if/ {
	depth++; x86[depth] = is_x86($0); other[depth] = 0; line[depth] = FNR; branch[depth] = x86[depth]
	next
}
/^[ \t]*#[ \t]*(elif|else)/ {
	if (depth > 0) { other[depth] = 1; branch[depth] = is_x86($0); if (is_x86($0)) x86[depth] = 1 }
	next
}
/^[ \t]*#[ \t]*endif/ {
	if (depth > 0) {
		if (x86[depth] && !other[depth]) {
			printf "%s:%d: #if on an x86 macro with no #else or #elif branch for other architectures\n", FILENAME, line[depth]
			bad = 1
		}
		depth--
	}
	next
}
/rdtscp?|(^|[^a-z_])cpuid([^a-z_]|$)|__get_cpuid|__builtin_ia32_|[a-z]*intrin\.h|cpuid\.h/ {
	guarded = 0
	for (d = 1; d <= depth; d++) if (branch[d]) guarded = 1
	if (!guarded) { printf "%s:%d: x86-only code outside an x86 #if branch: %s\n", FILENAME, FNR, $0; bad = 1 }
}
/(SYS|__NR)_(open|stat|lstat|fork|vfork|dup2|pipe|access|creat|unlink|rename|mkdir|rmdir|poll|select|getdents|time|alarm|pause|utime|utimes|chmod|chown|lchown|link|symlink|readlink|mknod|inotify_init|eventfd|signalfd|epoll_create|epoll_wait|getpgrp|futimesat)[^a-z0-9_]/ {
	printf "%s:%d: raw system call that the asm-generic table (arm64, riscv64, loongarch64) lacks; use its *at, 2 or 3 form: %s\n", FILENAME, FNR, $0
	bad = 1
}
END { exit bad }
' "$@"
