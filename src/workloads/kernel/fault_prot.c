/* fault_prot.c - kernel.fault.prot: a write to a read-only page; the SIGSEGV handler makes it writable. */
#include "workloads/util.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The signal handler cannot reach ctx, so it finds its page and counts its
 * deliveries here. This is the only file-scope mutable state of the workload:
 * set by setup, read by run, used by the handler, cleared by teardown. A fault
 * anywhere else restores the default action, so it kills the process as usual. */
static struct {
	char *volatile page;
	volatile long page_size;
	volatile unsigned long hits;
} prot_state;

static void prot_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	char *page = prot_state.page;
	char *a = si->si_addr;
	if (!page || a < page || a >= page + prot_state.page_size) {
		signal(sig, SIG_DFL);
		return;
	}
	mprotect(page, (size_t)prot_state.page_size, PROT_READ | PROT_WRITE);
	prot_state.hits++;
}

struct prot {
	struct sigaction old;
};

static int prot_setup(struct wl_ctx *ctx)
{
	if (prot_state.page)
		return wl_fail(ctx, WL_ERROR, "kernel.fault.prot is already set up in this process");
	struct prot *p = calloc(1, sizeof *p);
	if (!p)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	/* The page sits between two PROT_NONE guard pages, so its mapping never
	 * merges with a neighbour when its protection changes. */
	size_t ps = (size_t)ctx->page_size;
	char *area = mmap(NULL, 3 * ps, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		free(p);
		return wl_sys_fail(ctx, "mmap");
	}
	char *page = area + ps;
	if (mprotect(page, ps, PROT_READ | PROT_WRITE) < 0) {
		int rc = wl_sys_fail(ctx, "mprotect");
		munmap(area, 3 * ps);
		free(p);
		return rc;
	}
	page[0] = 1;
	prot_state.page_size = ctx->page_size;
	prot_state.page = page;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = prot_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &p->old);
	ctx->priv = p;
	return 0;
}

static int prot_run(struct wl_ctx *ctx, uint64_t n)
{
	char *page = prot_state.page;
	size_t ps = (size_t)ctx->page_size;
	unsigned long before = prot_state.hits;
	for (uint64_t i = 0; i < n; i++) {
		if (mprotect(page, ps, PROT_READ) < 0)
			return wl_sys_fail(ctx, "mprotect");
		((volatile char *)page)[0] = (char)i; /* faults; the handler unprotects; the write retries */
	}
	ctx->count[0] += prot_state.hits - before;
	return 0;
}

static void prot_teardown(struct wl_ctx *ctx)
{
	struct prot *p = ctx->priv;
	sigaction(SIGSEGV, &p->old, NULL);
	munmap(prot_state.page - ctx->page_size, 3 * (size_t)ctx->page_size);
	prot_state.page = NULL;
	free(p);
}

const struct workload wl_kernel_fault_prot = {
	.name = "kernel.fault.prot",
	.group = "kernel",
	.summary = "mprotect a page read-only, write to it, and make it writable again in the SIGSEGV handler",
	.kernel_path = "mprotect, page fault entry with an access error, SIGSEGV delivery, mprotect from the handler, rt_sigreturn",
	.unit = "fault round trip",
	.flags = WL_LATENCY | WL_ENTRY,
	.checks = {WL_CHECK("SIGSEGV deliveries per op", WL_M_COUNT0, 1, 1)},
	.setup = prot_setup,
	.run = prot_run,
	.teardown = prot_teardown,
};
