/* import_csv.h - parse published results as RFC 4180 CSV: one value per row, with labels. */
#ifndef SYSAB_IMPORT_CSV_H
#define SYSAB_IMPORT_CSV_H

#include <stddef.h>

#include "core/core.h"

/*
 * The file starts with a header row naming its columns. Two are required:
 *   value     a positive plain decimal number (3938.7, 1.2e6)
 *   unit      throughput: ops/s lps KiB/s KBps MB/s MWIPS index score (stored as is),
 *             lpm (divided by 60), or latency: ns/op us/op ms/op s/op (converted to ops/s)
 * Four are optional:
 *   workload  default "index" when the column is absent (the composite UnixBench index)
 *   copies    a whole number 1..4096, default 1
 *   boot      rows with the same boot key ran on the same boot
 *   run       rows with the same run key came from the same run (and so the same boot)
 * Every other column is a label (key = column name, checked by label_check_key); an
 * empty label cell means the row has no such label.
 * A missing column or an empty cell means "not given". When a row gives neither key it
 * is its own run (key "@LINE") on its own boot (key "@boot:LINE"). A row with only a run
 * key gets the boot key "@run:RUN" (that run is its own boot); a row with only a boot key
 * is its own run ("@LINE") on that boot. Given keys may not start with '@', so made-up
 * keys never collide with given ones. Rows sharing a run key must share the boot key.
 * A file written by `sysab export --format csv` is recognised by its header (ops_per_s
 * and boot_id, no value column) and read back as it was written: value = ops_per_s,
 * unit = the op's name with its latency flag, boot = boot_id, run = run, the warmup and
 * dropped flags, the run's source, labels from label.KEY columns; every other column is ignored.
 * Fields may be quoted ("a,b", "say ""hi"""); lines end in LF or CRLF; blank lines are
 * skipped; a UTF-8 byte order mark at the start is ignored.
 */

struct csv_row {
	char *workload;  /* "index" when the file has no workload column */
	unsigned copies; /* 1 when the file has no copies column */
	char *boot;      /* boot key (see above); never NULL */
	char *run;       /* run key (see above); never NULL */
	double value;    /* ops/s, higher is better */
	double written;  /* the value as written, in unit */
	char *unit;      /* the unit as written, e.g. "index", "ns/op" */
	struct kvlist labels; /* non-empty label cells, in column order */
	bool op_unit;    /* from a sysab export: unit is the op's name, value ops/s as stored */
	int latency, warmup, dropped; /* from a sysab export: the sample's flags, else 0 */
	char *source;    /* from a sysab export: the run's source (sysab, csv, unixbench), else NULL */
	size_t line;     /* line where the row starts */
};

struct csv_pool;

struct csv_import {
	struct csv_row *row;
	size_t nrow;
	struct csv_pool *pool; /* owns every string and label array of the rows, each held once */
};

/* Parse the len bytes at buf (any bytes; need not be NUL-terminated) as CSV. name is the
 * file name for messages. On success returns 0 and fills *out, which the caller frees
 * with import_csv_free(). On error returns -1 with e->msg as "NAME:LINE:COLUMN: what was
 * wrong; what to do", and *out is left empty (nothing to free). */
int import_csv_parse(const char *name, const char *buf, size_t len, struct csv_import *out, struct err *e);

/* Release everything *c owns and empty it. NULL is a no-op. */
void import_csv_free(struct csv_import *c);

#endif
