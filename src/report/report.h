/* report.h - rendering what stats and the store return, as text tables and JSON. Never computes. */
#ifndef SYSAB_REPORT_H
#define SYSAB_REPORT_H

#include <stdio.h>
#include "core/core.h"
#include "stats/summary.h"
#include "store/store.h"
#include "run/runner.h"

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

#endif
