/* proc_fork.c - kernel.proc.fork: fork a child that calls _exit(0) and wait for it. */
#include "workloads/util.h"

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

static int fork_run(struct wl_ctx *ctx, uint64_t n)
{
	uint64_t clean = 0;
	int cpu = ctx->cpus[0];
	for (uint64_t i = 0; i < n; i++) {
		pid_t pid;
		int rc = wl_fork(ctx, &pid);
		if (rc)
			return rc;
		if (pid == 0)
			_exit(sched_getcpu() == cpu ? 0 : 1);
		int status;
		if (wl_wait(pid, &status, NULL) < 0)
			return wl_sys_fail(ctx, "waitpid");
		clean += WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	ctx->count[0] += clean;
	return 0;
}

const struct workload wl_kernel_proc_fork = {
	.name = "kernel.proc.fork",
	.group = "kernel",
	.summary = "fork, the child sets its parent-death signal and calls _exit(0), the parent waits",
	.kernel_path = "fork (task and mm copy, page table copy), exit (mm teardown), wait4, COW faults after fork",
	.unit = "process",
	.flags = WL_LATENCY | WL_FORKS | WL_PIN,
	.checks = {WL_CHECK("clean child exits on the parent's CPU per op", WL_M_COUNT0, 1, 1)},
	.run = fork_run,
};
