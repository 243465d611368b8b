/* counters.h - rendering the noise floor, counter availability and per-op counter figures. Never computes. */
#ifndef SYSAB_REPORT_COUNTERS_H
#define SYSAB_REPORT_COUNTERS_H

#include <jansson.h>
#include <stdio.h>
#include "core/core.h"
#include "analysis/counters.h"

/* One line of noise floor ("noise floor: CV 1.2%, block drift 0.8% (moderate); steal 0.00%")
 * and a line per counter group not counted, from a run's environment; nothing for runs
 * without them (imports, older runs). */
void report_noise_text(FILE *f, const struct kvlist *env);
/* {"cv":…, "drift":…, "level":…, "steal_pct":…} or NULL when the run has no probe. */
json_t *report_noise_json(const struct kvlist *env);

/* The per-op counter table of one run; nothing when rows is empty. */
void report_counters_text(FILE *f, const struct ctr_row *rows, size_t n);
json_t *report_counters_json(const struct ctr_row *rows, size_t n);
/* A warning when the runs of an analysis had different noise floors (levels: level → count,
 * from ctr_noise_levels); nothing when they had one level or none. */
void report_noise_levels_text(FILE *f, const struct kvlist *levels);
json_t *report_noise_levels_json(const struct kvlist *levels);

/* doc (a JSON document, taken) with "counters": arr added (arr taken). Newly allocated. */
char *report_add_json(char *doc, const char *key, json_t *arr);

/* doc (a JSON document, taken) with "counters": the per-op rows added. Newly allocated. */
char *report_add_counters(char *doc, const struct ctr_row *rows, size_t n);

#endif
