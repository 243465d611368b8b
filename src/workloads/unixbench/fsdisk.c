/* fsdisk.c - unixbench.fsdisk, fsdisk-r, fsdisk-w: 4096-byte blocks over a 8000-KiB file (UnixBench's "File Copy 4096 bufsize 8000 maxblocks"). */
#include "fs_common.h"

static const struct fs_params fsdisk_r = {"fsdisk", FS_READ, 4096, 8000};
static const struct fs_params fsdisk_w = {"fsdisk", FS_WRITE, 4096, 8000};
static const struct fs_params fsdisk_c = {"fsdisk", FS_COPY, 4096, 8000};

static int fsdisk_r_setup(struct wl_ctx *ctx)
{
	return fs_setup(ctx, &fsdisk_r);
}

static int fsdisk_w_setup(struct wl_ctx *ctx)
{
	return fs_setup(ctx, &fsdisk_w);
}

static int fsdisk_c_setup(struct wl_ctx *ctx)
{
	return fs_setup(ctx, &fsdisk_c);
}

/* Bytes moved per KiB op: 1024, plus at most one block of credit spread over the ops. */
#define FS_CHECK {"bytes moved per op", WL_M_COUNT0, 1024, 1040}

const struct workload wl_unixbench_fsdisk_r = {
	.name = "unixbench.fsdisk-r",
	.group = "unixbench",
	.summary = "read a 8000 KiB file in 4096-byte blocks from the page cache, rewinding at the end",
	.kernel_path = "read syscall, file read path, page cache lookup and copy to user (4096-byte reads)",
	.unit = "KiB",
	.unixbench = "fsdisk-r",
	.flags = WL_FS,
	.checks = {FS_CHECK},
	.setup = fsdisk_r_setup,
	.run = fs_run,
	.teardown = fs_teardown,
};

const struct workload wl_unixbench_fsdisk_w = {
	.name = "unixbench.fsdisk-w",
	.group = "unixbench",
	.summary = "write a 8000 KiB file in 4096-byte blocks, rewinding and overwriting at the end",
	.kernel_path = "write syscall, file write path, page cache copy from user, dirtying (4096-byte writes)",
	.unit = "KiB",
	.unixbench = "fsdisk-w",
	.flags = WL_FS,
	.checks = {FS_CHECK},
	.setup = fsdisk_w_setup,
	.run = fs_run,
	.teardown = fs_teardown,
};

const struct workload wl_unixbench_fsdisk = {
	.name = "unixbench.fsdisk",
	.group = "unixbench",
	.summary = "copy a 8000 KiB file to another in 4096-byte blocks (read then write), rewinding both at the end",
	.kernel_path = "read and write syscalls, page cache read and dirtying write paths (4096-byte blocks)",
	.unit = "KiB",
	.unixbench = "fsdisk",
	.baseline = 5800.0,
	.flags = WL_FS | WL_INDEX,
	.checks = {FS_CHECK},
	.setup = fsdisk_c_setup,
	.run = fs_run,
	.teardown = fs_teardown,
};
