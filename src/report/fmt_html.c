/* fmt_html.c - the html format: one self-contained page with inline SVG plots. */
#include "report.h"

static int render(FILE *f, const struct report_doc *d)
{
	if (d->kind == REPORT_COMPARE)
		return report_html_compare(f, d->compare, d->groups, d->ngroups, d->envtab);
	if (d->kind == REPORT_ANALYZE)
		return report_html_analyze(f, d->analyze, d->groups, d->envtab);
	if (d->kind == REPORT_HISTORY)
		return report_html_history(f, d->history, d->lines);
	return -1;
}

const struct report_format report_format_html = {"html", 1u << REPORT_COMPARE | 1u << REPORT_ANALYZE | 1u << REPORT_HISTORY, render, false};
