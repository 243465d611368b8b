/* history.c - `sysab history` as text (a line per change and a sparkline), JSON and markdown. Never computes. */
#include "report.h"
#include "analysis/history.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The eighths of a block, lowest first (UTF-8). */
static const char *const spark[] = {"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"};

/* At most width characters, each the estimate of the first boot it stands for, scaled
 * between the lowest and highest; '|' before the column holding the first boot of a change. */
static void sparkline(FILE *f, const struct an_history *h, size_t width)
{
	size_t n = h->nboots, cols = n < width ? n : width;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (h->boots[i].y < lo)
			lo = h->boots[i].y;
		if (h->boots[i].y > hi)
			hi = h->boots[i].y;
	}
	size_t ch = 0;
	for (size_t c = 0; c < cols; c++) {
		size_t a = c * n / cols, b = (c + 1) * n / cols;
		bool mark = false;
		while (ch < h->cp.nchanges && h->cp.changes[ch].index < b) {
			mark |= h->cp.changes[ch].index >= a;
			ch++;
		}
		if (mark)
			fputs("|", f);
		int k = hi > lo ? (int)floor((h->boots[a].y - lo) / (hi - lo) * 7.999) : 3;
		fputs(spark[k < 0 ? 0 : k > 7 ? 7 : k], f);
	}
	fputs("\n", f);
}

void report_history_confirm(struct sb *b, const struct an_history_change *c, const struct study_line *l)
{
	const struct st_plan *p = &c->confirm;
	if (!c->confirm_planned)
		sb_addf(b, "  confirm: the boots either side cannot be estimated, so no campaign is sized\n");
	else if (!p->feasible)
		sb_addf(b, "  confirm: no design within %zu boots of each side resolves %.2f%% at 80%% power\n", p->boots,
			fabs(c->c->pct));
	else
		sb_addf(b, "  confirm: %zu boots of each side, %zu run%s of %zu samples per boot (80%% power for %.2f%%)\n",
			p->boots, p->runs, p->runs == 1 ? "" : "s", p->samples, fabs(c->c->pct));
	if (l->line)
		sb_addf(b, "    %s\n", l->line);
	else if (l->why)
		sb_addf(b, "    no campaign line: %s\n", l->why);
	const struct study_bisect_offer *o = l->bisect;
	if (!o)
		return;
	sb_addf(b, "  bisect: %zu configuration%s lie between %s and %s (the ends of the change's interval), so "
		   "`sysab bisect` can find the one that changed it\n",
		o->between, o->between == 1 ? "" : "s", o->good, o->bad);
	if (o->line) {
		sb_addf(b, "    save these %zu lines as %s:\n", o->series.n, o->series_file);
		for (size_t i = 0; i < o->series.n; i++)
			sb_addf(b, "      %s\n", o->series.v[i]);
		sb_addf(b, "    %s\n", o->line);
	} else {
		sb_addf(b, "    no bisect line: %s\n", o->why);
	}
}

/* report_history_confirm, onto f. */
static void confirm_text(FILE *f, const struct an_history_change *c, const struct study_line *l)
{
	struct sb b = {0};
	report_history_confirm(&b, c, l);
	fputs(sb_str(&b), f);
	sb_free(&b);
}

void report_history_legend(struct sb *b, const struct an_history *h)
{
	report_change_legend(b, "after vs before", h->change_kinds);
}

/* The label of boot i: its --by value, or its boot id by time. */
static const char *label_of(const struct an_history *h, size_t i)
{
	return strcmp(h->by, "time") ? h->boots[i].value : h->boots[i].boot_id;
}

void report_history_edges(struct sb *b, const struct an_history *h)
{
	size_t n = h->nboots, hi = h->cp.tail_from, lo = h->cp.head_to;
	sb_addf(b, "boots %zu..%zu (%s..%s): too few boots after this point to judge (a change needs %d after it)\n", hi,
		n - 1, label_of(h, hi), label_of(h, n - 1), ST_CP_EDGE);
	sb_addf(b, "boots 1..%zu (%s..%s): too few boots before this point to judge (a change needs %d before it)\n", lo,
		label_of(h, 1), label_of(h, lo), ST_CP_EDGE);
}

void report_history_spread(struct sb *b, const struct an_history *h)
{
	const struct st_cp_spread *s = &h->cp.spread;
	if (!s->found)
		return;
	sb_addf(b, "spread change from boot %zu (%s): boot spread ", s->index, label_of(h, s->index));
	if (isfinite(s->ratio))
		sb_addf(b, "x%.2f", s->ratio);
	else
		sb_add(b, "from none");
	sb_addf(b, ", between-boot sd %.2f%% -> %.2f%% (p %.3f); a change of spread, not of the mean\n",
		100 * s->sd_before, 100 * s->sd_after, s->p);
}

/* The lines fill builds, onto f, each after prefix. */
static void lines_text(FILE *f, const struct an_history *h, const char *prefix,
		       void (*fill)(struct sb *, const struct an_history *))
{
	struct sb b = {0};
	fill(&b, h);
	for (const char *p = sb_str(&b), *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		fprintf(f, "%s%.*s\n", prefix, (int)(nl - p), p);
	}
	sb_free(&b);
}

static const char *what(const struct an_history *h)
{
	return *h->selector ? h->selector : "every run";
}

void report_history_text(FILE *f, const struct an_history *h, const struct study_line *confirm, size_t width)
{
	char unit[48];
	report_display_unit(h->unit ? h->unit : "op", 0, unit, sizeof unit);
	fprintf(f, "%s%s%.0d: %zu boots (%zu runs) of %s in order of %s%s\n", h->workload, h->copies > 1 ? "/" : "",
		h->copies > 1 ? h->copies : 0, h->nboots, h->nruns, what(h), h->by,
		strcmp(h->by, "time") ? " (version order)" : "");
	fprintf(f, "first %s=%s, last %s=%s; between-boot sd %.2f%%\n", h->by,
		strcmp(h->by, "time") ? h->boots[0].value : h->boots[0].boot_id, h->by,
		strcmp(h->by, "time") ? h->boots[h->nboots - 1].value : h->boots[h->nboots - 1].boot_id,
		100 * h->between_sd);
	sparkline(f, h, width > 20 ? width - 2 : 60);
	if (!h->cp.nchanges)
		fprintf(f, "no change (family-wise false-alarm level %g over the series)\n", h->opts.alpha);
	for (size_t i = 0; i < h->cp.nchanges; i++) {
		const struct an_history_change *c = &h->changes[i];
		const struct st_cp_change *s = c->c;
		fprintf(f, "change at boot %zu [%zu..%zu]: %s -> %s, %+.2f%% %s [%+.2f, %+.2f] (p %.3f)\n", s->index,
			s->index_lo, s->index_hi, c->label_before, c->label_after, c->chg.pct,
			c->slower ? "slower" : "faster", c->chg.lo, c->chg.hi, s->p);
		if (confirm)
			confirm_text(f, c, &confirm[i]);
	}
	lines_text(f, h, "", report_history_spread);
	lines_text(f, h, "", report_history_edges);
	if (h->dropped_runs)
		fprintf(f, "note: %zu selected run%s without the label %s left out\n", h->dropped_runs,
			h->dropped_runs == 1 ? "" : "s", h->by);
	if (h->cp.nchanges) {
		struct sb lg = {0};
		report_history_legend(&lg, h);
		fprintf(f, "boot indexes count from 0 in this order; %s, %g%% intervals\n", sb_str(&lg),
			100 * h->opts.conf);
		sb_free(&lg);
	}
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* --confirm in JSON: the design per side, and the campaign as argv and line, or why none. */
static json_t *confirm_json(const struct an_history_change *c, const struct study_line *l)
{
	json_t *o = json_object();
	const struct st_plan *p = &c->confirm;
	json_object_set_new(o, "planned", json_boolean(c->confirm_planned && p->feasible));
	if (c->confirm_planned && p->feasible) {
		json_object_set_new(o, "boots", json_integer((json_int_t)p->boots));
		json_object_set_new(o, "runs", json_integer((json_int_t)p->runs));
		json_object_set_new(o, "samples", json_integer((json_int_t)p->samples));
		json_object_set_new(o, "power", json_real(0.8));
	}
	report_study_line_json(o, l);
	const struct study_bisect_offer *bo = l->bisect;
	json_t *bj = json_null();
	if (bo) {
		bj = json_object();
		json_object_set_new(bj, "good", json_string(bo->good));
		json_object_set_new(bj, "bad", json_string(bo->bad));
		json_object_set_new(bj, "between", json_integer((json_int_t)bo->between));
		if (bo->line) {
			json_t *se = json_array(), *a = json_array();
			for (size_t i = 0; i < bo->series.n; i++)
				json_array_append_new(se, json_string(bo->series.v[i]));
			json_array_append_new(a, json_string("sysab"));
			for (size_t i = 0; i < bo->argv.n; i++)
				json_array_append_new(a, json_string(bo->argv.v[i]));
			json_object_set_new(bj, "series_file", json_string(bo->series_file));
			json_object_set_new(bj, "series", se);
			json_object_set_new(bj, "argv", a);
			json_object_set_new(bj, "line", json_string(bo->line));
		} else {
			json_object_set_new(bj, "why", json_string(bo->why));
		}
	}
	json_object_set_new(o, "bisect", bj);
	return o;
}

char *report_history_json(const struct an_history *h, const struct study_line *confirm)
{
	json_t *d = json_object();
	json_object_set_new(d, "schema_version", json_integer(REPORT_SCHEMA_VERSION));
	json_object_set_new(d, "kind", json_string("history"));
	json_object_set_new(d, "workload", json_string(h->workload));
	json_object_set_new(d, "copies", json_integer(h->copies));
	json_object_set_new(d, "unit", json_string(h->unit ? h->unit : "op"));
	json_object_set_new(d, "by", json_string(h->by));
	json_object_set_new(d, "selector", json_string(h->selector));
	json_object_set_new(d, "alpha", json_real(h->opts.alpha));
	json_object_set_new(d, "conf", json_real(h->opts.conf));
	json_object_set_new(d, "between_boot_sd", num(h->between_sd));
	json_object_set_new(d, "dropped_runs", json_integer((json_int_t)h->dropped_runs));
	json_t *cps = json_array();
	for (size_t i = 0; i < h->cp.nchanges; i++) {
		const struct an_history_change *c = &h->changes[i];
		json_t *o = json_object();
		json_object_set_new(o, "index", json_integer((json_int_t)c->c->index));
		json_object_set_new(o, "index_lo", json_integer((json_int_t)c->c->index_lo));
		json_object_set_new(o, "index_hi", json_integer((json_int_t)c->c->index_hi));
		json_object_set_new(o, "label_before", json_string(c->label_before));
		json_object_set_new(o, "label_after", json_string(c->label_after));
		json_object_set_new(o, "boot_before", json_string(c->boot_before));
		json_object_set_new(o, "boot_after", json_string(c->boot_after));
		json_object_set_new(o, "direction", json_string(c->slower ? "slower" : "faster"));
		json_object_set_new(o, "pct", num(c->c->pct));
		json_object_set_new(o, "pct_lo", num(c->c->pct_lo));
		json_object_set_new(o, "pct_hi", num(c->c->pct_hi));
		json_object_set_new(o, "display_pct", num(c->chg.pct));
		json_object_set_new(o, "display_pct_lo", num(c->chg.lo));
		json_object_set_new(o, "display_pct_hi", num(c->chg.hi));
		json_object_set_new(o, "p", num(c->c->p));
		json_object_set_new(o, "segment_lo", json_integer((json_int_t)c->c->seg_lo));
		json_object_set_new(o, "segment_hi", json_integer((json_int_t)c->c->seg_hi));
		if (confirm)
			json_object_set_new(o, "confirm", confirm_json(c, &confirm[i]));
		json_array_append_new(cps, o);
	}
	json_object_set_new(d, "change_points", cps);
	/* the boots where a change cannot be judged (report_history_edges) */
	json_t *ed = json_object();
	json_object_set_new(ed, "min_boots", json_integer(ST_CP_EDGE));
	json_object_set_new(ed, "too_few_after_from", json_integer((json_int_t)h->cp.tail_from));
	json_object_set_new(ed, "too_few_before_to", json_integer((json_int_t)h->cp.head_to));
	json_object_set_new(d, "unjudged", ed);
	/* a change of spread, apart from the changes of mean (report_history_spread) */
	const struct st_cp_spread *sp = &h->cp.spread;
	json_t *sc = json_null();
	if (sp->found) {
		sc = json_object();
		json_object_set_new(sc, "index", json_integer((json_int_t)sp->index));
		json_object_set_new(sc, "label", json_string(label_of(h, sp->index)));
		json_object_set_new(sc, "ratio", num(sp->ratio));
		json_object_set_new(sc, "between_boot_sd_before", num(sp->sd_before));
		json_object_set_new(sc, "between_boot_sd_after", num(sp->sd_after));
		json_object_set_new(sc, "p", num(sp->p));
	}
	json_object_set_new(d, "spread_tested", json_boolean(sp->tested));
	json_object_set_new(d, "spread_change", sc);
	if (h->cp.nchanges) {
		struct sb lg = {0};
		report_history_legend(&lg, h);
		json_object_set_new(d, "change_legend", json_string(sb_str(&lg)));
		sb_free(&lg);
	}
	json_t *bs = json_array();
	for (size_t i = 0; i < h->nboots; i++) {
		const struct an_history_boot *b = &h->boots[i];
		json_t *o = json_object();
		json_object_set_new(o, "index", json_integer((json_int_t)i));
		json_object_set_new(o, "boot", json_string(b->boot_id));
		json_object_set_new(o, "label", strcmp(h->by, "time") ? json_string(b->value) : json_null());
		json_object_set_new(o, "runs", json_integer((json_int_t)b->nruns));
		json_object_set_new(o, "samples", json_integer((json_int_t)b->nsamples));
		json_object_set_new(o, "ops", num(b->v.ops));
		json_object_set_new(o, "lo", num(b->v.lo));
		json_object_set_new(o, "hi", num(b->v.hi));
		json_object_set_new(o, "level_ops", num(b->level_ops));
		json_array_append_new(bs, o);
	}
	json_object_set_new(d, "boots", bs);
	char *s = json_dumps(d, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(d);
	return s;
}

void report_history_markdown(FILE *f, const struct an_history *h, const struct study_line *confirm)
{
	fprintf(f, "**%s** over %zu boots of %s, in order of `%s`\n\n", h->workload, h->nboots, what(h), h->by);
	if (!h->cp.nchanges) {
		fprintf(f, "No change (family-wise false-alarm level %g).\n\n", h->opts.alpha);
		lines_text(f, h, "- ", report_history_spread);
		lines_text(f, h, "- ", report_history_edges);
		return;
	}
	fprintf(f, "| first changed boot | %g%% interval | before | after | change | %g%% interval |\n", 100 * h->opts.conf,
		100 * h->opts.conf);
	fprintf(f, "|---:|---|---|---|---:|---|\n");
	for (size_t i = 0; i < h->cp.nchanges; i++) {
		const struct an_history_change *c = &h->changes[i];
		fprintf(f, "| %zu | %zu..%zu | `%s` | `%s` | %+.2f%% %s | [%+.2f%%, %+.2f%%] |\n", c->c->index,
			c->c->index_lo, c->c->index_hi, c->label_before, c->label_after, c->chg.pct,
			c->slower ? "slower" : "faster", c->chg.lo, c->chg.hi);
	}
	struct sb lg = {0};
	report_history_legend(&lg, h);
	fprintf(f, "\n%s.\n\n", sb_str(&lg));
	sb_free(&lg);
	lines_text(f, h, "- ", report_history_spread);
	lines_text(f, h, "- ", report_history_edges);
	for (size_t i = 0; confirm && i < h->cp.nchanges; i++) {
		const struct an_history_change *c = &h->changes[i];
		fprintf(f, "\nTo confirm `%s` → `%s`:\n\n```\n", c->label_before, c->label_after);
		confirm_text(f, c, &confirm[i]);
		fprintf(f, "```\n");
	}
}
