/* fault_cow.c - kernel.fault.cow: write faults on private pages shared with a forked child. */
#include "workloads/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The region is the largest batch (wl_fault_batch_cap pages). A child forked after
 * the region is filled keeps every page shared, so each first write in the parent
 * copies one page. Before a batch that needs more shared pages than are left,
 * prepare replaces the child with a new one (kill, reap, fork: 20-25% of the op
 * when it was timed), which shares the pages again. run only writes. */

struct cow {
	char *p;
	size_t pages, next; /* next page to write */
	pid_t child;
};

static void cow_child(void)
{
	for (;;)
		pause();
}

static int cow_share(struct wl_ctx *ctx, struct cow *c)
{
	wl_kill_reap(c->child);
	c->child = 0;
	pid_t pid;
	int rc = wl_fork(ctx, &pid);
	if (rc)
		return rc;
	if (pid == 0)
		cow_child();
	c->child = pid;
	c->next = 0;
	return 0;
}

static int cow_setup(struct wl_ctx *ctx)
{
	struct cow *c = calloc(1, sizeof *c);
	if (!c)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	size_t ps = (size_t)ctx->page_size;
	c->pages = (size_t)wl_fault_batch_cap(ctx->page_size);
	c->p = mmap(NULL, c->pages * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->p == MAP_FAILED) {
		free(c);
		return wl_sys_fail(ctx, "mmap");
	}
	madvise(c->p, c->pages * ps, MADV_NOHUGEPAGE);
	memset(c->p, 1, c->pages * ps);
	int rc = cow_share(ctx, c);
	if (rc) {
		munmap(c->p, c->pages * ps);
		free(c);
		return rc;
	}
	ctx->priv = c;
	return 0;
}

static int cow_prepare(struct wl_ctx *ctx, uint64_t n)
{
	struct cow *c = ctx->priv;
	if (n > c->pages)
		return wl_fail(ctx, WL_ERROR, "a batch of %llu pages is larger than the %zu-page region",
			       (unsigned long long)n, c->pages);
	return c->pages - c->next < n ? cow_share(ctx, c) : 0;
}

WL_TOUCH_UNCHECKED static int cow_run(struct wl_ctx *ctx, uint64_t n)
{
	struct cow *c = ctx->priv;
	size_t ps = (size_t)ctx->page_size;
	for (size_t i = c->next; i < c->next + n; i++)
		((volatile char *)c->p)[i * ps] = 2;
	c->next += n;
	return 0;
}

static void cow_teardown(struct wl_ctx *ctx)
{
	struct cow *c = ctx->priv;
	wl_kill_reap(c->child);
	munmap(c->p, c->pages * (size_t)ctx->page_size);
	free(c);
}

const struct workload wl_kernel_fault_cow = {
	.name = "kernel.fault.cow",
	.group = "kernel",
	.summary = "first write to a private page still shared with a forked child (copy on write), no THP",
	.kernel_path = "page fault entry, write-protect fault (do_wp_page), page allocation and copy, TLB flush",
	.unit = "page fault",
	.flags = WL_LATENCY | WL_FORKS | WL_ENTRY,
	.checks = {WL_CHECK("minor faults per op", WL_M_MINFLT, 0.9, 1.1)},
	.max_batch = wl_fault_batch_cap,
	.setup = cow_setup,
	.prepare = cow_prepare,
	.run = cow_run,
	.teardown = cow_teardown,
};
