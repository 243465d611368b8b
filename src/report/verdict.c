/* verdict.c - terminal tables for compare, analyze and plan, in the style of benchstat. */
#include "report.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NAME_W 15

/* What a verdict takes, in the words analyze and plan both use. */
#define REPLICATION_RULE "a verdict needs each configuration on at least 2 boots (1 run on each will do)"

/* ---------------------------------------------------------------- helpers */

/* An interval [lo,hi] of percent changes: a bound past +1e6% (a factor of 10,000, e.g. an early
 * look of a sequential design that spent almost no alpha) prints as "unbounded", never as the
 * first digits of a number too wide for the cell. Empty when a bound is NaN. */
static void interval_text(char *buf, size_t size, double lo, double hi)
{
	char b[2][16];
	double x[2] = {lo, hi};
	if (isnan(lo) || isnan(hi)) {
		buf[0] = 0;
		return;
	}
	for (int i = 0; i < 2; i++) {
		if (fabs(x[i]) >= 1e6) {
			snprintf(b[i], sizeof b[i], "unbounded");
			continue;
		}
		report_pct(b[i], sizeof b[i], x[i]);
		b[i][strlen(b[i]) - 1] = 0; /* the % */
	}
	snprintf(buf, size, "[%s,%s]", b[0], b[1]);
}

static void est_cell(char *buf, size_t size, const struct an_value *v, int latency, bool index_like)
{
	char val[32], iv[16];
	report_cell_value(val, sizeof val, v->ops, latency, !index_like);
	report_interval_cell(iv, sizeof iv, v->hw);
	if (isfinite(v->hw))
		snprintf(buf, size, "%s %s", val, iv);
	else
		snprintf(buf, size, "%s", val);
}

/* The row name for a table of NAME_W columns: a longer name goes on a line of its own
 * (printed here) and the row starts with an empty name column. */
static void short_name(FILE *f, char *buf, size_t size, const char *name, int copies)
{
	char full[256];
	if (copies > 1)
		snprintf(full, sizeof full, "%s/%d", name, copies);
	else
		snprintf(full, sizeof full, "%s", name);
	if (strlen(full) > NAME_W) {
		fprintf(f, "%s\n", full);
		full[0] = 0;
	}
	snprintf(buf, size, "%s", full);
}

/* Print a table row and its footnote marks; marks that would pass the terminal width go
 * on the next line, right-aligned. */
static void row_out(FILE *f, const char *line, const struct sb *marks, size_t width)
{
	size_t w = report_text_width(line), mw = marks->len ? report_text_width(sb_str(marks)) : 0;
	if (w + mw <= width || !marks->len)
		fprintf(f, "%s%s\n", line, marks->len ? sb_str(marks) : "");
	else
		fprintf(f, "%s\n%*s\n", line, (int)width, sb_str(marks) + 1);
}

/* Footnotes: distinct texts, numbered in order of first use. */
struct notes {
	struct strv v;
};

static size_t note(struct notes *n, const char *text)
{
	for (size_t i = 0; i < n->v.n; i++)
		if (!strcmp(n->v.v[i], text))
			return i + 1;
	strv_add(&n->v, text);
	return n->v.n;
}

static void notef(struct notes *n, struct sb *marks, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void notef(struct notes *n, struct sb *marks, const char *fmt, ...)
{
	struct sb t = {0};
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&t, fmt, ap);
	va_end(ap);
	sb_addf(marks, "%s%zu", marks->len ? "," : " [", note(n, sb_str(&t)));
	sb_free(&t);
}

static void notes_print(FILE *f, struct notes *n)
{
	if (n->v.n)
		fprintf(f, "\n");
	for (size_t i = 0; i < n->v.n; i++) {
		char first[32];
		snprintf(first, sizeof first, "[%zu] ", i + 1);
		report_wrap(f, first, i + 1 >= 10 ? "     " : "    ", n->v.v[i]);
	}
	strv_free(&n->v);
}

static void caveat_notes(struct notes *n, struct sb *m, unsigned caveats)
{
	for (unsigned bit = 1; bit && bit <= ST_CAVEAT_LAST; bit <<= 1)
		if ((caveats & bit) && report_caveat_text(bit))
			notef(n, m, "%s", report_caveat_text(bit));
}

/* The row's adjustment as a note. */
static void adjust_note(struct notes *n, struct sb *m, const struct st_adjust *x)
{
	struct sb t = {0};
	report_adjust_text(&t, x);
	if (t.len)
		notef(n, m, "%s", sb_str(&t));
	sb_free(&t);
}

static void diag_notes(struct notes *n, struct sb *m, const char *group, const struct an_diag *d)
{
	struct strv l = {0};
	report_diag_lines(&l, group, d);
	for (size_t i = 0; i < l.n; i++)
		notef(n, m, "%s", l.v[i]);
	strv_free(&l);
}

enum { COMPACT = 2 }; /* settle_note's in_plan for the compact compare table */
static void settle_note(struct notes *n, struct sb *m, size_t more, enum st_verdict as, int in_plan, bool paired_runs)
{
	struct sb t = {0};
	if (more == ST_MORE_UNPLANNED && in_plan == COMPACT && !paired_runs) /* the compact compare table: -v says why */
		sb_add(&t, "inconclusive in a fixed design: `sysab plan` sizes a new one (-v: why)");
	else
		report_settle_text(&t, more, as, in_plan == true, paired_runs);
	if (t.len)
		notef(n, m, "%s", sb_str(&t));
	sb_free(&t);
}

/* ---------------------------------------------------------------- compare */

/* Long by design: the table top to bottom, every row's notes gathered as it is printed. */
void report_verdict_tally(char *buf, size_t size, const struct an_compare *c)
{
	static const enum st_verdict order[] = {ST_SLOWER, ST_FASTER, ST_EQUIVALENT, ST_INCONCLUSIVE, ST_WITHHELD,
						ST_NO_DATA};
	enum { N = sizeof order / sizeof order[0] };
	size_t cnt[N] = {0}, looked = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		looked += c->rows[i].look_withheld;
		for (size_t k = 0; k < N; k++)
			cnt[k] += c->rows[i].c.verdict == order[k] && !c->rows[i].look_withheld;
	}
	struct sb t = {0};
	for (size_t k = 0; k < N; k++)
		if (cnt[k])
			sb_addf(&t, "%s%zu %s", t.len ? ", " : "", cnt[k], order[k] == ST_NO_DATA ? "without a verdict"
								 : order[k] == ST_WITHHELD ? "withheld (failed self-check)"
											   : report_verdict_name(order[k]));
	if (looked)
		sb_addf(&t, "%s%zu withheld (a later look)", t.len ? ", " : "", looked);
	/* the rule, not a property of the rows: "1 inconclusive (BH q<0.05)" read as if its q were below */
	sb_addf(&t, " (faster/slower need BH q < %g)", c->o.alpha);
	snprintf(buf, size, "%s", sb_str(&t));
	sb_free(&t);
}

/* The interval and q cells of a row that has both groups, its notes into n and m. */
static void compare_cells(const struct an_row *r, char ch[16], char ci[40], char q[16], struct notes *n, struct sb *m,
			  bool verbose)
{
	unsigned caveats = r->c.caveats;
	if (!verbose && (caveats & ST_CAVEAT_NO_BOOT_REPL)) /* its note says so: 1 boot, not covered */
		caveats &= ~ST_CAVEAT_NO_BOOT_LEVEL;
	if (!verbose && (caveats & ST_CAVEAT_NO_RUN_REPL))
		caveats &= ~ST_CAVEAT_NO_RUN_LEVEL;
	if (isfinite(r->chg.pct))
		report_pct(ch, 16, r->chg.pct);
	interval_text(ci, 40, r->chg.lo, r->chg.hi);
	if (isfinite(r->c.q))
		report_q(q, 16, r->c.q);
	if (r->chg.within) {
		report_no_verdict_cells(ci, 40, q, 16);
	}
	caveat_notes(n, m, caveats);
	adjust_note(n, m, &r->adj);
	if (r->c.verdict == ST_NO_DATA)
		notef(n, m, "no interval: needs %s", report_need_text(r->c.need));
	if (r->c.verdict == ST_INCONCLUSIVE)
		settle_note(n, m, r->more_boots, r->settles_as, verbose ? false : COMPACT, report_row_paired_runs(r));
}

/* A compare row's cells and note marks, built before the table is laid out. */
struct cmp_line {
	const struct an_row *r;
	char name[300], a[80], b[80], ch[24], ci[64], q[16], v[32];
	struct sb marks;
};

/* The warnings of both groups as one note, the kinds named without group, count or value:
 * the compact table states them in one line (-v gives every row's own). */
static void diag_kind_notes(struct notes *n, struct sb *m, const struct an_diag *da, const struct an_diag *db)
{
	struct sb t = {0};
	for (int k = 0; k <= ST_WARN_AUTOCORR; k++) {
		if (!da->count[k] && !db->count[k])
			continue;
		sb_add(&t, t.len ? ", " : "some runs: ");
		if (k == ST_WARN_CV)
			sb_addf(&t, "a CV above %.0f%%", 100 * (da->count[k] ? da->limit[k] : db->limit[k]));
		else
			sb_add(&t, report_warn_kind(k));
	}
	if (t.len)
		notef(n, m, "%s (-v: per group)", sb_str(&t));
	sb_free(&t);
}

/* The note of a row whose runs failed a self-check. */
static void check_note(struct notes *n, struct sb *m, const struct an_failed_check *f)
{
	struct sb t = {0};
	report_check_text(&t, f);
	if (t.len)
		notef(n, m, "%s", sb_str(&t));
	sb_free(&t);
}

/* The caveats that hold for a whole table, before it: emulated groups, and the rows that
 * kept a verdict only by --allow-failed-checks. */
static void trust_lines(FILE *f, const struct an_emulation *emu, const char *const *names, size_t n,
			size_t allowed, const struct an_repeat *look, double alpha)
{
	struct sb t = {0};
	report_look_text(&t, look, alpha);
	if (t.len) {
		fprintf(f, "\n");
		report_wrap(f, "", "  ", sb_str(&t));
	}
	sb_free(&t);
	report_emulation_text(&t, names, emu, n);
	if (t.len) {
		fprintf(f, "\n");
		report_wrap(f, "", "  ", sb_str(&t));
	}
	sb_free(&t);
	report_allow_text(&t, allowed);
	if (t.len) {
		fprintf(f, "\n");
		report_wrap(f, "", "  ", sb_str(&t));
	}
	sb_free(&t);
}

/* Fill one row's cells and notes; *negl set when it is negligible. */
static void compare_line(struct cmp_line *l, const struct an_row *r, const struct an_group_info g[2],
			 struct notes *n, bool *negl, bool verbose, const struct an_diag *all)
{
	struct sb *m = &l->marks;
	l->r = r;
	if (r->copies > 1)
		snprintf(l->name, sizeof l->name, "%s/%d", r->workload, r->copies);
	else
		snprintf(l->name, sizeof l->name, "%s", r->workload);
	est_cell(l->a, sizeof l->a, &r->va, r->latency, report_rate_unit(r->unit));
	est_cell(l->b, sizeof l->b, &r->vb, r->latency, report_rate_unit(r->unit));
	report_verdict_word(l->v, sizeof l->v, &r->c);
	if (r->ncomposite)
		notef(n, m, "%s: per run, %s; compared as one workload", r->workload,
		      r->composite ? r->composite : "composite");
	if (r->va.low_df || r->vb.low_df)
		notef(n, m, "no interval for %s: fewer than %d degrees of freedom (add boots or runs)",
		      r->va.low_df && r->vb.low_df ? "A or B" : r->va.low_df ? g[0].name : g[1].name, AN_MIN_INTERVAL_DF);
	if (!r->have_a || !r->have_b) {
		notef(n, m, "no samples of this workload in %s", !r->have_a ? g[0].name : g[1].name);
	} else {
		compare_cells(r, l->ch, l->ci, l->q, n, m, verbose);
		*negl |= r->c.negligible;
	}
	check_note(n, m, &r->failed);
	if (verbose) {
		diag_notes(n, m, g[0].name, &r->diag_a);
		diag_notes(n, m, g[1].name, &r->diag_b);
	} else {
		/* one note for the table: the kinds of every row, marked on the rows that have any */
		static const struct an_diag none;
		if (memcmp(r->diag_a.count, none.count, sizeof none.count) ||
		    memcmp(r->diag_b.count, none.count, sizeof none.count))
			diag_kind_notes(n, m, all, &none);
	}
	if (m->len)
		sb_add(m, "]");
}

/* A counter row's cells (linear scale: counts per op, B - A) and notes. */
static void counter_line(struct cmp_line *l, const struct an_row *r, const struct an_group_info g[2], struct notes *n)
{
	struct sb *m = &l->marks;
	struct report_counter_cells cc;
	l->r = r;
	report_counter_cells(&cc, r, ",");
	snprintf(l->name, sizeof l->name, "%s", cc.name);
	snprintf(l->a, sizeof l->a, "%s", cc.a);
	snprintf(l->b, sizeof l->b, "%s", cc.b);
	snprintf(l->ch, sizeof l->ch, "%s", cc.ch);
	snprintf(l->ci, sizeof l->ci, "%s", cc.ci);
	snprintf(l->q, sizeof l->q, "%s", cc.q);
	snprintf(l->v, sizeof l->v, "%s", cc.verdict);
	if (isfinite(r->constant)) /* nothing to estimate: the constant is the answer */
		return;
	if (r->va.low_df || r->vb.low_df)
		notef(n, m, "no interval for %s: fewer than %d degrees of freedom (add boots or runs)",
		      r->va.low_df && r->vb.low_df ? "A or B" : r->va.low_df ? g[0].name : g[1].name, AN_MIN_INTERVAL_DF);
	caveat_notes(n, m, r->c.caveats);
	if (r->c.verdict == ST_NO_DATA)
		notef(n, m, "no interval: needs %s", report_need_text(r->c.need));
	if (m->len)
		sb_add(m, "]");
}

/* A row's verdict colour: counter rows' more/fewer are neither good nor bad. */
static const char *line_color(const struct cmp_line *l, bool color)
{
	if (l->r->event && (l->r->c.verdict == ST_FASTER || l->r->c.verdict == ST_SLOWER))
		return color ? "\033[36m" : "";
	return report_verdict_color(l->r->c.verdict, color);
}

/* The printf width that pads s to w columns (a "–" is 3 bytes, one column). */
static int cols(const char *s, int w)
{
	return w + (int)(strlen(s) - report_text_width(s));
}

/* -v: a row in the fixed layout of NAME_W, a longer name on a line of its own. */
static void compare_row_verbose(FILE *f, const struct cmp_line *l, bool color)
{
	char name[256];
	short_name(f, name, sizeof name, l->r->event ? l->name : l->r->workload, l->r->event ? 1 : l->r->copies);
	struct sb line = {0};
	sb_addf(&line, "%-*s %12s %12s %6s %-*s %*s %s%s%s", NAME_W, name, l->a, l->b, l->ch, cols(l->ci, 12), l->ci,
		cols(l->q, 5), l->q, line_color(l, color), l->v, report_color_reset(color));
	row_out(f, sb_str(&line), &l->marks, REPORT_WIDTH);
	sb_free(&line);
}

/* s in a cell of w columns, aligned right or left. */
static void cell(struct sb *b, const char *s, size_t w, bool right)
{
	size_t n = report_text_width(s);
	for (size_t i = n; right && i < w; i++)
		sb_add(b, " ");
	sb_add(b, s);
	for (size_t i = n; !right && i < w; i++)
		sb_add(b, " ");
}

/* The column widths of the compact table: each as wide as its widest cell. */
struct cmp_widths {
	size_t name, a, b, ch, ci, q, v;
};

static size_t widest(size_t w, const char *s)
{
	size_t n = report_text_width(s);
	return n > w ? n : w;
}

/* Widths from the cells and headers; the name column takes what the terminal leaves (at
 * least 12; a longer name then has a line of its own). */
static struct cmp_widths compare_widths(const struct cmp_line *l, size_t nl, const struct strv *units,
					const struct an_group_info g[2], const char *ci_head, size_t width)
{
	struct cmp_widths w = {0, widest(0, g[0].name), widest(0, g[1].name), 6, widest(0, ci_head), 5, 7};
	size_t marks = 0;
	for (size_t i = 0; i < units->n; i++)
		w.name = widest(w.name, units->v[i]);
	for (size_t i = 0; i < nl; i++) {
		w.name = widest(w.name, l[i].name);
		w.a = widest(w.a, l[i].a);
		w.b = widest(w.b, l[i].b);
		w.ch = widest(w.ch, l[i].ch);
		w.ci = widest(w.ci, l[i].ci);
		w.q = widest(w.q, l[i].q);
		w.v = widest(w.v, l[i].v);
		marks = widest(marks, sb_str(&l[i].marks));
	}
	size_t rest = 1 + w.a + 1 + w.b + 1 + w.ch + 1 + w.ci + 1 + w.q + 1 + w.v + marks;
	if (w.name + rest > width)
		w.name = width > rest + 12 ? width - rest : 12;
	return w;
}

/* A compact row, or the header when l is NULL (with unit as its name). */
static void compare_row_compact(FILE *f, const struct cmp_line *l, const struct cmp_widths *w, const char *unit,
				const struct an_group_info g[2], const char *ci_head, bool color, size_t width)
{
	/* a name wider than its column goes on a line of its own, whole, so it can be searched */
	const char *name = l ? l->name : unit;
	if (report_text_width(name) > w->name) {
		fprintf(f, "%s\n", name);
		name = "";
	}
	struct sb line = {0};
	cell(&line, name, w->name, false);
	sb_add(&line, " ");
	cell(&line, l ? l->a : g[0].name, w->a, true);
	sb_add(&line, " ");
	cell(&line, l ? l->b : g[1].name, w->b, true);
	sb_add(&line, " ");
	cell(&line, l ? l->ch : "change", w->ch, true);
	sb_add(&line, " ");
	cell(&line, l ? l->ci : ci_head, w->ci, false);
	sb_add(&line, " ");
	cell(&line, l ? l->q : "q", w->q, true);
	sb_add(&line, " ");
	const char *v = l ? l->v : "verdict";
	bool marks = l && l->marks.len;
	sb_addf(&line, "%s", l ? line_color(l, color) : "");
	cell(&line, v, marks ? w->v : 0, false);
	sb_add(&line, l ? report_color_reset(color) : "");
	struct sb none = {0};
	row_out(f, sb_str(&line), l ? &l->marks : &none, width);
	sb_free(&line);
}

/* Below the compare table: the tally, how to read it (one line; -v: in full), the counters
 * (a one-line tally unless their rows are shown), the confounders. */
static void compare_footer(FILE *f, const struct an_compare *c, const struct an_group_info g[2], bool negl,
			   const struct report_style *st)
{
	char tally[256];
	report_verdict_tally(tally, sizeof tally, c);
	fprintf(f, "\n%s\n", tally);
	struct sb t = {0};
	char vs[80];
	snprintf(vs, sizeof vs, "%s vs %s", g[1].name, g[0].name);
	report_change_legend(&t, vs, c->change_kinds);
	if (st->verbose)
		sb_add(&t, ". q: Benjamini-Hochberg across rows; verdicts use q, while the intervals are per row and "
			   "not adjusted for the number of rows.");
	else
		sb_add(&t, "; -v: more");
	bool paired_runs = false; /* paired runs of one boot: the design counts them, not boots */
	for (size_t i = 0; i < c->nrows; i++)
		paired_runs |= report_row_paired_runs(&c->rows[i]);
	if (stats_is_sequential(&c->o))
		sb_addf(&t, " Look %zu of a group-sequential design of at most %zu %s: each row's "
			    "verdict uses that look's Lan-DeMets level, not %g; so does its interval, unless the "
			    "design ends there (a crossing, or the last look), where the interval is the stage-wise one.",
			c->o.look, c->o.max_boots, paired_runs ? "paired runs" : "boots per group", c->o.alpha);
	if (st->verbose)
		fprintf(f, "\n");
	report_wrap(f, "", "", sb_str(&t));
	sb_free(&t);
	if (negl)
		fprintf(f, "(negligible): significant, but the %d%% interval lies within ±%g%%.\n",
			(int)lround((1 - 2 * c->o.alpha) * 100), c->o.margin * 100);
	if (c->ncrows) {
		char ct[200];
		report_counter_tally(ct, sizeof ct, c);
		if (!st->counters)
			fprintf(f, "counters: %s; --counters lists them\n", ct);
		else if (st->verbose) {
			fprintf(f, "\ncounters: %s\n", ct);
			report_wrap(f, "", "", report_counter_rows_text);
		} else
			fprintf(f, "counters: %s; mean ±half-width, change B - A (-v: more)\n", ct);
	}
	size_t listed = 0;
	for (size_t i = 0; i < c->nconf; i++)
		listed += c->conf[i].explained == AN_EXPLAINED_NOT;
	if (c->nconf) {
		fprintf(f, "\nconfounders (environment differing between %s and %s, not labels)%s:\n", g[0].name,
			g[1].name, listed > 1 ? ", by impact" : "");
		for (size_t i = 0; i < c->nconf; i++) {
			if (c->conf[i].explained != AN_EXPLAINED_NOT)
				continue;
			struct sb cl = {0};
			sb_addf(&cl, "%s: %s | %s: %s", g[0].name, c->conf[i].a, g[1].name, c->conf[i].b);
			char first[64];
			snprintf(first, sizeof first, "  %-24s ", c->conf[i].key);
			report_wrap(f, first, "                           ", sb_str(&cl));
			sb_free(&cl);
		}
		struct strv ex = {0};
		report_explained_lines(&ex, c);
		for (size_t i = 0; i < ex.n; i++)
			report_wrap(f, "  ", "    ", ex.v[i]);
		strv_free(&ex);
	} else if (c->env_missing) {
		fprintf(f, "%sconfounders: not checked (imported runs record no environment)\n", st->verbose ? "\n" : "");
	}
}

void report_explained_lines(struct strv *out, const struct an_compare *c)
{
	for (size_t i = 0; i < c->nconf; i++) {
		const struct an_confounder *x = &c->conf[i];
		if (x->explained == AN_EXPLAINED_NOT)
			continue;
		bool seen = false; /* one line per explanation: the keys it explains */
		for (size_t k = 0; k < i && !seen; k++)
			seen = c->conf[k].explained == x->explained && !strcmp(c->conf[k].explained_by, x->explained_by);
		if (seen)
			continue;
		struct sb t = {0};
		if (x->explained == AN_EXPLAINED_CMDLINE)
			sb_addf(&t, "explained by %s on the kernel command line: ", x->explained_by);
		else
			sb_addf(&t, "explained by the change under test (%s %s): ",
				x->explained == AN_EXPLAINED_LABEL ? "label" : "a campaign configuration's", x->explained_by);
		for (size_t k = i, n = 0; k < c->nconf; k++)
			if (c->conf[k].explained == x->explained && !strcmp(c->conf[k].explained_by, x->explained_by))
				sb_addf(&t, "%s%s", n++ ? ", " : "", c->conf[k].key);
		strv_add(out, sb_str(&t));
		sb_free(&t);
	}
}

/* The display units of c's rows in order of first appearance: one table block each. */
static void compare_units(struct strv *units, const struct an_compare *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		char u[48];
		report_table_unit(u, sizeof u, c->rows[i].unit, c->rows[i].latency);
		if (!strv_has(units, u))
			strv_add(units, u);
	}
}

/* The rows in print order (block by block), their cells built and notes numbered. */
static struct cmp_line *compare_lines(const struct an_compare *c, const struct an_group_info g[2],
				      const struct strv *units, struct notes *n, bool *negl, const struct report_style *st)
{
	struct cmp_line *l = xcalloc(c->nrows + c->ncrows + 1, sizeof *l);
	size_t k = 0;
	struct an_diag all = {0}; /* the warnings of every row, for the compact table's one note */
	for (size_t i = 0; i < c->nrows; i++)
		for (int w = 0; w <= ST_WARN_AUTOCORR; w++)
			for (int s = 0; s < 2; s++) {
				const struct an_diag *d = s ? &c->rows[i].diag_b : &c->rows[i].diag_a;
				if (d->count[w]) {
					all.count[w] += d->count[w];
					all.limit[w] = d->limit[w];
				}
			}
	for (size_t ui = 0; ui < units->n; ui++)
		for (size_t i = 0; i < c->nrows; i++) {
			char u[48];
			report_table_unit(u, sizeof u, c->rows[i].unit, c->rows[i].latency);
			if (!strcmp(u, units->v[ui]))
				compare_line(&l[k++], &c->rows[i], g, n, negl, st->verbose, &all);
		}
	for (size_t i = 0; st->counters && i < c->ncrows; i++) /* the counter rows: a block of their own, last */
		counter_line(&l[k++], &c->crows[i], g, n);
	return l;
}

/* One group's estimates (`sysab report SELECTOR`): per row the estimate with its interval,
 * in blocks by unit; no change, q or verdict, since there is nothing to compare with. */
static void group_text(FILE *f, const struct an_compare *c, const struct an_group_info *g,
		       const struct report_style *st)
{
	fprintf(f, "%s: %-30s %zu run%s on %zu boot%s\n", g->name, *g->selector ? g->selector : "(all runs)", g->nruns,
		g->nruns == 1 ? "" : "s", g->nboots, g->nboots == 1 ? "" : "s");
	trust_lines(f, c->emu, (const char *const[]){NULL}, 1, 0, &c->look, c->o.alpha);
	struct notes n = {0};
	struct strv units = {0};
	compare_units(&units, c);
	size_t nw = 15;
	for (size_t i = 0; i < c->nrows; i++) {
		char full[256];
		snprintf(full, sizeof full, c->rows[i].copies > 1 ? "%s/%d" : "%s", c->rows[i].workload, c->rows[i].copies);
		nw = widest(nw, full);
	}
	if (nw + 16 > st->width)
		nw = st->width > 28 ? st->width - 16 : 12;
	int conf = (int)lround((1 - c->o.alpha) * 100);
	for (size_t ui = 0; ui < units.n; ui++) {
		char head[64];
		snprintf(head, sizeof head, "estimate, %d%% CI", conf);
		fprintf(f, "\n%-*s %s\n", (int)nw, units.v[ui], head);
		for (size_t i = 0; i < c->nrows; i++) {
			const struct an_row *r = &c->rows[i];
			char u[48], name[256], est[80];
			report_table_unit(u, sizeof u, r->unit, r->latency);
			if (strcmp(u, units.v[ui]))
				continue;
			struct sb m = {0}, line = {0};
			report_short_name(name, sizeof name, r->workload, r->copies, nw);
			est_cell(est, sizeof est, &r->va, r->latency, report_rate_unit(r->unit));
			if (r->ncomposite)
				notef(&n, &m, "%s: per run, %s", r->workload, r->composite ? r->composite : "composite");
			if (r->va.low_df)
				notef(&n, &m, "no interval: fewer than %d degrees of freedom (add boots or runs)",
				      AN_MIN_INTERVAL_DF);
			check_note(&n, &m, &r->failed);
			struct an_diag none = {0};
			if (st->verbose)
				diag_notes(&n, &m, g->name, &r->diag_a);
			else
				diag_kind_notes(&n, &m, &r->diag_a, &none);
			if (m.len)
				sb_add(&m, "]");
			cell(&line, name, nw, false);
			sb_add(&line, " ");
			cell(&line, est, 16, true);
			row_out(f, sb_str(&line), &m, st->width);
			sb_free(&line);
			sb_free(&m);
		}
	}
	strv_free(&units);
	notes_print(f, &n);
}

void report_compare_text(FILE *f, const struct an_compare *c, const struct an_group_info g[2],
			 const struct report_style *st)
{
	if (c->ngroups == 1) {
		group_text(f, c, g, st);
		return;
	}
	for (int i = 0; i < 2; i++)
		fprintf(f, "%s: %-30s %zu run%s on %zu boot%s\n", g[i].name, *g[i].selector ? g[i].selector : "(all runs)",
			g[i].nruns, g[i].nruns == 1 ? "" : "s", g[i].nboots, g[i].nboots == 1 ? "" : "s");
	const char *names[2] = {g[0].name, g[1].name};
	trust_lines(f, c->emu, names, 2, c->allowed_rows, &c->look, c->o.alpha);
	if (!c->nrows) {
		fprintf(f, "\nno samples in the selected runs\n");
		return;
	}
	struct notes n = {0};
	bool negl = false;
	struct strv units = {0};
	compare_units(&units, c);
	struct cmp_line *l = compare_lines(c, g, &units, &n, &negl, st);
	int conf = (int)lround((1 - c->o.alpha) * 100);
	const char *ci_head = conf == 95 ? "95% CI" : "CI";
	struct cmp_widths w = compare_widths(l, c->nrows, &units, g, ci_head, st->width);
	size_t k = 0;
	for (size_t ui = 0; ui < units.n; ui++) {
		if (st->verbose)
			fprintf(f, "\n%-*s %12s %12s %6s %-12s %5s %s\n", NAME_W, units.v[ui], g[0].name, g[1].name,
				"change", ci_head, "q", "verdict");
		else {
			fprintf(f, "\n");
			compare_row_compact(f, NULL, &w, units.v[ui], g, ci_head, false, st->width);
		}
		for (; k < c->nrows; k++) {
			char u[48];
			report_table_unit(u, sizeof u, l[k].r->unit, l[k].r->latency);
			if (strcmp(u, units.v[ui]))
				break;
			if (st->verbose)
				compare_row_verbose(f, &l[k], st->color);
			else
				compare_row_compact(f, &l[k], &w, NULL, g, ci_head, st->color, st->width);
		}
	}
	if (c->ncrows && st->counters) { /* laid out on their own, so the time rows read the same with or without them */
		const char *head = "counters";
		struct strv cu = {0};
		strv_add(&cu, head);
		w = compare_widths(l + c->nrows, c->ncrows, &cu, g, ci_head, st->width);
		strv_free(&cu);
		if (st->verbose)
			fprintf(f, "\n%-*s %12s %12s %6s %-12s %5s %s\n", NAME_W, head, g[0].name, g[1].name, "change",
				ci_head, "q", "verdict");
		else {
			fprintf(f, "\n");
			compare_row_compact(f, NULL, &w, head, g, ci_head, false, st->width);
		}
		for (; k < c->nrows + c->ncrows; k++)
			if (st->verbose)
				compare_row_verbose(f, &l[k], st->color);
			else
				compare_row_compact(f, &l[k], &w, NULL, g, ci_head, st->color, st->width);
	}
	for (size_t i = 0; i < c->nrows + c->ncrows; i++)
		sb_free(&l[i].marks);
	free(l);
	strv_free(&units);
	compare_footer(f, c, g, negl, st);
	notes_print(f, &n);
}

/* ---------------------------------------------------------------- analyze */

static void factor_names(struct sb *t, const struct an_analyze *a, unsigned bits)
{
	size_t n = 0;
	for (size_t i = 0; i < a->nfactors; i++)
		if (bits >> i & 1u)
			sb_addf(t, "%s%s", n++ ? ", " : "", a->factors[i].name);
}

void report_within_text(struct sb *t, const struct an_analyze *a)
{
	if (a->within) {
		sb_add(t, "within-boot factors: ");
		factor_names(t, a, a->within);
		bool one = !(a->within & (a->within - 1));
		sb_addf(t, " (every boot ran at several of %s levels): %s effects are taken inside each boot, so the "
			   "boot's own variation cancels, and the boots are the replicates",
			one ? "its" : "their", one ? "its" : "their");
	}
	if (a->mixed) {
		sb_add(t, a->within ? ". " : "");
		sb_add(t, "varying within some boots only: ");
		factor_names(t, a, a->mixed);
		sb_add(t, " (analysed as between-boot factors, as if its cells were independent; give every boot "
			  "every level to pair them)");
	}
}

void report_incomplete_text(struct sb *t, const struct an_analyze *a, const struct an_frow *r)
{
	if (!r->nincomplete)
		return;
	sb_addf(t, "%zu of %zu boot%s lack%s a combination of ", r->nincomplete, r->nwboots, r->nwboots == 1 ? "" : "s",
		r->nincomplete == 1 ? "s" : "");
	factor_names(t, a, a->within);
	sb_add(t, " levels, and each effect that needs it leaves it out: boot");
	for (size_t i = 0; i < r->nincomplete && i < 8; i++)
		sb_addf(t, "%s #%lld", i ? "," : "", (long long)r->incomplete[i]);
	if (r->nincomplete > 8)
		sb_addf(t, " and %zu more", r->nincomplete - 8);
}

/* Long by design: per row its cells, missing cells and effects, with their notes, in print order. */
/* A workload's cells, with their estimates, and the cells the factorial misses. */
static void cells_text(FILE *f, const struct an_analyze *a, const struct an_frow *r)
{
	for (size_t c = 0; c < a->ncells; c++) {
		struct sb cn = {0};
		an_cell_label(&cn, a, c);
		char v[80] = "-";
		if (r->have[c])
			est_cell(v, sizeof v, &r->val[c], r->latency, report_rate_unit(r->unit));
		fprintf(f, "  %-34s %14s  %zu run%s on %zu boot%s\n", sb_str(&cn), v, r->have[c] ? r->est[c].nruns : 0,
			r->have[c] && r->est[c].nruns == 1 ? "" : "s", r->have[c] ? r->est[c].nboots : 0,
			r->have[c] && r->est[c].nboots == 1 ? "" : "s");
		sb_free(&cn);
	}
	for (size_t m = 0; m < r->fa.nmissing; m++) {
		const size_t *ml = &r->fa.missing[m * a->nfactors];
		bool exists = false;
		for (size_t c = 0; c < a->ncells && !exists; c++)
			exists = r->have[c] && !memcmp(&a->cell_level[c * a->nfactors], ml, a->nfactors * sizeof *ml);
		struct sb cn = {0};
		for (size_t fi = 0; fi < a->nfactors; fi++)
			sb_addf(&cn, "%s%s=%s", fi ? " " : "", a->factors[fi].name, a->factors[fi].levels[ml[fi]]);
		fprintf(f, "  %s: %s\n", exists ? "no interval" : "missing cell", sb_str(&cn));
		sb_free(&cn);
	}
}

/* An argument as a shell word: quoted when it holds anything but plain characters. */
static void shell_word(struct sb *b, const char *s)
{
	bool plain = *s != 0;
	for (const char *c = s; *c && plain; c++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._=/:,+-@%", *c) != NULL;
	if (plain) {
		sb_add(b, s);
		return;
	}
	sb_add(b, "'");
	for (const char *c = s; *c; c++)
		sb_add(b, *c == '\'' ? "'\\''" : (char[2]){*c, 0});
	sb_add(b, "'");
}

void report_settle_cells_text(struct sb *b, const struct an_analyze *a, const struct an_group_info *filter)
{
	sb_addf(b, "%s; `sysab plan --factors ", REPLICATION_RULE);
	for (size_t k = 0; k < a->nfactors; k++)
		sb_addf(b, "%s%s", k ? "," : "", a->factors[k].name);
	if (filter && filter->selector && *filter->selector) {
		sb_add(b, " ");
		shell_word(b, filter->selector);
	}
	sb_add(b, "` then sizes the experiment");
}

void report_effect_verdict_word(char *buf, size_t size, const struct st_effect *ef)
{
	if (an_effect_point_only(ef))
		snprintf(buf, size, "no interval");
	else
		report_verdict_word(buf, size, &ef->c);
}

/* A row's unit (u) and its copies suffix (cp: "/N" above one copy, else empty), for its heading. */
static void row_unit(const struct an_frow *r, char *u, size_t un, char *cp, size_t cpn)
{
	report_table_unit(u, un, r->unit, r->latency);
	cp[0] = 0;
	if (r->copies > 1)
		snprintf(cp, cpn, "/%d", r->copies);
}

/* The analysis of published numbers (an_analyze.points_only): each row's effects as point
 * estimates, no column an interval or q could stand in, and one paragraph saying why there
 * is no interval and what would give one. */
static void points_text(FILE *f, const struct an_analyze *a, const struct an_group_info *filter, size_t ew)
{
	for (size_t i = 0; i < a->nrows; i++) {
		const struct an_frow *r = &a->rows[i];
		char u[48], cp[32];
		row_unit(r, u, sizeof u, cp, sizeof cp);
		fprintf(f, "\n%s%s (%s): point estimates, no interval\n", r->workload, cp, u);
		struct sb ct = {0};
		report_check_text(&ct, &r->failed);
		if (ct.len)
			report_wrap(f, "  ", "    ", sb_str(&ct));
		sb_free(&ct);
		for (size_t k = 0; k < r->fa.neffects; k++) {
			char en[96], en_short[96], ch[16];
			an_effect_label(en, sizeof en, a, &r->fa.effects[k]);
			report_short_name(en_short, sizeof en_short, en, 1, ew);
			report_pct(ch, sizeof ch, r->chg[k].pct);
			fprintf(f, "  %-*s %6s\n", (int)ew, en_short, ch);
		}
	}
	struct sb t = {0};
	report_change_legend(&t, "each effect", a->change_kinds);
	sb_addf(&t, ". No interval: %s, so no verdict; ", a->why_no_interval);
	report_settle_cells_text(&t, a, filter);
	sb_add(&t, ".");
	fprintf(f, "\n");
	report_wrap(f, "", "", sb_str(&t));
	sb_free(&t);
}

/* One effect's line, its notes into n; *negl set when it is negligible. */
static void effect_text(FILE *f, const struct an_analyze *a, const struct an_frow *r, size_t k, size_t ew,
			struct notes *n, bool *negl, bool color)
{
	const struct st_effect *ef = &r->fa.effects[k];
	char en[96], ch[16] = "", ci[40] = "", q[16] = "", v[32];
	struct sb mk = {0};
	an_effect_label(en, sizeof en, a, ef);
	report_effect_verdict_word(v, sizeof v, ef);
	const struct an_change *chg = &r->chg[k];
	if (ef->available && ef->c.verdict != ST_NO_DATA) {
		report_pct(ch, sizeof ch, chg->pct);
		interval_text(ci, sizeof ci, chg->lo, chg->hi);
		report_q(q, sizeof q, ef->c.q);
		unsigned cav = ef->c.caveats & ~ST_CAVEAT_PAIRED; /* the header says which are paired */
		if (chg->within) { /* no interval shown: the no-replication note says why */
			report_no_verdict_cells(ci, sizeof ci, q, sizeof q);
			cav &= ~(ST_CAVEAT_NO_BOOT_LEVEL | ST_CAVEAT_NO_RUN_LEVEL);
		}
		caveat_notes(n, &mk, cav);
		adjust_note(n, &mk, &r->adj);
		*negl |= ef->c.negligible;
	} else if (an_effect_point_only(ef)) {
		report_pct(ch, sizeof ch, chg->pct);
		notef(n, &mk, "no interval: %s, so this is a point estimate and no verdict", a->why_no_interval);
	} else if (!ef->available) {
		notef(n, &mk, "a cell this effect needs is missing or has no interval");
	} else {
		if (isfinite(ef->c.d))
			report_pct(ch, sizeof ch, chg->pct);
		caveat_notes(n, &mk, ef->c.caveats & ~ST_CAVEAT_PAIRED); /* the header says which are paired */
	}
	if (mk.len)
		sb_add(&mk, "]");
	char en_short[96];
	report_short_name(en_short, sizeof en_short, en, 1, ew);
	struct sb line = {0};
	sb_addf(&line, "  %-*s %6s %-*s %*s %s%s%s", (int)ew, en_short, ch, cols(ci, 12), ci, cols(q, 5), q,
		report_verdict_color(ef->c.verdict, color), v, report_color_reset(color));
	row_out(f, sb_str(&line), &mk, REPORT_WIDTH);
	sb_free(&line);
	sb_free(&mk);
}

void report_analyze_text(FILE *f, const struct an_analyze *a, const struct an_group_info *filter, bool color)
{
	fprintf(f, "runs: %-30s %zu run%s on %zu boot%s; %zu cell%s\n", *filter->selector ? filter->selector : "(all)",
		filter->nruns, filter->nruns == 1 ? "" : "s", filter->nboots, filter->nboots == 1 ? "" : "s", a->ncells,
		a->ncells == 1 ? "" : "s");
	trust_lines(f, &a->emu, (const char *const[]){NULL}, 1, a->allowed_rows, &a->look, a->o.alpha);
	struct sb wt = {0};
	report_within_text(&wt, a);
	if (wt.len)
		report_wrap(f, "", "  ", sb_str(&wt));
	sb_free(&wt);
	struct notes n = {0};
	bool negl = false;
	size_t ew = 28; /* the effect column: as wide as the longest label, within reason */
	for (size_t i = 0; i < a->nrows; i++)
		for (size_t k = 0; k < a->rows[i].fa.neffects; k++) {
			char en[96];
			an_effect_label(en, sizeof en, a, &a->rows[i].fa.effects[k]);
			size_t l = report_text_width(en);
			ew = l > ew ? (l < 44 ? l : 44) : ew;
		}
	if (a->points_only) {
		points_text(f, a, filter, ew);
		return;
	}
	for (size_t i = 0; i < a->nrows; i++) {
		const struct an_frow *r = &a->rows[i];
		char u[48], cp[32];
		row_unit(r, u, sizeof u, cp, sizeof cp);
		fprintf(f, "\n%s%s (%s)%s%s\n", r->workload, cp, u, r->ncomposite ? " - " : "",
			r->composite ? r->composite : "");
		cells_text(f, a, r);
		struct sb ct = {0};
		report_check_text(&ct, &r->failed);
		if (ct.len)
			report_wrap(f, "  ", "    ", sb_str(&ct));
		sb_free(&ct);
		report_incomplete_text(&ct, a, r);
		if (ct.len)
			report_wrap(f, "  ", "    ", sb_str(&ct));
		sb_free(&ct);
		fprintf(f, "  %-*s %6s %-12s %5s %s\n", (int)ew, "effect", "change", "95% CI", "q", "verdict");
		for (size_t k = 0; k < r->fa.neffects; k++)
			effect_text(f, a, r, k, ew, &n, &negl, color);
	}
	if (negl)
		fprintf(f, "\n(negligible): significant, but the %d%% interval lies within ±%g%%.\n",
			(int)lround((1 - 2 * a->o.alpha) * 100), a->o.margin * 100);
	fprintf(f, "\n");
	struct sb lg = {0};
	report_change_legend(&lg, "each effect", a->change_kinds);
	sb_add(&lg, ". q: Holm within each workload's effects, then Benjamini-Hochberg across workloads.");
	report_wrap(f, "", "", sb_str(&lg));
	sb_free(&lg);
	if (!a->any_interval && a->nrows) {
		size_t runs = a->max_runs * a->max_boots;
		struct sb t = {0};
		sb_addf(&t, "no verdict: each cell has at most %zu run%s on %zu boot%s, so no effect has an interval.\n",
			runs, runs == 1 ? "" : "s", a->max_boots, a->max_boots == 1 ? "" : "s");
		sb_add(&t, "To settle it: ");
		report_settle_cells_text(&t, a, filter);
		sb_add(&t, ".");
		fprintf(f, "\n");
		report_wrap(f, "", "", sb_str(&t));
		sb_free(&t);
	}
	notes_print(f, &n);
}

/* ---------------------------------------------------------------- plan */

static void duration(char *buf, size_t size, double s)
{
	if (s >= 7200)
		snprintf(buf, size, "%.1f h", s / 3600);
	else if (s >= 120)
		snprintf(buf, size, "%.0f min", s / 60);
	else
		snprintf(buf, size, "%.1f s", s);
}

/* The plan's header: the groups, the target, the costs, the table's head. */
static void plan_header(FILE *f, const struct an_plan *p, const struct an_group_info *g, size_t ng)
{
	for (size_t i = 0; i < ng; i++)
		fprintf(f, "%s: %-30s %zu run%s on %zu boot%s\n", g[i].name, *g[i].selector ? g[i].selector : "(all runs)",
			g[i].nruns, g[i].nruns == 1 ? "" : "s", g[i].nboots, g[i].nboots == 1 ? "" : "s");
	char cb[32], cr[32], cs[32];
	duration(cb, sizeof cb, p->po.cost_boot);
	duration(cr, sizeof cr, p->po.cost_run);
	duration(cs, sizeof cs, p->po.cost_sample);
	fprintf(f, "target: ±%g%% (%d%% CI)", p->po.target * 100, (int)lround((1 - p->po.alpha) * 100));
	size_t unsized = 0;
	for (size_t i = 0; i < p->nrows; i++)
		unsized += p->rows[i].have && p->rows[i].plan.unsized;
	if (p->po.assurance > 0 && unsized == p->nrows)
		fprintf(f, ", with no assurance: the pilot cannot bound every level (see the notes)\n");
	else if (p->po.assurance > 0 && unsized)
		fprintf(f, ", met with %.0f%% assurance (upper bounds of the pilot's variances),\n"
			   "        except in the %zu row%s whose pilot cannot bound a level (see the notes)\n",
			100 * p->po.assurance, unsized, unsized == 1 ? "" : "s");
	else if (p->po.assurance > 0)
		fprintf(f, ", met with %.0f%% assurance (upper bounds of the pilot's variances)\n",
			100 * p->po.assurance);
	else
		fprintf(f, " on average (point estimates: met about half the time)\n");
	if (p->po.power > 0)
		fprintf(f, "power: %g%% to detect a change of ±%g%%\n", p->po.power * 100, p->po.target * 100);
	char bsrc[160];
	if (p->costs.boot_given)
		snprintf(bsrc, sizeof bsrc, " (given)");
	else if (p->costs.boot_slots)
		snprintf(bsrc, sizeof bsrc, " (measured: median of %zu boot%s of campaign %s)", p->costs.boot_slots,
			 p->costs.boot_slots == 1 ? "" : "s", p->costs.boot_campaign);
	else
		snprintf(bsrc, sizeof bsrc, " (assumed; no pilot run came from a campaign)");
	fprintf(f, "costs: boot %s%s, run %s%s,\n       sample %s%s\n", cb, bsrc, cr,
		p->costs.run_measured ? " (measured, per workload)" : " (assumed)", cs,
		p->costs.sample_measured ? " (measured, one of each workload)" : " (assumed)");
	if (p->nwithin) {
		struct sb t = {0};
		sb_addf(&t, "plan for %s, %s within boots: boots per configuration (%zu of them), each running all "
			    "%zu %s levels with the pilot's runs and samples; every interaction with %s gets the target "
			    "(the notes give the %s effects alone), planned from the pilot's per-boot contrasts, in "
			    "which the boot's own variation cancels",
			p->factors, p->within, p->ncells, p->nwithin, p->within, p->within, p->within);
		report_wrap(f, "", "", sb_str(&t));
		sb_free(&t);
		fprintf(f, "\n");
	} else if (p->ncells)
		fprintf(f, "plan for the %zu-cell factorial %s: every main effect and interaction gets the target\n"
			   "(the interaction needs most; the notes give main effects alone; planned with the df\n"
			   "of two groups, fewer than the cells give: conservative)\n\n",
			p->ncells, p->factors);
	else
		fprintf(f, "%s\n\n",
			p->two_groups ? "plan for comparing A with B" : "plan for comparing A with another configuration like it");
	fprintf(f, "%-*s %6s %6s %8s %10s %9s %7s\n", NAME_W, "workload", "boots", "runs", "samples", "time", "K&J r/b",
		"K&J s/r");
}

/* One workload's line of the plan, its notes into n. */
static void plan_row(FILE *f, const struct an_plan *p, const struct an_prow *r, struct notes *n)
{
	char name[64], t[32] = "-", kr[16] = "-", ks[16] = "-";
	struct sb m = {0};
	struct sb line = {0};
	short_name(f, name, sizeof name, r->workload, r->copies);
	if (!r->have) {
		notef(n, &m, "no data in every group");
		sb_add(&m, "]");
		sb_addf(&line, "%-*s %6s %6s %8s %10s %9s %7s", NAME_W, name, "-", "-", "-", "-", "-", "-");
		goto out;
	}
	if (isfinite(r->plan.kj_runs))
		snprintf(kr, sizeof kr, "%.1f", r->plan.kj_runs);
	if (isfinite(r->plan.kj_samples))
		snprintf(ks, sizeof ks, "%.0f", r->plan.kj_samples);
	caveat_notes(n, &m, r->plan.caveats);
	if (r->plan.unsized && r->plan.plan_df > 0 && r->plan.plan_df < ST_PLAN_MIN_DF)
		/* the df rule (stats/plan.c): the boot level is planned at its bound, but too few boots bound it */
		notef(n, &m, "no assurance: the pilot's %.1f boot-level degrees of freedom are too few for it (%d are "
			     "needed); a pilot of at least %zu boots per configuration with 2 runs each can",
		      r->plan.plan_df, ST_PLAN_MIN_DF, r->plan.pilot_boots);
	else if (r->plan.unsized)
		notef(n, &m, "no assurance: the pilot cannot size the %s level (no upper bound), which this "
			     "plan leaves out; a pilot of at least %zu boots per configuration with 2 runs each can",
		      (r->plan.unsized & ST_BIT(ST_LEVEL_BOOT)) ? "boot" : "run", r->plan.pilot_boots);
	if (r->plan.whole && !r->plan.unsized)
		notef(n, &m, "the pilot cannot tell the %s level from the levels below it: planned with the whole "
			     "variance of its %s means as its bound (conservative; a larger pilot may plan less)",
		      (r->plan.whole & ST_BIT(ST_LEVEL_BOOT)) ? "boot" : "run",
		      (r->plan.whole & ST_BIT(ST_LEVEL_BOOT)) ? "boot" : "run");
	if (r->compared && r->c.verdict == ST_INCONCLUSIVE)
		settle_note(n, &m, r->more_boots, r->settles_as, true, false);
	if (p->nwithin && r->plan_main.feasible) {
		char tm[32];
		duration(tm, sizeof tm, r->plan_main.cost);
		notef(n, &m, "the %s effects alone: %zu boots per configuration (%s)", p->within, r->plan_main.boots, tm);
	} else if (p->ncells && r->plan_main.feasible) {
		char tm[32];
		duration(tm, sizeof tm, r->plan_main.cost);
		notef(n, &m, "main effects alone: %zu boots x %zu run%s x %zu samples per cell (%s)", r->plan_main.boots,
		      r->plan_main.runs, r->plan_main.runs == 1 ? "" : "s", r->plan_main.samples, tm);
	}
	if (r->compared && (r->c.verdict == ST_FASTER || r->c.verdict == ST_SLOWER || r->c.verdict == ST_EQUIVALENT))
		notef(n, &m, "already decided with the current data: %s", report_verdict_name(r->c.verdict));
	else if (r->compared && r->c.verdict == ST_NO_DATA && r->c.need != ST_NEED_NOTHING)
		notef(n, &m, "the current data give no interval yet: %s, as the design above does", REPLICATION_RULE);
	else if (r->compared && r->c.verdict == ST_NO_DATA)
		notef(n, &m, "the current data give no verdict yet (too few degrees of freedom)");
	if (!r->plan.feasible) {
		notef(n, &m, "no design within %zu boots, %zu runs per boot and %zu samples per run reaches the target",
		      p->po.max_boots, p->po.max_runs, p->po.max_samples);
		sb_add(&m, "]");
		sb_addf(&line, "%-*s %6s %6s %8s %10s %9s %7s", NAME_W, name, "-", "-", "-", "-", kr, ks);
		goto out;
	}
	duration(t, sizeof t, r->plan.cost);
	if (m.len)
		sb_add(&m, "]");
	sb_addf(&line, "%-*s %6zu %6zu %8zu %10s %9s %7s", NAME_W, name, r->plan.boots, r->plan.runs, r->plan.samples, t,
		kr, ks);
out:
	row_out(f, sb_str(&line), &m, REPORT_WIDTH);
	sb_free(&line);
	sb_free(&m);
}

void report_plan_text(FILE *f, const struct an_plan *p, const struct an_group_info *g, size_t ng, bool color)
{
	(void)color; /* a plan has no verdict words to colour */
	plan_header(f, p, g, ng);
	struct notes n = {0};
	for (size_t i = 0; i < p->nrows; i++)
		plan_row(f, p, &p->rows[i], &n);
	if (p->boots) {
		char t[32];
		duration(t, sizeof t, p->total_s);
		char all[48] = "both configurations";
		if (p->nwithin)
			snprintf(all, sizeof all, "all %zu configurations", p->ncells);
		else if (p->ncells)
			snprintf(all, sizeof all, "all %zu cells", p->ncells);
		if (p->nwithin)
			fprintf(f, "\nall rows at once: %zu boots per configuration x %zu %s levels x %zu run%s x %zu\n"
				   "samples, about %s for %s\n",
				p->boots, p->nwithin, p->within, p->runs, p->runs == 1 ? "" : "s", p->samples, t, all);
		else
			fprintf(f, "\nall rows at once: %zu boots x %zu run%s x %zu samples per configuration,\n"
				   "about %s for %s\n",
				p->boots, p->runs, p->runs == 1 ? "" : "s", p->samples, t, all);
	}
	if (p->infeasible)
		fprintf(f, "%zu row%s cannot reach the target within the search bounds; widen --target\n", p->infeasible,
			p->infeasible == 1 ? "" : "s");
	if (p->nwithin && p->boots) {
		struct sb t = {0};
		sb_addf(&t, "on each boot of each configuration%s (a campaign with --boots %zu runs them on every boot: "
			    "its --config gives the -l labels, and the other words go after its --):",
			p->runs > 1 ? ", as many times as the pilot did" : "", p->boots);
		fprintf(f, "\n");
		report_wrap(f, "", "", sb_str(&t));
		sb_free(&t);
		for (size_t gi = 0; gi < p->ncells; gi++) {
			fprintf(f, "  sysab");
			struct sb line = {0};
			for (size_t a = 0; a < p->run_args[gi].n; a++) {
				sb_add(&line, " ");
				shell_word(&line, p->run_args[gi].v[a]);
			}
			fprintf(f, "%s\n", sb_str(&line));
			sb_free(&line);
		}
		if (!strv_has(&p->run_args[0], "--nodes"))
			fprintf(f, "  (once for each level of %s, with -l for it)\n", p->within);
	}
	if (p->nwithin) {
		struct sb t = {0};
		sb_addf(&t, "boots: per configuration, each running every %s level; runs: per %s level of a boot; "
			    "samples per run. K&J: not used (the boot's variation cancels).",
			p->within, p->within);
		fprintf(f, "\n");
		report_wrap(f, "", "", sb_str(&t));
		sb_free(&t);
	} else
		fprintf(f, "\nboots, runs, samples: per configuration (runs per boot, samples per run);\n"
			   "time for %s. K&J: Kalibera-Jones optimal runs per boot and samples per run\n"
			   "for these costs.\n",
			p->ncells ? "every cell" : "both");
	notes_print(f, &n);
}
