/* adjust.c - the host-speed adjustment: a row's run means against the host reference's, as a covariate. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Sums of squares and products of the deviations of (r, x) pairs, and their df. */
struct ss {
	double rr, rx, xx, df;
};

static void ss_add(struct ss *s, const double *r, const double *x, size_t n)
{
	if (n < 2)
		return;
	double mr = 0, mx = 0;
	for (size_t i = 0; i < n; i++) {
		mr += r[i];
		mx += x[i];
	}
	mr /= (double)n;
	mx /= (double)n;
	for (size_t i = 0; i < n; i++) {
		s->rr += (r[i] - mr) * (r[i] - mr);
		s->rx += (r[i] - mr) * (x[i] - mx);
		s->xx += (x[i] - mx) * (x[i] - mx);
	}
	s->df += (double)(n - 1);
}

/* Sum of squared deviations of r[0..n-1] from their mean. */
static double ss_r(const double *r, size_t n)
{
	double m = 0, s = 0;
	for (size_t i = 0; i < n; i++)
		m += r[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		s += (r[i] - m) * (r[i] - m);
	return s;
}

/* The reference compared between the groups with the estimators of any row: one value per run. */
static int ref_check(const struct st_group *g, size_t ng, const double *ref, struct st_adjust *adj, struct err *e)
{
	size_t nr = 0;
	for (size_t i = 0; i < ng; i++)
		for (size_t b = 0; b < g[i].nboots; b++)
			nr += g[i].boots[b].nruns;
	struct st_run *runs = xcalloc(nr, sizeof *runs);
	struct st_boot *boots = NULL;
	struct st_group *rg = xcalloc(ng, sizeof *rg);
	struct st_estimate *est = xcalloc(ng, sizeof *est);
	size_t nb = 0, k = 0;
	for (size_t i = 0; i < ng; i++)
		nb += g[i].nboots;
	boots = xcalloc(nb, sizeof *boots);
	nb = 0;
	for (size_t i = 0; i < ng; i++) {
		rg[i] = (struct st_group){&boots[nb], g[i].nboots, NULL};
		for (size_t b = 0; b < g[i].nboots; b++, nb++) {
			boots[nb] = (struct st_boot){&runs[k], g[i].boots[b].nruns};
			for (size_t r = 0; r < g[i].boots[b].nruns; r++, k++)
				runs[k] = (struct st_run){&ref[k], NULL, 1, NULL, 0};
		}
	}
	int rc = stats_estimate_groups(rg, ng, est, e);
	adj->ref_p = adj->ref_pct = NAN;
	if (!rc) {
		struct st_compare_opts o = stats_compare_defaults();
		for (size_t i = 1; i < ng; i++) {
			struct st_comparison c;
			stats_compare(&est[0], &est[i], &o, &c);
			if (isnan(adj->ref_p) || c.p < adj->ref_p) {
				adj->ref_p = c.p;
				adj->ref_pct = c.pct;
			}
		}
	}
	free(est);
	free(rg);
	free(boots);
	free(runs);
	return rc;
}

/* The slope from pooled deviations: runs from their boot means, else boots from their group's
 * mean. x[k] are the run means, ref[k] the reference's; h[i] each group's leverage share. */
static bool fit(const struct st_group *g, size_t ng, const double *x, const double *ref, double *h,
		struct st_adjust *adj)
{
	struct ss w = {0}, bb = {0};
	size_t k = 0, maxr = 1, maxb = 1;
	for (size_t i = 0; i < ng; i++) {
		maxb = g[i].nboots > maxb ? g[i].nboots : maxb;
		for (size_t b = 0; b < g[i].nboots; b++)
			maxr = g[i].boots[b].nruns > maxr ? g[i].boots[b].nruns : maxr;
	}
	double *br = xcalloc(maxb, sizeof *br), *bx = xcalloc(maxb, sizeof *bx);
	double *hr = xcalloc(ng, sizeof *hr), *hb = xcalloc(ng, sizeof *hb);
	for (size_t i = 0; i < ng; i++) {
		for (size_t b = 0; b < g[i].nboots; b++) {
			size_t n = g[i].boots[b].nruns;
			ss_add(&w, &ref[k], &x[k], n);
			if (g[i].nboots == 1 && n >= 2) /* its interval comes from these very deviations */
				hr[i] += ss_r(&ref[k], n);
			br[b] = bx[b] = 0;
			for (size_t r = 0; r < n; r++, k++) {
				br[b] += ref[k] / (double)n;
				bx[b] += x[k] / (double)n;
			}
		}
		if (g[i].nboots >= 2) {
			ss_add(&bb, br, bx, g[i].nboots);
			hb[i] = ss_r(br, g[i].nboots);
		}
	}
	free(br);
	free(bx);
	const struct ss *s = NULL;
	const double *hs = NULL;
	if (w.df - 1 >= ST_ADJ_MIN_DF && w.rr > 0) {
		s = &w;
		hs = hr;
		adj->level = ST_ADJ_WITHIN_BOOTS;
	} else if (bb.df - 1 >= ST_ADJ_MIN_DF && bb.rr > 0) {
		s = &bb;
		hs = hb;
		adj->level = ST_ADJ_BETWEEN_BOOTS;
	}
	if (s) {
		adj->beta = s->rx / s->rr;
		adj->df_beta = s->df - 1;
		double res = s->xx - adj->beta * s->rx;
		adj->se_beta = sqrt((res > 0 ? res : 0) / adj->df_beta / s->rr);
		adj->r2 = s->xx > 0 ? adj->beta * s->rx / s->xx : NAN;
		for (size_t i = 0; i < ng; i++)
			h[i] = hs[i] / s->rr;
	}
	free(hr);
	free(hb);
	return s != NULL;
}

int stats_estimate_adjusted(const struct st_group *g, size_t ng, const double *ref, struct st_estimate *out,
			    struct st_adjust *adj, struct err *e)
{
	memset(adj, 0, sizeof *adj);
	adj->beta = adj->se_beta = adj->df_beta = adj->r2 = adj->ref_pct = adj->ref_p = NAN;
	size_t nr = 0, nb = 0;
	for (size_t i = 0; i < ng; i++) {
		nb += g[i].nboots;
		for (size_t b = 0; b < g[i].nboots; b++)
			nr += g[i].boots[b].nruns;
	}
	bool all = nr > 0;
	for (size_t k = 0; k < nr && all; k++)
		all = isfinite(ref[k]);
	if (!all) {
		adj->status = ST_ADJ_NO_REF;
		return stats_estimate_groups(g, ng, out, e);
	}
	/* The run means, as the estimators see them. */
	double *x = xcalloc(nr, sizeof *x), *h = xcalloc(ng, sizeof *h);
	size_t k = 0;
	for (size_t i = 0; i < ng; i++)
		for (size_t b = 0; b < g[i].nboots; b++)
			for (size_t r = 0; r < g[i].boots[b].nruns; r++, k++) {
				struct st_runstat rs;
				stats_run_batches(&g[i].boots[b].runs[r], &rs);
				x[k] = rs.mean;
			}
	int rc = 0;
	if (!fit(g, ng, x, ref, h, adj)) {
		adj->status = ST_ADJ_FEW;
		rc = stats_estimate_groups(g, ng, out, e);
		goto out;
	}
	double rbar = 0;
	for (k = 0; k < nr; k++)
		rbar += ref[k] / (double)nr;
	/* Copies of the groups whose runs carry the shift, and what the slope costs each. */
	struct st_run *runs = xcalloc(nr, sizeof *runs);
	struct st_boot *boots = xcalloc(nb, sizeof *boots);
	struct st_group *ag = xcalloc(ng, sizeof *ag);
	struct st_group_adj *ga = xcalloc(ng, sizeof *ga);
	size_t bi = 0;
	k = 0;
	for (size_t i = 0; i < ng; i++) {
		double rg = 0; /* the group's reference as its mean is formed: the mean of boot means */
		for (size_t b = 0; b < g[i].nboots; b++, bi++) {
			boots[bi] = (struct st_boot){&runs[k], g[i].boots[b].nruns};
			double m = 0;
			for (size_t r = 0; r < g[i].boots[b].nruns; r++, k++) {
				runs[k] = g[i].boots[b].runs[r];
				runs[k].shift += -adj->beta * (ref[k] - rbar);
				m += ref[k] / (double)g[i].boots[b].nruns;
			}
			rg += m / (double)g[i].nboots;
		}
		ga[i].h = h[i];
		ga[i].var_b = adj->se_beta * adj->se_beta * (rg - rbar) * (rg - rbar);
		ga[i].df_b = adj->df_beta;
		ag[i] = (struct st_group){&boots[bi - g[i].nboots], g[i].nboots, &ga[i]};
	}
	rc = stats_estimate_groups(ag, ng, out, e);
	if (!rc && ng >= 2)
		rc = ref_check(g, ng, ref, adj, e);
	if (!rc) {
		adj->status = ng >= 2 && !(adj->ref_p >= ST_ADJ_REF_P) ? ST_ADJ_REF_DIFFERS : ST_ADJ_APPLIED;
		for (size_t i = 0; i < ng; i++)
			out[i].caveats |= ST_CAVEAT_HOST_ADJUSTED |
					  (adj->status == ST_ADJ_REF_DIFFERS ? ST_CAVEAT_HOST_REF_DIFFERS : 0);
	}
	free(ga);
	free(ag);
	free(boots);
	free(runs);
out:
	free(x);
	free(h);
	return rc;
}
