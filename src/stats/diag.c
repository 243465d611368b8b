/* diag.c - run diagnostics (drift, warm-up, outliers, CV, bimodality), confounders, per-run summary. */
#include "stats/stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAD_SCALE 1.482602218505602 /* makes the MAD a consistent sd estimate under normality */
#define DRIFT_MIN_SAMPLES 8
#define DRIFT_MIN_BATCHES 4

struct st_diag_opts stats_diag_defaults(void)
{
	return (struct st_diag_opts){
		.drift_alpha = ST_DIAG_RUN_RATE,
		.drift_min = 0.005,
		.warmup_z = 3.5,
		.outlier_z = 3.5,
		.cv_max = 0.05,
		.bimodal_bc = 0.555,
	};
}

void stats_warnings_free(struct st_warnings *w)
{
	if (!w)
		return;
	free(w->v);
	memset(w, 0, sizeof *w);
}

static void warn(struct st_warnings *w, enum st_warn_kind kind, size_t boot, size_t run, size_t index, double value,
		 double x)
{
	w->v = xgrow(w->v, &w->cap, w->n + 1, sizeof *w->v);
	w->v[w->n++] = (struct st_warning){kind, boot, run, index, value, x};
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median of x[0..n-1] (n > 0), using tmp[0..n-1] as scratch. */
static double median(const double *x, size_t n, double *tmp)
{
	memcpy(tmp, x, n * sizeof *tmp);
	qsort(tmp, n, sizeof *tmp, dcmp);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/* A robust scale: MAD * 1.4826, or when over half the values tie, the mean
 * absolute deviation * sqrt(pi/2); 0 when all values are equal. */
static double robust_sd(const double *x, size_t n, double med, double *tmp)
{
	double *d = xmalloc(n * sizeof *d), mean_ad = 0;
	for (size_t i = 0; i < n; i++) {
		d[i] = fabs(x[i] - med);
		mean_ad += d[i];
	}
	double mad = median(d, n, tmp);
	free(d);
	if (mad > 0)
		return MAD_SCALE * mad;
	return mean_ad / (double)n * sqrt(M_PI / 2);
}

/* Lag-1 autocorrelation of y[0..n-1] around the line of slope beta (per sample) through
 * its mean, bias-corrected by (1 + 3 rho) / n and clamped to [0, 0.95]. */
static double lag1(const double *y, size_t n, double beta)
{
	double ybar = 0, tbar = (double)(n - 1) / 2, ss = 0, c = 0, prev = 0;
	for (size_t i = 0; i < n; i++)
		ybar += y[i];
	ybar /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double e = y[i] - ybar - beta * ((double)i - tbar);
		ss += e * e;
		if (i)
			c += e * prev;
		prev = e;
	}
	if (!(ss > 0))
		return 0;
	double rho = c / ss;
	rho += (1 + 3 * rho) / (double)n;
	return rho < 0 ? 0 : rho > 0.95 ? 0.95 : rho;
}

/* Drift: the slope of the run's batch means on time, tested with the batch-level
 * regression (b batches of consecutive samples, b - 2 df). Batch means are close to
 * independent where single samples are not, and the residual df count the line's two
 * parameters, so the false-flag rate on stationary noise stays at drift_alpha
 * (test_stats_diag measures it on i.i.d. and AR(1) noise). */
static void drift(const struct st_run *r, size_t boot, size_t run, const struct st_diag_opts *o,
		  struct st_warnings *w)
{
	size_t n = r->n;
	if (n < DRIFT_MIN_SAMPLES)
		return;
	size_t b = (size_t)floor(sqrt((double)n));
	if (b < DRIFT_MIN_BATCHES)
		b = DRIFT_MIN_BATCHES;
	if (b > ST_MAX_BATCHES)
		b = ST_MAX_BATCHES;
	size_t m = n / b, skip = n - b * m; /* the earliest samples left over are dropped */
	double bm[ST_MAX_BATCHES], tc[ST_MAX_BATCHES], mb = 0, mt = 0;
	for (size_t j = 0; j < b; j++) {
		double t = 0;
		for (size_t i = skip + j * m; i < skip + (j + 1) * m; i++)
			t += r->y[i];
		bm[j] = t / (double)m;
		tc[j] = (double)skip + ((double)j + 0.5) * (double)m - 0.5; /* centre, in samples */
		mb += bm[j];
		mt += tc[j];
	}
	mb /= (double)b;
	mt /= (double)b;
	double sxy = 0, sxx = 0;
	for (size_t j = 0; j < b; j++) {
		sxy += (tc[j] - mt) * (bm[j] - mb);
		sxx += (tc[j] - mt) * (tc[j] - mt);
	}
	double beta = sxy / sxx, rss = 0;
	for (size_t j = 0; j < b; j++) {
		double e = bm[j] - mb - beta * (tc[j] - mt);
		rss += e * e;
	}
	double df = (double)(b - 2), se = sqrt(rss / df / sxx);
	/* Adjacent batch means of AR(1) samples stay correlated (rho_B); the slope's variance
	 * grows by about (1 + rho_B) / (1 - rho_B). rho from the samples' residuals, with
	 * Kendall's bias correction (1 + 3 rho) / n. */
	double rho = lag1(r->y, n, beta);
	if (rho > 0) {
		double v = m, c = 0;
		for (size_t k = 1; k < m; k++)
			v += 2 * (double)(m - k) * pow(rho, (double)k);
		c = rho * pow(1 - pow(rho, (double)m), 2) / ((1 - rho) * (1 - rho));
		double rb = c / v;
		if (rb > 0 && rb < 1)
			se *= sqrt((1 + rb) / (1 - rb));
	}
	double t = se > 0 ? beta / se : (beta != 0 ? copysign(INFINITY, beta) : 0);
	double total = expm1(beta * (double)(n - 1));
	if (fabs(t) > stats_t_quantile(1 - o->drift_alpha / 2, df) && fabs(total) >= o->drift_min)
		warn(w, ST_WARN_DRIFT, boot, run, 0, total, t);
}

/* A limit calibrated by simulation at the run lengths t[].n (seeded, i.i.d. Gaussian
 * samples; METHOD.md, "Diagnostics"). Between entries the larger neighbour is used
 * (conservative), below the first entry the first, beyond the last `beyond`. */
struct limit_at {
	size_t n;
	double lim;
};
static double table_limit(const struct limit_at *t, size_t nt, size_t n, double beyond)
{
	if (n > t[nt - 1].n)
		return beyond;
	size_t i = 0;
	while (t[i].n < n)
		i++;
	if (t[i].n == n || i == 0)
		return t[i].lim;
	return t[i - 1].lim > t[i].lim ? t[i - 1].lim : t[i].lim;
}
#define NT(t) (sizeof t / sizeof t[0])

/* The |robust z| a sample of a run of n must exceed so that i.i.d. Gaussian samples are
 * flagged at the normal tail rate of z (0.047% for 3.5). The median and MAD of a short run
 * are noisy, so at z = 3.5 the limit is far above 3.5: the table gives it for n samples,
 * from 4-6 million simulated samples per n; beyond the table 3.5 + 31.6/n. Other z scale it. */
static double outlier_limit(size_t n, double z)
{
	static const struct limit_at t[] = {
		{5, 42.4}, {6, 16.6}, {7, 17.2}, {8, 11.0}, {9, 11.3}, {10, 8.61}, {12, 7.33}, {15, 6.67}, {20, 5.41},
		{25, 4.99}, {30, 4.66}, {40, 4.34}, {50, 4.15}, {60, 4.03}, {80, 3.91}, {100, 3.82}, {150, 3.69},
		{200, 3.66},
	};
	return table_limit(t, NT(t), n, 3.5 + 31.6 / (double)n) * z / 3.5;
}

/* The warm-up z (first tenth against the median and robust sd of the rest) that i.i.d.
 * Gaussian runs of n samples exceed ST_DIAG_RUN_RATE (1%) of the time: its 99% quantile,
 * from 200,000 simulated runs per n. A fixed 3.5 flagged 2-7% of runs of 5-10 samples and
 * 0.1% of long ones. Other z scale it (3.5 is the default). */
static double warmup_limit(size_t n, double z)
{
	static const struct limit_at t[] = {
		{5, 11.08}, {6, 10.00}, {7, 6.25}, {8, 5.98}, {9, 4.76}, {10, 4.63}, {12, 4.04}, {15, 3.44},
		{20, 3.23}, {25, 3.07}, {30, 3.00}, {40, 2.86}, {50, 2.80}, {60, 2.72}, {80, 2.68}, {100, 2.65},
		{150, 2.61}, {200, 2.58}, {300, 2.57}, {500, 2.55},
	};
	return table_limit(t, NT(t), n, 2.55) * z / 3.5;
}

/* Sarle's coefficient that i.i.d. Gaussian runs of n samples exceed 1% of the time (its 99%
 * quantile, 200,000 runs per n), and never below 0.555 (a uniform law's value): 0.555
 * alone flagged 1.1-1.3% of runs of 10-15 samples. Other limits scale it. */
static double bimodal_limit(size_t n, double bc)
{
	static const struct limit_at t[] = {{10, 0.560}, {12, 0.565}, {15, 0.560}, {20, 0.555}};
	return table_limit(t, NT(t), n, 0.555) * bc / 0.555;
}

size_t stats_warmup_prefix(const double *y, size_t n)
{
	if (n < 8)
		return 0;
	size_t h = n / 2;
	double *tmp = xmalloc((n - h) * sizeof *tmp);
	double med = median(y + h, n - h, tmp), sd = robust_sd(y + h, n - h, med, tmp);
	free(tmp);
	double lim = 4 * sd > 0.01 ? 4 * sd : 0.01;
	size_t k = 0;
	while (k < n / 4 && fabs(y[k] - med) > lim)
		k++;
	return k;
}

void stats_diagnose_run(const struct st_run *r, size_t boot, size_t run, const struct st_diag_opts *o,
			struct st_warnings *w)
{
	size_t n = r->n;
	if (n < 2)
		return;
	double *tmp = xmalloc(n * sizeof *tmp);

	drift(r, boot, run, o, w);

	if (n >= 5) {
		/* Warm-up: the first tenth (at least one sample) against the rest. */
		size_t k = n / 10 ? n / 10 : 1;
		double m1 = 0;
		for (size_t i = 0; i < k; i++)
			m1 += r->y[i];
		m1 /= (double)k;
		double med = median(r->y + k, n - k, tmp), sd = robust_sd(r->y + k, n - k, med, tmp);
		double z = sd > 0 ? (med - m1) / sd * sqrt((double)k) : (m1 < med ? INFINITY : 0);
		if (z > warmup_limit(n, o->warmup_z))
			warn(w, ST_WARN_WARMUP, boot, run, 0, -expm1(m1 - med), z);

		/* Outliers: robust z from the median and MAD; reported, never dropped. The
		 * threshold is calibrated to the run's length (see outlier_limit). */
		med = median(r->y, n, tmp);
		sd = robust_sd(r->y, n, med, tmp);
		double lim = outlier_limit(n, o->outlier_z);
		for (size_t i = 0; i < n && sd > 0; i++) {
			double zi = (r->y[i] - med) / sd;
			if (fabs(zi) > lim)
				warn(w, ST_WARN_OUTLIER, boot, run, i, expm1(r->y[i] - med), zi);
		}
	}

	/* CV of ops/s, scale-free: exp(y - max y). */
	double ymax = r->y[0];
	for (size_t i = 1; i < n; i++)
		if (r->y[i] > ymax)
			ymax = r->y[i];
	for (size_t i = 0; i < n; i++)
		tmp[i] = exp(r->y[i] - ymax);
	struct st_summary s;
	stats_summary(tmp, n, &s);
	if (s.cv > o->cv_max)
		warn(w, ST_WARN_CV, boot, run, 0, s.cv, o->cv_max);

	/* Bimodality coefficient (Sarle) from bias-corrected skewness and kurtosis. */
	if (n >= 10) {
		double m = 0, m2 = 0, m3 = 0, m4 = 0, dn = (double)n;
		for (size_t i = 0; i < n; i++)
			m += r->y[i];
		m /= dn;
		for (size_t i = 0; i < n; i++) {
			double d = r->y[i] - m;
			m2 += d * d;
			m3 += d * d * d;
			m4 += d * d * d * d;
		}
		m2 /= dn;
		m3 /= dn;
		m4 /= dn;
		if (m2 > 0) {
			double g1 = m3 / pow(m2, 1.5), g2 = m4 / (m2 * m2) - 3;
			double G1 = g1 * sqrt(dn * (dn - 1)) / (dn - 2);
			double G2 = ((dn + 1) * g2 + 6) * (dn - 1) / ((dn - 2) * (dn - 3));
			double bc = (G1 * G1 + 1) / (G2 + 3 * (dn - 1) * (dn - 1) / ((dn - 2) * (dn - 3)));
			double lim = bimodal_limit(n, o->bimodal_bc);
			if (bc > lim)
				warn(w, ST_WARN_BIMODAL, boot, run, 0, bc, lim);
		}
	}

	struct st_runstat rs;
	stats_run_batches(r, &rs);
	if (rs.autocorr)
		warn(w, ST_WARN_AUTOCORR, boot, run, 0, rs.r1, (rs.r1 + 1.0 / (double)rs.nbatches) * sqrt((double)rs.nbatches));
	free(tmp);
}

void stats_diagnose_group(const struct st_group *g, const struct st_diag_opts *o, struct st_warnings *w)
{
	for (size_t b = 0; b < g->nboots; b++)
		for (size_t r = 0; r < g->boots[b].nruns; r++)
			stats_diagnose_run(&g->boots[b].runs[r], b, r, o, w);
}

bool stats_diag_excess(size_t count, size_t n, double rate)
{
	if (!count || !n)
		return false;
	if (count > n)
		count = n;
	stats_gsl_quiet();
	/* The tail of one trial at the group level itself is the level: a relative slack keeps
	 * rounding in the CDF from turning that equality into a refusal. */
	double tail = gsl_cdf_binomial_Q((unsigned)(count - 1), rate, (unsigned)n);
	return tail <= ST_DIAG_GROUP_LEVEL * (1 + 1e-9);
}

unsigned stats_diag_raised(const struct st_diag_tally *t, size_t nruns, size_t nsamples)
{
	unsigned raised = 0;
	for (int k = 0; k < ST_NWARN; k++) {
		bool up;
		if (k == ST_WARN_CV) /* a limit on the spread, not a test */
			up = t->count[k] > 0;
		else if (k == ST_WARN_OUTLIER) /* counted per sample */
			up = stats_diag_excess(t->count[k], nsamples, ST_DIAG_OUTLIER_RATE);
		else
			up = stats_diag_excess(t->count[k], nruns, ST_DIAG_RUN_RATE);
		if (up)
			raised |= 1u << k;
	}
	return raised;
}

void stats_diag_tally_add(struct st_diag_tally *t, const struct st_warnings *w)
{
	for (size_t i = 0; i < w->n; i++) {
		enum st_warn_kind k = w->v[i].kind;
		t->count[k]++;
		if (fabs(w->v[i].value) > fabs(t->worst[k]))
			t->worst[k] = w->v[i].value;
		t->limit[k] = w->v[i].x;
	}
}

void stats_diag_tally_merge(struct st_diag_tally *t, const struct st_diag_tally *u)
{
	for (size_t k = 0; k < ST_NWARN; k++) {
		if (!u->count[k])
			continue;
		t->count[k] += u->count[k];
		if (fabs(u->worst[k]) > fabs(t->worst[k]))
			t->worst[k] = u->worst[k];
		t->limit[k] = u->limit[k];
	}
}

/* "kind count worst limit;" per kind with warnings, the reals as hexadecimal floats. */
void stats_diag_tally_format(const struct st_diag_tally *t, struct sb *out)
{
	for (size_t k = 0; k < ST_NWARN; k++)
		if (t->count[k])
			sb_addf(out, "%zu %zu %a %a;", k, t->count[k], t->worst[k], t->limit[k]);
}

bool stats_diag_tally_parse(const char *text, struct st_diag_tally *t)
{
	memset(t, 0, sizeof *t);
	const char *p = text ? text : "";
	while (*p) {
		char *end;
		unsigned long k = strtoul(p, &end, 10);
		if (end == p || k >= ST_NWARN || *end != ' ')
			return false;
		unsigned long long c = strtoull(end + 1, &end, 10);
		if (*end != ' ' || !c)
			return false;
		double w = strtod(end + 1, &end);
		if (*end != ' ')
			return false;
		double x = strtod(end + 1, &end);
		if (*end != ';')
			return false;
		t->count[k] = (size_t)c;
		t->worst[k] = w;
		t->limit[k] = x;
		p = end + 1;
	}
	return true;
}

/* The set of values key takes over runs l[0..n-1]; "absent" is NULL. */
static void value_set(const struct kvlist *l, size_t n, const char *key, struct strv *set, bool *absent)
{
	*absent = false;
	for (size_t i = 0; i < n; i++) {
		const char *v = kv_get(&l[i], key);
		if (!v)
			*absent = true;
		else if (!strv_has(set, v))
			strv_add(set, v);
	}
}

static int scmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static const struct st_env_set *set_of(const struct st_env_set *s, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s[i].key, key))
			return &s[i];
	return NULL;
}

static bool has_value(const struct st_env_set *s, const char *v)
{
	for (size_t i = 0; i < s->nvalues; i++)
		if (!strcmp(s->values[i], v))
			return true;
	return false;
}

void stats_confounder_sets(const struct st_env_set *a, size_t nka, size_t nruns_a, const struct st_env_set *b,
			   size_t nkb, size_t nruns_b, const struct strv *labels, struct strv *out)
{
	struct strv keys = {0};
	for (size_t i = 0; i < nka + nkb; i++) {
		const char *k = i < nka ? a[i].key : b[i - nka].key;
		if (!strv_has(&keys, k) && !(labels && strv_has(labels, k)))
			strv_add(&keys, k);
	}
	if (keys.n)
		qsort(keys.v, keys.n, sizeof *keys.v, scmp);
	for (size_t i = 0; i < keys.n; i++) {
		const struct st_env_set *sa = set_of(a, nka, keys.v[i]), *sb = set_of(b, nkb, keys.v[i]);
		bool xa = sa ? sa->absent : nruns_a > 0, xb = sb ? sb->absent : nruns_b > 0;
		size_t na = sa ? sa->nvalues : 0, nb = sb ? sb->nvalues : 0;
		bool same = na == nb && xa == xb;
		for (size_t j = 0; same && j < na; j++)
			same = has_value(sb, sa->values[j]);
		if (!same)
			strv_add(out, keys.v[i]);
	}
	strv_free(&keys);
}

void stats_confounders(const struct kvlist *a, size_t na, const struct kvlist *b, size_t nb,
		       const struct strv *labels, struct strv *out)
{
	const struct kvlist *side[2] = {a, b};
	size_t ns[2] = {na, nb};
	struct strv keys[2] = {{0}};
	struct st_env_set *sets[2] = {NULL, NULL};
	struct strv *sv[2];
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < ns[s]; i++)
			for (size_t j = 0; j < side[s][i].n; j++)
				if (!strv_has(&keys[s], side[s][i].v[j].key))
					strv_add(&keys[s], side[s][i].v[j].key);
		sets[s] = xcalloc(keys[s].n, sizeof *sets[s]);
		sv[s] = xcalloc(keys[s].n, sizeof *sv[s]);
		for (size_t k = 0; k < keys[s].n; k++) {
			bool absent;
			value_set(side[s], ns[s], keys[s].v[k], &sv[s][k], &absent);
			sets[s][k] = (struct st_env_set){keys[s].v[k], (const char *const *)sv[s][k].v, sv[s][k].n, absent};
		}
	}
	stats_confounder_sets(sets[0], keys[0].n, na, sets[1], keys[1].n, nb, labels, out);
	for (int s = 0; s < 2; s++) {
		for (size_t k = 0; k < keys[s].n; k++)
			strv_free(&sv[s][k]);
		free(sv[s]);
		free(sets[s]);
		strv_free(&keys[s]);
	}
}

void stats_summary(const double *x, size_t n, struct st_summary *out)
{
	out->n = n;
	if (n == 0) {
		out->median = out->mean = out->cv = out->min = out->max = NAN;
		return;
	}
	double *tmp = xmalloc(n * sizeof *tmp);
	out->median = median(x, n, tmp);
	out->min = tmp[0];
	out->max = tmp[n - 1];
	free(tmp);
	double m, var = stats_mean_var(x, n, &m);
	out->mean = m;
	out->cv = n > 1 && m != 0 ? sqrt(var) / fabs(m) : NAN;
}
