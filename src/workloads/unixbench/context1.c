/* context1.c - unixbench.context1: two processes pass a counter back and forth over two pipes. */
#include "workloads/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The second check counts the context switches of both processes per round trip: the
 * caller's (the runner's rusage of this process) plus the peer's (from /proc/PID/status,
 * read by prepare and finish once the peer is asleep, untimed) in count[1]. Unpinned, the
 * two may run on two CPUs, and a caller delayed between its write and its read without a
 * switch (its virtual CPU taken by the host, an interrupt) finds the answer already
 * there: a loaded VM showed batches where the caller switched in only 0.87 of its round
 * trips, against the bound 0.9 that the caller's switches alone were held to. The peer
 * then still blocked waiting for the next counter. Each side normally leaves its CPU once
 * per round trip (blocking in read, or preempted by the side it woke), about 2 switches
 * per op together; the bound 1.5 still fails when either side stops blocking. */
enum { C1_CHECK_ANSWERS, C1_CHECK_SWITCHES }; /* the checks, as in the descriptor */

struct ctx1 {
	int to_peer, from_peer;
	pid_t peer;
	uint64_t next;
	uint64_t sw0; /* the peer's switches before the batch */
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
	if (ctx->emulated)
		wl_cannot_check(ctx, C1_CHECK_SWITCHES, "under a user-mode emulator, whether a side blocks in read is a "
							 "race between two emulated code paths, not the kernel's wakeup");
	return 0;
}

/* The peer's context switches so far, voluntary and involuntary, read once it sleeps. */
static int ctx1_peer_switches(struct wl_ctx *ctx, const struct ctx1 *c, uint64_t *sw)
{
	uint64_t vol, invol;
	if (wl_proc_switches_asleep(c->peer, &vol, &invol) < 0)
		return wl_fail(ctx, WL_ERROR, "cannot read the context switches of the peer (pid %d)", (int)c->peer);
	*sw = vol + invol;
	return 0;
}

static int ctx1_prepare(struct wl_ctx *ctx, uint64_t n)
{
	(void)n;
	struct ctx1 *c = ctx->priv;
	return ctx1_peer_switches(ctx, c, &c->sw0);
}

static int ctx1_finish(struct wl_ctx *ctx, uint64_t n)
{
	(void)n;
	struct ctx1 *c = ctx->priv;
	uint64_t sw = 0;
	int rc = ctx1_peer_switches(ctx, c, &sw);
	if (!rc)
		ctx->count[1] += sw - c->sw0;
	return rc;
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
	 * side (score 1.5-1.6x). */
	.flags = WL_INDEX | WL_FORKS,
	.checks = {[C1_CHECK_ANSWERS] = WL_CHECK("counter checks per op", WL_M_COUNT0, 1, 1),
		   [C1_CHECK_SWITCHES] = WL_CHECK("context switches per op, caller and peer", WL_M_CSW_COUNT1, 1.5, 6)},
	.setup = ctx1_setup,
	.prepare = ctx1_prepare,
	.run = ctx1_run,
	.finish = ctx1_finish,
	.teardown = ctx1_teardown,
};
