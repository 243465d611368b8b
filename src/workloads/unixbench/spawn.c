/* spawn.c - unixbench.spawn: fork a child that exits at once, and wait for it. */
#include "workloads/util.h"

#include <sys/wait.h>
#include <unistd.h>

/* Not pinned: UnixBench's spawn leaves the parent and each child to the scheduler, so
 * this does too; a child may start on another CPU (3-17% of them did here), which makes
 * the op's time bimodal and its spread wider, but it is UnixBench's op. Pinned (as
 * before), it ran 0.40-2.31x UnixBench's score side by side. A child exits 0. */
static int spawn_run(struct wl_ctx *ctx, uint64_t n)
{
	uint64_t clean = 0;
	for (uint64_t i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0)
			return wl_sys_fail(ctx, "fork");
		if (pid == 0)
			_exit(0);
		int status;
		if (wl_wait(pid, &status, NULL) < 0)
			return wl_sys_fail(ctx, "waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			return wl_fail(ctx, WL_ERROR, "child did not exit cleanly (status %#x)", status);
		clean++;
	}
	ctx->count[0] += clean;
	return 0;
}

const struct workload wl_unixbench_spawn = {
	.name = "unixbench.spawn",
	.group = "unixbench",
	.summary = "fork a child that calls _exit(0) at once; the parent waits for it",
	.kernel_path = "fork (copy of mm and page tables), exit, wait, COW faults after fork",
	.unit = "process",
	.unixbench = "spawn",
	.baseline = 126.0,
	.flags = WL_INDEX | WL_FORKS,
	.checks = {WL_CHECK("children that exited cleanly per op", WL_M_COUNT0, 1, 1)},
	.run = spawn_run,
};
