/* report.h - rendering what stats and the store return, as text tables and JSON. Never computes. */
#ifndef SYSAB_REPORT_H
#define SYSAB_REPORT_H

#include <stdio.h>
#include "core/core.h"
#include "analysis/summary.h"
#include "store/store.h"
#include "run/runner.h"
#include "analysis/analysis.h"
#include "study/study.h"

#define REPORT_SCHEMA_VERSION 1

/* ---- the format table (src/report/format.c): one record in, any format out ---- */

/* The kinds of finished record a command prints. */
enum report_kind {
	REPORT_RUNS,      /* sysab list */
	REPORT_RUN,       /* sysab run, sysab show */
	REPORT_WORKLOADS, /* sysab workloads */
	REPORT_ENV,       /* sysab env */
	REPORT_COMPARE,   /* sysab compare, report compare, report SELECTOR (one group) */
	REPORT_ANALYZE,   /* sysab analyze, report analyze */
	REPORT_PLAN,      /* sysab plan */
	REPORT_SAMPLES,   /* sysab export */
	REPORT_HISTORY,   /* sysab history */
	REPORT_CAMPAIGN,  /* sysab campaign show, status */
	REPORT_SYSTEM,    /* sysab system show */
	REPORT_ALLOC,     /* sysab run --allocate: the allocation, before the run */
	REPORT_MDE,       /* sysab campaign start, run --arm: a design's MDE before its first boot or round */
};

struct summary;
struct an_compare;
struct an_analyze;
struct an_plan;
struct an_envtab;
struct an_group_info;
struct store_export;
struct an_history;
struct an_history_change;
struct campaign_view;
struct sys_state;
struct an_alloc_record;
struct study_mde;

/* One finished record of one kind, and how text wants it. Only the member of kind is read. */
struct report_doc {
	enum report_kind kind;
	bool color;    /* text: ANSI colours */
	bool verbose;  /* text: every note of every row (-v), else the compact tables */
	unsigned width; /* text: the columns compact tables may fill (0: REPORT_WIDTH) */
	bool with_env; /* REPORT_RUN: the run's environment too */
	bool raw;      /* csv: exact bytes, no neutralised formulas (export --raw) */
	bool counters; /* REPORT_COMPARE, text and markdown: the counter rows, not their one-line tally */
	const struct store_run_info *runs; /* REPORT_RUNS, REPORT_SAMPLES */
	size_t nruns;                      /* of runs, and of summaries */
	const struct store_export *samples; /* REPORT_SAMPLES */
	const struct summary *summaries;    /* REPORT_SAMPLES, formats with per_slot: one per run;
	                                       REPORT_COMPARE, kcidb: one per run of group B (nruns) */
	const char *kcidb_version;          /* kcidb: "4.5", or NULL or "5.3" for KCIDB I/O v5.3 */
	const char *kcidb_samples_url;      /* kcidb: the raw samples' file each test's output_files
	                                       names (NULL: none) */
	const struct summary *summary;      /* REPORT_RUN */
	const struct kvlist *env;           /* REPORT_ENV */
	const struct an_compare *compare;   /* REPORT_COMPARE */
	const struct an_analyze *analyze;   /* REPORT_ANALYZE */
	const struct an_plan *plan;         /* REPORT_PLAN */
	const struct an_group_info *groups; /* COMPARE, PLAN: ngroups; ANALYZE: the filter */
	size_t ngroups;
	const struct an_envtab *envtab;     /* COMPARE, ANALYZE: the groups' environment (html) */
	const struct kvlist *noise_levels;  /* ANALYZE: noise.level → runs (a warning when > 1) */
	const struct an_history *history;   /* REPORT_HISTORY */
	const struct an_mde *mde;           /* PLAN: the MDE of the planned design; NULL: none */
	const struct study_line *lines;     /* PLAN --campaign: one campaign line (or why none);
	                                       HISTORY --confirm: one per change; NULL: none asked */
	const struct campaign_view *views;  /* REPORT_CAMPAIGN: nviews campaigns */
	size_t nviews;
	bool view_list;                     /* REPORT_CAMPAIGN: every campaign (campaign show without a
	                                       name; json: an array), else the one of views[0] */
	const struct sys_state *system;     /* REPORT_SYSTEM */
	const struct an_alloc_record *alloc; /* REPORT_ALLOC */
	const struct study_mde *design_mde; /* REPORT_MDE; REPORT_CAMPAIGN (campaign new): the MDE of
	                                       views[0]'s design, NULL: none */
};

/* An output format: one file each (fmt_text.c, fmt_json.c, fmt_csv.c, fmt_html.c, fmt_kcidb.c,
 * fmt_lava.c), one
 * line each in report_formats[]. */
struct report_format {
	const char *name;
	unsigned kinds; /* bit (1u << kind) for every kind it renders */
	/* Render d (whose kind is in kinds) to f. Returns 0, or -1 when writing failed. */
	int (*render)(FILE *f, const struct report_doc *d);
	/* REPORT_SAMPLES: renders one result per (workload, copies) of each run from
	 * d->summaries (runs[i]'s summary at i) instead of every sample. */
	bool per_slot;
};

extern const struct report_format report_format_text, report_format_json, report_format_csv, report_format_html,
	report_format_kcidb, report_format_lava, report_format_markdown;
/* Every format, NULL-terminated. */
extern const struct report_format *const report_formats[];
/* The format called name that renders kind, or NULL. */
const struct report_format *report_format_find(const char *name, enum report_kind kind);
/* The names of the formats that render kind, "a, b or c", into buf. */
void report_format_names(char *buf, size_t size, enum report_kind kind);
/* True when every self-check of r passed (or it has none). */
bool report_checks_ok(const struct summary_row *r);
/* Replace every character of s but letters, digits, '_', '-' and '.' by '_' (test names
 * for LAVA and KCIDB paths). */
void report_name_chars(char *s);
/* A markdown table cell " s |": a '|' in s, which would end the cell, is escaped (fmt_markdown.c). */
void report_md_cell(FILE *f, const char *s);
/* Notes are wrapped, and tables laid out when the width is not known, for terminals this wide. */
#define REPORT_WIDTH 80

/* How a text table is laid out. */
struct report_style {
	bool color;     /* ANSI colours (the caller decides: a terminal, no NO_COLOR) */
	bool verbose;   /* -v: every note of every row, in the fixed 80-column layout */
	size_t width;   /* the columns a compact table may fill: the terminal's, else REPORT_WIDTH */
	bool counters;  /* compare: the counter rows (--counters), else a one-line tally of them */
};

/* Columns text takes on a terminal: UTF-8 characters, ANSI colour sequences not counted. */
size_t report_text_width(const char *s);
/* Print text wrapped at REPORT_WIDTH: the first line after `first`, the others after
 * `cont` (a hanging indent). Newlines in text start new lines. */
void report_wrap(FILE *f, const char *first, const char *cont, const char *text);
/* name (with "/copies" when copies > 1) cut to width columns, keeping its start and its
 * last five characters around a '~': "unixbench.f~r-w". */
void report_short_name(char *buf, size_t size, const char *name, int copies, size_t width);

/* The display unit name for a workload's values ("ns/op", "loop/s", "KiB/s"). */
const char *report_display_unit(const char *unit, int latency, char *buf, size_t size);

/* The display_unit of JSON documents: "s/op" for latency rows, the unit itself for rates
 * and scores ("index", "lps", "KiB/s"), else "<unit>/s" ("loop/s"). */
const char *report_json_unit(const char *unit, int latency, char *buf, size_t size);

/* `sysab run` and `sysab show` results. */
/* st->color: ANSI colours for status words and failed self-checks. Unless st->verbose, a
 * workload whose self-checks all held is marked "ok" instead of getting a note. */
void report_summary_text(FILE *f, const struct summary *s, bool with_env, const struct report_style *st);
/* The failed self-checks `sysab run` lists one line each; those beyond are counted. */
#define REPORT_BRIEF_FAILED 8
/* What `sysab run` prints of run b->s, stored in path (NULL: not stored in full, the run
 * failed): the tally, the index, the machine's verdict, the failed self-checks one line each,
 * and the next command, naming the program as prog. At most 25 lines of at most REPORT_WIDTH
 * columns, whatever the number of workloads (a path too long for a line is cut). */
void report_run_brief_text(FILE *f, const struct summary_brief *b, const char *path, const char *prog);
/* A JSON document for one run; the caller prints it. */
char *report_summary_json(const struct summary *s, bool with_env);

/* `sysab history` (history.c): a line per change, the series as a sparkline at most width
 * columns wide; the JSON document (docs/FORMATS.md); a markdown table of the changes. */
void report_history_text(FILE *f, const struct an_history *h, const struct study_line *confirm, size_t width);
char *report_history_json(const struct an_history *h, const struct study_line *confirm);
void report_history_markdown(FILE *f, const struct an_history *h, const struct study_line *confirm);
/* The page (html.c): the series drawn with each boot's interval, the segments' levels and the
 * changes with their position intervals, then a table of the changes. Returns 0 or -1. */
int report_html_history(FILE *f, const struct an_history *h, const struct study_line *confirm);
/* The lines of history --confirm for change c (its campaign's size, and its line l or why
 * there is none), in the words every format uses. In the history renderers, confirm is
 * NULL without --confirm, else one line per change (study_confirm_lines). */
void report_history_confirm(struct sb *b, const struct an_history_change *c, const struct study_line *l);
/* plan --campaign (study.c): the campaign line l, or why there is none, after the plan's
 * text. */
void report_study_line_text(FILE *f, const struct study_line *l);
/* The members of line l in JSON, set on object o: "campaign", "argv" (from "sysab") and
 * "line"; or "why" and "reason" (study_why_word), both null for a record with neither. */
void report_study_line_json(struct json_t *o, const struct study_line *l);
struct an_mde;
/* An MDE x (a fraction) as text: "2.3%" ("0.05%" below 0.1%), or "none" when not computable. */
void report_mde_pct(char *buf, size_t n, double x);
/* The MDE lines of a design (campaign new, campaign start, plan): text into f. */
void report_mde_text(FILE *f, const struct an_mde *m);
/* The same as a new JSON object (a json_t *, the caller owns it): the design (boots, or
 * paired_runs when paired, runs_per_boot, alpha, confidence, power, emulated, from, probe_cv),
 * per workload its mde, source ("pilot", "history": earlier runs, "rough") and samples_per_run
 * (rounds when paired), and with a target whether each row and all reach it (reaches) and the
 * boots_needed (paired_runs_needed; 0: none up to the search bound). */
struct json_t *report_mde_json(const struct an_mde *m);
/* A design's MDE before it boots or takes a round (campaign new, campaign start, run --arm):
 * its MDE lines when it has one, then what it cannot give (md->cannot), as text into f. */
void report_design_mde_text(FILE *f, const struct study_mde *md);
/* The same as a new JSON object: report_mde_json's members (rows empty when the design has no
 * MDE), and available (it has one) and cannot (the text, or null). */
struct json_t *report_design_mde_json(const struct study_mde *md);
/* The JSON document of REPORT_MDE: schema_version, kind "mde" and mde (report_design_mde_json),
 * as a new string (the caller frees it). */
char *report_design_mde_doc(const struct study_mde *md);
/* The legend of a history's changes (report_change_legend of the segment after a change against
 * the one before), appended to b: the text, markdown, JSON and HTML of a history say it alike. */
void report_history_legend(struct sb *b, const struct an_history *h);
/* The lines (each ending in a newline) naming the boots at either end of a history where a
 * change has too few boots on one side to be judged (st_cp_result's head_to, tail_from),
 * appended to b: text, markdown and HTML print them alike, JSON as "unjudged". */
void report_history_edges(struct sb *b, const struct an_history *h);
/* The line (ending in a newline) of a history's change of spread (st_cp_result's spread), a
 * finding apart from the changes of mean, appended to b; nothing when none was found. Text,
 * markdown and HTML print it alike, JSON as "spread_change". */
void report_history_spread(struct sb *b, const struct an_history *h);

/* `sysab list`. */
void report_runs_text(FILE *f, const struct store_run_info *runs, size_t n, bool color);
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

/* ---- the words every format shares (src/report/words.c) ---- */
#include "report/words.h"

/* ---- compare, analyze, plan (src/report/verdict.c, verdict_json.c) ---- */


/* The one-line summary of a comparison's verdicts, e.g. "3 slower, 1 faster, 40 equivalent,
 * 8 inconclusive (faster/slower need BH q < 0.05)"; kinds with no row are left out. */
void report_verdict_tally(char *buf, size_t size, const struct an_compare *c);
/* The confounders of c that the change under test explains (an_confounders_explain), one line
 * per explanation naming the keys it explains ("explained by the change under test (label
 * mitigations=off): vuln.mds, vuln.spectre_v2"), appended to out: text and HTML say it alike. */
void report_explained_lines(struct strv *out, const struct an_compare *c);
/* An effect's verdict word: report_verdict_word, or "no interval" for an effect with a point
 * estimate and no interval (an_effect_point_only). */
void report_effect_verdict_word(char *buf, size_t size, const struct st_effect *ef);
/* What would settle an analysis without intervals, the words every format uses: "a verdict
 * needs each configuration on at least 2 boots (...); `sysab plan --factors F,G [FILTER]` then
 * sizes the experiment" (a command that runs as printed; no full stop), appended to b. */
void report_settle_cells_text(struct sb *b, const struct an_analyze *a, const struct an_group_info *filter);

/* Which factors an analysis paired within boots (an_analyze.within) and which vary within
 * some boots only (mixed), in words, appended to t (nothing when neither). */
struct an_analyze;
struct an_frow;
void report_within_text(struct sb *t, const struct an_analyze *a);
/* A row's boots that lack some combination of the within-boot levels, in words (nothing
 * when none does). */
void report_incomplete_text(struct sb *t, const struct an_analyze *a, const struct an_frow *r);

/* The compare table. Compact by default: columns as wide as their cells, names cut to fit
 * st->width, each caveat stated once. st->verbose: the fixed layout with every group's
 * warnings per row. Verdict words in colour when st->color (faster green, slower red,
 * equivalent blue, inconclusive yellow). */
void report_compare_text(FILE *f, const struct an_compare *c, const struct an_group_info g[2],
			 const struct report_style *st);
char *report_compare_json(const struct an_compare *c, const struct an_group_info g[2]);
void report_analyze_text(FILE *f, const struct an_analyze *a, const struct an_group_info *filter, bool color);
char *report_analyze_json(const struct an_analyze *a, const struct an_group_info *filter);
void report_plan_text(FILE *f, const struct an_plan *p, const struct an_group_info *g, size_t ng, bool color);
/* line: plan --campaign's campaign line, the "campaign_line" member (NULL: none asked). */
char *report_plan_json(const struct an_plan *p, const struct an_group_info *g, size_t ng,
		       const struct study_line *line, const struct an_mde *mde);

/* ---- the HTML report (src/report/html.c) ---- */

/* A self-contained HTML page (inline CSS and SVG, no script, nothing fetched) for a
 * comparison (c->ngroups == 2) or one group's estimates (c->ngroups == 1), with the
 * groups' environment (g and env have ng == c->ngroups entries) and the counter rows of
 * B against A (c->crows, a section of their own when there are any). Returns 0, or -1
 * when writing fails. */
int report_html_compare(FILE *f, const struct an_compare *c, const struct an_group_info *g, size_t ng,
			const struct an_envtab *env);
/* The same for a factorial analysis; env has one column per cell. */
int report_html_analyze(FILE *f, const struct an_analyze *a, const struct an_group_info *filter,
			const struct an_envtab *env);

/* ---- export (src/report/export.c) ---- */

/* Every sample of runs[0..n-1] (labels and env filled), as CSV (RFC 4180: one row per
 * sample, fixed columns, then label.KEY and env.KEY columns sorted) or as a JSON array
 * of runs with their samples. Text cells of the CSV are neutralised against spreadsheet
 * formulas unless raw (report_csv_cell). Returns 0, or -1 when writing fails. */
int report_export_csv(FILE *f, const struct store_run_info *runs, size_t n, const struct store_export *x, bool raw);
/* One CSV cell appended to b (RFC 4180 quoting). Unless raw, a cell starting with = + - @ TAB
 * or CR (a spreadsheet formula) is neutralised: written quoted with a leading ' (see
 * docs/FORMATS.md); raw keeps the exact bytes. */
void report_csv_cell(struct sb *b, const char *s, bool raw);
int report_export_json(FILE *f, const struct store_run_info *runs, size_t n, const struct store_export *x);

/* `sysab run --allocate`: the allocation record (an_alloc_record: rows from the selector's runs),
 * the variance it predicts and the advice on more, shorter runs, as text. */
void report_alloc_text(FILE *f, const struct an_alloc_record *rec);
/* The same as markdown: the allocated rows as a table, and the predicted variance. */
void report_alloc_markdown(FILE *f, const struct an_alloc_record *rec);
/* One header line of `show` for a run whose settings record an allocation; nothing else. */
void report_alloc_line(FILE *f, const struct store_run_info *r);

#endif
