/* fault_file.c - kernel.fault.file: write faults on MAP_SHARED pages of a file already in the page cache. */
#include "../util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Pages of the file, mapped and unmapped as a whole. A write fault on a shared
 * file mapping maps exactly one page (read faults would map up to 16 pages at a
 * time through fault-around), so one op is one fault. */
#define FILE_PAGES 512

struct ff {
	int fd;
	char *path;
	size_t len;
	size_t next; /* next page of the current mapping; FILE_PAGES = none mapped */
	char *map;
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
	f->next = FILE_PAGES;
	ctx->priv = f;
	return 0;
fail:
	close(fd);
	unlink(path);
	free(path);
	return rc;
}

static int ff_run(struct wl_ctx *ctx, uint64_t n)
{
	struct ff *f = ctx->priv;
	size_t ps = (size_t)ctx->page_size;
	while (n > 0) {
		if (f->next == FILE_PAGES) {
			if (f->map)
				munmap(f->map, f->len);
			f->map = mmap(NULL, f->len, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, 0);
			if (f->map == MAP_FAILED) {
				f->map = NULL;
				return wl_sys_fail(ctx, "mmap fault file");
			}
			madvise(f->map, f->len, MADV_NOHUGEPAGE);
			f->next = 0;
		}
		size_t todo = FILE_PAGES - f->next;
		if (todo > n)
			todo = (size_t)n;
		for (size_t i = f->next; i < f->next + todo; i++)
			((volatile char *)f->map)[i * ps] = 'F';
		f->next += todo;
		n -= todo;
	}
	return 0;
}

static void ff_teardown(struct wl_ctx *ctx)
{
	struct ff *f = ctx->priv;
	if (f->map)
		munmap(f->map, f->len);
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
	.flags = WL_LATENCY | WL_FS,
	.checks = {{"minor faults per op", WL_M_MINFLT, 0.9, 1.1}},
	.setup = ff_setup,
	.run = ff_run,
	.teardown = ff_teardown,
};
