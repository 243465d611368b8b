/* report.h - rendering what stats and the store return, as text tables and JSON. Never computes. */
#ifndef SYSAB_REPORT_H
#define SYSAB_REPORT_H

#include <stdio.h>
#include "core/core.h"
#include "stats/summary.h"
#include "store/store.h"
#include "run/runner.h"
#include "stats/analysis.h"

#define REPORT_SCHEMA_VERSION 1

/* Format a throughput value (ops/s of `unit`) for people: "1.23 µs/op" when latency is
 * set, else "4.56M loop/s" or "123 KiB/s" style. */
void report_value(char *buf, size_t size, double ops_per_s, const char *unit, int latency);
/* The display unit name for a workload's values ("ns/op", "loop/s", "KiB/s"). */
const char *report_display_unit(const char *unit, int latency, char *buf, size_t size);

/* `sysab run` and `sysab show` results. */
void report_summary_text(FILE *f, const struct summary *s, bool with_env);
/* A JSON document for one run; the caller prints it. */
char *report_summary_json(const struct summary *s, bool with_env);

/* `sysab list`. */
void report_runs_text(FILE *f, const struct store_run_info *runs, size_t n);
char *report_runs_json(const struct store_run_info *runs, size_t n);

/* `sysab workloads`. */
void report_workloads_text(FILE *f);
char *report_workloads_json(void);

/* `sysab env`. */
void report_env_text(FILE *f, const struct kvlist *env);
char *report_env_json(const struct kvlist *env);

/* The progress line of `sysab run` on a terminal: phase, workload, round, ETA.
 * report_progress_done() clears it. */
void report_progress(FILE *f, const struct run_progress *p);
void report_progress_done(FILE *f);

/* ---- compare, analyze, plan (src/report/verdict.c, verdict_json.c) ---- */

/* One group (or the filter of an analysis) as the user selected it. */
struct report_group {
	const char *name;     /* "A", "B" */
	const char *selector; /* as given */
	size_t nruns, nboots;
};

/* The verdict as the JSON enum string: "faster", "slower", "equivalent", "inconclusive", "no_data". */
const char *report_verdict_name(enum st_verdict v);
/* A caveat bit (enum st_caveat) in words, and as a JSON enum string. */
const char *report_caveat_text(unsigned bit);
const char *report_caveat_name(unsigned bit);
/* What more data an estimate needs, in words and as a JSON enum string. */
const char *report_need_text(enum st_need n);
const char *report_need_name(enum st_need n);

void report_compare_text(FILE *f, const struct an_compare *c, const struct report_group g[2]);
char *report_compare_json(const struct an_compare *c, const struct report_group g[2]);
void report_analyze_text(FILE *f, const struct an_analyze *a, const struct report_group *filter);
char *report_analyze_json(const struct an_analyze *a, const struct report_group *filter);
void report_plan_text(FILE *f, const struct an_plan *p, const struct report_group *g, size_t ng);
char *report_plan_json(const struct an_plan *p, const struct report_group *g, size_t ng);

#endif
