/* fs_common.h - the read, write and copy loops shared by unixbench.fstime, fsbuffer and fsdisk. */
#ifndef SYSAB_WL_FS_COMMON_H
#define SYSAB_WL_FS_COMMON_H

#include "../workload.h"

enum fs_mode { FS_READ, FS_WRITE, FS_COPY };

/* One variant: a file of `kib` KiB (UnixBench's "maxblocks", counted in KiB
 * whatever the buffer size), read, written or copied `block` bytes at a time,
 * as UnixBench's fstime program does: reads rewind when they reach the end of
 * the file (a read returning 0), a copy rewinds both files then, and writes
 * rewind after kib KiB. One op is one KiB moved (for a copy: read and written). */
struct fs_params {
	const char *tag; /* "fstime", names the files */
	enum fs_mode mode;
	size_t block;
	size_t kib;
};

/* setup for the variant p: creates the files in ctx->tmpdir (unlinked at once,
 * so nothing is left behind whatever happens) and writes the source file. */
int fs_setup(struct wl_ctx *ctx, const struct fs_params *p);
/* run: move n KiB. I/O happens in whole blocks; a block that overshoots n KiB
 * is credited to the next call, so totals are exact to within one block.
 * count[0] gets the bytes moved. */
int fs_run(struct wl_ctx *ctx, uint64_t n);
void fs_teardown(struct wl_ctx *ctx);

#endif
