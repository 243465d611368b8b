/* execl.c - unixbench.execl: a process that execs itself over and over, counting down. */
#include "../util.h"
#include "../../core/core.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* run(n) forks one child that execs `sysab __exec-chain n-1`; each image
 * execs the next with one less until 0, so the n execs happen one after the
 * other in one process, as in UnixBench's execl. The fork and the final wait
 * are spread over the n execs. */

int wl_exec_chain_main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	char *end;
	errno = 0;
	unsigned long long left = strtoull(argv[2], &end, 10);
	if (errno || end == argv[2] || *end)
		return 2;
	if (left == 0)
		return 0;
	char next[24];
	snprintf(next, sizeof next, "%llu", left - 1);
	char *const nargv[] = {argv[0], argv[1], next, NULL};
	execv(argv[0], nargv);
	return 127;
}

static int execl_setup(struct wl_ctx *ctx)
{
	if (!ctx->self_exe || access(ctx->self_exe, X_OK) < 0)
		return wl_fail(ctx, WL_UNSUPPORTED, "the sysab binary (%s) cannot be executed",
			       ctx->self_exe ? ctx->self_exe : "unknown");
	return 0;
}

static int execl_run(struct wl_ctx *ctx, uint64_t n)
{
	if (n == 0)
		return 0;
	char left[24];
	snprintf(left, sizeof left, "%llu", (unsigned long long)(n - 1));
	char *const argv[] = {(char *)ctx->self_exe, "__exec-chain", left, NULL};
	char *const envp[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", NULL};
	pid_t pid;
	int rc = wl_fork(ctx, &pid);
	if (rc)
		return rc;
	if (pid == 0) {
		execve(ctx->self_exe, argv, envp);
		_exit(127);
	}
	int status;
	if (wl_wait(pid, &status, NULL) < 0)
		return wl_sys_fail(ctx, "waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return wl_fail(ctx, WL_ERROR, "the exec chain of %s failed (status %#x)", ctx->self_exe, status);
	ctx->count[0] += n;
	return 0;
}

const struct workload wl_unixbench_execl = {
	.name = "unixbench.execl",
	.group = "unixbench",
	.summary = "a process execs the sysab binary, which execs itself again with a count one less, until 0",
	.kernel_path = "execve: binfmt_elf load, old mm teardown, new mm setup, dynamic loader start-up faults",
	.unit = "exec",
	.unixbench = "execl",
	.flags = WL_INDEX | WL_FORKS | WL_EXECS,
	.checks = {{"execs completed per op", WL_M_COUNT0, 1, 1}},
	.setup = execl_setup,
	.run = execl_run,
};
