/* fstime.c - unixbench.fstime, fstime-r, fstime-w: 1024-byte blocks over a 2000-KiB file (UnixBench's "File Copy 1024 bufsize 2000 maxblocks"). */
#include "fs_common.h"

static const struct fs_params fstime_r = {"fstime", FS_READ, 1024, 2000};
static const struct fs_params fstime_w = {"fstime", FS_WRITE, 1024, 2000};
static const struct fs_params fstime_c = {"fstime", FS_COPY, 1024, 2000};

static int fstime_r_setup(struct wl_ctx *ctx)
{
	return fs_setup(ctx, &fstime_r);
}

static int fstime_w_setup(struct wl_ctx *ctx)
{
	return fs_setup(ctx, &fstime_w);
}

static int fstime_c_setup(struct wl_ctx *ctx)
{
	return fs_setup(ctx, &fstime_c);
}

/* Bytes moved per KiB op: 1024, plus at most one block of credit spread over the ops. */
#define FS_CHECK {"bytes moved per op", WL_M_COUNT0, 1024, 1040}

const struct workload wl_unixbench_fstime_r = {
	.name = "unixbench.fstime-r",
	.group = "unixbench",
	.summary = "read a 2000 KiB file in 1024-byte blocks from the page cache, rewinding at the end",
	.kernel_path = "read syscall, file read path, page cache lookup and copy to user (1024-byte reads)",
	.unit = "KiB",
	.unixbench = "fstime-r",
	.flags = WL_FS,
	.checks = {FS_CHECK},
	.setup = fstime_r_setup,
	.run = fs_run,
	.teardown = fs_teardown,
};

const struct workload wl_unixbench_fstime_w = {
	.name = "unixbench.fstime-w",
	.group = "unixbench",
	.summary = "write a 2000 KiB file in 1024-byte blocks, rewinding and overwriting at the end",
	.kernel_path = "write syscall, file write path, page cache copy from user, dirtying (1024-byte writes)",
	.unit = "KiB",
	.unixbench = "fstime-w",
	.flags = WL_FS,
	.checks = {FS_CHECK},
	.setup = fstime_w_setup,
	.run = fs_run,
	.teardown = fs_teardown,
};

const struct workload wl_unixbench_fstime = {
	.name = "unixbench.fstime",
	.group = "unixbench",
	.summary = "copy a 2000 KiB file to another in 1024-byte blocks (read then write), rewinding both at the end",
	.kernel_path = "read and write syscalls, page cache read and dirtying write paths (1024-byte blocks)",
	.unit = "KiB",
	.unixbench = "fstime",
	.baseline = 3960.0,
	.flags = WL_FS | WL_INDEX,
	.checks = {FS_CHECK},
	.setup = fstime_c_setup,
	.run = fs_run,
	.teardown = fs_teardown,
};
