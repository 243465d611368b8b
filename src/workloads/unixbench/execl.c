/* execl.c - unixbench.execl: a small dynamically linked program that execs itself over and over, counting down. */
#include "workloads/util.h"
#include "core/core.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* prepare(n), untimed, forks a child that waits on a pipe. run(n) releases it: it
 * execs `sysab-execl-helper n-1 FD`, each image execs the next with one less until
 * 0, so the n execs happen one after the other in one process, as in UnixBench's
 * execl, and the last image writes a byte to FD, which run() waits for. finish reaps
 * the child, untimed. So the fork and the final exit and wait are outside the timed
 * region and the cost per exec does not depend on n (it did: 893, 792 and 759 µs per
 * exec at n = 2, 10 and 100 when one fork and wait per batch were timed).
 *
 * The image is a small program linked dynamically against the C library only, as
 * UnixBench's execl is: each exec maps it, runs the dynamic loader and maps libc.
 * Exec'ing the sysab binary instead (4.7 MB, eight shared objects) made an exec
 * about twice UnixBench's (0.44-0.52 of its score side by side). */

#define HELPER_NAME "sysab-execl-helper"

struct xl {
	char *helper;
	pid_t child;
	int go, done; /* write end of the start pipe, read end of the done pipe */
};

static int execl_setup(struct wl_ctx *ctx)
{
	char *helper;
	int rc = wl_helper_find(ctx, HELPER_NAME, true, &helper);
	if (rc)
		return rc;
	struct xl *x = xcalloc(1, sizeof *x);
	x->helper = helper;
	x->go = x->done = -1;
	ctx->priv = x;
	return 0;
}

/* Reap the chain's process (killed first when kill) and close the pipes. Returns its
 * wait status, or -1 when there was none. */
static int execl_reap(struct xl *x, bool kill_it)
{
	int status = -1;
	if (x->go >= 0)
		close(x->go);
	if (x->done >= 0)
		close(x->done);
	x->go = x->done = -1;
	if (x->child > 0) {
		if (kill_it)
			kill(x->child, SIGKILL);
		if (wl_wait(x->child, &status, NULL) < 0)
			status = -1;
	}
	x->child = 0;
	return status;
}

static int execl_prepare(struct wl_ctx *ctx, uint64_t n)
{
	struct xl *x = ctx->priv;
	if (n == 0)
		return 0;
	int go[2], done[2];
	if (pipe2(go, O_CLOEXEC) < 0)
		return wl_sys_fail(ctx, "pipe");
	if (pipe2(done, O_CLOEXEC) < 0) {
		int rc = wl_sys_fail(ctx, "pipe");
		close(go[0]), close(go[1]);
		return rc;
	}
	char left[24], fd[24];
	snprintf(left, sizeof left, "%llu", (unsigned long long)(n - 1));
	snprintf(fd, sizeof fd, "%d", done[1]);
	char *const argv[] = {x->helper, left, fd, NULL};
	char *const envp[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", NULL};
	pid_t pid;
	int rc = wl_fork(ctx, &pid);
	if (rc) {
		close(go[0]), close(go[1]), close(done[0]), close(done[1]);
		return rc;
	}
	if (pid == 0) {
		char b;
		if (read(go[0], &b, 1) != 1)
			_exit(0); /* the batch was abandoned */
		fcntl(done[1], F_SETFD, 0); /* the end of the chain writes to it */
		execve(x->helper, argv, envp);
		_exit(127);
	}
	close(go[0]);
	close(done[1]);
	x->child = pid;
	x->go = go[1];
	x->done = done[0];
	return 0;
}

static int execl_run(struct wl_ctx *ctx, uint64_t n)
{
	struct xl *x = ctx->priv;
	if (n == 0)
		return 0;
	char b = 'g';
	if (write(x->go, &b, 1) != 1)
		return wl_sys_fail(ctx, "starting the exec chain");
	ssize_t r;
	while ((r = read(x->done, &b, 1)) < 0 && errno == EINTR)
		;
	if (r != 1)
		return wl_fail(ctx, WL_ERROR, "the exec chain of %s ended before its last exec", x->helper);
	ctx->count[0] += n;
	return 0;
}

static int execl_finish(struct wl_ctx *ctx, uint64_t n)
{
	if (n == 0)
		return 0;
	struct xl *x = ctx->priv;
	int status = execl_reap(x, false);
	if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return wl_fail(ctx, WL_ERROR, "the exec chain of %s failed (status %#x)", x->helper, status);
	return 0;
}

static void execl_teardown(struct wl_ctx *ctx)
{
	struct xl *x = ctx->priv;
	execl_reap(x, true);
	free(x->helper);
	free(x);
}

const struct workload wl_unixbench_execl = {
	.name = "unixbench.execl",
	.group = "unixbench",
	.summary = "a process execs the small dynamic sysab-execl-helper, which execs itself again with a count one less, until 0",
	.kernel_path = "execve: binfmt_elf load, old mm teardown, new mm setup, dynamic loader start-up faults",
	.unit = "exec",
	.unixbench = "execl",
	.baseline = 43.0,
	.flags = WL_INDEX | WL_FORKS | WL_EXECS | WL_PIN,
	.checks = {WL_CHECK("execs completed per op", WL_M_COUNT0, 1, 1)},
	.setup = execl_setup,
	.prepare = execl_prepare,
	.run = execl_run,
	.finish = execl_finish,
	.teardown = execl_teardown,
};
