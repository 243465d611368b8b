/* compare.c - B versus A, linear contrasts, verdicts, Benjamini-Hochberg adjustment. */
#include "stats/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

struct st_compare_opts stats_compare_defaults(void)
{
	return (struct st_compare_opts){.alpha = 0.05, .margin = 0.01, .unit = ST_LEVEL_BOOT};
}

bool stats_is_sequential(const struct st_compare_opts *o)
{
	return o->look > 0 && o->max_boots > 0;
}

/* The information fractions of looks 1..o->look, the last at info (clamped to 1): earlier
 * looks are taken as evenly spaced in information up to it. NULL when info is not > 0. */
static double *look_times(const struct st_compare_opts *o, double info)
{
	double tk = info > 1 ? 1 : info;
	if (!(tk > 0))
		return NULL;
	size_t k = o->look;
	double *t = xmalloc(k * sizeof *t);
	for (size_t j = 0; j < k; j++)
		t[j] = tk * (double)(j + 1) / (double)k;
	return t;
}

/* The design of o with its last look at info: false (s empty) when o is a fixed design
 * or the design cannot be worked out, which then uses o->alpha. */
static bool look_design(const struct st_compare_opts *o, double info, struct st_seq *s)
{
	memset(s, 0, sizeof *s);
	if (!stats_is_sequential(o))
		return false;
	double *t = look_times(o, info);
	bool ok = t && stats_seq_make(s, o->alpha, t, o->look);
	free(t);
	return ok;
}

double stats_look_alpha(const struct st_compare_opts *o, double info)
{
	struct st_seq s;
	if (!look_design(o, info, &s))
		return o->alpha;
	double a = stats_seq_level(&s);
	stats_seq_free(&s);
	return isnan(a) ? o->alpha : a;
}

/* The t quantile at probability Phi(x), from the nearer tail. */
static double t_at_normal(double x, double df)
{
	return x > 0 ? -stats_t_quantile(gsl_cdf_ugaussian_Q(x), df) : stats_t_quantile(gsl_cdf_ugaussian_P(x), df);
}

/* The stage-wise (1 - alpha) interval of d for a design that ends at this look
 * (stats_seq_stagewise), on the t scale: t = d / se is carried to the z scale by its
 * probability, and each bound mu of the mean of Z back by d - se t_df^{-1}(Phi(z - mu)),
 * which for one look is d -/+ t_{df, 1-alpha/2} se. */
static void stagewise(struct st_comparison *c, const struct st_seq *s)
{
	c->sw_lo = c->sw_hi = NAN;
	if (!s->k || !(c->se > 0) || !isfinite(c->t))
		return;
	double z = c->t; /* the t statistic's z, from the nearer tail */
	if (!isinf(c->df))
		z = c->t > 0 ? gsl_cdf_ugaussian_Qinv(gsl_cdf_tdist_Q(c->t, c->df))
			     : gsl_cdf_ugaussian_Pinv(gsl_cdf_tdist_P(c->t, c->df));
	double mlo, mhi;
	if (!isfinite(z) || !stats_seq_stagewise(s, z, &mlo, &mhi))
		return;
	c->sw_lo = c->d - c->se * t_at_normal(z - mlo, c->df);
	c->sw_hi = c->d - c->se * t_at_normal(z - mhi, c->df);
	if (!isfinite(c->sw_lo) || !isfinite(c->sw_hi))
		c->sw_lo = c->sw_hi = NAN;
}

static double pct(double x)
{
	return 100 * expm1(x);
}

/* The verdict from q, the (1-alpha) and (1-2alpha) intervals. */
static void decide(struct st_comparison *c)
{
	if (isnan(c->se) || isnan(c->lo)) {
		c->verdict = ST_NO_DATA;
		c->negligible = false;
		return;
	}
	/* Replication: without the declared unit covered in both groups there is no verdict, and
	 * no q: the row is no test of any family (stats_interval_scope). */
	if (!(c->covered & ST_BIT(c->unit))) {
		c->caveats |= c->unit == ST_LEVEL_RUN ? ST_CAVEAT_NO_RUN_REPL : ST_CAVEAT_NO_BOOT_REPL;
		c->verdict = ST_INCONCLUSIVE;
		c->negligible = false;
		c->q = NAN;
		return;
	}
	/* --adjust host with a reference that differs between the groups: the adjustment would
	 * carry the treatment's effect on the reference into the row (METHOD.md), so no verdict. */
	if (c->caveats & ST_CAVEAT_HOST_REF_DIFFERS) {
		c->verdict = ST_INCONCLUSIVE;
		c->negligible = false;
		return;
	}
	bool inside = c->lo2 >= c->eq_lo && c->hi2 <= c->eq_hi;
	c->negligible = false;
	if (c->q < c->alpha) {
		c->verdict = c->d > 0 ? ST_FASTER : ST_SLOWER;
		c->negligible = inside;
	} else if (inside) {
		c->verdict = ST_EQUIVALENT;
	} else {
		c->verdict = ST_INCONCLUSIVE;
	}
	/* A sequential design that ends here (it crossed, or this is its last look) shows the
	 * stage-wise interval; a look it goes on from shows its repeated interval. */
	bool sw = !isnan(c->sw_lo) && (c->verdict == ST_FASTER || c->verdict == ST_SLOWER || c->last_look);
	c->lo = sw ? c->sw_lo : c->rci_lo;
	c->hi = sw ? c->sw_hi : c->rci_hi;
	c->pct_lo = pct(c->lo);
	c->pct_hi = pct(c->hi);
	c->caveats = sw ? c->caveats | ST_CAVEAT_STAGEWISE : c->caveats & ~ST_CAVEAT_STAGEWISE;
}

static enum st_need worse_need(enum st_need a, enum st_need b)
{
	return a > b ? a : b;
}

/* The two variance terms of B against A, for the dominance guard (stats_bf_df). */
struct two_terms {
	double v1, f1, v2, f2;
};

/* The guard's two terms of a contrast with nv >= 2 terms: for two, as they are (B against
 * A); for more, the largest term against the sum of the others with its Satterthwaite df. */
static struct two_terms two_terms_of(const double *v, const double *df, size_t nv)
{
	if (nv == 2)
		return (struct two_terms){v[0], df[0], v[1], df[1]};
	size_t big = 0;
	for (size_t i = 1; i < nv; i++)
		if (v[i] > v[big])
			big = i;
	double *rv = xmalloc(nv * sizeof *rv), *rf = xmalloc(nv * sizeof *rf), rest = 0;
	size_t n = 0;
	for (size_t i = 0; i < nv; i++)
		if (i != big) {
			rv[n] = v[i];
			rf[n++] = df[i];
			rest += v[i];
		}
	double frest = stats_satterthwaite(rv, rf, n);
	free(rv);
	free(rf);
	return (struct two_terms){v[big], df[big], rest, isnan(frest) ? INFINITY : frest};
}

/* Fill c from d, se, df and the options; se NAN means no interval. info: the
 * information fraction of this look in a sequential design; g: the two terms of the
 * dominance guard (NULL for a classic df). */
/* The row's design: its level (a sequential look's own, worked out once into seq for the
 * level and the stage-wise interval), unit, margin and the caveats they carry. */
static void row_design(struct st_comparison *c, const struct st_compare_opts *o, double info, struct st_seq *seq)
{
	c->alpha_design = o->alpha;
	c->sw_lo = c->sw_hi = NAN;
	c->alpha = look_design(o, info, seq) ? stats_seq_level(seq) : o->alpha;
	if (isnan(c->alpha))
		c->alpha = o->alpha;
	c->unit = o->unit;
	if (stats_is_sequential(o))
		c->caveats |= ST_CAVEAT_SEQUENTIAL;
	if (o->unit == ST_LEVEL_RUN)
		c->caveats |= ST_CAVEAT_RUN_UNIT;
	c->margin = o->margin;
	c->eq_lo = log1p(-o->margin);
	c->eq_hi = log1p(o->margin);
}

/* A row without an interval: no p, q or bounds, and a verdict that says why. */
static void no_interval(struct st_comparison *c, struct st_seq *seq)
{
	c->p = c->q = NAN;
	c->lo = c->hi = c->lo2 = c->hi2 = NAN;
	c->pct_lo = c->pct_hi = c->pct_lo2 = c->pct_hi2 = NAN;
	decide(c);
	stats_seq_free(seq);
}

static void finish(struct st_comparison *c, double d, double se, double df, double info,
		   const struct st_compare_opts *o, const struct two_terms *g)
{
	struct st_seq seq;
	row_design(c, o, info, &seq);
	if (g)
		df = stats_bf_df(g->v1, g->f1, g->v2, g->f2, df, c->alpha);
	c->d = d;
	c->pct = pct(d);
	c->se = se;
	c->df = df;
	/* No spread at all (and no rounding step to floor it): refuse rather than say p = 0. */
	if (se == 0) {
		c->caveats |= ST_CAVEAT_NO_VARIANCE;
		se = NAN;
	}
	if (isnan(se) || isnan(df)) {
		c->se = c->df = c->t = NAN;
		no_interval(c, &seq);
		return;
	}
	/* Fewer than 1 df: the t quantile explodes (or GSL cannot invert it); no verdict. */
	double t1 = se > 0 ? -stats_t_quantile(c->alpha / 2, df) : 0;
	double t2 = se > 0 ? -stats_t_quantile(c->alpha, df) : 0;
	/* An early look may spend so little alpha that its quantile is past double range:
	 * the interval is unbounded and the look cannot decide anything. */
	if (df >= 1 && c->alpha < 1e-12) {
		if (isnan(t1))
			t1 = INFINITY;
		if (isnan(t2))
			t2 = INFINITY;
	}
	if (df < 1 || isnan(t1) || isnan(t2)) {
		c->caveats |= ST_CAVEAT_LOW_DF;
		c->t = se > 0 ? d / se : NAN;
		no_interval(c, &seq);
		return;
	}
	if (se > 0) {
		c->t = d / se;
		c->p = stats_t_p2(c->t, df);
	} else {
		c->t = d == 0 ? 0 : copysign(INFINITY, d);
		c->p = d == 0 ? 1 : 0;
	}
	c->q = c->p;
	c->lo = c->rci_lo = d - t1 * se;
	c->hi = c->rci_hi = d + t1 * se;
	c->lo2 = d - t2 * se;
	c->hi2 = d + t2 * se;
	c->pct_lo = pct(c->lo);
	c->pct_hi = pct(c->hi);
	c->last_look = info >= 1;
	/* Only a look that crosses (q >= p, so the BH step can only take a crossing away) or
	 * the last can end the design. */
	if (c->p < c->alpha || c->last_look)
		stagewise(c, &seq);
	stats_seq_free(&seq);
	c->pct_lo2 = pct(c->lo2);
	c->pct_hi2 = pct(c->hi2);
	decide(c);
}

void stats_compare(const struct st_estimate *a, const struct st_estimate *b, const struct st_compare_opts *o,
		   struct st_comparison *out)
{
	const struct st_estimate *e[2] = {a, b};
	double c[2] = {-1, 1};
	stats_contrast(e, c, 2, o, out);
}

void stats_contrast(const struct st_estimate *const *est, const double *c, size_t n,
		    const struct st_compare_opts *o, struct st_comparison *out)
{
	memset(out, 0, sizeof *out);
	double d = 0, se2 = 0;
	double *v = xmalloc(n * sizeof *v), *df = xmalloc(n * sizeof *df);
	size_t nv = 0, fewest = SIZE_MAX;
	bool ok = true;
	out->covered = ST_BIT(ST_LEVEL_BOOT) | ST_BIT(ST_LEVEL_RUN) | ST_BIT(ST_LEVEL_WITHIN);
	for (size_t i = 0; i < n; i++) {
		if (c[i] == 0)
			continue;
		d += c[i] * est[i]->mean;
		if (est[i]->nboots < fewest)
			fewest = est[i]->nboots;
		out->caveats |= est[i]->caveats;
		out->covered &= est[i]->covered;
		out->need = worse_need(out->need, est[i]->need);
		if (!est[i]->has_interval) {
			ok = false;
			continue;
		}
		v[nv] = c[i] * c[i] * est[i]->se * est[i]->se;
		df[nv] = est[i]->df;
		se2 += v[nv];
		nv++;
	}
	/* More than two terms: the largest against the rest taken as one term with its
	 * Satterthwaite df, so that the df and the dominance guard (finish, at the look's
	 * level) are B against A's rule, whose level is calibrated at every ratio. */
	bool guard = ok && nv >= 2 && !o->classic_df;
	struct two_terms g = {0};
	if (guard)
		g = two_terms_of(v, df, nv);
	double ddf = !ok ? NAN
		     : o->classic_df ? stats_satterthwaite(v, df, nv)
		     : guard ? stats_satterthwaite((double[]){g.v1, g.v2}, (double[]){g.f1, g.f2}, 2)
			     : stats_satterthwaite(v, df, nv);
	if (ok && isnan(ddf)) /* every se is 0 */
		ddf = INFINITY;
	free(v);
	free(df);
	double info = o->max_boots && fewest != SIZE_MAX ? (double)fewest / (double)o->max_boots : 1;
	finish(out, d, ok ? sqrt(se2) : NAN, ddf, info, o, guard ? &g : NULL);
}

int stats_compare_rounds(const struct st_pairrun *p, size_t np, const struct st_compare_opts *o,
			 struct st_comparison *out, struct st_estimate *d, struct err *e)
{
	memset(out, 0, sizeof *out);
	if (!np)
		return errf(e, "no paired runs");
	struct st_run *runs = xcalloc(np, sizeof *runs);
	struct st_boot *boots = xcalloc(np, sizeof *boots);
	size_t nb = 0;
	for (size_t i = 0; i < np; i++) {
		runs[i] = (struct st_run){.y = p[i].d, .round = p[i].round, .n = p[i].n};
		if (!i || p[i].boot != p[i - 1].boot)
			boots[nb++] = (struct st_boot){&runs[i], 0};
		boots[nb - 1].nruns++;
	}
	struct st_group g = {.boots = boots, .nboots = nb};
	struct st_estimate est;
	int rc = 0;
	if (nb >= 2) { /* the boots are the replicates: the mean difference of each, as i.i.d. values */
		double *m = xcalloc(nb, sizeof *m);
		for (size_t b = 0; b < nb; b++)
			m[b] = stats_boot_mean(&boots[b]);
		stats_iid_estimate(m, nb, &est);
		free(m);
	} else {
		rc = stats_estimate_groups(&g, 1, &est, e);
	}
	free(runs);
	free(boots);
	if (rc)
		return -1;
	struct st_compare_opts u = *o;
	/* One paired run: its rounds replicate the host's phases, not the arms' runs. Each arm's
	 * workers are their own processes, and where their pages and caches landed is a
	 * run-level offset that no round cancels (A/A 40% in the grid at a run sd of 0.5%), so
	 * no interval: the runs are the smallest unit a verdict takes, as for unpaired runs. */
	bool one = nb < 2 && np < 2;
	if (nb < 2)
		u.unit = ST_LEVEL_RUN;
	out->caveats = est.caveats | ST_CAVEAT_PAIRED_ROUNDS | (one ? ST_CAVEAT_PAIRED_ONE_RUN : 0);
	out->covered = est.covered;
	out->need = one ? ST_NEED_RUNS : est.need;
	/* the information of a design over paired runs of one boot is its paired runs (run --arm
	 * --until decided); over boots, its boots */
	double info = o->max_boots ? (double)(nb >= 2 ? nb : np) / (double)o->max_boots : 1;
	bool interval = est.has_interval && !one;
	finish(out, est.mean, interval ? est.se : NAN, interval ? est.df : NAN, info, &u, NULL);
	if (d)
		*d = est;
	return 0;
}

void stats_compare_adjust(struct st_comparison *c, size_t n)
{
	double *p = xmalloc(n * sizeof *p);
	for (size_t i = 0; i < n; i++)
		p[i] = c[i].q;
	stats_bh(p, n, p);
	for (size_t i = 0; i < n; i++) {
		c[i].q = p[i];
		decide(&c[i]);
	}
	free(p);
}

void stats_compare_holm(struct st_comparison *c, size_t n)
{
	double *p = xmalloc(n * sizeof *p);
	for (size_t i = 0; i < n; i++)
		p[i] = c[i].q;
	stats_holm(p, n, p);
	for (size_t i = 0; i < n; i++)
		c[i].q = p[i];
	free(p);
}

enum st_scope stats_interval_scope(const struct st_comparison *c)
{
	if (isnan(c->lo) || isnan(c->hi))
		return ST_SCOPE_NONE;
	if (!(c->covered & ST_BIT(c->unit)))
		return c->unit == ST_LEVEL_RUN ? ST_SCOPE_WITHIN_RUN : ST_SCOPE_WITHIN_BOOT;
	return ST_SCOPE_VERDICT;
}
