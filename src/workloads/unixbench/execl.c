/* execl.c - unixbench.execl: a process that execs itself over and over, counting down. */
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
 * execs `sysab __exec-chain n-1 FD`, each image execs the next with one less until
 * 0, so the n execs happen one after the other in one process, as in UnixBench's
 * execl, and the last image writes a byte to FD, which run() waits for. finish reaps
 * the child, untimed. So the fork and the final exit and wait are outside the timed
 * region and the cost per exec does not depend on n (it did: 893, 792 and 759 µs per
 * exec at n = 2, 10 and 100 when one fork and wait per batch were timed). */

int wl_exec_chain_main(int argc, char **argv)
{
	if (argc != 3 && argc != 4)
		return 2;
	char *end;
	errno = 0;
	unsigned long long left = strtoull(argv[2], &end, 10);
	if (errno || end == argv[2] || *end)
		return 2;
	long fd = -1;
	if (argc == 4) {
		fd = strtol(argv[3], &end, 10);
		if (end == argv[3] || *end || fd < 0 || fd > 1 << 20)
			return 2;
	}
	if (left == 0)
		return fd >= 0 && write((int)fd, "x", 1) != 1 ? 3 : 0;
	char next[24];
	snprintf(next, sizeof next, "%llu", left - 1);
	char *const nargv[] = {argv[0], argv[1], next, argc == 4 ? argv[3] : NULL, NULL};
	execv(argv[0], nargv);
	return 127;
}

struct xl {
	pid_t child;
	int go, done; /* write end of the start pipe, read end of the done pipe */
};

static int execl_setup(struct wl_ctx *ctx)
{
	if (!ctx->self_exe || access(ctx->self_exe, X_OK) < 0)
		return wl_fail(ctx, WL_UNSUPPORTED, "the sysab binary (%s) cannot be executed",
			       ctx->self_exe ? ctx->self_exe : "unknown");
	struct xl *x = calloc(1, sizeof *x);
	if (!x)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
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
	char *const argv[] = {(char *)ctx->self_exe, "__exec-chain", left, fd, NULL};
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
		execve(ctx->self_exe, argv, envp);
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
		return wl_fail(ctx, WL_ERROR, "the exec chain of %s ended before its last exec", ctx->self_exe);
	ctx->count[0] += n;
	return 0;
}

static int execl_finish(struct wl_ctx *ctx, uint64_t n)
{
	if (n == 0)
		return 0;
	int status = execl_reap(ctx->priv, false);
	if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return wl_fail(ctx, WL_ERROR, "the exec chain of %s failed (status %#x)", ctx->self_exe, status);
	return 0;
}

static void execl_teardown(struct wl_ctx *ctx)
{
	execl_reap(ctx->priv, true);
	free(ctx->priv);
}

const struct workload wl_unixbench_execl = {
	.name = "unixbench.execl",
	.group = "unixbench",
	.summary = "a process execs the sysab binary, which execs itself again with a count one less, until 0",
	.kernel_path = "execve: binfmt_elf load, old mm teardown, new mm setup, dynamic loader start-up faults",
	.unit = "exec",
	.unixbench = "execl",
	.flags = WL_INDEX | WL_FORKS | WL_EXECS | WL_PIN,
	.checks = {WL_CHECK("execs completed per op", WL_M_COUNT0, 1, 1)},
	.setup = execl_setup,
	.prepare = execl_prepare,
	.run = execl_run,
	.finish = execl_finish,
	.teardown = execl_teardown,
};
