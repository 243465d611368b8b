/* signal_catch.c - kernel.signal.catch: send SIGUSR1 to this process and catch it in an empty handler. */
#include "workloads/util.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The handler cannot reach ctx; it counts deliveries here (the workload's only
 * file-scope mutable state). run() adds the difference to ctx->count[0]. */
static volatile unsigned long catch_hits;

static void catch_handler(int sig)
{
	(void)sig;
	catch_hits++;
}

struct catch {
	struct sigaction old;
	sigset_t oldmask;
	pid_t self;
};

static int catch_setup(struct wl_ctx *ctx)
{
	struct catch *c = calloc(1, sizeof *c);
	if (!c)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = catch_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, &c->old);
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigprocmask(SIG_UNBLOCK, &s, &c->oldmask);
	c->self = getpid();
	ctx->priv = c;
	return 0;
}

static int catch_run(struct wl_ctx *ctx, uint64_t n)
{
	const struct catch *c = ctx->priv;
	unsigned long before = catch_hits;
	for (uint64_t i = 0; i < n; i++)
		if (kill(c->self, SIGUSR1) < 0)
			return wl_sys_fail(ctx, "kill");
	ctx->count[0] += catch_hits - before;
	return 0;
}

static void catch_teardown(struct wl_ctx *ctx)
{
	struct catch *c = ctx->priv;
	sigaction(SIGUSR1, &c->old, NULL);
	sigprocmask(SIG_SETMASK, &c->oldmask, NULL);
	free(c);
}

const struct workload wl_kernel_signal_catch = {
	.name = "kernel.signal.catch",
	.group = "kernel",
	.summary = "kill(getpid(), SIGUSR1) caught by an empty handler",
	.kernel_path = "kill syscall, signal queueing, signal frame setup on return to user, handler, rt_sigreturn",
	.unit = "signal",
	.flags = WL_LATENCY | WL_ENTRY,
	.checks = {WL_CHECK("deliveries per op", WL_M_COUNT0, 1, 1)},
	.setup = catch_setup,
	.run = catch_run,
	.teardown = catch_teardown,
};
