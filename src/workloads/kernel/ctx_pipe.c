/* ctx_pipe.c - kernel.ctx.pipe and kernel.ctx.pipe-cross: 1-byte ping-pong between two pinned processes. */
#include "workloads/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The caller is pinned to ctx->cpus[0]; the peer to cpus[0] (same CPU) or
 * cpus[1] (cross CPU). The caller's original affinity comes back in teardown.
 * count[0] counts the round trips whose answer checked out; finish adds the
 * peer's context switches over the batch (from /proc/PID/status, read by prepare
 * and finish, untimed) to count[1].
 *
 * Across CPUs each side blocks in read once per round trip, because its few
 * instructions from write to read are done before the other CPU has woken up and
 * answered: at least one voluntary switch per op on each side. Under a user-mode
 * emulator both sides are emulated code, and a CI run under qemu-user riscv64 saw the
 * caller block in 0.42 of its round trips (0.996 in 12 runs natively): the race is the
 * emulator's, so the two switch checks are not judged there.
 *
 * On one CPU there is no race (the other side cannot run until this one leaves the
 * CPU), but the wakeup often preempts the writer, whose switch is then involuntary and
 * whose read finds the answer already there; so the same-CPU checks count voluntary +
 * involuntary switches. */
enum { PP_CHECK_ANSWERS, PP_CHECK_CALLER, PP_CHECK_PEER }; /* the checks, as in the descriptors */

struct pp {
	int to_peer, from_peer;
	pid_t peer;
	unsigned char next;
	bool cross;
	uint64_t sw0;        /* the peer's switches before the batch */
	struct wl_affinity aff;
};

/* The peer answers each byte b with b + 1 and exits at end of file. */
static void pp_peer(int in, int out)
{
	unsigned char b;
	for (;;) {
		ssize_t r = read(in, &b, 1);
		if (r == 0)
			_exit(0);
		if (r != 1)
			_exit(3);
		b++;
		if (write(out, &b, 1) != 1)
			_exit(3);
	}
}

static int pp_setup_common(struct wl_ctx *ctx, bool cross)
{
	if (ctx->ncpus < 1 || (cross && ctx->ncpus < 2))
		return wl_fail(ctx, WL_UNSUPPORTED, "needs two CPUs; this run may use %d", ctx->ncpus);
	int peer_cpu = ctx->cpus[cross ? 1 : 0];
	struct pp *p = calloc(1, sizeof *p);
	if (!p)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	int a[2], b[2];
	if (pipe2(a, O_CLOEXEC) < 0) {
		free(p);
		return wl_sys_fail(ctx, "pipe");
	}
	if (pipe2(b, O_CLOEXEC) < 0) {
		int rc = wl_sys_fail(ctx, "pipe");
		close(a[0]), close(a[1]);
		free(p);
		return rc;
	}
	wl_affinity_save(&p->aff);
	pid_t pid;
	int rc = wl_fork(ctx, &pid);
	if (rc) {
		close(a[0]), close(a[1]), close(b[0]), close(b[1]);
		free(p);
		return rc;
	}
	if (pid == 0) {
		if (wl_pin_self(peer_cpu) < 0)
			_exit(2);
		close(a[1]);
		close(b[0]);
		pp_peer(a[0], b[1]);
	}
	close(a[0]);
	close(b[1]);
	p->to_peer = a[1];
	p->from_peer = b[0];
	p->peer = pid;
	p->cross = cross;
	ctx->priv = p;
	if (cross && ctx->emulated)
		for (int c = PP_CHECK_CALLER; c <= PP_CHECK_PEER; c++)
			wl_cannot_check(ctx, c, "under a user-mode emulator, whether a side blocks in read is a race "
						"between two emulated code paths, not the kernel's cross-CPU wakeup");
	if (wl_pin_self(ctx->cpus[0]) < 0) {
		rc = wl_sys_fail(ctx, "sched_setaffinity");
		close(p->to_peer);
		close(p->from_peer);
		wl_kill_reap(pid);
		free(p);
		ctx->priv = NULL;
		return rc;
	}
	return 0;
}

static int pp_setup(struct wl_ctx *ctx)
{
	return pp_setup_common(ctx, false);
}

static int pp_cross_setup(struct wl_ctx *ctx)
{
	return pp_setup_common(ctx, true);
}

static int pp_run(struct wl_ctx *ctx, uint64_t n)
{
	struct pp *p = ctx->priv;
	uint64_t good = 0;
	for (uint64_t i = 0; i < n; i++) {
		unsigned char b = p->next;
		if (write(p->to_peer, &b, 1) != 1)
			return wl_sys_fail(ctx, "write to peer");
		ssize_t r = read(p->from_peer, &b, 1);
		if (r != 1)
			return r == 0 ? wl_fail(ctx, WL_ERROR, "the peer exited") : wl_sys_fail(ctx, "read from peer");
		good += b == (unsigned char)(p->next + 1);
		p->next = (unsigned char)(b + 1);
	}
	ctx->count[0] += good;
	return 0;
}

/* The peer's switches that count: voluntary ones, and on one CPU involuntary ones too. They
 * are read once the peer blocks in read() again. Read while it was still on its way there (on
 * the other CPU, after the last reply), its last switch fell between this batch's finish and
 * the next one's prepare, and a short batch showed 0.8 switches per op against the bound 0.9
 * (1 of 6 quick runs). */
static int pp_peer_switches(struct wl_ctx *ctx, const struct pp *p, uint64_t *sw)
{
	uint64_t vol, invol;
	if (wl_proc_switches_asleep(p->peer, &vol, &invol) < 0)
		return wl_fail(ctx, WL_ERROR, "cannot read the context switches of the peer (pid %d)", (int)p->peer);
	*sw = vol + (p->cross ? 0 : invol);
	return 0;
}

static int pp_prepare(struct wl_ctx *ctx, uint64_t n)
{
	(void)n;
	struct pp *p = ctx->priv;
	return pp_peer_switches(ctx, p, &p->sw0);
}

static int pp_finish(struct wl_ctx *ctx, uint64_t n)
{
	(void)n;
	struct pp *p = ctx->priv;
	uint64_t sw = 0;
	int rc = pp_peer_switches(ctx, p, &sw);
	if (!rc)
		ctx->count[1] += sw - p->sw0;
	return rc;
}

static void pp_teardown(struct wl_ctx *ctx)
{
	struct pp *p = ctx->priv;
	close(p->to_peer);
	close(p->from_peer);
	wl_wait(p->peer, NULL, NULL);
	wl_affinity_restore(&p->aff);
	free(p);
}

const struct workload wl_kernel_ctx_pipe = {
	.name = "kernel.ctx.pipe",
	.group = "kernel",
	.summary = "1-byte ping-pong over two pipes between two processes pinned to the same CPU",
	.kernel_path = "pipe read/write, wakeup, and a context switch on one CPU each way",
	.unit = "round trip",
	.flags = WL_LATENCY | WL_FORKS,
	.checks = {[PP_CHECK_ANSWERS] = WL_CHECK("checked round trips per op", WL_M_COUNT0, 1, 1),
		   [PP_CHECK_CALLER] = WL_CHECK("context switches per op, caller", WL_M_CSW, 0.9, 3),
		   [PP_CHECK_PEER] = WL_CHECK("context switches per op, peer", WL_M_COUNT1, 0.9, 3)},
	.setup = pp_setup,
	.prepare = pp_prepare,
	.run = pp_run,
	.finish = pp_finish,
	.teardown = pp_teardown,
};

const struct workload wl_kernel_ctx_pipe_cross = {
	.name = "kernel.ctx.pipe-cross",
	.group = "kernel",
	.summary = "1-byte ping-pong over two pipes between two processes pinned to two different CPUs",
	.kernel_path = "pipe read/write, cross-CPU wakeup (IPI or idle poll), idle exit and entry on both CPUs",
	.unit = "round trip",
	.flags = WL_LATENCY | WL_FORKS | WL_NEEDS_2CPU,
	.checks = {[PP_CHECK_ANSWERS] = WL_CHECK("checked round trips per op", WL_M_COUNT0, 1, 1),
		   [PP_CHECK_CALLER] = WL_CHECK("voluntary switches per op, caller", WL_M_NVCSW, 0.9, 3),
		   [PP_CHECK_PEER] = WL_CHECK("voluntary switches per op, peer", WL_M_COUNT1, 0.9, 3)},
	.setup = pp_cross_setup,
	.prepare = pp_prepare,
	.run = pp_run,
	.finish = pp_finish,
	.teardown = pp_teardown,
};
