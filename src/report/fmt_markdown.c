/* fmt_markdown.c - the markdown format: comparisons, analyses, runs, campaigns, system state and allocations as GitHub-flavoured tables. */
#include "report.h"
#include "analysis/analysis.h"
#include "analysis/summary.h"
#include "campaign.h"
#include "system.h"

#include <math.h>
#include <string.h>

void report_md_cell(FILE *f, const char *s)
{
	fputs(" ", f);
	for (; *s; s++)
		fputs(*s == '|' ? "\\|" : (char[2]){*s, 0}, f);
	fputs(" |", f);
}

static void cell(FILE *f, const char *s)
{
	report_md_cell(f, s);
}

static void value_cell(FILE *f, const struct an_value *v, int latency, const char *unit)
{
	char val[32], iv[16], b[64];
	report_cell_value(val, sizeof val, v->ops, latency, !report_rate_unit(unit));
	report_interval_cell(iv, sizeof iv, v->hw);
	snprintf(b, sizeof b, "%s%s%s", isfinite(v->ops) ? val : "-", isfinite(v->hw) ? " " : "",
		 isfinite(v->hw) ? iv : "");
	cell(f, b);
}

/* The groups as a list: name, selector, runs and boots. */
static void groups_md(FILE *f, const struct an_group_info *g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "- **%s**: `%s`, %zu run%s on %zu boot%s\n", g[i].name,
			*g[i].selector ? g[i].selector : "(all runs)", g[i].nruns, g[i].nruns == 1 ? "" : "s", g[i].nboots,
			g[i].nboots == 1 ? "" : "s");
}

/* What holds for the whole table, as quoted lines: emulated groups, --allow-failed-checks. */
static void trust_md(FILE *f, const struct an_emulation *emu, const struct an_group_info *g, size_t n, size_t allowed,
		     const struct an_repeat *look, double alpha)
{
	struct sb t = {0};
	report_look_text(&t, look, alpha);
	if (t.len)
		fprintf(f, "\n> **%s**\n", sb_str(&t));
	sb_free(&t);
	const char *names[2] = {n > 1 ? g[0].name : NULL, n > 1 ? g[1].name : NULL};
	report_emulation_text(&t, names, emu, n);
	if (t.len)
		fprintf(f, "\n> **%s**\n", sb_str(&t));
	sb_free(&t);
	report_allow_text(&t, allowed);
	if (t.len)
		fprintf(f, "\n> **%s**\n", sb_str(&t));
	sb_free(&t);
}

/* The rows whose runs failed a self-check, as a list under the table. */
static void checks_md(FILE *f, const struct an_compare *c)
{
	bool head = false;
	for (size_t i = 0; i < c->nrows; i++) {
		struct sb t = {0};
		report_check_text(&t, &c->rows[i].failed);
		if (t.len) {
			fprintf(f, "%s- `%s`: %s\n", head ? "" : "\n", c->rows[i].workload, sb_str(&t));
			head = true;
		}
		sb_free(&t);
	}
}

/* A row's first cells: workload, unit and the first group's estimate. */
static void row_start(FILE *f, const struct an_row *r)
{
	char name[96], u[48];
	snprintf(name, sizeof name, r->copies > 1 ? "%s/%d" : "%s", r->workload, r->copies);
	report_table_unit(u, sizeof u, r->unit, r->latency);
	fputs("|", f);
	cell(f, name);
	cell(f, u);
	value_cell(f, &r->va, r->latency, r->unit);
}

/* One group's estimates: nothing to compare, so no change, q or verdict columns. */
static void group_md(FILE *f, const struct an_compare *c, const struct an_group_info *g)
{
	groups_md(f, g, 1);
	trust_md(f, c->emu, g, 1, 0, &c->look, c->o.alpha);
	fprintf(f, "\n| workload | unit | estimate, %d%% CI |\n|---|---|---:|\n", (int)lround((1 - c->o.alpha) * 100));
	for (size_t i = 0; i < c->nrows; i++) {
		row_start(f, &c->rows[i]);
		fputs("\n", f);
	}
	checks_md(f, c);
}

/* A counter row: counts per op (linear scale), B - A with its interval, more/fewer. */
static void counter_md(FILE *f, const struct an_row *r)
{
	struct report_counter_cells cc;
	report_counter_cells(&cc, r, ", ");
	fputs("|", f);
	cell(f, cc.name);
	char unit[40];
	snprintf(unit, sizeof unit, "%s%s", cc.unit[0] == '/' ? "count" : "", cc.unit + (cc.unit[0] == ' '));
	cell(f, unit);
	cell(f, cc.a);
	cell(f, cc.b);
	cell(f, cc.ch);
	cell(f, cc.ci);
	cell(f, cc.q);
	cell(f, cc.verdict);
	fputs("\n", f);
}

static void compare_md(FILE *f, const struct an_compare *c, const struct an_group_info *g, bool counters)
{
	if (c->ngroups == 1) {
		group_md(f, c, g);
		return;
	}
	groups_md(f, g, 2);
	trust_md(f, c->emu, g, 2, c->allowed_rows, &c->look, c->o.alpha);
	int conf = (int)lround((1 - c->o.alpha) * 100);
	fprintf(f, "\n| workload | unit | %s | %s | change | %d%% CI | q | verdict |\n", g[0].name, g[1].name, conf);
	fprintf(f, "|---|---|---:|---:|---:|---|---:|---|\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct an_row *r = &c->rows[i];
		char ch[16] = "", ci[40] = "", q[16] = "", v[32] = "";
		row_start(f, r);
		value_cell(f, &r->vb, r->latency, r->unit);
		if (isfinite(r->chg.pct))
			report_pct(ch, sizeof ch, r->chg.pct);
		if (isfinite(r->chg.lo) && isfinite(r->chg.hi)) {
			char lo[16], hi[16];
			report_pct(lo, sizeof lo, r->chg.lo);
			report_pct(hi, sizeof hi, r->chg.hi);
			snprintf(ci, sizeof ci, "[%s, %s]", lo, hi);
		}
		if (isfinite(r->c.q))
			report_q(q, sizeof q, r->c.q);
		if (r->chg.within) {
			report_no_verdict_cells(ci, sizeof ci, q, sizeof q);
		}
		report_verdict_word(v, sizeof v, &r->c);
		cell(f, ch);
		cell(f, ci);
		cell(f, q);
		cell(f, v);
		fputs("\n", f);
	}
	for (size_t i = 0; counters && i < c->ncrows; i++)
		counter_md(f, &c->crows[i]);
	checks_md(f, c);
	char tally[256];
	report_verdict_tally(tally, sizeof tally, c);
	char vs[80];
	snprintf(vs, sizeof vs, "%s vs %s", g[1].name, g[0].name);
	struct sb lg = {0};
	report_change_legend(&lg, vs, c->change_kinds);
	fprintf(f, "\n**%s**. %s. (negligible): significant but inside the ±%g%% margin. `sysab compare` prints "
		   "each row's caveats.\n",
		tally, sb_str(&lg), c->o.margin * 100);
	sb_free(&lg);
	if (c->o.host_adjust) { /* the method is named, with each row's slope */
		fprintf(f, "\nMethod (docs/METHOD.md, \"Host-speed adjustment\"): %s",
			report_caveat_text(ST_CAVEAT_HOST_ADJUSTED));
		for (size_t i = 0; i < c->nrows; i++) {
			const struct st_adjust *x = &c->rows[i].adj;
			if (x->status == ST_ADJ_APPLIED || x->status == ST_ADJ_REF_DIFFERS)
				fprintf(f, "; %s β=%.2f%s", c->rows[i].workload, x->beta,
					x->status == ST_ADJ_REF_DIFFERS ? " (no verdict: host.ref differs)" : "");
			else if (x->status != ST_ADJ_OFF)
				fprintf(f, "; %s not adjusted", c->rows[i].workload);
		}
		fputs(".\n", f);
	}
	if (c->ncrows) {
		char ct[200];
		report_counter_tally(ct, sizeof ct, c);
		if (counters)
			fprintf(f, "\nCounters: %s. %s\n", ct, report_counter_rows_text);
		else
			fprintf(f, "\nCounters: %s; `sysab compare --counters` lists them.\n", ct);
	}
}

static void run_md(FILE *f, const struct summary *s)
{
	fprintf(f, "**run %lld**, kernel `%s`, host `%s`, status %s\n\n", (long long)s->run.id, s->run.kernel_release,
		s->run.hostname, s->run.status);
	fprintf(f, "| workload | copies | median | unit | CI95 | CV | n |\n|---|---:|---:|---|---:|---:|---:|\n");
	for (size_t i = 0; i < s->nslots; i++) {
		const struct summary_row *r = &s->rows[i];
		char v[48] = "-", u[64], hw[16], cv[16] = "-", n[16];
		if (r->n)
			report_cell_value(v, sizeof v, r->median, r->slot->latency, !report_rate_unit(r->slot->unit));
		report_table_unit(u, sizeof u, r->slot->unit, r->slot->latency);
		report_interval_cell(hw, sizeof hw, r->halfwidth);
		if (r->n > 1)
			snprintf(cv, sizeof cv, "%.1f%%", r->cv * 100);
		snprintf(n, sizeof n, "%zu", r->n);
		char cp[16];
		snprintf(cp, sizeof cp, "%d", r->slot->copies);
		fputs("|", f);
		cell(f, r->slot->workload);
		cell(f, cp);
		cell(f, v);
		cell(f, u);
		cell(f, hw);
		cell(f, cv);
		cell(f, n);
		fputs("\n", f);
	}
	for (size_t i = 0; i < s->nindex; i++)
		fprintf(f, "\n%s (%d cop%s): **%.1f** (%s)\n", s->index[i].name, s->index[i].copies,
			s->index[i].copies == 1 ? "y" : "ies", s->index[i].value, s->index[i].about);
}

/* An interval as "[lo, hi]" of percents, "" when either end is not finite. */
static void pct_interval(char *buf, size_t size, double lo, double hi)
{
	*buf = 0;
	if (isfinite(lo) && isfinite(hi)) {
		char l[16], h[16];
		report_pct(l, sizeof l, lo);
		report_pct(h, sizeof h, hi);
		snprintf(buf, size, "[%s, %s]", l, h);
	}
}

/* A factorial analysis: per workload its cells and its effects, as two tables. */
static void analyze_md(FILE *f, const struct an_analyze *a, const struct an_group_info *g)
{
	groups_md(f, g, 1);
	trust_md(f, &a->emu, g, 1, a->allowed_rows, &a->look, a->o.alpha);
	struct sb t = {0};
	report_within_text(&t, a);
	if (t.len)
		fprintf(f, "\n> %s.\n", sb_str(&t));
	sb_free(&t);
	int conf = (int)lround((1 - a->o.alpha) * 100);
	for (size_t i = 0; i < a->nrows; i++) {
		const struct an_frow *r = &a->rows[i];
		char name[96], u[48];
		snprintf(name, sizeof name, r->copies > 1 ? "%s/%d" : "%s", r->workload, r->copies);
		report_table_unit(u, sizeof u, r->unit, r->latency);
		fprintf(f, "\n### `%s` (%s)\n\n| cell | estimate, %d%% CI | runs | boots |\n|---|---:|---:|---:|\n", name, u,
			conf);
		for (size_t c = 0; c < a->ncells; c++) {
			struct sb cn = {0};
			an_cell_label(&cn, a, c);
			char n1[16], n2[16];
			snprintf(n1, sizeof n1, "%zu", r->have[c] ? r->est[c].nruns : 0);
			snprintf(n2, sizeof n2, "%zu", r->have[c] ? r->est[c].nboots : 0);
			fputs("|", f);
			cell(f, sb_str(&cn));
			value_cell(f, &r->val[c], r->latency, r->unit);
			cell(f, n1);
			cell(f, n2);
			fputs("\n", f);
			sb_free(&cn);
		}
		report_check_text(&t, &r->failed);
		if (t.len)
			fprintf(f, "\n%s\n", sb_str(&t));
		sb_free(&t);
		report_incomplete_text(&t, a, r);
		if (t.len)
			fprintf(f, "\n%s.\n", sb_str(&t));
		sb_free(&t);
		fprintf(f, "\n| effect | change | %d%% CI | q | verdict |\n|---|---:|---|---:|---|\n", conf);
		for (size_t k = 0; k < r->fa.neffects; k++) {
			const struct st_effect *ef = &r->fa.effects[k];
			char en[96], ch[16] = "", ci[40] = "", q[16] = "", v[32];
			an_effect_label(en, sizeof en, a, ef);
			report_effect_verdict_word(v, sizeof v, ef);
			if (isfinite(ef->c.d) && isfinite(r->chg[k].pct))
				report_pct(ch, sizeof ch, r->chg[k].pct);
			if (ef->c.verdict != ST_NO_DATA)
				pct_interval(ci, sizeof ci, r->chg[k].lo, r->chg[k].hi);
			if (isfinite(ef->c.q))
				report_q(q, sizeof q, ef->c.q);
			if (ef->c.verdict != ST_NO_DATA && r->chg[k].within) {
				report_no_verdict_cells(ci, sizeof ci, q, sizeof q);
			}
			fputs("|", f);
			cell(f, en);
			cell(f, ch);
			cell(f, ci);
			cell(f, q);
			cell(f, v);
			fputs("\n", f);
		}
	}
	if (*a->why_no_interval) {
		struct sb nt = {0};
		sb_addf(&nt, "\nNo interval (%s): an effect marked so is a point estimate, with no verdict. "
			     "To settle it: ",
			a->why_no_interval);
		report_settle_cells_text(&nt, a, g);
		fprintf(f, "%s.\n", sb_str(&nt));
		sb_free(&nt);
	}
	struct sb lg = {0};
	report_change_legend(&lg, "each effect", a->change_kinds);
	fprintf(f, "\n%s. (negligible): significant but inside the ±%g%% margin. q: Holm within each workload's "
		   "effects, then Benjamini-Hochberg across workloads. The text format (analyze without --format) prints each effect's caveats.\n",
		sb_str(&lg), a->o.margin * 100);
	sb_free(&lg);
}

static int render(FILE *f, const struct report_doc *d)
{
	if (d->kind == REPORT_COMPARE)
		compare_md(f, d->compare, d->groups, d->counters);
	else if (d->kind == REPORT_RUN)
		run_md(f, d->summary);
	else if (d->kind == REPORT_HISTORY)
		report_history_markdown(f, d->history, d->lines);
	else if (d->kind == REPORT_ANALYZE)
		analyze_md(f, d->analyze, d->groups);
	else if (d->kind == REPORT_CAMPAIGN)
		for (size_t i = 0; i < d->nviews; i++)
			report_campaign_markdown(f, &d->views[i]);
	else if (d->kind == REPORT_SYSTEM)
		report_system_markdown(f, d->system);
	else if (d->kind == REPORT_ALLOC)
		report_alloc_markdown(f, d->alloc);
	else
		return -1;
	return ferror(f) ? -1 : 0;
}

const struct report_format report_format_markdown = {
	"markdown",
	1u << REPORT_COMPARE | 1u << REPORT_RUN | 1u << REPORT_HISTORY | 1u << REPORT_ANALYZE | 1u << REPORT_CAMPAIGN |
		1u << REPORT_SYSTEM | 1u << REPORT_ALLOC,
	render,
	false,
};
