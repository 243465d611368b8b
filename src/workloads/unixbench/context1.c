/* context1.c - unixbench.context1: two processes pass a counter back and forth over two pipes. */
#include "workloads/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct ctx1 {
	int to_peer, from_peer;
	pid_t peer;
	uint64_t next;
};

/* The peer: read a counter, check it is the expected one, send it back plus one. */
static void peer_loop(int in, int out)
{
	uint64_t expect = 0, v;
	for (;;) {
		ssize_t r = read(in, &v, sizeof v);
		if (r == 0)
			_exit(0);
		if (r != sizeof v)
			_exit(3);
		if (v != expect)
			_exit(4);
		v++;
		if (write(out, &v, sizeof v) != sizeof v)
			_exit(3);
		expect = v + 1;
	}
}

static int ctx1_setup(struct wl_ctx *ctx)
{
	int a[2], b[2];
	if (pipe2(a, O_CLOEXEC) < 0)
		return wl_sys_fail(ctx, "pipe");
	if (pipe2(b, O_CLOEXEC) < 0) {
		int rc = wl_sys_fail(ctx, "pipe");
		close(a[0]);
		close(a[1]);
		return rc;
	}
	pid_t pid;
	int rc = wl_fork(ctx, &pid);
	if (rc) {
		close(a[0]), close(a[1]), close(b[0]), close(b[1]);
		return rc;
	}
	if (pid == 0) {
		close(a[1]);
		close(b[0]);
		peer_loop(a[0], b[1]);
	}
	close(a[0]);
	close(b[1]);
	struct ctx1 *c = calloc(1, sizeof *c);
	if (!c)
		abort();
	c->to_peer = a[1];
	c->from_peer = b[0];
	c->peer = pid;
	ctx->priv = c;
	return 0;
}

static int ctx1_run(struct wl_ctx *ctx, uint64_t n)
{
	struct ctx1 *c = ctx->priv;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v = c->next;
		if (write(c->to_peer, &v, sizeof v) != sizeof v)
			return wl_fail(ctx, WL_ERROR, "write to peer: %s", strerror(errno));
		if (read(c->from_peer, &v, sizeof v) != sizeof v)
			return wl_fail(ctx, WL_ERROR, "read from peer: %s", errno ? strerror(errno) : "peer exited");
		if (v != c->next + 1)
			return wl_fail(ctx, WL_ERROR, "peer answered %llu, expected %llu", (unsigned long long)v,
				       (unsigned long long)(c->next + 1));
		c->next = v + 1;
		ctx->count[0]++;
	}
	return 0;
}

static void ctx1_teardown(struct wl_ctx *ctx)
{
	struct ctx1 *c = ctx->priv;
	close(c->to_peer);
	close(c->from_peer);
	while (waitpid(c->peer, NULL, 0) < 0 && errno == EINTR)
		;
	free(c);
}

const struct workload wl_unixbench_context1 = {
	.name = "unixbench.context1",
	.group = "unixbench",
	.summary = "two processes, placed by the scheduler as UnixBench's are, pass an incrementing counter back and forth over two pipes",
	.kernel_path = "pipe wakeups and the scheduler's context switch between two processes",
	.unit = "round trip",
	.unixbench = "context1",
	.baseline = 4000.0,
	/* Not pinned: UnixBench's context1 leaves both processes to the scheduler, which on
	 * an idle machine often runs them on two CPUs, so a round trip includes cross-CPU
	 * wakeups. Pinned to one CPU (as before), a round trip cost 0.6 of UnixBench's side by
	 * side (score 1.5-1.6x). Either way the caller leaves its CPU once per round trip
	 * (blocking in read, or preempted by the peer it woke). */
	.flags = WL_INDEX | WL_FORKS,
	.checks = {WL_CHECK("counter checks per op", WL_M_COUNT0, 1, 1),
		   WL_CHECK("context switches per op, caller", WL_M_CSW, 0.9, 3)},
	.setup = ctx1_setup,
	.run = ctx1_run,
	.teardown = ctx1_teardown,
};
