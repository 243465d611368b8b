/* proc_exec.c - kernel.proc.exec: fork, exec the tiny sysab-exec-helper, wait. */
#include "workloads/util.h"
#include "core/core.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The helper is installed next to the sysab binary; it is linked statically
 * when the C library allows, so the op has no dynamic loading in it. */
#define HELPER_NAME "sysab-exec-helper"

struct px {
	char *helper;
};

static int px_setup(struct wl_ctx *ctx)
{
	char *helper;
	int rc = wl_helper_find(ctx, HELPER_NAME, false, &helper);
	if (rc)
		return rc;
	struct px *p = xcalloc(1, sizeof *p);
	p->helper = helper;
	ctx->priv = p;
	return 0;
}

static int px_run(struct wl_ctx *ctx, uint64_t n)
{
	const struct px *p = ctx->priv;
	char *const argv[] = {HELPER_NAME, NULL};
	char *const envp[] = {NULL};
	uint64_t clean = 0;
	for (uint64_t i = 0; i < n; i++) {
		pid_t pid;
		int rc = wl_fork(ctx, &pid);
		if (rc)
			return rc;
		if (pid == 0) {
			execve(p->helper, argv, envp);
			_exit(127);
		}
		int status;
		if (wl_wait(pid, &status, NULL) < 0)
			return wl_sys_fail(ctx, "waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			return wl_fail(ctx, WL_ERROR, "%s did not exit cleanly (status %#x)", p->helper, status);
		clean++;
	}
	ctx->count[0] += clean;
	return 0;
}

static void px_teardown(struct wl_ctx *ctx)
{
	struct px *p = ctx->priv;
	free(p->helper);
	free(p);
}

const struct workload wl_kernel_proc_exec = {
	.name = "kernel.proc.exec",
	.group = "kernel",
	.summary = "fork, the child execs the tiny static sysab-exec-helper, which exits 0; the parent waits",
	.kernel_path = "fork, execve (binfmt_elf load, mm replacement), exit and wait4",
	.unit = "process",
	.flags = WL_LATENCY | WL_FORKS | WL_EXECS | WL_PIN,
	.checks = {WL_CHECK("clean helper exits per op", WL_M_COUNT0, 1, 1)},
	.setup = px_setup,
	.run = px_run,
	.teardown = px_teardown,
};
