/* alloc.c - a run's samples spread over its workloads where the index variance is (Neyman), and more shorter runs when the run level dominates. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool alloc_eligible(const struct st_alloc_item *x)
{
	return x->w > 0 && isfinite(x->w) && isfinite(x->tau2) && x->tau2 >= 0 && isfinite(x->cost) && x->cost > 0;
}

/* The Neyman weight of an eligible item: w sqrt(tau2 / cost). */
static double alloc_a(const struct st_alloc_item *x)
{
	return x->w * sqrt(x->tau2 / x->cost);
}

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Sampling time of the eligible items at multiplier lam (continuous counts). */
static double alloc_time(const struct st_alloc_item *it, size_t k, double lam, double fl, double cap)
{
	double t = 0;
	for (size_t i = 0; i < k; i++)
		if (alloc_eligible(&it[i]))
			t += it[i].cost * clampd(lam * alloc_a(&it[i]), fl, cap);
	return t;
}

/* Long by design: the multiplier's search, the rounding and the spending of what it left, on one set of counts. */
int stats_allocate(const struct st_alloc_item *it, size_t k, const struct st_alloc_opts *o, size_t *n,
		   struct st_alloc *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	if (!o->n0 || !o->floor || o->floor > o->cap)
		return errf(e, "allocation bounds are empty (default %zu, floor %zu, cap %zu)", o->n0, o->floor, o->cap);
	/* never more than the default for everyone, never less than the default at most */
	double fl = (double)(o->floor < o->n0 ? o->floor : o->n0);
	double cap = (double)(o->cap > o->n0 ? o->cap : o->n0);
	double n0 = (double)o->n0, amin = INFINITY;
	out->var_run = 0;
	for (size_t i = 0; i < k; i++) {
		n[i] = o->n0;
		if (!alloc_eligible(&it[i]))
			continue;
		out->nalloc++;
		out->budget_s += n0 * it[i].cost;
		out->var_default += it[i].w * it[i].w * it[i].tau2 / n0;
		out->var_run += isfinite(it[i].var_run) && it[i].var_run >= 0 ? it[i].w * it[i].w * it[i].var_run : NAN;
		double a = alloc_a(&it[i]);
		if (a > 0 && a < amin)
			amin = a;
	}
	if (!out->nalloc) {
		out->var_run = NAN;
		return 0;
	}
	/* The multiplier: time(lam) grows from all at the floor to all (with a > 0) at the cap. */
	double T = out->budget_s, lam = 0;
	if (isfinite(amin) && alloc_time(it, k, 0, fl, cap) < T) {
		double hi = cap / amin;
		if (alloc_time(it, k, hi, fl, cap) <= T)
			lam = hi;
		else
			for (int r = 0; r < 200; r++) {
				double mid = (lam + hi) / 2;
				if (alloc_time(it, k, mid, fl, cap) <= T)
					lam = mid;
				else
					hi = mid;
			}
	}
	double used = 0;
	for (size_t i = 0; i < k; i++)
		if (alloc_eligible(&it[i])) {
			n[i] = (size_t)floor(clampd(lam * alloc_a(&it[i]), fl, cap) + 1e-9);
			used += (double)n[i] * it[i].cost;
		}
	/* Spend what the rounding left: one sample at a time, the most variance per second first. */
	for (;;) {
		size_t best = k;
		double gain = 0;
		for (size_t i = 0; i < k; i++) {
			const struct st_alloc_item *x = &it[i];
			if (!alloc_eligible(x) || !(x->tau2 > 0) || (double)n[i] >= cap ||
			    used + x->cost > T * (1 + 1e-12))
				continue;
			double g = x->w * x->w * x->tau2 * (1 / (double)n[i] - 1 / (double)(n[i] + 1)) / x->cost;
			if (g > gain) {
				gain = g;
				best = i;
			}
		}
		if (best == k)
			break;
		n[best]++;
		used += it[best].cost;
	}
	out->time_s = used;
	for (size_t i = 0; i < k; i++)
		if (alloc_eligible(&it[i]))
			out->var_alloc += it[i].w * it[i].w * it[i].tau2 / (double)n[i];
	/* Whole samples can lose what the continuous optimum gained (an expensive item rounded
	 * down, the cheap ones at the cap): then the default for everyone is the better plan. */
	if (out->var_alloc > out->var_default) {
		for (size_t i = 0; i < k; i++)
			n[i] = o->n0;
		out->time_s = out->budget_s;
		out->var_alloc = out->var_default;
	}
	return 0;
}

/* Sampling time at default count n0 of the items with a cost but no weight (they keep n0). */
static double fixed_time(const struct st_alloc_item *it, size_t k, size_t n0)
{
	double t = 0;
	for (size_t i = 0; i < k; i++)
		if (!alloc_eligible(&it[i]) && isfinite(it[i].cost) && it[i].cost > 0)
			t += (double)n0 * it[i].cost;
	return t;
}

int stats_allocate_runs(const struct st_alloc_item *it, size_t k, const struct st_alloc_opts *o, double var_run,
			double run_cost, size_t max_runs, struct st_alloc_runs *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	size_t *n = xcalloc(k, sizeof *n);
	struct st_alloc a;
	int rc = stats_allocate(it, k, o, n, &a, e);
	if (!rc && var_run >= 0)
		a.var_run = var_run;
	if (rc || !a.nalloc || isnan(a.var_run)) {
		free(n);
		return rc ? -1 : 1;
	}
	if (!(run_cost >= 0))
		run_cost = 0;
	out->runs = 1;
	out->n0 = o->n0;
	out->var_one = out->var_best = a.var_run + a.var_alloc;
	out->time_one = out->time_best = run_cost + a.time_s + fixed_time(it, k, o->n0);
	out->run_dominates = a.var_run > a.var_alloc;
	for (size_t r = 2; r <= max_runs; r++) {
		/* the longest runs (default count n0') of which r fit in the time of one */
		for (size_t m = o->n0; m >= o->floor && m >= 1; m--) {
			struct st_alloc_opts p = *o;
			p.n0 = m;
			struct st_alloc b;
			if (stats_allocate(it, k, &p, n, &b, e)) {
				free(n);
				return -1;
			}
			double t = (double)r * (run_cost + b.time_s + fixed_time(it, k, m));
			if (t > out->time_one * (1 + 1e-9))
				continue;
			double v = (a.var_run + b.var_alloc) / (double)r;
			if (v < out->var_best) {
				out->var_best = v;
				out->runs = r;
				out->n0 = m;
				out->time_best = t;
			}
			break;
		}
	}
	free(n);
	return 0;
}
