/* exec_helper.c - sysab-exec-helper and sysab-execl-helper: the small programs kernel.proc.exec and unixbench.execl exec. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* With no arguments it exits 0 (kernel.proc.exec's op, built static). With `N FD`
 * (unixbench.execl's chain, built dynamic like UnixBench's execl) it execs itself
 * with N-1 until N is 0; the last image writes one byte to FD. It exits 2 on bad
 * arguments, 3 when the byte cannot be written and 127 when exec fails. */
int main(int argc, char **argv)
{
	if (argc == 1)
		return 0;
	if (argc != 3)
		return 2;
	char *end;
	errno = 0;
	unsigned long long left = strtoull(argv[1], &end, 10);
	if (errno || end == argv[1] || *end)
		return 2;
	long fd = strtol(argv[2], &end, 10);
	if (end == argv[2] || *end || fd < 0 || fd > 1 << 20)
		return 2;
	if (left == 0)
		return write((int)fd, "x", 1) != 1 ? 3 : 0;
	char next[24];
	snprintf(next, sizeof next, "%llu", left - 1);
	char *const nargv[] = {argv[0], next, argv[2], NULL};
	execv(argv[0], nargv);
	return 127;
}
