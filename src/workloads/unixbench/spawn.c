/* spawn.c - unixbench.spawn: fork a child that exits at once, and wait for it. */
#include "workloads/util.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Pinned (WL_PIN): unpinned, 3-17% of children started on the other CPU and the op
 * was bimodal. A child exits 0 when it runs on the parent's CPU, 1 elsewhere. */
static int spawn_run(struct wl_ctx *ctx, uint64_t n)
{
	int cpu = ctx->cpus[0];
	uint64_t local = 0;
	for (uint64_t i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0)
			return wl_sys_fail(ctx, "fork");
		if (pid == 0)
			_exit(sched_getcpu() != cpu);
		int status;
		if (wl_wait(pid, &status, NULL) < 0)
			return wl_sys_fail(ctx, "waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status) > 1)
			return wl_fail(ctx, WL_ERROR, "child did not exit cleanly (status %#x)", status);
		local += WEXITSTATUS(status) == 0;
	}
	ctx->count[0] += local;
	return 0;
}

const struct workload wl_unixbench_spawn = {
	.name = "unixbench.spawn",
	.group = "unixbench",
	.summary = "fork a child that calls _exit(0) at once; the parent waits for it",
	.kernel_path = "fork (copy of mm and page tables), exit, wait, COW faults after fork",
	.unit = "process",
	.unixbench = "spawn",
	/* no baseline: pinned, it ran 1.68x UnixBench's unpinned spawn here (docs/PERFORMANCE.md) */
	.flags = WL_INDEX | WL_FORKS | WL_PIN,
	.checks = {WL_CHECK("children that ran on the parent's CPU per op", WL_M_COUNT0, 1, 1)},
	.run = spawn_run,
};
