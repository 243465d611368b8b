/* words.h - the words every format shares: verdict, caveat, need and warning names, units, q, counter cells, colour. */
#ifndef SYSAB_REPORT_WORDS_H
#define SYSAB_REPORT_WORDS_H

#include "analysis/analysis.h"
#include "core/core.h"
#include "stats/stats.h"

/* The verdict as the JSON enum string: "faster", "slower", "equivalent", "inconclusive", "no_data". */
const char *report_verdict_name(enum st_verdict v);
/* A caveat bit (enum st_caveat) in words, and as a JSON enum string. */
const char *report_caveat_text(unsigned bit);
/* --adjust host: what the adjustment did to a row (its slope, or why not), in words into t;
 * nothing without the adjustment. */
void report_adjust_text(struct sb *t, const struct st_adjust *x);
const char *report_caveat_name(unsigned bit);
/* What more data an estimate needs, in words and as a JSON enum string. */
const char *report_need_text(enum st_need n);
const char *report_need_name(enum st_need n);
/* Shared by the text and HTML renderers (verdict.c). */
/* The ANSI colour sequence for a verdict ("" when color is false), and the reset. */
const char *report_verdict_color(enum st_verdict v, bool color);
const char *report_color_reset(bool color);
bool report_rate_unit(const char *unit);
/* The unit heading of a table block: "time/op" for latency rows, "loop/s", "index". */
void report_table_unit(char *buf, size_t size, const char *unit, int latency);
/* A value for a table cell: "98.1ns" for latency rows, "4.06M" for throughput; plain_si
 * false shows values below 1e5 unscaled (scores and indexes). */
void report_cell_value(char *buf, size_t size, double ops, int latency, bool plain_si);
/* A relative interval (hw = upper bound / value - 1, from a symmetric interval on the log
 * scale) as a cell of at most 9 columns: "±4.4%" when hw < 10% (the two sides then differ by
 * under one point), else both sides, "-9.1/+12%"; an upper side of 100% or more is ">99%",
 * the one spelling of a cap ("-52/+>99%"); "-" when hw is not finite. */
void report_interval_cell(char *buf, size_t size, double hw);
/* A percentage with sign: "+1.2%", "-15%", "?" when not finite. */
void report_pct(char *buf, size_t size, double pct);
/* How to read the signs of a table's changes, the one sentence every format's legend states
 * (docs/METHOD.md, "Signs and words"): "change: WHAT in throughput (+ = faster)", "... in time
 * per op (+ = slower)", or "... as shown (time/op rows: + = slower; others: + = faster)", as
 * kinds (AN_CHG_*) says the table holds; so time/op rows are named only where there are some.
 * what: "B vs A", "each effect", "after vs before". Appended to b, no full stop. */
void report_change_legend(struct sb *b, const char *what, unsigned kinds);
/* "faster", "slower~" (negligible), "no data". */
void report_verdict_word(char *buf, size_t size, const struct st_comparison *c);
/* Counter rows (an_row.event set): the verdict in words, "more" or "fewer" (per op in B than
 * in A), "inconclusive", "no verdict", "no data"; never "faster" or "slower". */
const char *report_counter_verdict_name(const struct st_comparison *c);
/* A counter row's cells, the one formatter of text, markdown and HTML: name with the unit
 * its values are in ("kernel.fault.anon · page-faults/op", "... · context-switches/1k ops",
 * "... · task-clock ns/op": scaled so the larger mean is at least 1; "/COPIES" after the
 * workload when > 1), each group's mean with the half-width of its interval, B - A and its
 * interval ("[lo, hi]" with sep between), q and the verdict: "constant" when every sample of
 * both groups counts the same (the values then show that constant). Never e-notation. */
struct report_counter_cells {
	char name[300], unit[24], a[48], b[48], ch[24], ci[64], q[16];
	const char *verdict;
};
void report_counter_cells(struct report_counter_cells *out, const struct an_row *r, const char *sep);
/* A count in fixed notation, about 4 significant digits, k/M/G/T from 100000 on; sign: "+"
 * before positive values; "-" when not finite. Never e-notation. */
void report_count_cell(char *buf, size_t size, double v, bool sign);
/* The unit counts of event are shown in, given the largest value: " ns/op" (task-clock),
 * "/op", or "/1k ops", "/1M ops", "/1G ops" so it is at least 1; returns the factor. */
double report_counter_scale(const char *event, double big, char *unit, size_t size);
/* A q value for a cell, the one formatter of every table: "<.001" or "0.043"; empty when not finite. */
void report_q(char *buf, size_t size, double q);
/* The interval and q cells of a row without replication at its unit (an_change.within): "–"
 * in both, no interval or q that could be read as a verdict's. */
void report_no_verdict_cells(char *ci, size_t ci_size, char *q, size_t q_size);
/* The one-line summary of the counter rows' verdicts: "1 more, 3 inconclusive, 1 constant of
 * 5 rows per op"; empty when there are none. */
void report_counter_tally(char *buf, size_t size, const struct an_compare *c);
/* What the counter rows of a comparison are, in words, for the note under a table. */
extern const char report_counter_rows_text[];
/* A warning kind (enum st_warn) as a JSON key: "drift", "warmup", "cv", ... */
const char *report_warn_name(int kind);
/* The short phrase of warning kind (ST_WARN_*) in the compact compare table; NULL for ST_WARN_CV,
 * whose phrase names its limit. */
const char *report_warn_kind(int kind);
/* The warnings of one group's diagnostics, one line each, appended to out. */
void report_diag_lines(struct strv *out, const char *group, const struct an_diag *d);
/* What would settle an inconclusive verdict, in words (nothing when more is 0; stats_more_boots'
 * count more, settling as as): in_plan for a note of `sysab plan`, which sizes the new
 * comparison itself; paired_runs for paired runs of one boot, which add paired runs,
 * never boots (report_row_paired_runs). */
void report_settle_text(struct sb *t, size_t more, enum st_verdict as, bool in_plan, bool paired_runs);
/* Whether compare row r is paired runs of one boot (by round, the run its unit). */
bool report_row_paired_runs(const struct an_row *r);
/* Why a row has no verdict, or has one only by --allow-failed-checks: its failed self-check in
 * words, appended to t (nothing when every check held). */
void report_check_text(struct sb *t, const struct an_failed_check *f);
/* The one caveat for the n groups (names[i]; one NULL name: the analyzed runs) some of
 * whose runs were emulated, appended to t (nothing when none was): "runs of A and B were
 * measured under an emulator (evidence; first in runs 1 and 2)". */
void report_emulation_text(struct sb *t, const char *const *names, const struct an_emulation *emu, size_t n);
/* The note of --allow-failed-checks when some row kept its verdict by it, appended to t. */
void report_allow_text(struct sb *t, size_t rows);
/* What a look (an_repeat) says before the table, appended to t: why its verdicts were withheld
 * and what to do, or what --fresh left out; nothing for a first look or a re-read. alpha is
 * the level the first look spent. */
void report_look_text(struct sb *t, const struct an_repeat *look, double alpha);
/* The JSON "look" member's value of a look (a json_t *; null when looks were not consulted). */
void *report_look_json(const struct an_repeat *look);

#endif
