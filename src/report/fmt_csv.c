/* fmt_csv.c - the csv format: every sample, one row each (RFC 4180; docs/FORMATS.md). */
#include "report.h"

static int render(FILE *f, const struct report_doc *d)
{
	return d->kind == REPORT_SAMPLES ? report_export_csv(f, d->runs, d->nruns, d->samples, d->raw) : -1;
}

const struct report_format report_format_csv = {"csv", 1u << REPORT_SAMPLES, render, false};
