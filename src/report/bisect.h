/* bisect.h - renderers of a bisection (sysab bisect show) and of its dry run. */
#ifndef SYSAB_REPORT_BISECT_H
#define SYSAB_REPORT_BISECT_H

#include <stdio.h>

#include "study/bisectrun.h"

/* bisect show: text (at most 15 lines for a finished bisection of up to 10 steps), JSON, Markdown. */
void report_bisect_text(FILE *f, const struct study_bisect_view *v);
void report_bisect_json(FILE *f, const struct study_bisect_view *v);
void report_bisect_markdown(FILE *f, const struct study_bisect_view *v);
/* bisect new --dry-run: the first step's campaign and every step that can follow. */
void report_bisect_plan_text(FILE *f, const struct study_bisect_plan *p);

#endif
