/* html.c - the self-contained HTML report: tables, inline SVG strip and forest plots, environment, warnings. */
#include "report.h"
#include "svg.h"
#include "analysis/history.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Everything is drawn by this file; no script, no external resource. */
static const char css[] =
	"body{font:14px/1.45 system-ui,sans-serif;color:#222;max-width:1100px;margin:1em auto;padding:0 1em}"
	"h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:2em}"
	"h3{font-size:1em;margin:1.2em 0 .3em;font-family:monospace}"
	"table{border-collapse:collapse;margin:.5em 0}td,th{padding:2px 10px;text-align:left;vertical-align:top}"
	"th{border-bottom:1px solid #999}td.num{text-align:right;font-variant-numeric:tabular-nums}"
	"tr.differs td{background:#fff3c4}tr.differs td:first-child{font-weight:bold}"
	".verdict{font-weight:bold}.v-faster{color:#1a7f37}.v-slower{color:#c62828}.v-equivalent{color:#1f5fbf}"
	".v-inconclusive{color:#a86b00}.v-no_data{color:#777}.v-withheld{color:#8e24aa}p.caveat{color:#8e24aa}"
	"svg{display:block;margin:.3em 0;font:12px sans-serif}svg text{fill:#222}"
	".axis{stroke:#888;stroke-width:1}.grid{stroke:#e4e4e4;stroke-width:1}.zero{stroke:#555;stroke-width:1}"
	".band{fill:#dfe9f7}.ci{stroke:#111;stroke-width:3}.est{stroke:#111;stroke-width:2}"
	".sample{fill-opacity:.45;stroke:none}.runmean{stroke:#111;stroke-width:1}"
	".effect-ci{stroke:#333;stroke-width:2.5}.effect-pt{fill:#333}.clip{font-size:10px;fill:#333}"
	"text.verdict-faster{fill:#1a7f37}text.verdict-slower{fill:#c62828}text.verdict-equivalent{fill:#1f5fbf}"
	"text.verdict-inconclusive{fill:#a86b00}text.verdict-no_data{fill:#777}text.verdict-withheld{fill:#8e24aa}"
	"text.side{fill:#555;font-size:11px}"
	".b0{fill:#4e79a7}.b1{fill:#f28e2b}.b2{fill:#59a14f}.b3{fill:#e15759}.b4{fill:#b07aa1}"
	".b5{fill:#76b7b2}.b6{fill:#edc948}.b7{fill:#9c755f}"
	".note{color:#555}ul.warnings li{margin:.2em 0}code{background:#f3f3f3;padding:0 3px}";

#define NBOOT_COLOURS 8

/* ---------------------------------------------------------------- values and axes */

/* What the plots show: time per op (seconds) for latency rows, else the rate. */
static double disp(double ops, int latency)
{
	return latency ? 1 / ops : ops;
}

/* The unit an axis reaching max is drawn in: its divisor and label. */
static double axis_unit(double max, int latency, const char *unit, char *label, size_t size)
{
	if (latency) {
		static const struct {
			double f;
			const char *u;
		} t[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}};
		size_t i = 0;
		while (i + 1 < sizeof t / sizeof t[0] && max < t[i].f)
			i++;
		snprintf(label, size, "time per op (%s), lower is better", t[i].u);
		return t[i].f;
	}
	char u[48];
	report_table_unit(u, sizeof u, unit, 0);
	static const char *const si[] = {"", "k", "M", "G", "T"};
	int k = 0;
	double f = 1;
	/* scores below 1e5 read best as they are; anything larger gets an SI prefix */
	while ((!report_rate_unit(unit) || max >= 1e5) && max >= 1000 * f && k < 4) {
		f *= 1000;
		k++;
	}
	snprintf(label, size, "%s%s, higher is better", si[k], u);
	return f;
}

static void num(char *buf, size_t size, double v)
{
	double a = fabs(v);
	if (a >= 100 || a == 0)
		snprintf(buf, size, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, size, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, size, "%.2f", v);
	else
		snprintf(buf, size, "%.3g", v);
}

/* ---------------------------------------------------------------- strip plot */

struct strip_group {
	const char *label;
	const struct an_points *p;
	struct an_value v;
	bool have;
};

#define STRIP_W 820
#define STRIP_LEFT 230
#define STRIP_RIGHT 40
#define STRIP_BAND 36

/* Samples (small dots) and run means (larger, outlined) per group, coloured by boot,
 * with the group estimate (vertical bar) and its interval (thick line). */
/* Long by design: one SVG drawn in order: the axis, then per group its samples, run means, estimate and interval. */
static void strip_svg(struct sb *b, const char *id, const char *workload, const struct strip_group *g, size_t ng,
		      int latency, const char *unit)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < ng; i++) {
		if (!g[i].have)
			continue;
		double xs[4] = {g[i].p->min, g[i].p->max, g[i].v.lo, g[i].v.hi};
		for (int k = 0; k < 4; k++)
			if (isfinite(xs[k]) && xs[k] > 0) {
				double d = disp(xs[k], latency);
				lo = fmin(lo, d);
				hi = fmax(hi, d);
			}
	}
	if (!isfinite(lo))
		return;
	char ulabel[96];
	double f = axis_unit(hi, latency, unit, ulabel, sizeof ulabel);
	lo /= f;
	hi /= f;
	double pad = (hi - lo) * 0.05;
	lo = fmax(lo - pad, 0); /* rates and times are positive: the axis never starts below 0 */
	hi += pad;
	double ticks[12];
	size_t nt = svg_ticks(&lo, &hi, ticks, 7);
	int h = (int)(ng * STRIP_BAND) + 50;
	struct svg_scale sx = {lo, hi, STRIP_LEFT, STRIP_W - STRIP_RIGHT};
	struct sb title = {0};
	sb_addf(&title, "samples and run means of %s by configuration, coloured by boot", workload);
	svg_open(b, STRIP_W, h, id, "strip", sb_str(&title));
	sb_free(&title);
	double axis_y = (double)ng * STRIP_BAND + 8;
	for (size_t t = 0; t < nt; t++) {
		double x = svg_map(&sx, ticks[t]);
		char tl[32];
		num(tl, sizeof tl, ticks[t]);
		svg_line(b, x, 4, x, axis_y, "grid");
		svg_text(b, x, axis_y + 15, "middle", "tick", tl);
	}
	svg_line(b, STRIP_LEFT, axis_y, STRIP_W - STRIP_RIGHT, axis_y, "axis");
	svg_text(b, (STRIP_LEFT + STRIP_W - STRIP_RIGHT) / 2.0, axis_y + 34, "middle", "axis-label", ulabel);
	for (size_t i = 0; i < ng; i++) {
		double cy = (double)i * STRIP_BAND + STRIP_BAND / 2.0 + 4;
		sb_addf(b, "<g class=\"group\" data-group=\"%zu\">\n", i);
		svg_text(b, STRIP_LEFT - 8, cy + 4, "end", "group-label", g[i].label);
		if (!g[i].have) {
			svg_text(b, STRIP_LEFT + 8, cy + 4, "start", "nodata", "no data");
			sb_add(b, "</g>\n");
			continue;
		}
		const struct an_points *p = g[i].p;
		size_t k = 0;
		for (size_t r = 0; r < p->nruns; r++) {
			char cls[32];
			snprintf(cls, sizeof cls, "sample b%zu", p->runs[r].boot % NBOOT_COLOURS);
			for (size_t s = 0; s < p->runs[r].n; s++, k++) {
				/* a fixed jitter so equal values stay visible and the page is reproducible */
				double j = fmod((double)k * 0.6180339887, 1.0) - 0.5;
				svg_circle(b, svg_map(&sx, disp(p->runs[r].v[s], latency) / f), cy + j * STRIP_BAND * 0.55,
					   2.2, cls, NULL);
			}
		}
		for (size_t r = 0; r < p->nruns; r++) {
			char cls[32], tip[96], val[32];
			snprintf(cls, sizeof cls, "runmean b%zu", p->runs[r].boot % NBOOT_COLOURS);
			num(val, sizeof val, disp(p->runs[r].mean, latency) / f);
			snprintf(tip, sizeof tip, "run mean %s (boot %zu, %zu samples)", val, p->runs[r].boot + 1,
				 p->runs[r].n);
			svg_circle(b, svg_map(&sx, disp(p->runs[r].mean, latency) / f), cy, 4.5, cls, tip);
		}
		if (isfinite(g[i].v.lo) && isfinite(g[i].v.hi))
			svg_line(b, svg_map(&sx, disp(g[i].v.lo, latency) / f), cy + STRIP_BAND * 0.38,
				 svg_map(&sx, disp(g[i].v.hi, latency) / f), cy + STRIP_BAND * 0.38, "ci");
		if (isfinite(g[i].v.ops)) {
			double x = svg_map(&sx, disp(g[i].v.ops, latency) / f);
			svg_line(b, x, cy - STRIP_BAND * 0.45, x, cy + STRIP_BAND * 0.45, "est");
		}
		sb_add(b, "</g>\n");
	}
	svg_close(b);
}

/* ---------------------------------------------------------------- forest plot */

struct forest_row {
	char label[160];
	bool have; /* has an interval */
	double pct, lo, hi;
	char verdict[32];
	enum st_verdict v;
};

#define FOREST_W 820
#define FOREST_LEFT 250
#define FOREST_RIGHT 120
#define FOREST_ROW 28

/* The axis reaches an interval's end at most this far from 0 (percent), unless a point
 * estimate lies farther: one row of [-71%, +933%] would otherwise squeeze every other row
 * into a few pixels. An interval cut by the axis ends in an arrow; the table has its numbers. */
#define FOREST_CLIP 100.0

/* Percent changes with their intervals, the ±margin equivalence band shaded, and the
 * verdicts as labels on the right. Every row of one plot changes in one direction (time: time
 * per op, else throughput; an_change.time), and the ends of the axis say which side is faster. */
static void forest_svg(struct sb *b, const char *id, const char *title, const struct forest_row *r, size_t n,
		       double margin_pct, bool time)
{
	double lo = -margin_pct * 1.5, hi = margin_pct * 1.5;
	for (size_t i = 0; i < n; i++) {
		if (r[i].have) {
			lo = fmin(lo, fmax(r[i].lo, -FOREST_CLIP));
			hi = fmax(hi, fmin(r[i].hi, FOREST_CLIP));
		}
		if (isfinite(r[i].pct)) {
			lo = fmin(lo, r[i].pct);
			hi = fmax(hi, r[i].pct);
		}
	}
	double ticks[12];
	size_t nt = svg_ticks(&lo, &hi, ticks, 7);
	int h = (int)(n * FOREST_ROW) + 52;
	struct svg_scale sx = {lo, hi, FOREST_LEFT, FOREST_W - FOREST_RIGHT};
	svg_open(b, FOREST_W, h, id, "forest", title);
	double top = 6, axis_y = (double)n * FOREST_ROW + top + 4;
	svg_rect(b, svg_map(&sx, -margin_pct), top, svg_map(&sx, margin_pct) - svg_map(&sx, -margin_pct), axis_y - top,
		 "band");
	for (size_t t = 0; t < nt; t++) {
		double x = svg_map(&sx, ticks[t]);
		char tl[32];
		snprintf(tl, sizeof tl, "%+g%%", ticks[t]);
		if (ticks[t] == 0)
			snprintf(tl, sizeof tl, "0%%");
		svg_line(b, x, top, x, axis_y, ticks[t] == 0 ? "zero" : "grid");
		svg_text(b, x, axis_y + 15, "middle", "tick", tl);
	}
	svg_line(b, FOREST_LEFT, axis_y, FOREST_W - FOREST_RIGHT, axis_y, "axis");
	svg_text(b, (FOREST_LEFT + FOREST_W - FOREST_RIGHT) / 2.0, axis_y + 34, "middle", "axis-label",
		 time ? "change in time per op (%)" : "change in throughput (%)");
	svg_text(b, FOREST_LEFT, axis_y + 34, "start", "side", time ? "\u25c0 faster" : "\u25c0 slower");
	svg_text(b, FOREST_W - FOREST_RIGHT, axis_y + 34, "end", "side", time ? "slower \u25b6" : "faster \u25b6");
	for (size_t i = 0; i < n; i++) {
		double cy = top + (double)i * FOREST_ROW + FOREST_ROW / 2.0;
		sb_addf(b, "<g class=\"effect\" data-verdict=\"%s\"", report_verdict_name(r[i].v));
		if (isfinite(r[i].pct))
			sb_addf(b, " data-change=\"%+.2f\"", r[i].pct);
		sb_add(b, ">\n");
		svg_text(b, FOREST_LEFT - 8, cy + 4, "end", "effect-label", r[i].label);
		if (r[i].have) {
			double x1 = svg_map(&sx, fmax(r[i].lo, lo)), x2 = svg_map(&sx, fmin(r[i].hi, hi));
			svg_line(b, x1, cy, x2, cy, "effect-ci");
			if (r[i].lo < lo)
				svg_text(b, x1, cy + 4, "start", "clip", "\u25c0");
			if (r[i].hi > hi)
				svg_text(b, x2, cy + 4, "end", "clip", "\u25b6");
		}
		if (isfinite(r[i].pct))
			svg_circle(b, svg_map(&sx, r[i].pct), cy, 4, "effect-pt", NULL);
		char cls[48];
		snprintf(cls, sizeof cls, "verdict verdict-%s", report_verdict_name(r[i].v));
		svg_text(b, FOREST_W - FOREST_RIGHT + 10, cy + 4, "start", cls, r[i].verdict);
		sb_add(b, "</g>\n");
	}
	svg_close(b);
}

/* ---------------------------------------------------------------- page parts */

static void page_open(struct sb *b, const char *title)
{
	sb_add(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	html_esc(b, title);
	sb_addf(b, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", css);
	html_esc(b, title);
	sb_add(b, "</h1>\n");
}

static void page_close(struct sb *b)
{
	sb_addf(b, "<footer class=\"note\"><p>Written by sysab %s. Every value is drawn from the results database; "
		   "estimates are geometric means with %s intervals (docs/METHOD.md).</p></footer>\n</body>\n</html>\n",
		SYSAB_VERSION, "t-based");
}

static void td(struct sb *b, const char *cls, const char *text)
{
	sb_add(b, "<td");
	if (cls) {
		sb_add(b, " class=\"");
		html_esc(b, cls);
		sb_add(b, "\"");
	}
	sb_add(b, ">");
	html_esc(b, text);
	sb_add(b, "</td>");
}

static void groups_par(struct sb *b, const struct an_group_info *g, size_t ng)
{
	sb_add(b, "<table class=\"groups\"><tr><th>group</th><th>selector</th><th>runs</th><th>boots</th></tr>\n");
	for (size_t i = 0; i < ng; i++) {
		char n1[32], n2[32];
		snprintf(n1, sizeof n1, "%zu", g[i].nruns);
		snprintf(n2, sizeof n2, "%zu", g[i].nboots);
		sb_add(b, "<tr>");
		td(b, NULL, g[i].name);
		td(b, "sel", *g[i].selector ? g[i].selector : "(all usable runs)");
		td(b, "num", n1);
		td(b, "num", n2);
		sb_add(b, "</tr>\n");
	}
	sb_add(b, "</table>\n");
}

static void est_text(char *buf, size_t size, const struct an_value *v, int latency, const char *unit)
{
	char val[32];
	report_cell_value(val, sizeof val, v->ops, latency, !report_rate_unit(unit));
	char iv[16];
	report_interval_cell(iv, sizeof iv, v->hw);
	if (isfinite(v->hw))
		snprintf(buf, size, "%s %s", val, iv);
	else
		snprintf(buf, size, "%s", val);
}

static void ci_text(char *buf, size_t size, double lo, double hi)
{
	char a[16], z[16];
	report_pct(a, sizeof a, lo);
	report_pct(z, sizeof z, hi);
	snprintf(buf, size, "[%s, %s]", a, z);
}

static void verdict_td(struct sb *b, const struct st_comparison *c)
{
	char w[32], cls[48];
	report_verdict_word(w, sizeof w, c);
	snprintf(cls, sizeof cls, "verdict v-%s", report_verdict_name(c->verdict));
	td(b, cls, w);
}

static void env_section(struct sb *b, const struct an_envtab *env, const char *const *names)
{
	sb_add(b, "<section id=\"environment\">\n<h2>Environment</h2>\n"
		  "<p class=\"note\">Highlighted keys differ between the groups; a difference that is not the "
		  "change under test is a possible confounder.</p>\n<table class=\"env\"><tr><th>key</th>");
	for (size_t g = 0; g < env->ngroups; g++) {
		sb_add(b, "<th>");
		html_esc(b, names[g]);
		sb_add(b, "</th>");
	}
	sb_add(b, "</tr>\n");
	for (size_t i = 0; i < env->nrows; i++) {
		sb_addf(b, "<tr%s>", env->rows[i].differs ? " class=\"differs\"" : "");
		td(b, NULL, env->rows[i].key);
		for (size_t g = 0; g < env->ngroups; g++)
			td(b, NULL, env->rows[i].values[g]);
		sb_add(b, "</tr>\n");
	}
	sb_add(b, "</table>\n</section>\n");
}

static void warnings_section(struct sb *b, const struct strv *w)
{
	sb_add(b, "<section id=\"warnings\">\n<h2>Warnings and caveats</h2>\n");
	if (!w->n)
		sb_add(b, "<p>none</p>\n");
	else
		sb_add(b, "<ul class=\"warnings\">\n");
	for (size_t i = 0; i < w->n; i++) {
		sb_add(b, "<li>");
		html_esc(b, w->v[i]);
		sb_add(b, "</li>\n");
	}
	if (w->n)
		sb_add(b, "</ul>\n");
	sb_add(b, "</section>\n");
}

static void warn_add(struct strv *w, const char *workload, const char *text)
{
	struct sb t = {0};
	sb_addf(&t, "%s: %s", workload, text);
	if (!strv_has(w, sb_str(&t)))
		strv_add(w, sb_str(&t));
	sb_free(&t);
}

static void caveat_warns(struct strv *w, const char *workload, unsigned caveats)
{
	for (unsigned bit = 1; bit && bit <= ST_CAVEAT_LAST; bit <<= 1)
		if ((caveats & bit) && report_caveat_text(bit))
			warn_add(w, workload, report_caveat_text(bit));
}

/* --adjust host: the row's slope, or why it was not adjusted. */
static void adjust_warn(struct strv *w, const char *workload, const struct st_adjust *x)
{
	struct sb t = {0};
	report_adjust_text(&t, x);
	if (t.len)
		warn_add(w, workload, sb_str(&t));
	sb_free(&t);
}

/* What holds for the whole page, as a paragraph under the groups (emulated groups and
 * --allow-failed-checks), and into warns. */
static void trust_par(struct sb *b, const struct an_emulation *emu, const char *const *names, size_t n, size_t allowed,
		      const struct an_repeat *look, double alpha, struct strv *warns)
{
	struct strv lines = {0};
	struct sb t = {0};
	report_look_text(&t, look, alpha);
	if (t.len)
		strv_add(&lines, sb_str(&t));
	sb_free(&t);
	report_emulation_text(&t, names, emu, n);
	if (t.len)
		strv_add(&lines, sb_str(&t));
	sb_free(&t);
	report_allow_text(&t, allowed);
	if (t.len)
		strv_add(&lines, sb_str(&t));
	sb_free(&t);
	for (size_t i = 0; i < lines.n; i++) {
		sb_add(b, "<p class=\"caveat\"><strong>");
		html_esc(b, lines.v[i]);
		sb_add(b, "</strong></p>\n");
		strv_add(warns, lines.v[i]);
	}
	strv_free(&lines);
}

/* A row's failed self-check, into warns. */
static void check_warn(struct strv *warns, const char *name, const struct an_failed_check *f)
{
	struct sb t = {0};
	report_check_text(&t, f);
	if (t.len)
		warn_add(warns, name, sb_str(&t));
	sb_free(&t);
}

static int write_out(FILE *f, struct sb *b)
{
	size_t n = b->len;
	int rc = fwrite(sb_str(b), 1, n, f) == n ? 0 : -1;
	sb_free(b);
	return rc;
}

/* ---------------------------------------------------------------- compare / one group */

/* Long by design: the page top to bottom (header, table, forest, strips, environment), one section after another. */
/* A row's name: workload, and /copies when more than one. */
static void row_name(char *buf, size_t n, const struct an_row *r)
{
	if (r->copies > 1)
		snprintf(buf, n, "%s/%d", r->workload, r->copies);
	else
		snprintf(buf, n, "%s", r->workload);
}

/* One row of the results table, and its warnings into warns. */
static void results_row(struct sb *b, const struct an_row *r, const struct an_group_info *g, bool two,
			struct strv *warns)
{
	char name[160], ea[64] = "-", eb[64] = "-", ch[16] = "", ci[48] = "", q[16] = "";
	row_name(name, sizeof name, r);
	if (r->have_a)
		est_text(ea, sizeof ea, &r->va, r->latency, r->unit);
	if (r->have_b)
		est_text(eb, sizeof eb, &r->vb, r->latency, r->unit);
	sb_add(b, "<tr class=\"row\">");
	td(b, "wl", name);
	td(b, "num", ea);
	if (two) {
		td(b, "num", eb);
		if (r->have_a && r->have_b) {
			report_pct(ch, sizeof ch, r->chg.pct);
			if (isfinite(r->chg.lo))
				ci_text(ci, sizeof ci, r->chg.lo, r->chg.hi);
			if (isfinite(r->c.q))
				report_q(q, sizeof q, r->c.q);
			if (r->chg.within) {
				report_no_verdict_cells(ci, sizeof ci, q, sizeof q);
			}
		}
		td(b, "num", ch);
		td(b, "num", ci);
		td(b, "num", q);
		verdict_td(b, &r->c);
	}
	sb_add(b, "</tr>\n");
	if (two && r->have_a && r->have_b) {
		caveat_warns(warns, name, r->c.caveats);
		adjust_warn(warns, name, &r->adj);
		if (r->c.verdict == ST_INCONCLUSIVE) {
			struct sb t = {0};
			report_settle_text(&t, r->more_boots, r->settles_as, false, report_row_paired_runs(r));
			if (t.len)
				warn_add(warns, name, sb_str(&t));
			sb_free(&t);
		}
	} else if (r->have_a) {
		caveat_warns(warns, name, r->a.caveats);
	}
	struct strv dl = {0};
	report_diag_lines(&dl, g[0].name, &r->diag_a);
	if (two)
		report_diag_lines(&dl, g[1].name, &r->diag_b);
	for (size_t k = 0; k < dl.n; k++)
		warn_add(warns, name, dl.v[k]);
	strv_free(&dl);
	check_warn(warns, name, &r->failed);
}

/* One counter row of the results table (linear scale: counts per op, B - A), its caveats into warns. */
static void counter_row(struct sb *b, const struct an_row *r, struct strv *warns)
{
	struct report_counter_cells cc;
	char cls[48];
	report_counter_cells(&cc, r, ", ");
	sb_add(b, "<tr class=\"row counter\">");
	td(b, "wl", cc.name);
	td(b, "num", cc.a);
	td(b, "num", cc.b);
	td(b, "num", cc.ch);
	td(b, "num", cc.ci);
	td(b, "num", cc.q);
	snprintf(cls, sizeof cls, "verdict v-%s", cc.verdict);
	for (char *p = cls + 10; *p; p++) /* "v-no data": one class name */
		if (*p == ' ')
			*p = '_';
	td(b, cls, cc.verdict);
	sb_add(b, "</tr>\n");
	caveat_warns(warns, cc.name, r->c.caveats);
}

static void results_section(struct sb *b, const struct an_compare *c, const struct an_group_info *g, size_t ng,
			    struct strv *warns)
{
	bool two = c->ngroups == 2;
	sb_add(b, "<section id=\"results\">\n<h2>Results</h2>\n<table class=\"results\"><tr><th>workload</th>");
	for (size_t i = 0; i < ng; i++) {
		sb_add(b, "<th>");
		html_esc(b, g[i].name);
		sb_add(b, "</th>");
	}
	if (two)
		sb_add(b, "<th>change</th><th>CI</th><th>q</th><th>verdict</th>");
	sb_add(b, "</tr>\n");
	for (size_t i = 0; i < c->nrows; i++)
		results_row(b, &c->rows[i], g, two, warns);
	if (two && c->ncrows)
		sb_add(b, "<tr><th colspan=\"7\" class=\"wl\">counters, per op</th></tr>\n");
	for (size_t i = 0; two && i < c->ncrows; i++)
		counter_row(b, &c->crows[i], warns);
	sb_add(b, "</table>\n");
	if (two && c->ncrows) {
		char ct[200];
		report_counter_tally(ct, sizeof ct, c);
		sb_add(b, "<p class=\"note\">counters: ");
		html_esc(b, ct);
		sb_add(b, ". ");
		html_esc(b, report_counter_rows_text);
		sb_add(b, "</p>\n");
	}
	if (two) {
		char vs[80];
		snprintf(vs, sizeof vs, "%s vs %s", g[1].name, g[0].name);
		struct sb lg = {0};
		report_change_legend(&lg, vs, c->change_kinds);
		sb_add(b, "<p class=\"note\">");
		html_esc(b, sb_str(&lg));
		sb_addf(b, ", with its %d%% interval. q: Benjamini-Hochberg across rows. Verdicts: faster/slower when "
			   "the interval excludes 0 (negligible when it lies inside ±%g%%), equivalent when the %d%% "
			   "interval lies inside ±%g%%.</p>\n",
			(int)lround((1 - c->o.alpha) * 100), c->o.margin * 100, (int)lround((1 - 2 * c->o.alpha) * 100),
			c->o.margin * 100);
		sb_free(&lg);
	}
	sb_add(b, "</section>\n");
}

/* The forest plots of the changes of B against A: each row's change as its table row shows
 * it (an_change), so a row's sign in the plot is its sign in the table, markdown and JSON
 * (display_pct). Rate rows and time/op rows change in opposite directions when faster, so they
 * never share an axis: one plot each (#forest first, #forest-time for time/op rows when both). */
static void changes_section(struct sb *b, const struct an_compare *c)
{
	struct forest_row *fr = xcalloc(c->nrows, sizeof *fr);
	sb_add(b, "<section id=\"effects\">\n<h2>Changes (B vs A)</h2>\n");
	bool both = c->change_kinds == (AN_CHG_RATE | AN_CHG_TIME);
	for (int pass = 0; pass < 2; pass++) {
		bool time = pass == 1;
		size_t n = 0;
		for (size_t i = 0; i < c->nrows; i++) {
			const struct an_row *r = &c->rows[i];
			if ((r->latency != 0) != time)
				continue;
			struct forest_row *f = &fr[n++];
			bool have = r->have_a && r->have_b;
			row_name(f->label, sizeof f->label, r);
			if (r->latency) /* its axis runs in time */
				snprintf(f->label + strlen(f->label), sizeof f->label - strlen(f->label), " (time)");
			f->v = have ? r->c.verdict : ST_NO_DATA;
			f->pct = have ? r->chg.pct : NAN;
			f->lo = r->chg.lo;
			f->hi = r->chg.hi;
			f->have = have && isfinite(r->chg.lo) && isfinite(r->chg.hi);
			report_verdict_word(f->verdict, sizeof f->verdict, &r->c);
		}
		if (!n)
			continue;
		if (both)
			sb_add(b, time ? "<h3>time/op rows: change in time per op</h3>\n"
				       : "<h3>rate rows: change in throughput</h3>\n");
		forest_svg(b, time && both ? "forest-time" : "forest",
			   "percent change of B against A per workload, with intervals and the equivalence band", fr, n,
			   c->o.margin * 100, time);
	}
	sb_addf(b, "<p class=\"note\">Shaded: the ±%g%% equivalence margin. Lines: %d%% intervals.</p>\n",
		c->o.margin * 100, (int)lround((1 - c->o.alpha) * 100));
	sb_add(b, "</section>\n");
	free(fr);
}

/* A strip plot of the samples of each workload. */
static void samples_section(struct sb *b, const struct an_compare *c, const struct an_group_info *g, size_t ng)
{
	bool two = c->ngroups == 2;
	sb_add(b, "<section id=\"samples\">\n<h2>Samples per workload</h2>\n<p class=\"note\">Small dots: samples; "
		  "large dots: run means; colour: boot (within each group); vertical bar: the group estimate; thick "
		  "line: its interval.</p>\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct an_row *r = &c->rows[i];
		char id[32];
		snprintf(id, sizeof id, "strip-%zu", i);
		struct strip_group sg[2] = {{g[0].name, &r->pa, r->va, r->have_a}, {two ? g[1].name : "", &r->pb, r->vb, r->have_b}};
		sb_add(b, "<figure class=\"workload\"><h3>");
		html_esc(b, r->workload);
		if (r->copies > 1)
			sb_addf(b, " (%d copies)", r->copies);
		sb_add(b, "</h3>\n");
		strip_svg(b, id, r->workload, sg, ng, r->latency, r->unit);
		sb_add(b, "</figure>\n");
	}
	sb_add(b, "</section>\n");
}

int report_html_compare(FILE *f, const struct an_compare *c, const struct an_group_info *g, size_t ng,
			const struct an_envtab *env)
{
	struct sb b = {0};
	struct strv warns = {0};
	bool two = c->ngroups == 2;
	page_open(&b, two ? "sysab report: compare" : "sysab report");
	groups_par(&b, g, ng);
	const char *gn[2] = {ng > 1 ? g[0].name : NULL, ng > 1 ? g[1].name : ""};
	trust_par(&b, c->emu, gn, ng, c->allowed_rows, &c->look, c->o.alpha, &warns);
	results_section(&b, c, g, ng, &warns);
	if (two && c->nrows)
		changes_section(&b, c);
	samples_section(&b, c, g, ng);
	if (two && c->nconf) {
		for (size_t i = 0; i < c->nconf; i++) {
			if (c->conf[i].explained != AN_EXPLAINED_NOT)
				continue;
			struct sb t = {0};
			sb_addf(&t, "environment differs and is not a label: %s (A: %s; B: %s)", c->conf[i].key, c->conf[i].a,
				c->conf[i].b);
			strv_add(&warns, sb_str(&t));
			sb_free(&t);
		}
		report_explained_lines(&warns, c);
	} else if (two && c->env_missing) {
		strv_add(&warns, "confounders not checked: imported runs record no environment");
	}
	const char *names[2] = {g[0].name, ng > 1 ? g[1].name : ""};
	env_section(&b, env, names);
	warnings_section(&b, &warns);
	strv_free(&warns);
	page_close(&b);
	return write_out(f, &b);
}

/* ---------------------------------------------------------------- analyze */

/* Long by design: the page top to bottom (cells, effects, forest, strips per row, environment). */
/* The factors and their levels, as a paragraph. */
static void factors_par(struct sb *b, const struct an_analyze *a)
{
	sb_add(b, "<p>Factors: ");
	for (size_t k = 0; k < a->nfactors; k++) {
		sb_add(b, k ? "; <code>" : "<code>");
		html_esc(b, a->factors[k].name);
		sb_add(b, "</code> (");
		for (size_t l = 0; l < a->factors[k].nlevels; l++) {
			sb_add(b, l ? ", " : "");
			html_esc(b, a->factors[k].levels[l]);
		}
		sb_add(b, ")");
	}
	struct sb lg = {0};
	report_change_legend(&lg, "each effect", a->change_kinds);
	sb_add(b, ". ");
	html_esc(b, sb_str(&lg));
	sb_addf(b, ", with its %d%% interval; the first level of each factor is the reference.</p>\n",
		(int)lround((1 - a->o.alpha) * 100));
	sb_free(&lg);
}

/* A workload's cells: the table and their strip plot (sg: scratch, one per cell). */
static void cells_table(struct sb *b, const struct an_analyze *a, size_t i, char *const *cn, struct strip_group *sg)
{
	const struct an_frow *r = &a->rows[i];
	sb_add(b, "<table class=\"cells\"><tr><th>cell</th><th>estimate</th><th>runs</th><th>boots</th></tr>\n");
	for (size_t c = 0; c < a->ncells; c++) {
		char v[64] = "-", n1[16], n2[16];
		sg[c] = (struct strip_group){cn[c], &r->pts[c], {NAN, NAN, NAN, NAN, NAN, false}, r->have[c]};
		if (r->have[c]) {
			sg[c].v = r->val[c];
			est_text(v, sizeof v, &sg[c].v, r->latency, r->unit);
		}
		snprintf(n1, sizeof n1, "%zu", r->have[c] ? r->est[c].nruns : 0);
		snprintf(n2, sizeof n2, "%zu", r->have[c] ? r->est[c].nboots : 0);
		sb_add(b, "<tr class=\"cell\">");
		td(b, NULL, cn[c]);
		td(b, "num", v);
		td(b, "num", n1);
		td(b, "num", n2);
		sb_add(b, "</tr>\n");
	}
	sb_add(b, "</table>\n");
	char id[32];
	snprintf(id, sizeof id, "strip-%zu", i);
	strip_svg(b, id, r->workload, sg, a->ncells, r->latency, r->unit);
}

/* One effect's row of the effects table, its forest row into fr, its warnings into warns. */
static void effect_row(struct sb *b, const struct an_analyze *a, const struct an_frow *r, size_t k, const char *name,
		       struct forest_row *fr, struct strv *warns)
{
	const struct st_effect *ef = &r->fa.effects[k];
	char ch[16] = "", ci[48] = "", q[16] = "";
	an_effect_label(fr->label, sizeof fr->label, a, ef);
	report_effect_verdict_word(fr->verdict, sizeof fr->verdict, ef);
	fr->v = ef->c.verdict;
	fr->pct = NAN;
	if (an_effect_point_only(ef)) { /* a point, no line: no interval, no q */
		fr->pct = r->chg[k].pct;
		report_pct(ch, sizeof ch, r->chg[k].pct);
	} else if (ef->available && isfinite(ef->c.d)) {
		const struct an_change chg = r->chg[k];
		fr->pct = chg.pct;
		report_pct(ch, sizeof ch, chg.pct);
		if (ef->c.verdict != ST_NO_DATA && isfinite(chg.lo) && isfinite(chg.hi)) {
			fr->lo = chg.lo;
			fr->hi = chg.hi;
			fr->have = true;
			ci_text(ci, sizeof ci, chg.lo, chg.hi);
			if (isfinite(ef->c.q))
				report_q(q, sizeof q, ef->c.q);
		} else if (ef->c.verdict != ST_NO_DATA && chg.within) {
			report_no_verdict_cells(ci, sizeof ci, q, sizeof q);
		}
		caveat_warns(warns, name, ef->c.caveats & ~ST_CAVEAT_PAIRED); /* said above the rows */
		adjust_warn(warns, name, &r->adj);
	} else if (!ef->available) {
		struct sb t = {0};
		sb_addf(&t, "%s: a cell this effect needs is missing or has no interval", fr->label);
		warn_add(warns, name, sb_str(&t));
		sb_free(&t);
	}
	sb_add(b, "<tr class=\"row effect\">");
	td(b, NULL, fr->label);
	td(b, "num", ch);
	td(b, "num", ci);
	td(b, "num", q);
	if (an_effect_point_only(ef))
		td(b, "verdict v-no_data", fr->verdict);
	else
		verdict_td(b, &ef->c);
	sb_add(b, "</tr>\n");
}

/* A workload's effects: the table and its forest plot. */
static void effects_table(struct sb *b, const struct an_analyze *a, size_t i, const char *name, struct strv *warns)
{
	const struct an_frow *r = &a->rows[i];
	sb_add(b, "<table class=\"results\"><tr><th>effect</th><th>change</th><th>CI</th><th>q</th>"
		  "<th>verdict</th></tr>\n");
	struct forest_row *fr = xcalloc(r->fa.neffects, sizeof *fr);
	for (size_t k = 0; k < r->fa.neffects; k++)
		effect_row(b, a, r, k, name, &fr[k], warns);
	sb_add(b, "</table>\n");
	if (r->fa.neffects) {
		char title[256], id[32];
		snprintf(title, sizeof title, "main effects and interactions of the factors on %s", name);
		snprintf(id, sizeof id, "forest-%zu", i);
		forest_svg(b, id, title, fr, r->fa.neffects, a->o.margin * 100, r->latency != 0);
	}
	free(fr);
}

int report_html_analyze(FILE *f, const struct an_analyze *a, const struct an_group_info *filter,
			const struct an_envtab *env)
{
	struct sb b = {0};
	struct strv warns = {0};
	page_open(&b, "sysab report: factorial analysis");
	groups_par(&b, filter, 1);
	trust_par(&b, &a->emu, (const char *const[]){NULL}, 1, a->allowed_rows, &a->look, a->o.alpha, &warns);
	factors_par(&b, a);
	struct sb wt = {0};
	report_within_text(&wt, a);
	if (wt.len) {
		sb_add(&b, "<p>");
		html_esc(&b, sb_str(&wt));
		sb_add(&b, ".</p>\n");
	}
	sb_free(&wt);
	char **cn = xcalloc(a->ncells, sizeof *cn);
	for (size_t c = 0; c < a->ncells; c++) {
		struct sb l = {0};
		an_cell_label(&l, a, c);
		cn[c] = l.s ? l.s : xstrdup("");
	}
	struct strip_group *sg = xcalloc(a->ncells, sizeof *sg);
	for (size_t i = 0; i < a->nrows; i++) {
		char name[160];
		snprintf(name, sizeof name, a->rows[i].copies > 1 ? "%s/%d" : "%s", a->rows[i].workload, a->rows[i].copies);
		sb_addf(&b, "<section class=\"workload\" id=\"wl-%zu\">\n<h2>", i);
		html_esc(&b, name);
		sb_add(&b, "</h2>\n");
		cells_table(&b, a, i, cn, sg);
		struct sb it = {0};
		report_incomplete_text(&it, a, &a->rows[i]);
		if (it.len)
			warn_add(&warns, name, sb_str(&it));
		sb_free(&it);
		effects_table(&b, a, i, name, &warns);
		check_warn(&warns, name, &a->rows[i].failed);
		sb_add(&b, "</section>\n");
	}
	if (*a->why_no_interval) {
		struct sb t = {0};
		sb_addf(&t, "no interval (%s): an effect marked so is a point estimate, with no verdict. To settle it: ",
			a->why_no_interval);
		report_settle_cells_text(&t, a, filter);
		strv_add(&warns, sb_str(&t));
		sb_free(&t);
	} else if (!a->any_interval && a->nrows) {
		struct sb t = {0};
		sb_addf(&t, "no verdict: no effect has an interval; the cells need %s. To settle it: ",
			report_need_text(a->need));
		report_settle_cells_text(&t, a, filter);
		strv_add(&warns, sb_str(&t));
		sb_free(&t);
	}
	env_section(&b, env, (const char *const *)cn);
	warnings_section(&b, &warns);
	strv_free(&warns);
	for (size_t c = 0; c < a->ncells; c++)
		free(cn[c]);
	free(cn);
	free(sg);
	page_close(&b);
	return write_out(f, &b);
}

/* ---------------------------------------------------------------- history */

#define HIST_W 1000
#define HIST_H 340
#define HIST_L 80
#define HIST_R 20
#define HIST_T 20
#define HIST_B 40

/* The series: per boot its estimate (and 95% interval when it has one), the fitted level of
 * each segment, each change as a line before its first boot over the band of its interval. */
static void history_svg(struct sb *b, const struct an_history *h)
{
	double lo = INFINITY, hi = -INFINITY, ticks[12];
	for (size_t i = 0; i < h->nboots; i++) {
		const struct an_value *v = &h->boots[i].v;
		double a = isfinite(v->lo) ? v->lo : v->ops, z = isfinite(v->hi) ? v->hi : v->ops;
		lo = a < lo ? a : lo;
		hi = z > hi ? z : hi;
	}
	if (!(hi > lo)) {
		lo = lo * 0.99;
		hi = hi * 1.01;
	}
	size_t nt = svg_ticks(&lo, &hi, ticks, 12);
	struct svg_scale xs = {-0.5, (double)h->nboots - 0.5, HIST_L, HIST_W - HIST_R};
	struct svg_scale ys = {lo, hi, HIST_H - HIST_B, HIST_T};
	svg_open(b, HIST_W, HIST_H, "history", "history", "per-boot estimates in order, with the change points");
	for (size_t t = 0; t < nt; t++) {
		char lab[32];
		num(lab, sizeof lab, ticks[t]);
		svg_line(b, HIST_L, svg_map(&ys, ticks[t]), HIST_W - HIST_R, svg_map(&ys, ticks[t]), "grid");
		svg_text(b, HIST_L - 6, svg_map(&ys, ticks[t]) + 4, "end", "tick", lab);
	}
	for (size_t j = 0; j < h->cp.nchanges; j++) {
		const struct st_cp_change *c = h->changes[j].c;
		double x0 = svg_map(&xs, (double)c->index_lo - 0.5), x1 = svg_map(&xs, (double)c->index_hi + 0.5);
		svg_rect(b, x0, HIST_T, x1 - x0, HIST_H - HIST_B - HIST_T, "band");
		double x = svg_map(&xs, (double)c->index - 0.5);
		svg_line(b, x, HIST_T, x, HIST_H - HIST_B, "zero");
	}
	svg_line(b, HIST_L, HIST_H - HIST_B, HIST_W - HIST_R, HIST_H - HIST_B, "axis");
	svg_line(b, HIST_L, HIST_T, HIST_L, HIST_H - HIST_B, "axis");
	for (size_t i = 0; i < h->nboots; i++) {
		const struct an_history_boot *o = &h->boots[i];
		double x = svg_map(&xs, (double)i);
		if (isfinite(o->v.lo) && isfinite(o->v.hi))
			svg_line(b, x, svg_map(&ys, o->v.lo), x, svg_map(&ys, o->v.hi), "runmean");
		char tip[256];
		snprintf(tip, sizeof tip, "%zu: %s (boot %s), %.6g ops/s", i, *o->value ? o->value : "-", o->boot_id,
			 o->v.ops);
		svg_circle(b, x, svg_map(&ys, o->v.ops), h->nboots > 300 ? 1.5 : 3, "b0", tip);
	}
	for (size_t s = 0; s <= h->cp.nchanges; s++) {
		size_t a = s ? h->cp.changes[s - 1].index : 0, e = s < h->cp.nchanges ? h->cp.changes[s].index : h->nboots;
		double y = svg_map(&ys, h->boots[a].level_ops);
		svg_line(b, svg_map(&xs, (double)a - 0.5), y, svg_map(&xs, (double)e - 0.5), y, "est");
	}
	char xl[160];
	snprintf(xl, sizeof xl, "boots in order of %s (index from 0)", h->by);
	svg_text(b, (HIST_L + HIST_W - HIST_R) / 2.0, HIST_H - 8, "middle", "tick", xl);
	svg_close(b);
}

int report_html_history(FILE *f, const struct an_history *h, const struct study_line *confirm)
{
	struct sb b = {0};
	char title[256];
	snprintf(title, sizeof title, "sysab history: %s by %s", h->workload, h->by);
	page_open(&b, title);
	sb_addf(&b, "<p>%zu boots (%zu runs) of ", h->nboots, h->nruns);
	html_esc(&b, *h->selector ? h->selector : "every run");
	sb_addf(&b, "; between-boot sd %.2f%%; family-wise false-alarm level %g. Points: each boot's estimate in "
		    "ops/s with its 95%% interval from within the boot; lines: the level of each segment; shaded: "
		    "the 95%% interval of a change's position.</p>\n",
		100 * h->between_sd, h->opts.alpha);
	history_svg(&b, h);
	if (!h->cp.nchanges)
		sb_add(&b, "<p>No change.</p>\n");
	else
		sb_add(&b, "<table><tr><th>first changed boot</th><th>95% interval</th><th>before</th><th>after</th>"
			   "<th>change</th><th>95% interval</th></tr>\n");
	for (size_t i = 0; i < h->cp.nchanges; i++) {
		const struct an_history_change *c = &h->changes[i];
		char t[64];
		sb_add(&b, "<tr>");
		snprintf(t, sizeof t, "%zu", c->c->index);
		td(&b, "num", t);
		snprintf(t, sizeof t, "%zu..%zu", c->c->index_lo, c->c->index_hi);
		td(&b, "num", t);
		td(&b, NULL, c->label_before);
		td(&b, NULL, c->label_after);
		snprintf(t, sizeof t, "%+.2f%% %s", c->chg.pct, c->slower ? "slower" : "faster");
		td(&b, c->slower ? "verdict v-slower" : "verdict v-faster", t);
		snprintf(t, sizeof t, "[%+.2f%%, %+.2f%%]", c->chg.lo, c->chg.hi);
		td(&b, "num", t);
		sb_add(&b, "</tr>\n");
	}
	if (h->cp.nchanges) {
		sb_add(&b, "</table>\n");
		struct sb lg = {0};
		report_history_legend(&lg, h);
		sb_add(&b, "<p class=\"note\">");
		html_esc(&b, sb_str(&lg));
		sb_add(&b, ".</p>\n");
		sb_free(&lg);
	}
	struct sb ed = {0};
	report_history_edges(&ed, h);
	for (const char *p = sb_str(&ed), *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		struct sb line = {0};
		sb_addf(&line, "%.*s", (int)(nl - p), p);
		sb_add(&b, "<p class=\"note\">");
		html_esc(&b, sb_str(&line));
		sb_add(&b, ".</p>\n");
		sb_free(&line);
	}
	sb_free(&ed);
	for (size_t i = 0; confirm && i < h->cp.nchanges; i++) {
		struct sb t = {0};
		report_history_confirm(&t, &h->changes[i], &confirm[i]);
		sb_add(&b, "<p>To confirm ");
		html_esc(&b, h->changes[i].label_before);
		sb_add(&b, " &rarr; ");
		html_esc(&b, h->changes[i].label_after);
		sb_add(&b, ":</p>\n<pre>");
		html_esc(&b, sb_str(&t));
		sb_add(&b, "</pre>\n");
		sb_free(&t);
	}
	page_close(&b);
	return write_out(f, &b);
}
