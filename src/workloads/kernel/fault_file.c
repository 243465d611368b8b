/* fault_file.c - kernel.fault.file: write faults on MAP_SHARED pages of a file already in the page cache. */
#include "workloads/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Pages of the file. A write fault on a shared file mapping maps exactly one page
 * (read faults would map up to 16 pages at a time through fault-around), so one op
 * is one fault. prepare maps the file as often as the batch needs (each mapping is
 * new, so each of its pages faults once) and finish unmaps them, both untimed
 * (munmap was 12-15% of the op when it was timed). */
#define FILE_PAGES 512

struct ff {
	int fd;
	char *path;
	size_t len;
	size_t nmaps;
	char **maps;
};

static int ff_setup(struct wl_ctx *ctx)
{
	char name[32];
	snprintf(name, sizeof name, "fault-file.%d", ctx->copy);
	char *path;
	int fd = wl_tmp_create(ctx, name, &path);
	if (fd < 0)
		return fd;
	size_t ps = (size_t)ctx->page_size;
	int rc = 0;
	char *page = calloc(1, ps);
	if (!page) {
		rc = wl_fail(ctx, WL_NORESOURCE, "out of memory");
		goto fail;
	}
	memset(page, 'f', ps);
	for (size_t i = 0; i < FILE_PAGES && rc == 0; i++)
		if (wl_write_all(fd, page, ps) < 0)
			rc = wl_sys_fail(ctx, "write fault file");
	free(page);
	if (rc)
		goto fail;
	struct ff *f = calloc(1, sizeof *f);
	if (!f) {
		rc = wl_fail(ctx, WL_NORESOURCE, "out of memory");
		goto fail;
	}
	f->fd = fd;
	f->path = path;
	f->len = FILE_PAGES * ps;
	ctx->priv = f;
	return 0;
fail:
	close(fd);
	unlink(path);
	free(path);
	return rc;
}

static int ff_finish(struct wl_ctx *ctx, uint64_t n)
{
	(void)n;
	struct ff *f = ctx->priv;
	for (size_t i = 0; i < f->nmaps; i++)
		munmap(f->maps[i], f->len);
	free(f->maps);
	f->maps = NULL;
	f->nmaps = 0;
	return 0;
}

static int ff_prepare(struct wl_ctx *ctx, uint64_t n)
{
	struct ff *f = ctx->priv;
	size_t k = (size_t)((n + FILE_PAGES - 1) / FILE_PAGES);
	f->maps = calloc(k ? k : 1, sizeof *f->maps);
	if (!f->maps)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	for (; f->nmaps < k; f->nmaps++) {
		char *m = mmap(NULL, f->len, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, 0);
		if (m == MAP_FAILED) {
			int rc = wl_sys_fail(ctx, "mmap fault file");
			ff_finish(ctx, n);
			return rc;
		}
		madvise(m, f->len, MADV_NOHUGEPAGE);
		f->maps[f->nmaps] = m;
	}
	return 0;
}

WL_TOUCH_UNCHECKED static int ff_run(struct wl_ctx *ctx, uint64_t n)
{
	struct ff *f = ctx->priv;
	size_t ps = (size_t)ctx->page_size;
	for (uint64_t i = 0; i < n; i++)
		((volatile char *)f->maps[i / FILE_PAGES])[(i % FILE_PAGES) * ps] = 'F';
	return 0;
}

static void ff_teardown(struct wl_ctx *ctx)
{
	struct ff *f = ctx->priv;
	ff_finish(ctx, 0);
	close(f->fd);
	unlink(f->path);
	free(f->path);
	free(f);
}

const struct workload wl_kernel_fault_file = {
	.name = "kernel.fault.file",
	.group = "kernel",
	.summary = "first write to each page of a MAP_SHARED mapping of a file whose pages are in the page cache",
	.kernel_path = "page fault entry, shared file fault (filemap_fault page cache hit, page_mkwrite), PTE install",
	.unit = "page fault",
	.flags = WL_LATENCY | WL_FS | WL_ENTRY,
	.checks = {WL_CHECK("minor faults per op", WL_M_MINFLT, 0.9, 1.1)},
	.max_batch = wl_fault_batch_cap,
	.setup = ff_setup,
	.prepare = ff_prepare,
	.run = ff_run,
	.finish = ff_finish,
	.teardown = ff_teardown,
};
