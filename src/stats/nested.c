/* nested.c - batch means within runs, nested variance components, group estimates with borrowing. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Batch count for k units (samples, or rounds): floor(sqrt(k)) clamped to
 * [2, ST_MAX_BATCHES]; 0 when there are too few samples. */
static size_t batch_count(size_t k, size_t n)
{
	if (n < ST_MIN_BATCH_SAMPLES || k < 2)
		return 0;
	if (k < 4)
		return k; /* 2 or 3 rounds holding >= 4 samples: one batch each */
	size_t b = (size_t)floor(sqrt((double)k));
	if (b < 2)
		b = 2;
	if (b > ST_MAX_BATCHES)
		b = ST_MAX_BATCHES;
	return b;
}

/* The lag-1 autocorrelation of b batch means that b independent normal batch means exceed
 * ST_DIAG_RUN_RATE (1%) of the time: its 99% quantile, from 10^6 simulated sets per b. With
 * 3 batches r1 = -(B_2 - B)^2 / sum (B_j - B)^2 <= 0, so no test is possible below 4. (The
 * first rule, (r1 + 1/b) sqrt(b) > 2, asked r1 > 0.75 at b = 4, where r1 cannot pass 0.31,
 * and never fired below 7 batches.) */
static double r1_limit(size_t b)
{
	static const double q99[ST_MAX_BATCHES + 1] = {[4] = 0.293, [5] = 0.433, [6] = 0.488, [7] = 0.507,
						       [8] = 0.510, [9] = 0.510, [10] = 0.506};
	return b < 4 ? INFINITY : q99[b < ST_MAX_BATCHES ? b : ST_MAX_BATCHES];
}

void stats_run_batches(const struct st_run *r, struct st_runstat *out)
{
	if (r->sum) {
		*out = r->sum->b;
		out->mean += r->shift;
		return;
	}
	memset(out, 0, sizeof *out);
	out->n = r->n;
	out->mean = NAN;
	out->tau2 = out->var_mean = out->r1 = NAN;
	if (r->n == 0)
		return;
	double s = 0;
	for (size_t i = 0; i < r->n; i++)
		s += r->y[i];
	out->mean = s / (double)r->n + r->shift; /* a shift moves every batch mean alike: tau2 keeps */

	/* Units: samples, or runs of equal round index. start[u] is the first sample of unit u. */
	size_t k = 0;
	size_t *start = xmalloc((r->n + 1) * sizeof *start);
	for (size_t i = 0; i < r->n; i++)
		if (!r->round || i == 0 || r->round[i] != r->round[i - 1])
			start[k++] = i;
	start[k] = r->n;

	size_t b = batch_count(k, r->n);
	if (b < 2) {
		free(start);
		return;
	}
	size_t per = k / b, skip = k - b * per; /* the earliest units left over are dropped */
	double *bm = xmalloc(b * sizeof *bm), *bw = xmalloc(b * sizeof *bw);
	double wsum = 0, gm = 0;
	for (size_t j = 0; j < b; j++) {
		size_t lo = start[skip + j * per], hi = start[skip + (j + 1) * per];
		double t = 0;
		for (size_t i = lo; i < hi; i++)
			t += r->y[i];
		bw[j] = (double)(hi - lo);
		bm[j] = t / bw[j];
		wsum += bw[j];
		gm += t;
	}
	gm /= wsum;
	/* Long-run variance per sample: sum m_j (B_j - B)^2 / (b - 1); equals m var(B) for equal m. */
	double ss = 0, ss0 = 0, c1 = 0, bbar = 0;
	for (size_t j = 0; j < b; j++) {
		ss += bw[j] * (bm[j] - gm) * (bm[j] - gm);
		bbar += bm[j];
	}
	bbar /= (double)b;
	for (size_t j = 0; j < b; j++)
		ss0 += (bm[j] - bbar) * (bm[j] - bbar);
	for (size_t j = 0; j + 1 < b; j++)
		c1 += (bm[j] - bbar) * (bm[j + 1] - bbar);
	out->nbatches = b;
	out->batch_size = (size_t)llround(wsum / (double)b);
	out->tau2 = ss / (double)(b - 1);
	out->var_mean = out->tau2 / (double)r->n;
	out->df = (double)(b - 1);
	if (b >= 3 && ss0 > 0) {
		out->r1 = c1 / ss0;
		out->autocorr = b >= 4 && out->r1 > r1_limit(b);
	}
	free(bm);
	free(bw);
	free(start);
}

double stats_run_halfwidth(const struct st_run *r, double conf)
{
	struct st_runstat rs;
	stats_run_batches(r, &rs);
	if (rs.nbatches < 2 || !(rs.var_mean >= 0) || rs.df < ST_MIN_INTERVAL_DF)
		return INFINITY;
	return expm1(stats_t_quantile(0.5 + conf / 2, rs.df) * sqrt(rs.var_mean));
}

/* Per-group working numbers, shared by estimation and borrowing. */
struct gwork {
	size_t nb, R, N;
	double *bmean;  /* boot means */
	double *rmean;  /* run means, all runs in order */
	double s2m;     /* sample variance of boot means (nb >= 2) */
	double ms_run;  /* pooled within-boot variance of run means (R > nb) */
	double tau2, df_w; /* pooled long-run within-run variance per sample */
	double c_run;   /* E[ms_run] = var_run + c_run tau2 */
	double k_boot;  /* mean over boots of sum_j (1/n_bj) / r_b^2 */
	double m1;      /* mean over boots of 1 / r_b */
	double r1sum, r1var; /* pooled autocorrelation: sum (r1 + 1/b), sum 1/b */
	size_t nr1;
	size_t nauto, nauto_flagged; /* runs with >= 4 batches (the test needs them), and flagged */
	double res;     /* relative rounding step of the values (0: none found) */
	const struct st_group_adj *adj; /* the host-speed adjustment's cost, or NULL */
};

/* The rounding exponent of the values x = e^y of group g: lowers *k to the largest
 * power of ten in [1e-6, 1e9] of which every value is a whole multiple (to 1e-9
 * in units of the step), or below -6 when there is none (measured values never are). The
 * groups of one analysis share one step: they came from one source, and a group whose
 * values all equal 100 says nothing about its own precision. */
static void run_round_exp(const struct st_run *run, int *k)
{
	if (run->sum && *k <= 9) {
		stats_round_map_apply(run->sum->round_map, k);
		return;
	}
	for (size_t i = 0; i < run->n && *k >= -6; i++) {
		double x = exp(run->y[i]);
		/* More than 8 significant digits is a measurement, not a rounded value. */
		int kmin = (int)floor(log10(x)) - 8;
		while (*k >= -6 && *k >= kmin) {
			double q = x / pow(10, *k);
			if (fabs(q - nearbyint(q)) <= 1e-6 && nearbyint(q) >= 1)
				break;
			(*k)--;
		}
		if (*k < kmin)
			*k = -7;
	}
}

static void group_round_exp(const struct st_group *g, int *k)
{
	for (size_t b = 0; b < g->nboots; b++)
		for (size_t r = 0; r < g->boots[b].nruns; r++)
			run_round_exp(&g->boots[b].runs[r], k);
}

void stats_run_round_map(const struct st_run *r, char map[ST_ROUND_MAP_LEN + 1])
{
	for (int i = 0; i < ST_ROUND_MAP_LEN; i++) {
		int k = ST_ROUND_EXP_MIN + i;
		run_round_exp(r, &k);
		map[i] = (char)('a' + (k - ST_ROUND_EXP_MIN + 1));
	}
	map[ST_ROUND_MAP_LEN] = 0;
}

bool stats_round_map_apply(const char *map, int *k)
{
	if (!map || strlen(map) != ST_ROUND_MAP_LEN)
		return false;
	for (int i = 0; i < ST_ROUND_MAP_LEN; i++)
		if (map[i] < 'a' || map[i] > 'a' + ST_ROUND_MAP_LEN)
			return false;
	if (*k >= ST_ROUND_EXP_MIN)
		*k = map[*k - ST_ROUND_EXP_MIN] - 'a' + ST_ROUND_EXP_MIN - 1;
	return true;
}

static int check_group(const struct st_group *g, size_t gi, struct err *e)
{
	for (size_t b = 0; b < g->nboots; b++) {
		if (g->boots[b].nruns == 0)
			return errf(e, "group %zu, boot %zu has no runs", gi + 1, b + 1);
		for (size_t r = 0; r < g->boots[b].nruns; r++) {
			const struct st_run *run = &g->boots[b].runs[r];
			if (run->n == 0)
				return errf(e, "group %zu, boot %zu, run %zu has no samples", gi + 1, b + 1, r + 1);
			for (size_t i = 0; !run->sum && i < run->n; i++)
				if (!isfinite(run->y[i]))
					return errf(e, "group %zu, boot %zu, run %zu: sample %zu is not a finite number",
						    gi + 1, b + 1, r + 1, i + 1);
		}
	}
	return 0;
}

static void gwork_fill(const struct st_group *g, struct gwork *w, int round_exp)
{
	memset(w, 0, sizeof *w);
	w->nb = g->nboots;
	w->adj = g->adj;
	for (size_t b = 0; b < g->nboots; b++)
		w->R += g->boots[b].nruns;
	w->bmean = xmalloc(w->nb * sizeof *w->bmean);
	w->rmean = xmalloc(w->R * sizeof *w->rmean);
	double tsum = 0, ss_run = 0, sum_cr = 0;
	size_t ri = 0;
	for (size_t b = 0; b < g->nboots; b++) {
		const struct st_boot *bt = &g->boots[b];
		double rb = (double)bt->nruns, bs = 0, inv_n = 0;
		size_t first = ri;
		for (size_t r = 0; r < bt->nruns; r++) {
			struct st_runstat rs;
			stats_run_batches(&bt->runs[r], &rs);
			w->N += rs.n;
			w->rmean[ri++] = rs.mean;
			bs += rs.mean;
			inv_n += 1.0 / (double)rs.n;
			if (rs.nbatches >= 2) {
				tsum += rs.df * rs.tau2;
				w->df_w += rs.df;
			}
			if (!isnan(rs.r1)) {
				w->r1sum += rs.r1 + 1.0 / (double)rs.nbatches;
				w->r1var += 1.0 / (double)rs.nbatches;
				w->nr1++;
			}
			w->nauto += rs.nbatches >= 4;
			w->nauto_flagged += rs.autocorr;
		}
		w->bmean[b] = bs / rb;
		for (size_t j = first; j < ri; j++)
			ss_run += (w->rmean[j] - w->bmean[b]) * (w->rmean[j] - w->bmean[b]);
		sum_cr += (1 - 1 / rb) * inv_n;
		w->k_boot += inv_n / (rb * rb);
		w->m1 += 1 / rb;
	}
	w->k_boot /= (double)w->nb;
	w->m1 /= (double)w->nb;
	w->tau2 = w->df_w > 0 ? tsum / w->df_w : NAN;
	w->s2m = w->nb >= 2 ? stats_mean_var(w->bmean, w->nb, NULL) : NAN;
	w->ms_run = w->R > w->nb ? ss_run / (double)(w->R - w->nb) : NAN;
	w->c_run = w->R > w->nb ? sum_cr / (double)(w->R - w->nb) : 0;
	/* Relative step at the group's geometric mean (the mean of its run means). */
	if (round_exp >= -6 && w->R > 0) {
		double m = 0;
		for (size_t r = 0; r < w->R; r++)
			m += w->rmean[r];
		w->res = pow(10, round_exp) / exp(m / (double)w->R);
	}
}

static void gwork_free(struct gwork *w)
{
	free(w->bmean);
	free(w->rmean);
}

/* Components from the working numbers, taking tau2/run from comp where they
 * are not in the group's own data (comp->have says which are own). */
static void components(const struct gwork *w, struct st_components *c)
{
	double tau2 = (c->have & ST_BIT(ST_LEVEL_WITHIN)) ? w->tau2 : c->raw_within;
	double df_w = (c->have & ST_BIT(ST_LEVEL_WITHIN)) ? w->df_w : c->df_within;
	if (isnan(tau2)) {
		tau2 = 0; /* no within-run information anywhere: the run level absorbs it */
		df_w = INFINITY;
	}
	if (c->have & ST_BIT(ST_LEVEL_WITHIN)) {
		c->raw_within = w->tau2;
		c->df_within = w->df_w;
	}
	if (w->R > w->nb) {
		c->raw_run = w->ms_run - w->c_run * tau2;
		double v[2] = {w->ms_run, -w->c_run * tau2}, df[2] = {(double)(w->R - w->nb), df_w};
		c->df_run = stats_satterthwaite(v, df, 2);
		if (isnan(c->df_run)) /* a negative estimate: keep the df of its mean square */
			c->df_run = df[0];
	}
	if (w->nb >= 2) {
		double run = isnan(c->raw_run) ? 0 : c->raw_run;
		c->raw_boot = w->s2m - w->m1 * run - w->k_boot * tau2;
		if (w->R > w->nb) {
			double v[3] = {w->s2m, -w->m1 * w->ms_run, (w->m1 * w->c_run - w->k_boot) * tau2};
			double df[3] = {(double)(w->nb - 1), (double)(w->R - w->nb), df_w};
			c->df_boot = stats_satterthwaite(v, df, 3);
		} else {
			double v[3] = {w->s2m, -w->m1 * run, -w->k_boot * tau2};
			double df[3] = {(double)(w->nb - 1), c->df_run, df_w};
			c->df_boot = stats_satterthwaite(v, df, 3);
		}
		if (isnan(c->df_boot))
			c->df_boot = (double)(w->nb - 1);
	}
	/* Upper bounds: the level's mean square at its ST_PLAN_COMPONENT_UCB bound, less the levels below. */
	double run0 = isnan(c->raw_run) ? 0 : (c->raw_run > 0 ? c->raw_run : 0);
	if (df_w > 0 && isfinite(df_w) && (c->have & ST_BIT(ST_LEVEL_WITHIN)))
		c->ub_within = tau2 * df_w / stats_chisq_quantile(1 - ST_PLAN_COMPONENT_UCB, df_w);
	else if (!isnan(c->raw_within))
		c->ub_within = c->raw_within > 0 ? c->raw_within : 0;
	/* When the levels below take all of it, the pilot cannot tell the level from them: its
	 * bound is then the whole mean square (conservative), marked in ub_whole. */
	c->ub_whole = 0;
	if (w->R > w->nb) {
		double f = (double)(w->R - w->nb);
		double ms = w->ms_run * f / stats_chisq_quantile(1 - ST_PLAN_COMPONENT_UCB, f);
		c->ub_run = ms - w->c_run * tau2;
		if (!(c->ub_run > 0) && ms > 0) {
			c->ub_run = ms;
			c->ub_whole |= ST_BIT(ST_LEVEL_RUN);
		}
	}
	if (w->nb >= 2) {
		double f = (double)(w->nb - 1);
		double ms = w->s2m * f / stats_chisq_quantile(1 - ST_PLAN_COMPONENT_UCB, f);
		c->ub_boot = ms - w->m1 * run0 - w->k_boot * tau2;
		if (!(c->ub_boot > 0) && ms > 0) {
			c->ub_boot = ms;
			c->ub_whole |= ST_BIT(ST_LEVEL_BOOT);
		}
	}
	if (!(c->ub_run > 0))
		c->ub_run = NAN;
	if (!(c->ub_boot > 0))
		c->ub_boot = NAN;
	c->var_boot = c->raw_boot > 0 ? c->raw_boot : 0;
	c->var_run = c->raw_run > 0 ? c->raw_run : 0;
	c->var_within = c->raw_within > 0 ? c->raw_within : 0;
	if (isnan(c->raw_boot))
		c->var_boot = NAN;
	if (isnan(c->raw_run))
		c->var_run = NAN;
	if (isnan(c->raw_within))
		c->var_within = NAN;
}

static void own_components(const struct gwork *w, struct st_components *c)
{
	*c = (struct st_components){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0, NAN, NAN, NAN, 0};
	if (w->df_w > 0)
		c->have |= ST_BIT(ST_LEVEL_WITHIN);
	if (w->R > w->nb)
		c->have |= ST_BIT(ST_LEVEL_RUN);
	if (w->nb >= 2 && w->R > w->nb)
		c->have |= ST_BIT(ST_LEVEL_BOOT);
	components(w, c);
	/* A level not separable from the one above stays unknown until borrowed. */
	if (!(c->have & ST_BIT(ST_LEVEL_BOOT)))
		c->raw_boot = c->var_boot = c->df_boot = c->ub_boot = NAN;
}

/* The ST_PLAN_COMPONENT_UCB upper bound of a borrowed (pooled) estimate raw with df degrees of freedom. */
static double borrowed_ub(double raw, double df)
{
	if (!(raw > 0) || !(df > 0))
		return NAN;
	return isinf(df) ? raw : raw * df / stats_chisq_quantile(1 - ST_PLAN_COMPONENT_UCB, df);
}

/* Pooled raw estimate of a level over the groups that have it: df-weighted. */
static bool pooled(const struct st_estimate *est, size_t n, enum st_level lv, double *raw, double *df)
{
	double s = 0, d = 0;
	for (size_t g = 0; g < n; g++) {
		const struct st_components *c = &est[g].own;
		if (!(c->have & ST_BIT(lv)))
			continue;
		double r = lv == ST_LEVEL_BOOT ? c->raw_boot : lv == ST_LEVEL_RUN ? c->raw_run : c->raw_within;
		double f = lv == ST_LEVEL_BOOT ? c->df_boot : lv == ST_LEVEL_RUN ? c->df_run : c->df_within;
		if (isnan(r) || !(f > 0) || (lv == ST_LEVEL_BOOT && f < 1))
			continue;
		if (isinf(f))
			f = 1e6;
		s += f * r;
		d += f;
	}
	if (d == 0 || (lv == ST_LEVEL_BOOT && d < ST_MIN_BORROW_DF))
		return false;
	*raw = s / d;
	*df = d;
	return true;
}

/* Interval for one group given its working numbers and the borrowed components. */
/* Long by design: every term of the interval (rounding, adjustment, borrowed levels) and its df in one pass. */
static void group_interval(const struct gwork *w, struct st_estimate *o, const bool can[ST_NLEVELS],
			   bool can_refused)
{
	const struct st_components *u = &o->used;
	double v[4] = {0}, df[4] = {0};
	size_t nv = 0;
	o->se = o->df = NAN;
	/* Each value carries at least the rounding variance step^2/12 of its input; the
	 * floor uses the count of units the term averages (no credit for averaging within). */
	double q2 = w->res * w->res / 12;
	size_t units = 1;
	if (w->nb >= 2) {
		v[nv] = w->s2m / (double)w->nb;
		df[nv++] = (double)(w->nb - 1);
		units = w->nb;
		o->covered = ST_BIT(ST_LEVEL_BOOT) | ST_BIT(ST_LEVEL_RUN) | ST_BIT(ST_LEVEL_WITHIN);
	} else if (w->R >= 2) {
		v[nv] = stats_mean_var(w->rmean, w->R, NULL) / (double)w->R;
		df[nv++] = (double)(w->R - 1);
		units = w->R;
		o->covered = ST_BIT(ST_LEVEL_RUN) | ST_BIT(ST_LEVEL_WITHIN);
	} else if (w->df_w > 0) {
		v[nv] = w->tau2 / (double)w->N;
		df[nv++] = w->df_w;
		o->covered = ST_BIT(ST_LEVEL_WITHIN);
	} else {
		o->covered = 0;
		o->caveats |= w->N == 1 ? ST_CAVEAT_SINGLE_OBS : ST_CAVEAT_NO_VARIANCE;
		o->need = w->N == 1 ? ST_NEED_RUNS : ST_NEED_SAMPLES;
		return;
	}
	/* The host-speed adjustment: the slope spent h of the term's df, and its own error. */
	if (w->adj && w->adj->h > 0 && df[0] - w->adj->h > 0) {
		v[0] *= df[0] / (df[0] - w->adj->h);
		df[0] -= w->adj->h;
	}
	if (w->adj && w->adj->var_b > 0) {
		v[nv] = w->adj->var_b;
		df[nv++] = w->adj->df_b;
	}
	o->resolution = w->res;
	if (q2 > 0 && v[0] < q2 / (double)units) {
		v[0] = q2 / (double)units;
		o->caveats |= ST_CAVEAT_QUANTISED;
	}
	/* Levels above what the group itself replicates: borrowed, or not covered. */
	if (!(o->covered & ST_BIT(ST_LEVEL_RUN))) {
		if (can[ST_LEVEL_RUN] && !isnan(u->var_run)) {
			v[nv] = u->var_run; /* one run */
			df[nv++] = u->df_run;
			o->covered |= ST_BIT(ST_LEVEL_RUN);
			o->caveats |= ST_CAVEAT_BORROWED_RUN;
		} else {
			o->caveats |= ST_CAVEAT_NO_RUN_LEVEL;
			o->need = ST_NEED_RUNS;
		}
	}
	if (!(o->covered & ST_BIT(ST_LEVEL_BOOT))) {
		/* Only a positive estimate is lent: a pooled estimate <= 0 (truncated) would lend
		 * nothing, and the row would get a verdict with no boot level at all. */
		if (can[ST_LEVEL_BOOT] && u->var_boot > 0) {
			v[nv] = u->var_boot; /* one boot */
			df[nv++] = u->df_boot;
			o->covered |= ST_BIT(ST_LEVEL_BOOT);
			o->caveats |= ST_CAVEAT_BORROWED_BOOT;
		} else {
			o->caveats |= ST_CAVEAT_NO_BOOT_LEVEL;
			if (can[ST_LEVEL_BOOT])
				o->caveats |= ST_CAVEAT_BORROW_NONPOS;
			else if (can_refused)
				o->caveats |= ST_CAVEAT_BORROW_REFUSED;
		}
		o->need = ST_NEED_BOOTS;
	}
	double se2 = 0;
	for (size_t i = 0; i < nv; i++)
		se2 += v[i];
	o->se = sqrt(se2);
	o->df = stats_satterthwaite(v, df, nv);
	if (isnan(o->df)) /* every term was zero: no spread at all */
		o->df = df[0];
	/* Adjusted: the df down to a multiple of 1/2 (conservative), so that the guard's df keys
	 * (stats_bf_tau, cached) stay few although the slope's share h varies continuously. */
	if (w->adj && o->df > 1)
		o->df = floor(2 * o->df) / 2;
	o->has_interval = true;
}

int stats_estimate_groups(const struct st_group *groups, size_t ngroups, struct st_estimate *out, struct err *e)
{
	return stats_estimate_groups_scale(groups, ngroups, false, out, e);
}

/* Group g's own estimate: its mean, shape and the components its own data carries. */
static void group_own(const struct st_group *grp, struct gwork *w, int round_exp, struct st_estimate *o)
{
	memset(o, 0, sizeof *o);
	o->mean = o->se = o->df = o->r1 = o->r1_z = NAN;
	if (grp->nboots == 0) {
		o->caveats = ST_CAVEAT_NO_VARIANCE;
		o->need = ST_NEED_RUNS;
		o->own = o->used = (struct st_components){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0, NAN, NAN, NAN, 0};
		return;
	}
	gwork_fill(grp, w, round_exp);
	double m = 0;
	for (size_t b = 0; b < w->nb; b++)
		m += w->bmean[b];
	o->mean = m / (double)w->nb;
	o->nboots = w->nb;
	o->nruns = w->R;
	o->nsamples = w->N;
	o->runs_per_boot = (double)w->R / (double)w->nb;
	o->samples_per_run = (double)w->N / (double)w->R;
	own_components(w, &o->own);
	if (w->nr1 > 0) {
		o->r1 = w->r1sum / (double)w->nr1 - w->r1var / (double)w->nr1;
		o->r1_z = w->r1sum / sqrt(w->r1var);
		/* Pooled over the runs, and flagged runs only as more than chance explains
		 * (one run in a dozen is not evidence). */
		if (o->r1_z > 2 || stats_diag_excess(w->nauto_flagged, w->nauto, ST_DIAG_RUN_RATE))
			o->caveats |= ST_CAVEAT_AUTOCORR;
	}
}

/* The components group o uses: its own, and from the pool (praw, pdf where can) each level
 * its data lacks; then its interval. */
static void group_borrow(struct gwork *w, struct st_estimate *o, const double *praw, const double *pdf,
			 const bool *can, bool refused)
{
	struct st_components *u = &o->used;
	*u = o->own;
	if (!(u->have & ST_BIT(ST_LEVEL_WITHIN)) && can[ST_LEVEL_WITHIN]) {
		u->raw_within = praw[ST_LEVEL_WITHIN];
		u->df_within = pdf[ST_LEVEL_WITHIN];
		o->borrowed |= ST_BIT(ST_LEVEL_WITHIN);
	}
	if (!(u->have & ST_BIT(ST_LEVEL_RUN)) && can[ST_LEVEL_RUN]) {
		u->raw_run = praw[ST_LEVEL_RUN];
		u->df_run = pdf[ST_LEVEL_RUN];
		o->borrowed |= ST_BIT(ST_LEVEL_RUN);
	}
	components(w, u);
	if (o->borrowed & ST_BIT(ST_LEVEL_RUN)) {
		u->ub_run = borrowed_ub(praw[ST_LEVEL_RUN], pdf[ST_LEVEL_RUN]);
		u->ub_whole &= ~ST_BIT(ST_LEVEL_RUN);
	}
	if (w->nb < 2) {
		/* With >= 2 boots the boot level comes from the group's own boot means. */
		if (can[ST_LEVEL_BOOT]) {
			u->raw_boot = praw[ST_LEVEL_BOOT];
			u->df_boot = pdf[ST_LEVEL_BOOT];
			u->ub_boot = borrowed_ub(praw[ST_LEVEL_BOOT], pdf[ST_LEVEL_BOOT]);
			u->ub_whole &= ~ST_BIT(ST_LEVEL_BOOT);
			o->borrowed |= ST_BIT(ST_LEVEL_BOOT);
		}
		u->var_boot = isnan(u->raw_boot) ? NAN : u->raw_boot > 0 ? u->raw_boot : 0;
	}
	group_interval(w, o, can, refused);
}

int stats_estimate_groups_scale(const struct st_group *groups, size_t ngroups, bool linear, struct st_estimate *out,
				struct err *e)
{
	for (size_t g = 0; g < ngroups; g++) {
		if (check_group(&groups[g], g, e) < 0)
			return -1;
	}
	struct gwork *w = xcalloc(ngroups, sizeof *w);
	/* The rounding step is looked for in e^y, which only means something on the log scale;
	 * linear values (counts per op) are exact, so they never get a rounding floor. */
	int round_exp = linear ? -7 : 9;
	for (size_t g = 0; g < ngroups && !linear; g++)
		group_round_exp(&groups[g], &round_exp);
	for (size_t g = 0; g < ngroups; g++)
		group_own(&groups[g], &w[g], round_exp, &out[g]);
	/* Borrow, in order within, run, boot: each lower level feeds the one above. */
	double praw[ST_NLEVELS], pdf[ST_NLEVELS];
	bool can[ST_NLEVELS];
	for (int lv = 0; lv < ST_NLEVELS; lv++)
		can[lv] = pooled(out, ngroups, (enum st_level)lv, &praw[lv], &pdf[lv]);
	/* Some group estimates a boot variance, yet too weakly to lend it. */
	bool refused = false;
	for (size_t g = 0; g < ngroups && !can[ST_LEVEL_BOOT]; g++)
		refused |= (out[g].own.have & ST_BIT(ST_LEVEL_BOOT)) != 0;
	for (size_t g = 0; g < ngroups; g++)
		if (groups[g].nboots > 0)
			group_borrow(&w[g], &out[g], praw, pdf, can, refused);
	for (size_t g = 0; g < ngroups; g++)
		gwork_free(&w[g]);
	free(w);
	return 0;
}

void stats_iid_estimate(const double *x, size_t n, struct st_estimate *out)
{
	memset(out, 0, sizeof *out);
	out->own = out->used = (struct st_components){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0, NAN, NAN, NAN, 0};
	out->r1 = out->r1_z = NAN;
	out->nboots = out->nruns = out->nsamples = n;
	out->runs_per_boot = out->samples_per_run = 1;
	out->se = out->df = NAN;
	out->mean = NAN;
	if (n == 0) {
		out->caveats = ST_CAVEAT_NO_VARIANCE;
		out->need = ST_NEED_RUNS;
		return;
	}
	double v = stats_mean_var(x, n, &out->mean);
	if (n < 2) {
		out->caveats = ST_CAVEAT_SINGLE_OBS;
		out->need = ST_NEED_RUNS;
		return;
	}
	out->se = sqrt(v / (double)n);
	out->df = (double)(n - 1);
	out->has_interval = true;
	out->covered = ST_BIT(ST_LEVEL_BOOT) | ST_BIT(ST_LEVEL_RUN) | ST_BIT(ST_LEVEL_WITHIN);
}

int stats_nested_anova(const struct st_group *g, struct st_anova *out, struct err *e)
{
	if (check_group(g, 0, e) < 0)
		return -1;
	size_t nb = g->nboots, R = 0, N = 0;
	double sum = 0, sum_nb2 = 0, sum_nbj2_over_Nb = 0, sum_nbj2 = 0;
	double ss_b = 0, ss_r = 0, ss_s = 0, s2 = 0;
	for (size_t b = 0; b < nb; b++)
		for (size_t r = 0; r < g->boots[b].nruns; r++) {
			R++;
			N += g->boots[b].runs[r].n;
			for (size_t i = 0; i < g->boots[b].runs[r].n; i++)
				sum += g->boots[b].runs[r].y[i];
		}
	if (nb < 2 || R <= nb || N <= R)
		return errf(e, "nested ANOVA needs >= 2 boots, a boot with >= 2 runs, and a run with >= 2 samples");
	double gm = sum / (double)N;
	double *bmean = xmalloc(nb * sizeof *bmean);
	for (size_t b = 0; b < nb; b++) {
		const struct st_boot *bt = &g->boots[b];
		double bs = 0, rsum = 0;
		size_t Nb = 0;
		for (size_t r = 0; r < bt->nruns; r++) {
			double m;
			stats_mean_var(bt->runs[r].y, bt->runs[r].n, &m);
			rsum += m;
			for (size_t i = 0; i < bt->runs[r].n; i++) {
				bs += bt->runs[r].y[i];
				ss_s += (bt->runs[r].y[i] - m) * (bt->runs[r].y[i] - m);
			}
			Nb += bt->runs[r].n;
		}
		double mb = bs / (double)Nb;
		bmean[b] = rsum / (double)bt->nruns;
		for (size_t r = 0; r < bt->nruns; r++) {
			double m, nbj = (double)bt->runs[r].n;
			stats_mean_var(bt->runs[r].y, bt->runs[r].n, &m);
			ss_r += nbj * (m - mb) * (m - mb);
			sum_nbj2_over_Nb += nbj * nbj / (double)Nb;
			sum_nbj2 += nbj * nbj;
		}
		ss_b += (double)Nb * (mb - gm) * (mb - gm);
		sum_nb2 += (double)Nb * (double)Nb;
	}
	double ms_b = ss_b / (double)(nb - 1), ms_r = ss_r / (double)(R - nb), ms_s = ss_s / (double)(N - R);
	double n0 = ((double)N - sum_nbj2_over_Nb) / (double)(R - nb);
	double n0b = (sum_nbj2_over_Nb - sum_nbj2 / (double)N) / (double)(nb - 1);
	double n0bb = ((double)N - sum_nb2 / (double)N) / (double)(nb - 1);
	double raw_r = (ms_r - ms_s) / n0;
	double raw_b = (ms_b - ms_s - n0b * raw_r) / n0bb;
	double bm;
	s2 = stats_mean_var(bmean, nb, &bm);
	*out = (struct st_anova){
		.grand_mean = bm,
		.ms_boot = ms_b,
		.ms_run = ms_r,
		.ms_sample = ms_s,
		.var_boot = raw_b > 0 ? raw_b : 0,
		.var_run = raw_r > 0 ? raw_r : 0,
		.var_sample = ms_s,
		.se = sqrt(s2 / (double)nb),
	};
	free(bmean);
	return 0;
}
