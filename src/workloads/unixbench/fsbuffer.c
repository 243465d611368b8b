/* fsbuffer.c - unixbench.fsbuffer, fsbuffer-r, fsbuffer-w: 256-byte blocks over a 500-KiB file (UnixBench's "File Copy 256 bufsize 500 maxblocks"). */
#include "fs_common.h"

static const struct fs_params fsbuffer_r = {"fsbuffer", FS_READ, 256, 500};
static const struct fs_params fsbuffer_w = {"fsbuffer", FS_WRITE, 256, 500};
static const struct fs_params fsbuffer_c = {"fsbuffer", FS_COPY, 256, 500};

static int fsbuffer_r_setup(struct wl_ctx *ctx)
{
	return fs_setup(ctx, &fsbuffer_r);
}

static int fsbuffer_w_setup(struct wl_ctx *ctx)
{
	return fs_setup(ctx, &fsbuffer_w);
}

static int fsbuffer_c_setup(struct wl_ctx *ctx)
{
	return fs_setup(ctx, &fsbuffer_c);
}

/* Bytes moved per KiB op: 1024, plus at most one block of credit spread over the ops. */
#define FS_CHECK {"bytes moved per op", WL_M_COUNT0, 1024, 1040}

const struct workload wl_unixbench_fsbuffer_r = {
	.name = "unixbench.fsbuffer-r",
	.group = "unixbench",
	.summary = "read a 500 KiB file in 256-byte blocks from the page cache, rewinding at the end",
	.kernel_path = "read syscall, file read path, page cache lookup and copy to user (256-byte reads)",
	.unit = "KiB",
	.unixbench = "fsbuffer-r",
	.flags = WL_FS,
	.checks = {FS_CHECK},
	.setup = fsbuffer_r_setup,
	.run = fs_run,
	.teardown = fs_teardown,
};

const struct workload wl_unixbench_fsbuffer_w = {
	.name = "unixbench.fsbuffer-w",
	.group = "unixbench",
	.summary = "write a 500 KiB file in 256-byte blocks, rewinding and overwriting at the end",
	.kernel_path = "write syscall, file write path, page cache copy from user, dirtying (256-byte writes)",
	.unit = "KiB",
	.unixbench = "fsbuffer-w",
	.flags = WL_FS,
	.checks = {FS_CHECK},
	.setup = fsbuffer_w_setup,
	.run = fs_run,
	.teardown = fs_teardown,
};

const struct workload wl_unixbench_fsbuffer = {
	.name = "unixbench.fsbuffer",
	.group = "unixbench",
	.summary = "copy a 500 KiB file to another in 256-byte blocks (read then write), rewinding both at the end",
	.kernel_path = "read and write syscalls, page cache read and dirtying write paths (256-byte blocks)",
	.unit = "KiB",
	.unixbench = "fsbuffer",
	.baseline = 1655.0,
	.flags = WL_FS | WL_INDEX,
	.checks = {FS_CHECK},
	.setup = fsbuffer_c_setup,
	.run = fs_run,
	.teardown = fs_teardown,
};
