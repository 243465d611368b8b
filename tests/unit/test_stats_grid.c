/* test_stats_grid.c - the seeded design grid: coverage, A/A, power, equivalence and plan assurance per design. */
#include "unit.h"
#include "stats/stats.h"
#include "analysis/analysis.h"
#include "study/grow.h"
#include "stats/mde.h"
#include "study/bisect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

/*
 * Every design draws y = ln(ops/s) from the nested model: boot offset N(0, sd_boot),
 * run offset N(0, sd_run), sample N(0, sd_within) (the audit's 1%, 0.5%, 3% unless
 * stated). make check runs the designs marked fast with FAST_REPS replicates and
 * asserts bounds; SYSAB_GRID=full (make bench) runs every design with FULL_REPS
 * replicates (binomial sd 0.15 points at 95%; the sequential rows 4,000 and the plans 5,000
 * pilots) and prints the table of docs/METHOD.md. SYSAB_GRID_REPS overrides the count.
 *
 * Columns: coverage of the 95% interval of the true difference (among replicates with
 * a verdict-capable interval), A/A false calls (true difference 0), power (calls in the
 * right direction at the design's effect), equivalence rate (at difference 0, margin
 * 1%), and for plans the assurance (share of replicates of the planned design whose
 * interval half-width meets the target).
 */

#define FAST_REPS 1500
#define FULL_REPS 20000
/* The largest design: sysab plan's own limits (stats_plan_defaults, checked in run_grid), so a
 * plan is judged by what `sysab plan` would say. (16 boots x 4 runs x 60 samples in the first
 * version left 95% of the small pilots' plans infeasible, and averaged the assurance over the
 * 5% whose variances came out small by chance: 74-76% there.) */
#define MAXB 64
#define MAXR 16
#define MAXS 1000

enum kind { TWO, FACT, SEQ, PLAN, DIAG, LOOKS, NODE, PAIR, DUET, GROW, ADAPT };
/* TWO rows: ONEF also analyses the two groups as a one-factor, two-level factorial and counts
 * every number that differs from compare's (must be none); TRUNC keeps only replicates whose
 * donor group (B) estimates its boot variance at <= 0, the case a borrower must not lend; ADJ
 * compares with the host-speed adjustment (stats_estimate_adjusted). */
enum mode { PLAIN, ONEF, TRUNC, ADJ, UNPAIRED };

struct gd {
	const char *name;
	enum kind kind;
	size_t boots_a, boots_b; /* per group (per cell for FACT; start and maximum for SEQ and LOOKS) */
	size_t step;             /* LOOKS: boots per group added between looks */
	size_t runs, samples;
	double sd_boot_a, sd_boot_b, sd_run, sd_within;
	int round_sig;  /* > 0: values given to this many significant digits */
	double effect;  /* relative effect for power */
	bool fast;      /* in make check */
	double cov_lo, cov_hi, aa_max; /* bounds asserted in the fast subset */
	enum mode mode; /* TWO: also a one-factor analyze, or only donors whose estimate is <= 0 */
	/* A common host factor per run, N(0, sd_host): the workload's run offset takes load times it,
	 * and host.ref measures it with its own N(0, ref_noise) per run, shifted by ref_shift in B
	 * (a change that moves the reference itself). DUET: ref_shift is the CPU-set effect, set 0
	 * that much faster than set 1 (log scale). */
	double sd_host, load, ref_noise, ref_shift;
	bool unit_run; /* TWO: --unit run (runs of one boot; coverage and "no verdict" by the run level) */
	/* PAIR: the host factor is a process in sample time (half a round: each round samples A and
	 * B, in alternating order): AR(1) with coefficient phi and stationary sd sd_host, or with phase
	 * > 0 steps, a level N(0, sd_host) redrawn every phase samples. */
	double phi;
	size_t phase;
};

struct cell {
	double y[MAXB * MAXR * MAXS];
	struct st_run runs[MAXB * MAXR];
	struct st_boot boots[MAXB];
	struct st_group g;
	double ref[MAXB * MAXR]; /* the reference's run means, when the design has a host factor */
};

static void draw(gsl_rng *rng, const struct gd *d, size_t boots, double mu, double sd_boot, int round_sig,
		 struct cell *c)
{
	size_t yi = 0, ri = 0;
	for (size_t b = 0; b < boots; b++) {
		double bo = mu + sd_boot * gsl_ran_gaussian_ziggurat(rng, 1);
		c->boots[b] = (struct st_boot){&c->runs[ri], d->runs};
		for (size_t r = 0; r < d->runs; r++, ri++) {
			double ro = bo + d->sd_run * gsl_ran_gaussian_ziggurat(rng, 1);
			if (d->sd_host > 0) {
				double h = d->sd_host * gsl_ran_gaussian_ziggurat(rng, 1);
				ro += d->load * h;
				c->ref[ri] = 3 + h + d->ref_noise * gsl_ran_gaussian_ziggurat(rng, 1);
			}
			c->runs[ri] = (struct st_run){.y = &c->y[yi], .n = d->samples};
			for (size_t i = 0; i < d->samples; i++, yi++) {
				double y = ro + d->sd_within * gsl_ran_gaussian_ziggurat(rng, 1);
				if (round_sig > 0) {
					double x = exp(y), p = pow(10, floor(log10(x)) - round_sig + 1);
					y = log(nearbyint(x / p) * p);
				}
				c->y[yi] = y;
			}
		}
	}
	c->g = (struct st_group){.boots = c->boots, .nboots = boots};
}

struct tally {
	size_t n, ncov, cover, aa, aa2, power, equiv, noverdict, differ;
	size_t adjusted, withheld; /* ADJ, A/A: replicates adjusted; withheld as the reference differed */
	double beta, r2;           /* ADJ, A/A: sums over the adjusted replicates */
	double assurance;
	size_t nplan, below50, below20, boots; /* plans, and those meeting the target in < 50%, < 20% of runs */
	size_t boots_h0, boots_h1, boots_h1sq; /* ADAPT: boots per group at the stop, summed, A/A and A/B
						* (and the A/B squares, for the MC SE) */
};

static bool called(const struct st_comparison *c)
{
	return c->verdict == ST_FASTER || c->verdict == ST_SLOWER;
}

static bool same_num(double x, double y)
{
	return (isnan(x) && isnan(y)) || x == y;
}

/* Whether the one-factor, two-level analyze of groups est[0] (reference level) and est[1]
 * gives exactly compare's row r: estimate, intervals, df, p, verdict and caveats. */
static bool same_as_analyze(const struct st_estimate *est, const struct st_compare_opts *o,
			    const struct st_comparison *r)
{
	static const char *lv[] = {"a", "b"};
	struct st_factor f = {"variant", lv, 2};
	size_t l[2] = {0, 1};
	struct st_cell cells[2] = {{&l[0], &est[0]}, {&l[1], &est[1]}};
	struct st_factorial fa;
	struct err e;
	assert_int_equal(stats_factorial(&f, 1, cells, 2, o, &fa, &e), 0);
	assert_int_equal(fa.neffects, 1);
	const struct st_comparison *x = &fa.effects[0].c;
	bool same = x->verdict == r->verdict && x->caveats == r->caveats && same_num(x->d, r->d) &&
		    same_num(x->se, r->se) && same_num(x->df, r->df) && same_num(x->p, r->p) &&
		    same_num(x->lo, r->lo) && same_num(x->hi, r->hi) && same_num(x->lo2, r->lo2) &&
		    same_num(x->hi2, r->hi2);
	stats_factorial_free(&fa);
	return same;
}

/* Two groups: one A/A and one A/B replicate. */
static void rep_two(gsl_rng *rng, const struct gd *d, struct cell *c, struct tally *t)
{
	struct st_compare_opts o = stats_compare_defaults();
	struct err e;
	unsigned unit = ST_BIT(d->unit_run ? ST_LEVEL_RUN : ST_LEVEL_BOOT);
	if (d->unit_run)
		o.unit = ST_LEVEL_RUN;
	for (int ab = 0; ab < 2; ab++) {
		double eff = ab ? log1p(d->effect) : 0;
		draw(rng, d, d->boots_a, 7, d->sd_boot_a, d->round_sig, &c[0]);
		draw(rng, d, d->boots_b, 7 + eff, d->sd_boot_b, d->round_sig, &c[1]); /* A/A: equal means */
		struct st_group g[2] = {c[0].g, c[1].g};
		struct st_estimate est[2];
		if (d->mode == ADJ) {
			size_t ra = d->boots_a * d->runs, rb = d->boots_b * d->runs;
			double ref[2 * MAXB * MAXR];
			memcpy(ref, c[0].ref, ra * sizeof *ref);
			for (size_t k = 0; k < rb; k++)
				ref[ra + k] = c[1].ref[k] + d->ref_shift;
			struct st_adjust adj;
			assert_int_equal(stats_estimate_adjusted(g, 2, ref, est, &adj, &e), 0);
			if (!ab && adj.status != ST_ADJ_FEW) {
				t->adjusted++;
				t->withheld += adj.status == ST_ADJ_REF_DIFFERS;
				t->beta += adj.beta;
				t->r2 += adj.r2;
			}
		} else {
			assert_int_equal(stats_estimate_groups(g, 2, est, &e), 0);
		}
		if (d->mode == TRUNC && !(est[1].own.raw_boot <= 0)) {
			ab--; /* draw again: only donors estimating <= 0 */
			continue;
		}
		struct st_comparison r;
		stats_compare(&est[0], &est[1], &o, &r);
		if (d->mode == ONEF)
			t->differ += !same_as_analyze(est, &o, &r);
		if (!ab) {
			t->aa += called(&r);
			t->equiv += r.verdict == ST_EQUIVALENT;
			t->noverdict += !(r.covered & unit) || r.verdict == ST_NO_DATA;
			continue;
		}
		t->power += r.verdict == ST_FASTER;
		if ((r.covered & unit) && !isnan(r.lo)) {
			t->ncov++;
			t->cover += r.lo <= eff && eff <= r.hi;
		}
	}
	t->n++;
}

/* 2x2 factorial: factor X has the design's effect, factor Z none, no interaction. */
static void rep_fact(gsl_rng *rng, const struct gd *d, struct cell *c, struct tally *t)
{
	static const char *lv[] = {"0", "1"};
	struct st_factor f[2] = {{"x", lv, 2}, {"z", lv, 2}};
	size_t l[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
	double eff = log1p(d->effect);
	struct st_group g[4];
	for (int k = 0; k < 4; k++) {
		/* the last cell (x and z high) has boot sd sd_boot_b, the others sd_boot_a */
		draw(rng, d, d->boots_a, 7 + eff * (double)l[k][0], k == 3 ? d->sd_boot_b : d->sd_boot_a, 0, &c[k]);
		g[k] = c[k].g;
	}
	struct st_estimate est[4];
	struct err e;
	assert_int_equal(stats_estimate_groups(g, 4, est, &e), 0);
	struct st_cell cells[4];
	for (int k = 0; k < 4; k++)
		cells[k] = (struct st_cell){l[k], &est[k]};
	struct st_compare_opts o = stats_compare_defaults();
	struct st_factorial fa;
	assert_int_equal(stats_factorial(f, 2, cells, 4, &o, &fa, &e), 0);
	const struct st_comparison *x = &fa.effects[0].c, *z = &fa.effects[1].c, *xz = &fa.effects[2].c;
	t->power += x->verdict == ST_FASTER;
	t->aa += called(z);
	t->aa2 += called(xz);
	t->equiv += z->verdict == ST_EQUIVALENT;
	if (!isnan(x->lo)) {
		t->ncov++;
		t->cover += x->lo <= eff && eff <= x->hi;
	}
	t->n++;
	stats_factorial_free(&fa);
}

/* Within-boot factor: 2 kernels x boots_b NUMA nodes, boots_a boots per kernel, each boot
 * running runs x samples on every node (`sysab run --nodes all`). The boot offset (sd_boot_a
 * on kernel a, sd_boot_b on kernel b) is shared by every node of the boot. A/A: no node
 * penalty and no interaction; A/B: a penalty of -1% per node and kernel b gains `effect` on
 * the last node only. Tallied (stats_factorial_within): A/A of "node: 1 vs 0" (aa) and of the
 * interaction at the last node (aa2); power and coverage of that interaction; the node
 * effect's coverage in equiv (its true value -1% at node 1). */
#define NODE_MAX 8
static void rep_node(gsl_rng *rng, const struct gd *d, struct tally *t)
{
	static const char *kv[] = {"a", "b"}, *nv[] = {"0", "1", "2", "3", "4", "5", "6", "7"};
	size_t nn = d->boots_b, nb = d->boots_a;
	struct st_factor f[2] = {{"kernel", kv, 2}, {"node", nv, nn}};
	struct st_compare_opts o = stats_compare_defaults();
	double m[2 * MAXB * NODE_MAX];
	struct st_wboot wb[2 * MAXB];
	struct err e;
	for (int ab = 0; ab < 2; ab++) {
		double eff = ab ? log1p(d->effect) : 0, pen = ab ? -0.01 : 0;
		for (size_t k = 0; k < 2; k++)
			for (size_t b = 0; b < nb; b++) {
				size_t i = k * nb + b;
				double bo = (k ? d->sd_boot_b : d->sd_boot_a) * gsl_ran_gaussian_ziggurat(rng, 1);
				for (size_t l = 0; l < nn; l++) {
					double mu = 7 + bo + pen * (double)l + (k && l == nn - 1 ? eff : 0), sr = 0;
					for (size_t r = 0; r < d->runs; r++) {
						double ro = mu + d->sd_run * gsl_ran_gaussian_ziggurat(rng, 1), ss = 0;
						for (size_t x = 0; x < d->samples; x++)
							ss += ro + d->sd_within * gsl_ran_gaussian_ziggurat(rng, 1);
						sr += ss / (double)d->samples;
					}
					m[i * nn + l] = sr / (double)d->runs;
				}
				wb[i] = (struct st_wboot){k, &m[i * nn]};
			}
		struct st_factorial fa;
		assert_int_equal(stats_factorial_within(f, 2, 2u, wb, 2 * nb, &o, &fa, &e), 0);
		/* effects: kernel, node 1..nn-1, kernel x node 1..nn-1, simple effects */
		const struct st_comparison *node1 = &fa.effects[1].c, *ix = &fa.effects[2 * nn - 2].c;
		assert_int_equal(fa.effects[2 * nn - 2].kind, ST_EFFECT_INTERACTION);
		assert_int_equal(fa.effects[2 * nn - 2].level, nn - 1);
		if (!ab) {
			t->aa += called(node1);
			t->aa2 += called(ix);
		} else {
			t->power += ix->verdict == ST_FASTER;
			if (!isnan(ix->lo)) {
				t->ncov++;
				t->cover += ix->lo <= eff && eff <= ix->hi;
			}
			/* the node effect averaged over kernels: -1% at node 1 (the gain is at the last node only) */
			double truth = nn > 2 ? -0.01 : -0.01 + eff / 2;
			t->equiv += !isnan(node1->lo) && node1->lo <= truth && truth <= node1->hi;
		}
		stats_factorial_free(&fa);
	}
	t->n++;
}

/* The loop a user runs by following the advice: look 1 at boots_a per group, then add
 * what the advice says and look again, up to boots_b. A/A and A/B paths; coverage is
 * of the final look's interval. */
static void rep_seq(gsl_rng *rng, const struct gd *d, struct cell *c, struct tally *t)
{
	struct err e;
	for (int ab = 0; ab < 2; ab++) {
		double eff = ab ? log1p(d->effect) : 0;
		/* Draw the maximum design once; looks use its first n boots. */
		draw(rng, d, d->boots_b, 7, d->sd_boot_a, 0, &c[0]);
		draw(rng, d, d->boots_b, 7 + eff, d->sd_boot_a, 0, &c[1]);
		struct st_compare_opts o = stats_compare_defaults();
		o.max_boots = d->boots_b;
		o.look = 1;
		size_t n = d->boots_a;
		struct st_comparison r;
		for (;;) {
			struct st_group g[2] = {{.boots = c[0].boots, .nboots = n}, {.boots = c[1].boots, .nboots = n}};
			struct st_estimate est[2];
			assert_int_equal(stats_estimate_groups(g, 2, est, &e), 0);
			stats_compare(&est[0], &est[1], &o, &r);
			enum st_verdict as;
			size_t more = stats_more_boots(&est[0], &est[1], &r, &o, &as);
			if (r.verdict != ST_INCONCLUSIVE || more == 0 || more == ST_MORE_NONE ||
			    more == ST_MORE_UNPLANNED || n >= d->boots_b)
				break;
			n = n + more > d->boots_b ? d->boots_b : n + more;
			o.look++;
		}
		if (!ab) {
			t->aa += called(&r);
			t->equiv += r.verdict == ST_EQUIVALENT;
		} else {
			t->power += r.verdict == ST_FASTER;
			if (!isnan(r.lo)) {
				t->ncov++;
				t->cover += r.lo <= eff && eff <= r.hi;
			}
		}
	}
	t->n++;
}

/* An adaptive campaign (campaign new --until decided, src/study/adaptive.c): one block (a boot
 * per group) at a time from 2 boots, look K = boots - 1 of the group-sequential design of at
 * most boots_b boots, margin = the target (effect); stop at the first faster, slower or
 * equivalent, or at the cap. A/A: aa counts calls, boots_h0 the boots spent; at the target:
 * power counts "faster", boots_h1 the boots spent. */
static void rep_adapt(gsl_rng *rng, const struct gd *d, struct cell *c, struct tally *t)
{
	struct err e;
	for (int ab = 0; ab < 2; ab++) {
		double eff = ab ? log1p(d->effect) : 0;
		draw(rng, d, d->boots_b, 7, d->sd_boot_a, 0, &c[0]);
		draw(rng, d, d->boots_b, 7 + eff, d->sd_boot_a, 0, &c[1]);
		struct st_compare_opts o = stats_compare_defaults();
		o.max_boots = d->boots_b;
		o.margin = d->effect;
		size_t n = 2;
		struct st_comparison r;
		for (;;) {
			struct st_group g[2] = {{.boots = c[0].boots, .nboots = n}, {.boots = c[1].boots, .nboots = n}};
			struct st_estimate est[2];
			assert_int_equal(stats_estimate_groups(g, 2, est, &e), 0);
			o.look = n - 1;
			stats_compare(&est[0], &est[1], &o, &r);
			if (r.verdict == ST_FASTER || r.verdict == ST_SLOWER || r.verdict == ST_EQUIVALENT || n >= d->boots_b)
				break;
			n++;
		}
		if (!ab) {
			t->aa += called(&r);
			t->equiv += r.verdict == ST_EQUIVALENT;
			t->boots_h0 += n;
		} else {
			t->power += r.verdict == ST_FASTER;
			t->boots_h1 += n;
			t->boots_h1sq += n * n;
		}
	}
	t->n++;
}

/* ADAPT: the boots per group a fixed design needs for the given power at the effect, by plan's
 * model with the true components (stats_mde), 0 when none up to MAXB. */
static size_t fixed_boots(const struct gd *d, double power)
{
	struct err e;
	struct st_components k = {.var_boot = d->sd_boot_a * d->sd_boot_a, .var_run = d->sd_run * d->sd_run,
				  .var_within = d->sd_within * d->sd_within};
	struct st_mde m;
	if (stats_mde(&k, &k, 2, d->runs, d->samples, 0.05, power, d->effect, MAXB, &m, &e))
		return 0;
	return m.boots_needed;
}

/* A user who compares, adds boots when nothing is settled and compares again (issue 31 item
 * 5): looks at boots_a, boots_a + step, ... boots_b per group, without declaring a design, and
 * stops at the first faster or slower. Each look goes through sysab's own rule
 * (an_repeat_decide on the looks so far, an_compare_repeat on the row); aa counts the A/A
 * paths that end in a call, aa2 those that would without the rule (every look at full alpha),
 * power the A/B paths that end in "faster". */
static void rep_looks(gsl_rng *rng, const struct gd *d, struct cell *c, struct tally *t)
{
	struct err e;
	for (int ab = 0; ab < 2; ab++) {
		double eff = ab ? log1p(d->effect) : 0;
		draw(rng, d, d->boots_b, 7, d->sd_boot_a, 0, &c[0]);
		draw(rng, d, d->boots_b, 7 + eff, d->sd_boot_a, 0, &c[1]);
		struct st_compare_opts o = stats_compare_defaults();
		struct an_look_prior prior[64];
		char fps[64][17];
		size_t np = 0;
		bool call = false, naive = false;
		enum st_verdict v = ST_NO_DATA;
		for (size_t n = d->boots_a; n <= d->boots_b && !call; n += d->step) {
			struct st_group g[2] = {{.boots = c[0].boots, .nboots = n}, {.boots = c[1].boots, .nboots = n}};
			struct st_estimate est[2];
			assert_int_equal(stats_estimate_groups(g, 2, est, &e), 0);
			struct an_row row = {0};
			stats_compare(&est[0], &est[1], &o, &row.c);
			naive |= called(&row.c);
			/* the look's runs: the first n boots of each group */
			int64_t ids[2][64], *idp[2] = {ids[0], ids[1]};
			size_t nn[2] = {n * d->runs, n * d->runs};
			for (size_t i = 0; i < n * d->runs; i++) {
				ids[0][i] = (int64_t)i;
				ids[1][i] = (int64_t)(1000 + i);
			}
			struct an_compare cmp = {.rows = &row, .nrows = 1};
			an_repeat_fingerprint(idp, nn, 2, fps[np]);
			an_repeat_decide(prior, np, fps[np], 0, false, &cmp.look);
			an_compare_repeat(&cmp);
			prior[np] = (struct an_look_prior){fps[np], cmp.look.question, cmp.look.k, 0, cmp.look.withheld};
			np++;
			call = called(&row.c);
			v = row.c.verdict;
		}
		if (!ab) {
			t->aa += call;
			t->aa2 += naive;
		} else {
			t->power += call && v == ST_FASTER;
		}
	}
	t->n++;
}

/* Diagnostic footnotes (issue 31): the A/A column is the share of A/A comparisons that carry
 * one (a kind stats_diag_raised reports for either group, or the autocorrelation caveat); the
 * power column the share with a warm-up footnote when every run of B is `effect` slower over
 * its first 3 samples. */
static bool diag_footnote(const struct st_group *g, const struct st_estimate *est, const struct gd *d,
			  enum st_warn_kind kind)
{
	bool any = false;
	struct st_diag_opts o = stats_diag_defaults();
	for (int s = 0; s < 2; s++) {
		struct st_warnings w = {0};
		struct st_diag_tally t = {0};
		stats_diagnose_group(&g[s], &o, &w);
		stats_diag_tally_add(&t, &w);
		stats_warnings_free(&w);
		unsigned raised = stats_diag_raised(&t, g[s].nboots * d->runs, g[s].nboots * d->runs * d->samples);
		any |= kind == ST_NWARN ? raised || (est[s].caveats & ST_CAVEAT_AUTOCORR) : (raised >> kind & 1);
	}
	return any;
}

static void rep_diag(gsl_rng *rng, const struct gd *d, struct cell *c, struct tally *t)
{
	struct err e;
	for (int ab = 0; ab < 2; ab++) {
		draw(rng, d, d->boots_a, 7, d->sd_boot_a, 0, &c[0]);
		draw(rng, d, d->boots_b, 7, d->sd_boot_b, 0, &c[1]);
		if (ab)
			for (size_t r = 0; r < d->boots_b * d->runs; r++)
				for (size_t i = 0; i < 3 && i < c[1].runs[r].n; i++)
					c[1].y[r * d->samples + i] += log1p(-d->effect);
		struct st_group g[2] = {c[0].g, c[1].g};
		struct st_estimate est[2];
		assert_int_equal(stats_estimate_groups(g, 2, est, &e), 0);
		if (ab)
			t->power += diag_footnote(g, est, d, ST_WARN_WARMUP);
		else
			t->aa += diag_footnote(g, est, d, ST_NWARN);
	}
	t->n++;
}

/* Duet (docs/CAMPAIGNS.md, "Duet"): boots_a blocks, each booting guest A and guest B at once on
 * disjoint host CPU sets. Run r of both guests shares a host factor N(0, sd_host) (the host's
 * phase while both run); each guest has its own boot offset (sd_boot_a, sd_boot_b), run offset
 * and samples; CPU set 0 is ref_shift faster than set 1, and A has set b % 2 in block b (the sets
 * swapped every block). PLAIN: the block is the pair, B - A inside each block
 * (stats_factorial_within, as compare pairs a duet campaign: caveat duet_paired). UNPAIRED:
 * the same budget booted one guest after the other, each boot in its own host phase
 * (and its CPU set alternating likewise), compared as independent boots. */
static void rep_duet(gsl_rng *rng, const struct gd *d, struct cell *c, struct tally *t)
{
	static const char *lv[] = {"a", "b"};
	const struct st_factor f = {"kernel", lv, 2};
	struct st_compare_opts o = stats_compare_defaults();
	size_t nb = d->boots_a;
	double m[2 * MAXB];
	struct st_wboot wb[MAXB];
	struct err e;
	for (int ab = 0; ab < 2; ab++) {
		double eff = ab ? log1p(d->effect) : 0;
		for (size_t b = 0; b < nb; b++) {
			double host[MAXR];
			for (size_t r = 0; r < d->runs; r++)
				host[r] = d->sd_host * gsl_ran_gaussian_ziggurat(rng, 1);
			for (size_t k = 0; k < 2; k++) {
				size_t set = (b + k) % 2; /* A on set b % 2, B on the other */
				double bo = 7 + (k ? eff : 0) + (set ? 0 : d->ref_shift) +
					    (k ? d->sd_boot_b : d->sd_boot_a) * gsl_ran_gaussian_ziggurat(rng, 1);
				struct cell *x = &c[k];
				double sr = 0;
				for (size_t r = 0; r < d->runs; r++) {
					/* UNPAIRED: each guest boots in a host phase of its own */
					double h = d->mode == UNPAIRED && k ? d->sd_host * gsl_ran_gaussian_ziggurat(rng, 1) : host[r];
					double ro = bo + h + d->sd_run * gsl_ran_gaussian_ziggurat(rng, 1), ss = 0;
					size_t ri = b * d->runs + r;
					x->runs[ri] = (struct st_run){.y = &x->y[ri * d->samples], .n = d->samples};
					for (size_t i = 0; i < d->samples; i++) {
						double y = ro + d->sd_within * gsl_ran_gaussian_ziggurat(rng, 1);
						x->y[ri * d->samples + i] = y;
						ss += y;
					}
					sr += ss / (double)d->samples;
				}
				x->boots[b] = (struct st_boot){&x->runs[b * d->runs], d->runs};
				m[2 * b + k] = sr / (double)d->runs;
			}
			wb[b] = (struct st_wboot){0, &m[2 * b]};
		}
		struct st_comparison r;
		if (d->mode == UNPAIRED) {
			for (size_t k = 0; k < 2; k++)
				c[k].g = (struct st_group){.boots = c[k].boots, .nboots = nb};
			struct st_group g[2] = {c[0].g, c[1].g};
			struct st_estimate est[2];
			assert_int_equal(stats_estimate_groups(g, 2, est, &e), 0);
			stats_compare(&est[0], &est[1], &o, &r);
		} else {
			struct st_factorial fa;
			assert_int_equal(stats_factorial_within(&f, 1, 1u, wb, nb, &o, &fa, &e), 0);
			r = fa.effects[0].c;
			stats_factorial_free(&fa);
		}
		if (!ab) {
			t->aa += called(&r);
			t->equiv += r.verdict == ST_EQUIVALENT;
			continue;
		}
		t->power += r.verdict == ST_FASTER;
		if (!isnan(r.lo)) {
			t->ncov++;
			t->cover += r.lo <= eff && eff <= r.hi;
			t->assurance += expm1((r.hi - r.lo) / 2); /* the mean half-width, in the plan column's place */
		}
	}
	t->n++;
}

/* A pilot of boots_a boots per group plans a comparison for a 1% half-width; the
 * planned design is then run 40 times and the share meeting the target recorded. */
static void rep_plan(gsl_rng *rng, const struct gd *d, struct cell *c, struct tally *t)
{
	struct err e;
	draw(rng, d, d->boots_a, 7, d->sd_boot_a, 0, &c[0]);
	draw(rng, d, d->boots_a, 7, d->sd_boot_a, 0, &c[1]);
	struct st_group g[2] = {c[0].g, c[1].g};
	struct st_estimate est[2];
	assert_int_equal(stats_estimate_groups(g, 2, est, &e), 0);
	struct st_plan_opts po = stats_plan_defaults();
	po.target = 0.01;
	struct st_plan p;
	assert_int_equal(stats_plan(&est[0].used, &est[1].used, &po, &p, &e), 0);
	t->n++;
	if (!p.feasible)
		return;
	struct gd run = *d;
	run.runs = p.runs;
	run.samples = p.samples;
	size_t met = 0, m = 40;
	struct st_compare_opts o = stats_compare_defaults();
	for (size_t k = 0; k < m; k++) {
		draw(rng, &run, p.boots, 7, d->sd_boot_a, 0, &c[0]);
		draw(rng, &run, p.boots, 7, d->sd_boot_a, 0, &c[1]);
		struct st_group h[2] = {c[0].g, c[1].g};
		assert_int_equal(stats_estimate_groups(h, 2, est, &e), 0);
		struct st_comparison r;
		stats_compare(&est[0], &est[1], &o, &r);
		met += !isnan(r.hi) && expm1((r.hi - r.lo) / 2) <= po.target;
	}
	t->assurance += (double)met / (double)m;
	t->below50 += 2 * met < m;
	t->below20 += 5 * met < m;
	t->boots += p.boots;
	t->nplan++;
}

/* The host factor one sample time later (PAIR). */
static double host_next(gsl_rng *rng, const struct gd *d, double h, size_t *t)
{
	(*t)++;
	if (d->phase)
		return *t % d->phase ? h : d->sd_host * gsl_ran_gaussian_ziggurat(rng, 1);
	return d->phi * h + d->sd_host * sqrt(1 - d->phi * d->phi) * gsl_ran_gaussian_ziggurat(rng, 1);
}

/* Paired arms (sysab run --arm; stats_compare_rounds): boots_a boots, each with `runs` paired
 * runs of `samples` rounds; a round samples A and B in alternating order (AB, BA, ...) one
 * sample time apart, both loading on the host factor (sd_host, phi or phase) at their own time,
 * each arm's run with its own offset N(0, sd_run) (the runs' own workers), the boot's offset
 * N(0, sd_boot_a) shared. UNPAIRED: the same time as `runs` runs of A and of B in turn, each of
 * `samples` samples over its own stretch of the host process, compared as groups (one boot: --unit
 * run): the design a paired run replaces. */
static void rep_pair(gsl_rng *rng, const struct gd *d, struct cell *c, struct tally *t)
{
	static int rounds[MAXS];
	static struct st_pairrun pr[MAXB * MAXR];
	struct st_compare_opts o = stats_compare_defaults();
	struct err e;
	size_t nb = d->boots_a, nr = d->runs, R = d->samples;
	for (size_t i = 0; i < R; i++)
		rounds[i] = (int)i;
	bool unit_ok = true;
	for (int ab = 0; ab < 2; ab++) {
		double eff = ab ? log1p(d->effect) : 0;
		struct st_comparison r;
		size_t ts = 0;
		if (d->mode == UNPAIRED) {
			for (int g = 0; g < 2; g++) {
				c[g].g = (struct st_group){.boots = c[g].boots, .nboots = nb};
				for (size_t b = 0; b < nb; b++)
					c[g].boots[b] = (struct st_boot){&c[g].runs[b * nr], nr};
			}
			for (size_t b = 0; b < nb; b++) {
				double bo = d->sd_boot_a * gsl_ran_gaussian_ziggurat(rng, 1);
				double h = d->sd_host * gsl_ran_gaussian_ziggurat(rng, 1);
				for (size_t k = 0; k < 2 * nr; k++) { /* A, B, A, B ...: the paired runs' time */
					int g = (int)(k % 2);
					size_t ri = b * nr + k / 2;
					double ro = 7 + (g ? eff : 0) + bo + d->sd_run * gsl_ran_gaussian_ziggurat(rng, 1);
					double *y = &c[g].y[ri * R];
					for (size_t i = 0; i < R; i++) {
						y[i] = ro + h + d->sd_within * gsl_ran_gaussian_ziggurat(rng, 1);
						h = host_next(rng, d, h, &ts);
					}
					c[g].runs[ri] = (struct st_run){.y = y, .n = R};
				}
			}
			struct st_group g2[2] = {c[0].g, c[1].g};
			struct st_estimate est[2];
			assert_int_equal(stats_estimate_groups(g2, 2, est, &e), 0);
			if (nb < 2)
				o.unit = ST_LEVEL_RUN;
			stats_compare(&est[0], &est[1], &o, &r);
			unit_ok = r.covered & ST_BIT(o.unit);
		} else {
			size_t np = 0;
			for (size_t b = 0; b < nb; b++) {
				double h = d->sd_host * gsl_ran_gaussian_ziggurat(rng, 1); /* the boot offset cancels */
				for (size_t k = 0; k < nr; k++, np++) {
					double ra = d->sd_run * gsl_ran_gaussian_ziggurat(rng, 1);
					double rb = eff + d->sd_run * gsl_ran_gaussian_ziggurat(rng, 1);
					double *dy = &c[0].y[np * R];
					for (size_t i = 0; i < R; i++) {
						double y[2];
						for (int pos = 0; pos < 2; pos++) {
							int arm = (int)(i % 2) ^ pos; /* AB, then BA */
							y[arm] = (arm ? rb : ra) + h + d->sd_within * gsl_ran_gaussian_ziggurat(rng, 1);
							h = host_next(rng, d, h, &ts);
						}
						dy[i] = y[1] - y[0];
					}
					pr[np] = (struct st_pairrun){dy, rounds, R, b};
				}
			}
			struct st_estimate de;
			assert_int_equal(stats_compare_rounds(pr, np, &o, &r, &de, &e), 0);
			assert_true(r.caveats & ST_CAVEAT_PAIRED_ROUNDS);
			unit_ok = r.covered & ST_BIT(r.unit);
		}
		if (!ab) {
			t->aa += called(&r);
			t->equiv += r.verdict == ST_EQUIVALENT;
			t->noverdict += !unit_ok || r.verdict == ST_NO_DATA;
			continue;
		}
		t->power += r.verdict == ST_FASTER;
		if (unit_ok && !isnan(r.lo)) {
			t->ncov++;
			t->cover += r.lo <= eff && eff <= r.hi;
		}
	}
	t->n++;
}

/* Paired runs that grow (run --arm --until decided, docs/METHOD.md "Paired runs that grow"): one
 * boot, paired runs drawn as PAIR draws them (samples rounds each), a look after each from the
 * boots_a-th on as look k of a design of at most boots_b paired runs (information: paired runs
 * over boots_b), stopping where sysab's own rule (study_grow_rule over the row) says decided or
 * at the cap. aa: A/A paths ending faster or slower; power: A/B paths ending faster; equiv: A/A
 * ending equivalent; boots: the paired runs the A/B paths took (runs: the A/A paths'). */
static void rep_grow(gsl_rng *rng, const struct gd *d, struct cell *c, struct tally *t)
{
	static int rounds[MAXS];
	static struct st_pairrun pr[MAXB];
	struct err e;
	size_t R = d->samples, N = d->boots_b;
	for (size_t i = 0; i < R; i++)
		rounds[i] = (int)i;
	for (int ab = 0; ab < 2; ab++) {
		double eff = ab ? log1p(d->effect) : 0;
		size_t ts = 0;
		double h = d->sd_host * gsl_ran_gaussian_ziggurat(rng, 1);
		struct st_comparison r = {0};
		size_t np = 0;
		enum study_grow_state state = STUDY_GROW_GO_ON;
		while (state == STUDY_GROW_GO_ON) {
			double ra = d->sd_run * gsl_ran_gaussian_ziggurat(rng, 1);
			double rb = eff + d->sd_run * gsl_ran_gaussian_ziggurat(rng, 1);
			double *dy = &c[0].y[np * R];
			for (size_t i = 0; i < R; i++) {
				double y[2];
				for (int pos = 0; pos < 2; pos++) {
					int arm = (int)(i % 2) ^ pos;
					y[arm] = (arm ? rb : ra) + h + d->sd_within * gsl_ran_gaussian_ziggurat(rng, 1);
					h = host_next(rng, d, h, &ts);
				}
				dy[i] = y[1] - y[0];
			}
			pr[np] = (struct st_pairrun){dy, rounds, R, 0};
			if (++np < d->boots_a)
				continue;
			struct st_compare_opts o = stats_compare_defaults();
			o.unit = ST_LEVEL_RUN;
			o.max_boots = N;
			o.look = np - d->boots_a + 1;
			struct st_estimate de;
			assert_int_equal(stats_compare_rounds(pr, np, &o, &r, &de, &e), 0);
			stats_compare_adjust(&r, 1);
			struct an_row row = {.have_a = true, .have_b = true, .c = r};
			struct an_compare cmp = {.rows = &row, .nrows = 1};
			state = study_grow_rule(&cmp, np, N);
		}
		if (!ab) {
			t->aa += called(&r);
			t->equiv += r.verdict == ST_EQUIVALENT;
			t->noverdict += state == STUDY_GROW_CAP;
			t->adjusted += np; /* the A/A paths' paired runs */
		} else {
			t->power += r.verdict == ST_FASTER;
			t->boots += np;
			if (!isnan(r.lo)) {
				t->ncov++;
				t->cover += r.lo <= eff && eff <= r.hi;
			}
		}
	}
	t->n++;
}

#define PCT(x, n) (n ? 100.0 * (double)(x) / (double)(n) : NAN)

static const struct gd grid[] = {
	{.name = "adaptive: boot sd 0.5%, 1 run/boot, target 1.5%, cap 20", .kind = ADAPT, .boots_b = 20, .runs = 1, .samples = 10, .sd_boot_a = 0.005, .sd_boot_b = 0.005, .sd_run = 0.005, .sd_within = 0.03, .effect = 0.015, .fast = false, .cov_lo = 0, .cov_hi = 1, .aa_max = 0.05},
	{.name = "adaptive: boot sd 0.5%, 3 runs/boot, target 1.5%, cap 20", .kind = ADAPT, .boots_b = 20, .runs = 3, .samples = 10, .sd_boot_a = 0.005, .sd_boot_b = 0.005, .sd_run = 0.005, .sd_within = 0.03, .effect = 0.015, .fast = false, .cov_lo = 0, .cov_hi = 1, .aa_max = 0.05},
	{.name = "adaptive: boot sd 1%, 1 run/boot, target 2.5%, cap 20", .kind = ADAPT, .boots_b = 20, .runs = 1, .samples = 10, .sd_boot_a = 0.01, .sd_boot_b = 0.01, .sd_run = 0.005, .sd_within = 0.03, .effect = 0.025, .fast = true, .cov_lo = 0, .cov_hi = 1, .aa_max = 0.05},
	{.name = "adaptive: boot sd 1%, 3 runs/boot, target 2.5%, cap 20", .kind = ADAPT, .boots_b = 20, .runs = 3, .samples = 10, .sd_boot_a = 0.01, .sd_boot_b = 0.01, .sd_run = 0.005, .sd_within = 0.03, .effect = 0.025, .fast = false, .cov_lo = 0, .cov_hi = 1, .aa_max = 0.05},
	{.name = "adaptive: boot sd 2%, 1 run/boot, target 5%, cap 20", .kind = ADAPT, .boots_b = 20, .runs = 1, .samples = 10, .sd_boot_a = 0.02, .sd_boot_b = 0.02, .sd_run = 0.005, .sd_within = 0.03, .effect = 0.05, .fast = false, .cov_lo = 0, .cov_hi = 1, .aa_max = 0.05},
	{.name = "adaptive: boot sd 2%, 3 runs/boot, target 5%, cap 20", .kind = ADAPT, .boots_b = 20, .runs = 3, .samples = 10, .sd_boot_a = 0.02, .sd_boot_b = 0.02, .sd_run = 0.005, .sd_within = 0.03, .effect = 0.05, .fast = false, .cov_lo = 0, .cov_hi = 1, .aa_max = 0.05},
	/* name, kind, boots a, b, step, runs, samples, sd boot a, b (FACT: of the last cell), run, within, round, effect,
	 * fast, bounds, mode */
	{"balanced 2 boots", TWO, 2, 2, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, true, 0.93, 0.99, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"balanced 3 boots", TWO, 3, 3, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, true, 0.935, 0.98, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"balanced 4 boots", TWO, 4, 4, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, false, 0.935, 0.975, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"balanced 6 boots", TWO, 6, 6, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, true, 0.935, 0.975, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"2 boots against 5", TWO, 2, 5, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, true, 0.935, 0.99, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"2 boots against 3", TWO, 2, 3, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, false, 0.935, 0.99, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"2 boots against 8", TWO, 2, 8, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, false, 0.935, 0.99, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"boot sd 1% against 3%, 3 boots", TWO, 3, 3, 0, 2, 10, 0.01, 0.03, 0.005, 0.03, 0, 0.04, true, 0.935, 0.975, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"boot sd 1% against 3%, 2 boots", TWO, 2, 2, 0, 2, 10, 0.01, 0.03, 0.005, 0.03, 0, 0.04, false, 0.935, 0.975, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"boot sd 1% against 4%, 2 boots", TWO, 2, 2, 0, 2, 10, 0.01, 0.04, 0.005, 0.03, 0, 0.04, false, 0.935, 0.975, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"boot sd 1% against 3%, 4 boots", TWO, 4, 4, 0, 2, 10, 0.01, 0.03, 0.005, 0.03, 0, 0.04, false, 0.935, 0.975, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"boot sd 1% against 10%, 2 boots", TWO, 2, 2, 0, 2, 10, 0.01, 0.10, 0.005, 0.03, 0, 0.10, false, 0.935, 0.975, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"boot sd 1% against 10%, 3 boots", TWO, 3, 3, 0, 2, 10, 0.01, 0.10, 0.005, 0.03, 0, 0.10, false, 0.935, 0.975, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"1 boot borrows from 4", TWO, 1, 4, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, true, 0.935, 0.998, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"1 boot borrows from 6", TWO, 1, 6, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, false, 0.935, 0.975, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"2 boots (sd 3%) against 5 (sd 1%)", TWO, 2, 5, 0, 2, 10, 0.03, 0.01, 0.005, 0.03, 0, 0.04, true, 0.935, 0.975, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"1 boot (sd 2%) borrows from 4 (sd 1%)", TWO, 1, 4, 0, 2, 10, 0.02, 0.01, 0.005, 0.03, 0, 0.03, false, 0, 1, 1, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"1 boot each (no replication)", TWO, 1, 1, 0, 3, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, true, 0, 1, 0.0, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"2x2 factorial, 2 boots per cell", FACT, 2, 2, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.0276, true, 0.935, 1, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"2x2 factorial, 4 boots per cell", FACT, 4, 4, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.0276, false, 0.935, 0.975, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"2x2, one cell boot sd 3%, 2 boots per cell", FACT, 2, 2, 0, 2, 10, 0.01, 0.03, 0.005, 0.03, 0, 0.0276, false, 0.935, 1, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"2x2, one cell boot sd 4%, 2 boots per cell", FACT, 2, 2, 0, 2, 10, 0.01, 0.04, 0.005, 0.03, 0, 0.0276, true, 0.935, 1, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"2x2, one cell boot sd 3%, 3 boots per cell", FACT, 3, 3, 0, 2, 10, 0.01, 0.03, 0.005, 0.03, 0, 0.0276, false, 0.935, 1, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"2x2, one cell boot sd 4%, 3 boots per cell", FACT, 3, 3, 0, 2, 10, 0.01, 0.04, 0.005, 0.03, 0, 0.0276, true, 0.935, 1, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"one-factor analyze = compare, 3 boots x 3 runs, sd 1% against 3%", TWO, 3, 3, 0, 3, 10, 0.01, 0.03, 0.005, 0.03, 0, 0.04, true, 0.935, 0.99, 0.05, ONEF, 0, 0, 0, 0, false, 0, 0},
	{"one-factor analyze = compare, 2 boots against 5", TWO, 2, 5, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, false, 0.935, 0.99, 0.05, ONEF, 0, 0, 0, 0, false, 0, 0},
	{"1 boot borrows from 4, donor estimate <= 0", TWO, 1, 4, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, true, 0, 1, 0.05, TRUNC, 0, 0, 0, 0, false, 0, 0},
	{"rounded to 4 digits, 3 boots x 1 value", TWO, 3, 3, 0, 1, 1, 0.0005, 0.0005, 0, 0, 4, 0.003, true, 0.935, 0.99, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	/* Host-speed adjustment (docs/METHOD.md, "Host-speed adjustment"): a common host factor of sd
	 * 5% per run that the workload loads on (r^2 about 0.95, or 0.6 with load 0.5 and its own run
	 * sd 1.5%) and host.ref measures with 1% noise; each design plain and adjusted, then changes
	 * that move the reference itself (A/A of the workload): 10% the rule catches; 3% and 1% it
	 * cannot, and they show the assumption's price (no bound: docs/METHOD.md). */
	{"host 5%, r2 .95, 4 boots x 2 runs: plain", TWO, 4, 4, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, false, 0.935, 0.975, 0.05, PLAIN, 0.05, 1, 0.01, 0, false, 0, 0},
	{"host 5%, r2 .95, 4 boots x 2 runs: adjusted", TWO, 4, 4, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, true, 0.935, 0.98, 0.05, ADJ, 0.05, 1, 0.01, 0, false, 0, 0},
	{"host 5%, r2 .95, 3 boots x 3 runs: plain", TWO, 3, 3, 0, 3, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, false, 0.935, 0.975, 0.05, PLAIN, 0.05, 1, 0.01, 0, false, 0, 0},
	{"host 5%, r2 .95, 3 boots x 3 runs: adjusted", TWO, 3, 3, 0, 3, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, false, 0.935, 0.98, 0.05, ADJ, 0.05, 1, 0.01, 0, false, 0, 0},
	{"host 5%, r2 .6, 4 boots x 2 runs: plain", TWO, 4, 4, 0, 2, 10, 0.01, 0.01, 0.015, 0.03, 0, 0.02, false, 0.935, 0.975, 0.05, PLAIN, 0.05, 0.5, 0.01, 0, false, 0, 0},
	{"host 5%, r2 .6, 4 boots x 2 runs: adjusted", TWO, 4, 4, 0, 2, 10, 0.01, 0.01, 0.015, 0.03, 0, 0.02, false, 0.935, 0.98, 0.05, ADJ, 0.05, 0.5, 0.01, 0, false, 0, 0},
	{"host 5%, r2 .95, 6 boots x 1 run: plain", TWO, 6, 6, 0, 1, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, false, 0.935, 0.975, 0.05, PLAIN, 0.05, 1, 0.01, 0, false, 0, 0},
	{"host 5%, r2 .95, 6 boots x 1 run: adjusted (slope between boots)", TWO, 6, 6, 0, 1, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, true, 0.935, 0.98, 0.05, ADJ, 0.05, 1, 0.01, 0, false, 0, 0},
	{"host 5%, r2 .95, 1 boot x 8 runs, --unit run: plain", TWO, 1, 1, 0, 8, 10, 0, 0, 0.005, 0.03, 0, 0.02, false, 0.935, 0.975, 0.05, PLAIN, 0.05, 1, 0.01, 0, true, 0, 0},
	{"host 5%, r2 .95, 1 boot x 8 runs, --unit run: adjusted", TWO, 1, 1, 0, 8, 10, 0, 0, 0.005, 0.03, 0, 0.02, true, 0.935, 0.98, 0.05, ADJ, 0.05, 1, 0.01, 0, true, 0, 0},
	{"host 5%, r2 .6, 1 boot x 8 runs, --unit run: plain", TWO, 1, 1, 0, 8, 10, 0, 0, 0.015, 0.03, 0, 0.02, false, 0.935, 0.975, 0.05, PLAIN, 0.05, 0.5, 0.01, 0, true, 0, 0},
	{"host 5%, r2 .6, 1 boot x 8 runs, --unit run: adjusted", TWO, 1, 1, 0, 8, 10, 0, 0, 0.015, 0.03, 0, 0.02, false, 0.935, 0.98, 0.05, ADJ, 0.05, 0.5, 0.01, 0, true, 0, 0},
	{"host 5%, reference 10% faster in B: adjusted", TWO, 4, 4, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, true, 0, 1, 0.05, ADJ, 0.05, 1, 0.01, 0.10, false, 0, 0},
	{"host 5%, reference 3% faster in B: adjusted", TWO, 4, 4, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, false, 0, 1, 1, ADJ, 0.05, 1, 0.01, 0.03, false, 0, 0},
	{"host 5%, reference 1% faster in B: adjusted", TWO, 4, 4, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, false, 0, 1, 1, ADJ, 0.05, 1, 0.01, 0.01, false, 0, 0},
	{"sequential: 2 to 8 boots, advice", SEQ, 2, 8, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, true, 0.935, 0.975, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"fixed: 8 boots (sequential's maximum)", TWO, 8, 8, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, false, 0.935, 0.975, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"naive looks 2, 4, 6, 8 boots (stop at faster/slower)", LOOKS, 2, 8, 2, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, true, 0, 1, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"one boot at a time 3 to 10 (stop at faster/slower)", LOOKS, 3, 10, 1, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, true, 0, 1, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"diagnostic footnotes, 4 boots x 3 runs x 15 (A/A: any; power: warm-up)", DIAG, 4, 4, 0, 3, 15, 0.01, 0.01, 0.005, 0.01, 0, 0.10, true, 0, 1, 0.10, PLAIN, 0, 0, 0, 0, false, 0, 0},
	/* NODE: boots_a boots per kernel, boots_b nodes; sd_boot_a, sd_boot_b of kernels a and b */
	{"kernel x node: 2 kernels x 4 nodes, 3 boots, boot sd 1%", NODE, 3, 4, 0, 1, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.02, true, 0.935, 0.99, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"kernel x node: 2 kernels x 4 nodes, 6 boots, boot sd 3%", NODE, 6, 4, 0, 1, 10, 0.03, 0.03, 0.005, 0.03, 0, 0.02, false, 0.935, 0.975, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"kernel x node: 2 kernels x 4 nodes, 4 boots, boot sd 1% against 4%", NODE, 4, 4, 0, 1, 10, 0.01, 0.04, 0.005, 0.03, 0, 0.02, false, 0.935, 0.975, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"kernel x node: 2 kernels x 2 nodes, 2 boots, boot sd 3%", NODE, 2, 2, 0, 2, 10, 0.03, 0.03, 0.005, 0.03, 0, 0.02, true, 0.935, 1, 0.05, PLAIN, 0, 0, 0, 0, false, 0, 0},
	/* PAIR (docs/METHOD.md, "Paired arms"): boots, paired runs per boot, rounds; sd boot, run, within
	 * 1%; a host factor of sd 3% over sample times, AR(1) phi .95 (phases of tens of samples) or
	 * steps; effect 1%. Each paired design beside the unpaired one of the same time. */
	{"paired arms: 1 run x 40 rounds, host AR(1) 3% (one paired run: no verdict)", PAIR, 1, 1, 0, 1, 40, 0, 0, 0.005, 0.01, 0, 0.01, true, 0, 1, 0.0, PLAIN, 0.03, 1, 0, 0, false, 0.95, 0},
	{"paired arms: 1 boot x 2 runs x 40 rounds, run sd 0.5%, host steps 3% every 16", PAIR, 1, 1, 0, 2, 40, 0, 0, 0.005, 0.01, 0, 0.01, true, 0.935, 0.99, 0.05, PLAIN, 0.03, 1, 0, 0, false, 0, 16},
	{"paired arms: 1 boot x 4 runs x 20 rounds, run sd 0.5%, host AR(1) 3%", PAIR, 1, 1, 0, 4, 20, 0, 0, 0.005, 0.01, 0, 0.01, true, 0.935, 0.99, 0.05, PLAIN, 0.03, 1, 0, 0, false, 0.95, 0},
	{"unpaired: 1 boot x 4 runs x 20 samples each, --unit run, run sd 0.5%, host AR(1) 3%", PAIR, 1, 1, 0, 4, 20, 0, 0, 0.005, 0.01, 0, 0.01, true, 0.935, 1, 0.05, UNPAIRED, 0.03, 1, 0, 0, false, 0.95, 0},
	{"paired arms: 4 boots x 1 run x 20 rounds, boot sd 1%, run sd 0.5%, host AR(1) 3%", PAIR, 4, 4, 0, 1, 20, 0.01, 0.01, 0.005, 0.01, 0, 0.01, true, 0.935, 0.99, 0.05, PLAIN, 0.03, 1, 0, 0, false, 0.95, 0},
	{"paired arms: 1 boot x 2 runs x 100 rounds, run sd 0.5%, host AR(1) 3% phi .99", PAIR, 1, 1, 0, 2, 100, 0, 0, 0.005, 0.01, 0, 0.01, false, 0.935, 0.99, 0.05, PLAIN, 0.03, 1, 0, 0, false, 0.99, 0},
	/* DUET: boots_a blocks; sd_host the host factor per run (shared by the two guests of a block
	 * in a duet, a boot's own when booted one after the other), slot the CPU-set effect */
	{"duet 6 blocks, host 5% per run, CPU set 2%: paired by block", DUET, 6, 6, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, true, 0.935, 1, 0.05, PLAIN, 0.05, 0, 0, 0.02, false, 0, 0},
	{"same 6+6 boots one after the other, host 5%: unpaired", DUET, 6, 6, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, true, 0.935, 0.99, 0.05, UNPAIRED, 0.05, 0, 0, 0.02, false, 0, 0},
	{"duet 6 blocks, host 5% per run, no CPU-set effect", DUET, 6, 6, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, true, 0.935, 0.975, 0.05, PLAIN, 0.05, 0, 0, 0, false, 0, 0},
	{"duet 4 blocks, host 14% per run, CPU set 2%: paired by block", DUET, 4, 4, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, true, 0.935, 1, 0.05, PLAIN, 0.14, 0, 0, 0.02, false, 0, 0},
	{"same 4+4 boots one after the other, host 14%: unpaired", DUET, 4, 4, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, false, 0.935, 0.99, 0.05, UNPAIRED, 0.14, 0, 0, 0.02, false, 0, 0},
	{"duet 2 blocks, host 5% per run, CPU set 2%: paired by block", DUET, 2, 2, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, false, 0.935, 1, 0.05, PLAIN, 0.05, 0, 0, 0.02, false, 0, 0},
	{"duet 5 blocks (odd: the CPU sets unbalanced), host 5%, CPU set 2%", DUET, 5, 5, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0.03, false, 0.935, 1, 0.05, PLAIN, 0.05, 0, 0, 0.02, false, 0, 0},
	/* GROW (docs/METHOD.md, "Paired runs that grow"): looks from 2 paired runs to the cap (boots_b),
	 * rounds, run sd 0.5%, sample sd 1%, host AR(1) 3%; effect 1% (the default margin, the target) */
	{"paired grow: 2 to 12 paired runs x 20 rounds, run sd 0.5%, host AR(1) 3%", GROW, 2, 12, 0, 1, 20, 0, 0, 0.005, 0.01, 0, 0.01, true, 0.9, 1, 0.05, PLAIN, 0.03, 1, 0, 0, false, 0.95, 0},
	{"plan from small pilot (3x2x10)", PLAN, 3, 3, 0, 2, 10, 0.01, 0.01, 0.005, 0.03, 0, 0, true, 0, 1, 1, PLAIN, 0, 0, 0, 0, false, 0, 0},
	{"plan from large pilot (10x4x30)", PLAN, 10, 10, 0, 4, 30, 0.01, 0.01, 0.005, 0.03, 0, 0, false, 0, 1, 1, PLAIN, 0, 0, 0, 0, false, 0, 0},
};

/* A row's seed: FNV-1a of its name. */
static unsigned long name_seed(const char *name)
{
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

static void run_grid(bool full)
{
	struct st_plan_opts po = stats_plan_defaults();
	assert_true(po.max_boots == MAXB && po.max_runs == MAXR && po.max_samples == MAXS);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct cell *c = malloc(4 * sizeof *c);
	if (full)
		printf("| design | coverage | A/A | power (effect) | equivalent at 0 | no verdict (A/A) | plan assurance | replicates |\n"
		       "|---|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < sizeof grid / sizeof grid[0]; i++) {
		const struct gd *d = &grid[i];
		if (!full && !d->fast)
			continue;
		const char *only = getenv("SYSAB_GRID_ONLY");
		if (only && !strstr(d->name, only))
			continue;
		gsl_rng_set(rng, name_seed(d->name)); /* by name: a row added or moved changes no other row */
		size_t reps = full ? FULL_REPS : FAST_REPS;
		if (full && getenv("SYSAB_GRID_REPS"))
			reps = strtoul(getenv("SYSAB_GRID_REPS"), NULL, 10);
		if (d->kind == PLAN)
			reps /= full ? 4 : 5; /* full: 5,000 pilots (an assurance within about ±0.5 points), fast: 300 */
		if (d->kind == SEQ)
			reps /= full ? 5 : 2;
		if (d->kind == GROW) /* up to 11 sequential looks a path: fast 300 paths, full 4,000 */
			reps /= 5;
		if (d->kind == ADAPT && !getenv("SYSAB_GRID_REPS"))
			reps /= full ? 10 : 10; /* up to 19 looks per path, each with its own boundary search:
						 * 2,000 replicates full, 150 in make check */
		struct tally t = {0};
		for (size_t r = 0; r < reps; r++)
			switch (d->kind) {
			case TWO: rep_two(rng, d, c, &t); break;
			case FACT: rep_fact(rng, d, c, &t); break;
			case SEQ: rep_seq(rng, d, c, &t); break;
			case PLAN: rep_plan(rng, d, c, &t); break;
			case DIAG: rep_diag(rng, d, c, &t); break;
			case LOOKS: rep_looks(rng, d, c, &t); break;
			case NODE: rep_node(rng, d, &t); break;
			case PAIR: rep_pair(rng, d, c, &t); break;
			case DUET: rep_duet(rng, d, c, &t); break;
			case GROW: rep_grow(rng, d, c, &t); break;
			case ADAPT: rep_adapt(rng, d, c, &t); break;
			}
		double cov = PCT(t.cover, t.ncov), aa = PCT(t.aa, t.n), pw = PCT(t.power, t.n);
		double aa2 = d->kind == FACT || d->kind == LOOKS || d->kind == NODE ? PCT(t.aa2, t.n) : NAN; /* the interaction's A/A;
											     LOOKS: without the rule */
		double eq = PCT(t.equiv, t.n), nv = PCT(t.noverdict, t.n);
		double as = t.nplan ? 100 * t.assurance / (double)t.nplan : NAN; /* DUET: no plan column */
		char aas[96];
		if (d->kind == FACT) /* main effect of z / the interaction, both null */
			snprintf(aas, sizeof aas, "%.1f%% / %.1f%%", aa, aa2);
		else if (d->kind == NODE) /* node 1 vs 0 / kernel x last node, with their MC SE */
			snprintf(aas, sizeof aas, "%.1f%% / %.1f%% (MC SE %.2f / %.2f)", aa, aa2,
				 100 * sqrt(aa / 100 * (1 - aa / 100) / (double)t.n),
				 100 * sqrt(aa2 / 100 * (1 - aa2 / 100) / (double)t.n));
		else if (d->kind == LOOKS) /* with the rule (MC SE), and every look at full alpha */
			snprintf(aas, sizeof aas, "%.1f%% (MC SE %.2f; %.1f%% without the rule)", aa,
				 100 * sqrt(aa / 100 * (1 - aa / 100) / (double)t.n), aa2);
		else
			snprintf(aas, sizeof aas, "%.1f%%", aa);
		char covs[16] = "–";
		if (!isnan(cov))
			snprintf(covs, sizeof covs, "%.1f%%", cov);
		char eqs[16] = "–"; /* NODE rows keep the node effect's coverage there, printed below */
		if (d->kind != NODE)
			snprintf(eqs, sizeof eqs, "%.1f%%", eq);
		if (full)
			printf("| %s | %s | %s | %.1f%% (%+.2f%%) | %s | %.1f%% | %s%.0f%s | %zu |\n", d->name, covs,
			       aas, pw, 100 * d->effect, eqs, nv, d->kind == PLAN ? "" : "(", as, d->kind == PLAN ? "%" : ")",
			       reps);
		else
			printf("  %-40s coverage %.3f  A/A %s  power %.3f  equivalent %.3f\n", d->name, cov / 100, aas,
			       pw / 100, eq / 100);
		if (d->kind == PLAN)
			printf("  %zu of %zu pilots planned; %.1f%% of plans meet the target in under half their runs, "
			       "%.1f%% in under a fifth; mean boots %.1f\n", t.nplan, t.n, PCT(t.below50, t.nplan), PCT(t.below20, t.nplan),
			       t.nplan ? (double)t.boots / (double)t.nplan : NAN);
		if (d->kind == NODE)
			printf("  coverage (MC SE): interaction %.1f%% (%.2f), node 1 vs 0 %.1f%% (%.2f)\n", cov,
			       100 * sqrt(cov / 100 * (1 - cov / 100) / (double)t.ncov), PCT(t.equiv, t.n),
			       100 * sqrt(PCT(t.equiv, t.n) / 100 * (1 - PCT(t.equiv, t.n) / 100) / (double)t.n));
		if (d->mode == ADJ)
			printf("  adjusted in %.1f%% of A/A replicates, withheld (reference differs) in %.1f%%; mean beta %.2f, "
			       "r^2 %.2f\n", PCT(t.adjusted, t.n), PCT(t.withheld, t.n), t.adjusted ? t.beta / (double)t.adjusted : NAN,
			       t.adjusted ? t.r2 / (double)t.adjusted : NAN);
		if (d->kind == GROW)
			printf("  A/A %.1f%% (MC SE %.2f), power %.1f%% (MC SE %.2f) at %+.1f%%; mean paired runs %.1f (A/B), %.1f "
			       "(A/A); A/A stopped at the cap %.1f%%, equivalent %.1f%%\n",
			       aa, 100 * sqrt(aa / 100 * (1 - aa / 100) / (double)t.n), pw,
			       100 * sqrt(pw / 100 * (1 - pw / 100) / (double)t.n), 100 * d->effect,
			       (double)t.boots / (double)t.n, (double)t.adjusted / (double)t.n, nv, eq);
		if (d->kind == DUET)
			printf("  A/A MC SE %.2f; mean half-width of the A/B interval %.2f%%\n",
			       100 * sqrt(aa / 100 * (1 - aa / 100) / (double)t.n), t.ncov ? 100 * t.assurance / (double)t.ncov : NAN);
		if (d->kind == ADAPT) {
			/* the fixed design of the same power (as measured, kept within 0.5..0.995) */
			double same = pw / 100 < 0.5 ? 0.5 : pw / 100 > 0.995 ? 0.995 : pw / 100;
			size_t fb = fixed_boots(d, same), f80 = fixed_boots(d, 0.8);
			double e1 = (double)t.boots_h1 / (double)t.n, e0 = (double)t.boots_h0 / (double)t.n;
			printf("  adaptive: A/A %.2f%% (MC SE %.2f), power %.1f%% (MC SE %.1f) at %.1f%%; expected boots "
			       "per group %.2f (MC SE %.2f) at the target, %.2f under A/A; fixed design of the same power: %zu "
			       "boots (of 80%%: %zu); ratio %.2f\n",
			       aa, 100 * sqrt(aa / 100 * (1 - aa / 100) / (double)t.n), pw,
			       100 * sqrt(pw / 100 * (1 - pw / 100) / (double)t.n), 100 * d->effect, e1,
			       sqrt(((double)t.boots_h1sq / (double)t.n - e1 * e1) / (double)t.n), e0, fb, f80,
			       fb ? e1 / (double)fb : NAN);
		}
		if (d->mode == ONEF)
			printf("  one-factor analyze differs from compare in %zu of %zu replicates\n", t.differ, 2 * t.n);
		fflush(stdout);
		assert_int_equal(t.differ, 0); /* ONEF: analyze and compare agree on every replicate */
		if (!full) {
			if (t.ncov)
				assert_true(cov / 100 >= d->cov_lo && cov / 100 <= d->cov_hi);
			assert_true(aa / 100 <= d->aa_max + 0.01); /* + 1 point: about 2 binomial sd at 1,500 */
			if (d->kind == FACT || d->kind == NODE)
				assert_true(aa2 / 100 <= d->aa_max + 0.01);
			if (d->kind == NODE) /* the node effect's coverage, kept in equiv */
				assert_true(PCT(t.equiv, t.n) / 100 >= d->cov_lo && PCT(t.equiv, t.n) / 100 <= d->cov_hi);
			if (d->kind == GROW) /* A/A at most 5% + 2 MC SE, power at least 80% - 2 MC SE */
				assert_true(aa / 100 <= 0.05 + 2 * sqrt(0.05 * 0.95 / (double)t.n) &&
					    pw / 100 >= 0.8 - 2 * sqrt(0.8 * 0.2 / (double)t.n));
			if (d->kind == DUET) /* at most 5% + 2 Monte Carlo SE */
				assert_true(aa / 100 <= 0.05 + 2 * sqrt(0.05 * 0.95 / (double)t.n));
			if (d->kind == ADAPT) /* A/A at most 5% + 2 Monte Carlo SE */
				assert_true(aa / 100 <= 0.05 + 2 * sqrt(0.05 * 0.95 / (double)t.n));
			if (d->kind == LOOKS) /* at most 5% + 2 Monte Carlo SE, and the rule is what holds it */
				assert_true(aa / 100 <= 0.05 + 2 * sqrt(0.05 * 0.95 / (double)t.n) && aa2 > aa);
			/* the assurance holds per plan: <= 10% of plans (+ 2 binomial sd) meet the
			 * target in under half of their runs */
			if (d->kind == PLAN)
				assert_true((double)t.below50 / (double)t.nplan <= 0.1 + 2 * sqrt(0.09 / (double)t.nplan));
		}
	}
	free(c);
	gsl_rng_free(rng);
}

static void grid_fast_subset_holds_its_bounds(void **state)
{
	(void)state;
	const char *mode = getenv("SYSAB_GRID");
	run_grid(mode && !strcmp(mode, "full"));
}

/* Plans across variance models (issue 49 item 2): boot sd 0.5, 1, 2%, run sd 0.25, 0.5, 1%,
 * sample sd 3%, 10 samples per run, pilots of 2..6 boots x 1..3 runs per group. Each pilot
 * plans a 1% half-width; a plan that claims assurance (p.assurance finite) is run m times and
 * counted as failing when under half of those runs meet the target. Per cell: the share of
 * pilots claiming assurance, of those the share failing (the target: <= 10%), and the realised
 * assurance of the claims. SYSAB_GRID=full: every cell, PLAN_FULL pilots each (the table of
 * docs/METHOD.md, "Plans"; SYSAB_PLAN_PILOTS overrides the count); make check: the
 * boot-dominated cells, PLAN_FAST pilots each,
 * asserting <= 10% + 2 binomial sd. DF_CAL: also how many of all pilots would fail when every
 * plan claimed assurance (the rule removed), printed. */
#define PLAN_FULL 400
#define PLAN_FAST 100
static void plan_variance_models(void **state)
{
	(void)state;
	const char *mode = getenv("SYSAB_GRID");
	bool full = mode && !strcmp(mode, "full");
	const char *only = getenv("SYSAB_GRID_ONLY");
	if (only && !strstr("plan variance models", only))
		return; /* SYSAB_GRID_ONLY names other rows */
	static const double sdb[] = {0.005, 0.01, 0.02}, sdr[] = {0.0025, 0.005, 0.01};
	struct cell *c = malloc(2 * sizeof *c);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (full)
		printf("\n| boot sd | run sd | pilot | plans claiming assurance | of those, meeting the target in < 50%% "
		       "of runs (MC SE) | realised assurance of the claims | all plans failing if all claimed |\n"
		       "|---|---|---|---|---|---|---|\n");
	size_t worst_fail = 0, worst_n = 1, bad = 0;
	for (size_t ib = 0; ib < 3; ib++)
		for (size_t ir = 0; ir < 3; ir++)
			for (size_t B = 2; B <= 6; B++)
				for (size_t R = 1; R <= 3; R++) {
					/* make check: the cells where the boot level dominates most, pilots of 2..6 boots x 2..3 runs */
					if (!full && !(ib == 2 && ir == 0 && R >= 2))
						continue;
					struct gd d = {.name = "plan", .kind = PLAN, .boots_a = B, .boots_b = B, .runs = R,
						       .samples = 10, .sd_boot_a = sdb[ib], .sd_boot_b = sdb[ib],
						       .sd_run = sdr[ir], .sd_within = 0.03};
					gsl_rng_set(rng, 49000 + 100 * ib + 10 * ir + 4 * B + R);
					size_t n = full ? PLAN_FULL : PLAN_FAST, claims = 0, fail = 0, fail_all = 0, planned = 0;
					if (full && getenv("SYSAB_PLAN_PILOTS"))
						n = strtoul(getenv("SYSAB_PLAN_PILOTS"), NULL, 10);
					double real = 0;
					for (size_t k = 0; k < n; k++) {
						struct err e;
						draw(rng, &d, B, 7, d.sd_boot_a, 0, &c[0]);
						draw(rng, &d, B, 7, d.sd_boot_a, 0, &c[1]);
						struct st_group g[2] = {c[0].g, c[1].g};
						struct st_estimate est[2];
						assert_int_equal(stats_estimate_groups(g, 2, est, &e), 0);
						struct st_plan_opts po = stats_plan_defaults();
						po.target = 0.01;
						struct st_plan p;
						assert_int_equal(stats_plan(&est[0].used, &est[1].used, &po, &p, &e), 0);
						if (!p.feasible || p.boots > MAXB)
							continue;
						bool claim = isfinite(p.assurance) && p.assurance > 0;
						if (!claim && !full)
							continue;
						planned++;
						struct gd run = d;
						run.runs = p.runs;
						run.samples = p.samples;
						size_t met = 0, m = 40;
						struct st_compare_opts o = stats_compare_defaults();
						for (size_t j = 0; j < m; j++) {
							draw(rng, &run, p.boots, 7, d.sd_boot_a, 0, &c[0]);
							draw(rng, &run, p.boots, 7, d.sd_boot_a, 0, &c[1]);
							struct st_group h[2] = {c[0].g, c[1].g};
							assert_int_equal(stats_estimate_groups(h, 2, est, &e), 0);
							struct st_comparison r;
							stats_compare(&est[0], &est[1], &o, &r);
							met += !isnan(r.hi) && expm1((r.hi - r.lo) / 2) <= po.target;
						}
						fail_all += 2 * met < m;
						if (claim) {
							claims++;
							fail += 2 * met < m;
							real += (double)met / (double)m;
						}
					}
					double fr = claims ? (double)fail / (double)claims : 0;
					if (full)
						printf("| %.2f%% | %.2f%% | %zux%zu | %.0f%% | %.1f%% (%.1f) | %s%.0f%s | %.1f%% |\n",
						       100 * sdb[ib], 100 * sdr[ir], B, R, 100.0 * (double)claims / (double)n,
						       100 * fr, 100 * sqrt(fr * (1 - fr) / (double)(claims ? claims : 1)),
						       claims ? "" : "(", claims ? 100 * real / (double)claims : 0, claims ? "%" : ")",
						       planned ? 100.0 * (double)fail_all / (double)planned : 0);
					else
						printf("  plans %.1f%%/%.2f%% boot/run sd, pilot %zux%zu: %zu of %zu claim assurance, "
						       "%zu of those meet the target in under half their runs\n",
						       100 * sdb[ib], 100 * sdr[ir], B, R, claims, n, fail);
					fflush(stdout);
					if (claims && (double)fail / (double)claims > (double)worst_fail / (double)worst_n) {
						worst_fail = fail;
						worst_n = claims;
					}
					/* <= 10% of the claims fail, + 2 binomial sd */
					bad += claims && (double)fail / (double)claims > 0.1 + 2 * sqrt(0.09 / (double)claims);
				}
	free(c);
	gsl_rng_free(rng);
	printf("  worst cell: %zu of %zu claims meet the target in under half their runs; %zu cells over 10%% + 2 "
	       "binomial sd\n", worst_fail, worst_n, bad);
	assert_int_equal(bad, 0);
}

/* Effects within a row (issue 49 item 6; docs/METHOD.md, "Effects within a row"): A/A analyses
 * of `analyze --factors kernel,node` with node within boots, `rows` workloads drawn
 * independently, each 2 kernels x `nodes` nodes (11 effects at 4 nodes, 5 at 2), `boots` boots
 * per kernel x 1 run x 10 samples, boot sd 1%, run sd 0.5%, sample sd 3%. Per design: the share of
 * rows calling any effect and of analyses calling any, under the rule (stats_factorial_adjust:
 * Holm within the row, then BH across rows) and under the old one (BH across rows alone), with
 * MC SE. make check: ROWFAM_FAST analyses per design, asserting the rule's row rate <= 5% + 2 MC
 * SE and below the old rule's (the within-row family is what holds it); SYSAB_GRID=full:
 * ROWFAM_FULL analyses each (the table of docs/METHOD.md). */
#define ROWFAM_FAST 1000
#define ROWFAM_FULL 10000
#define ROWFAM_ROWS 8
struct rowfam {
	const char *name;
	size_t nodes, boots, rows;
	bool fast;
};

/* One A/A row into fa: kernel a and b boots, each boot's per-node means. */
static void rowfam_draw(gsl_rng *rng, const struct rowfam *d, double *m, struct st_wboot *wb, struct st_factorial *fa)
{
	static const char *kv[] = {"a", "b"}, *nv[] = {"0", "1", "2", "3", "4", "5", "6", "7"};
	struct st_factor f[2] = {{"kernel", kv, 2}, {"node", nv, d->nodes}};
	struct st_compare_opts o = stats_compare_defaults();
	struct err e;
	size_t nn = d->nodes;
	for (size_t i = 0; i < 2 * d->boots; i++) {
		double bo = 0.01 * gsl_ran_gaussian_ziggurat(rng, 1);
		for (size_t l = 0; l < nn; l++) {
			double ro = 7 + bo + 0.005 * gsl_ran_gaussian_ziggurat(rng, 1), ss = 0;
			for (size_t x = 0; x < 10; x++)
				ss += ro + 0.03 * gsl_ran_gaussian_ziggurat(rng, 1);
			m[i * nn + l] = ss / 10;
		}
		wb[i] = (struct st_wboot){i / d->boots, &m[i * nn]};
	}
	assert_int_equal(stats_factorial_within(f, 2, 2u, wb, 2 * d->boots, &o, fa, &e), 0);
}

static bool row_calls(const struct st_factorial *fa)
{
	for (size_t k = 0; k < fa->neffects; k++)
		if (called(&fa->effects[k].c))
			return true;
	return false;
}

static void row_effects_family(void **state)
{
	(void)state;
	static const struct rowfam grid_rf[] = {
		{"row family: kernel x node, 4 nodes (11 effects), 3 boots, 1 workload", 4, 3, 1, true},
		{"row family: kernel x node, 4 nodes (11 effects), 3 boots, 4 workloads", 4, 3, 4, true},
		{"row family: kernel x node, 4 nodes (11 effects), 6 boots, 4 workloads", 4, 6, 4, false},
		{"row family: kernel x node, 4 nodes (11 effects), 3 boots, 8 workloads", 4, 3, 8, false},
		{"row family: kernel x node, 2 nodes (5 effects), 3 boots, 4 workloads", 2, 3, 4, true},
		{"row family: kernel x node, 2 nodes (5 effects), 6 boots, 4 workloads", 2, 6, 4, false},
	};
	const char *mode = getenv("SYSAB_GRID");
	bool full = mode && !strcmp(mode, "full");
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double *m = malloc(ROWFAM_ROWS * 2 * MAXB * NODE_MAX * sizeof *m);
	struct st_wboot *wb = malloc(ROWFAM_ROWS * 2 * MAXB * sizeof *wb);
	if (full)
		printf("\n| A/A design (effects within a row) | rows calling any effect: Holm in the row + BH | "
		       "BH across workloads alone | analyses calling any: Holm + BH | BH alone | analyses |\n"
		       "|---|---|---|---|---|---|\n");
	for (size_t g = 0; g < sizeof grid_rf / sizeof grid_rf[0]; g++) {
		const struct rowfam *d = &grid_rf[g];
		const char *only = getenv("SYSAB_GRID_ONLY");
		if ((!full && !d->fast) || (only && !strstr(d->name, only)))
			continue;
		gsl_rng_set(rng, name_seed(d->name));
		size_t reps = full ? ROWFAM_FULL : ROWFAM_FAST, rows = 0, rnew = 0, rold = 0, anew = 0, aold = 0;
		for (size_t r = 0; r < reps; r++) {
			struct st_factorial fa[ROWFAM_ROWS] = {{0}}, old[ROWFAM_ROWS] = {{0}};
			struct st_factorial *p[ROWFAM_ROWS];
			for (size_t w = 0; w < d->rows; w++) {
				rowfam_draw(rng, d, &m[w * 2 * MAXB * NODE_MAX], &wb[w * 2 * MAXB], &fa[w]);
				old[w] = fa[w];
				old[w].effects = malloc(fa[w].neffects * sizeof *old[w].effects);
				memcpy(old[w].effects, fa[w].effects, fa[w].neffects * sizeof *old[w].effects);
				p[w] = &fa[w];
			}
			stats_factorial_adjust(p, d->rows);
			/* the old rule: each effect BH across the rows, no family within the row */
			for (size_t k = 0; k < old[0].neffects; k++) {
				struct st_comparison cs[ROWFAM_ROWS];
				size_t n = 0;
				for (size_t w = 0; w < d->rows; w++)
					if (old[w].effects[k].available && old[w].effects[k].c.verdict != ST_NO_DATA)
						cs[n++] = old[w].effects[k].c;
				stats_compare_adjust(cs, n);
				for (size_t w = 0, j = 0; w < d->rows; w++)
					if (old[w].effects[k].available && old[w].effects[k].c.verdict != ST_NO_DATA)
						old[w].effects[k].c = cs[j++];
			}
			bool an = false, ao = false;
			for (size_t w = 0; w < d->rows; w++) {
				bool cn = row_calls(&fa[w]), co = row_calls(&old[w]);
				rows++;
				rnew += cn;
				rold += co;
				an |= cn;
				ao |= co;
				stats_factorial_free(&fa[w]);
				free(old[w].effects);
			}
			anew += an;
			aold += ao;
		}
		double rn = (double)rnew / (double)rows, ro = (double)rold / (double)rows;
		double an_ = (double)anew / (double)reps, ao_ = (double)aold / (double)reps;
#define MCSE(x, n) (100 * sqrt((x) * (1 - (x)) / (double)(n)))
		if (full)
			printf("| %s | %.1f%% (MC SE %.2f) | %.1f%% (%.2f) | %.1f%% (%.2f) | %.1f%% (%.2f) | %zu |\n", d->name,
			       100 * rn, MCSE(rn, reps), 100 * ro, MCSE(ro, reps), 100 * an_, MCSE(an_, reps), 100 * ao_,
			       MCSE(ao_, reps), reps);
		else
			printf("  %-58s rows calling: %.3f (old rule %.3f)  analyses: %.3f (old %.3f)\n", d->name, rn, ro,
			       an_, ao_);
		/* rows of one analysis are independent; the SE is taken over analyses, the larger */
		double se = sqrt(0.05 * 0.95 / (double)reps);
		assert_true(rn <= 0.05 + 2 * se);
		if (!full)
			assert_true(rn < ro);
	}
	free(m);
	free(wb);
	gsl_rng_free(rng);
}

/* Rows without a verdict (issue 49 item 7): a group of one boot, the unit boot. Per design, over
 * A/B replicates at the design's effect: the share whose interval is shown as a verdict's
 * (an_change not within) and its coverage of the true difference, the share without a verdict
 * and of those how many still show an interval or a q (must be none), and the coverage the
 * within-boot interval they no longer show had. make check: ONEBOOT_FAST each, asserting no
 * unverdicted row shows an interval or q and a shown interval covers >= 93.5%. */
#define ONEBOOT_FAST 1000
#define ONEBOOT_FULL 10000
struct oneboot {
	const char *name;
	size_t boots_a, boots_b, runs;
	double sd_boot_a, sd_boot_b;
	bool trunc; /* only donors (B) estimating their boot variance <= 0: borrowing refused */
	bool fast;
};

static void one_boot_rows_show_no_interval(void **state)
{
	(void)state;
	static const struct oneboot grid_ob[] = {
		{"no verdict: 1 boot each, 3 runs", 1, 1, 3, 0.01, 0.01, false, true},
		{"no verdict: 1 boot each, 8 runs", 1, 1, 8, 0.01, 0.01, false, false},
		{"no verdict: 1 boot borrows from 4", 1, 4, 2, 0.01, 0.01, false, true},
		{"no verdict: 1 boot (sd 2%) borrows from 4 (sd 1%)", 1, 4, 2, 0.02, 0.01, false, false},
		{"no verdict: 1 boot against 4 whose estimate is <= 0 (borrowing refused)", 1, 4, 2, 0.01, 0.01, true, true},
	};
	const char *mode = getenv("SYSAB_GRID");
	bool full = mode && !strcmp(mode, "full");
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct cell *c = malloc(2 * sizeof *c);
	if (full)
		printf("\n| one-boot design (A/B, +3%%) | shown as a verdict's interval | its coverage | no verdict | "
		       "of those showing an interval or q | coverage of the hidden within-boot interval | replicates |\n"
		       "|---|---|---|---|---|---|---|\n");
	for (size_t g = 0; g < sizeof grid_ob / sizeof grid_ob[0]; g++) {
		const struct oneboot *d = &grid_ob[g];
		const char *only = getenv("SYSAB_GRID_ONLY");
		if ((!full && !d->fast) || (only && !strstr(d->name, only)))
			continue;
		gsl_rng_set(rng, name_seed(d->name));
		struct gd model = {.runs = d->runs, .samples = 10, .sd_run = 0.005, .sd_within = 0.03};
		size_t reps = full ? ONEBOOT_FULL : ONEBOOT_FAST, shown = 0, cover = 0, nov = 0, leak = 0, hid = 0,
		       hcover = 0;
		double eff = log1p(0.03);
		struct st_compare_opts o = stats_compare_defaults();
		struct err e;
		for (size_t r = 0; r < reps; r++) {
			draw(rng, &model, d->boots_a, 7, d->sd_boot_a, 0, &c[0]);
			draw(rng, &model, d->boots_b, 7 + eff, d->sd_boot_b, 0, &c[1]);
			struct st_group gr[2] = {c[0].g, c[1].g};
			struct st_estimate est[2];
			assert_int_equal(stats_estimate_groups(gr, 2, est, &e), 0);
			if (d->trunc && !(est[1].own.raw_boot <= 0)) {
				r--;
				continue;
			}
			struct st_comparison cmp;
			stats_compare(&est[0], &est[1], &o, &cmp);
			stats_compare_adjust(&cmp, 1);
			struct an_change chg;
			an_change_of(&cmp, 0, &chg);
			/* a verdict's interval: the unit (boot) covered in both groups, by the estimates */
			bool verdict = (cmp.covered & ST_BIT(ST_LEVEL_BOOT)) && !isnan(cmp.lo);
			if (verdict) {
				assert_true(isfinite(chg.lo) && isfinite(cmp.q)); /* shown, with its q */
				shown++;
				cover += cmp.lo <= eff && eff <= cmp.hi;
				continue;
			}
			nov++;
			leak += isfinite(chg.lo) || isfinite(chg.hi) || isfinite(cmp.q);
			if (!isnan(cmp.lo)) {
				hid++;
				hcover += cmp.lo <= eff && eff <= cmp.hi;
			}
		}
		double sh = (double)shown / (double)reps, cv = shown ? (double)cover / (double)shown : NAN;
		double hc = hid ? (double)hcover / (double)hid : NAN;
		char cvs[48] = "–", hcs[48] = "–";
		if (shown)
			snprintf(cvs, sizeof cvs, "%.1f%% (MC SE %.2f)", 100 * cv, MCSE(cv, shown));
		if (hid)
			snprintf(hcs, sizeof hcs, "%.1f%% (MC SE %.2f)", 100 * hc, MCSE(hc, hid));
		if (full)
			printf("| %s | %.1f%% | %s | %.1f%% | %zu | %s | %zu |\n", d->name, 100 * sh, cvs,
			       100 * (double)nov / (double)reps, leak, hcs, reps);
		else
			printf("  %-58s shown %.3f coverage %.3f  no verdict %.3f (showing one: %zu)  hidden coverage %.3f\n",
			       d->name, sh, cv, (double)nov / (double)reps, leak, hc);
		assert_int_equal(leak, 0);
		if (shown)
			assert_true(cv >= 0.935);
	}
	free(c);
	gsl_rng_free(rng);
}

/* ---------------------------------------------------------------- bisection (issue 50)
 *
 * A 1,024-commit range (configurations 0..1024, good 0, bad 1024) with a 2% step at a culprit drawn
 * uniformly from 1..1024 (A/A: no step), boot sd 0.5, 1 or 2%, 1 or 3 runs per boot (run sd 0.5%,
 * BS_SAMPLES samples per run at 3%). Each step of the sequential design boots blocks of the
 * midpoint with both ends, reusing every earlier boot of an end (a block boots an end only while
 * it has fewer boots than the midpoint), looks when the midpoint has 2, 4, 8, ... boots up to the
 * most the cap allows (doubling, as Pinpoint's attempts do), and is called
 * by bisect_decide() from stats_compare's verdicts at the look's level (st_compare_opts.look,
 * max_boots = the cap): the code path of a real step, on simulated samples. Undecided steps go on to
 * the favoured side (--assume); "stuck" counts the bisections that would have stopped without it.
 * The culprit check compares BS_CHECK fresh boots of the culprit's parent and of the culprit. The
 * fixed-n baseline boots n of each configuration per step and takes the nearer end (no verdicts);
 * its n is the smallest in bs_fixed_n[] whose right-culprit rate reaches the sequential design's.
 */
#define BS_N 1025
#define BS_MAXB 64
#define BS_SAMPLES 10
#define BS_CHECK 12
#define BS_FAST_REPS 40
#define BS_FULL_REPS 1000

struct bs_pool {
	unsigned gen;
	size_t nb;
	double y[BS_MAXB * 3 * BS_SAMPLES];
	struct st_run runs[BS_MAXB * 3];
	struct st_boot boots[BS_MAXB];
};

struct bs_sim {
	gsl_rng *rng;
	double sd_boot, sd_run, sd_within, step;
	size_t runs, culprit; /* culprit BS_N: no step */
	size_t cap;           /* boots per step */
	unsigned gen;         /* a pool of another generation is empty */
	struct bs_pool *pool; /* BS_N + 2: the configurations, then the check's fresh parent and culprit */
	size_t boots;         /* boots of the steps so far */
};

static struct bs_pool *bs_get(struct bs_sim *s, size_t slot)
{
	struct bs_pool *p = &s->pool[slot];
	if (p->gen != s->gen) {
		p->gen = s->gen;
		p->nb = 0;
	}
	return p;
}

/* One boot of configuration cfg into pool slot. */
static void bs_boot(struct bs_sim *s, size_t cfg, size_t slot)
{
	struct bs_pool *p = bs_get(s, slot);
	assert_true(p->nb < BS_MAXB);
	double bo = 7 + (cfg >= s->culprit ? log1p(-s->step) : 0) + s->sd_boot * gsl_ran_gaussian_ziggurat(s->rng, 1);
	size_t b = p->nb++;
	struct st_run *r = &p->runs[b * s->runs];
	p->boots[b] = (struct st_boot){r, s->runs};
	for (size_t k = 0; k < s->runs; k++) {
		double ro = bo + s->sd_run * gsl_ran_gaussian_ziggurat(s->rng, 1);
		double *y = &p->y[(b * s->runs + k) * BS_SAMPLES];
		r[k] = (struct st_run){.y = y, .n = BS_SAMPLES};
		for (size_t i = 0; i < BS_SAMPLES; i++)
			y[i] = ro + s->sd_within * gsl_ran_gaussian_ziggurat(s->rng, 1);
	}
	if (slot < BS_N)
		s->boots++;
}

/* b against a, the two groups estimated together as compare does. */
static void bs_cmp(const struct bs_pool *a, const struct bs_pool *b, const struct st_compare_opts *o,
		   struct st_comparison *r)
{
	struct st_group g[2] = {{.boots = (struct st_boot *)a->boots, .nboots = a->nb},
				{.boots = (struct st_boot *)b->boots, .nboots = b->nb}};
	struct st_estimate est[2];
	struct err e;
	assert_int_equal(stats_estimate_groups(g, 2, est, &e), 0);
	stats_compare(&est[0], &est[1], o, r);
}

/* Boot mid (and the ends below it) until the midpoint has want boots. */
static void bs_fill(struct bs_sim *s, const struct bisect *bi, size_t mid, size_t want)
{
	while (bs_get(s, mid)->nb < want) {
		bs_boot(s, mid, mid);
		if (bs_get(s, bi->good)->nb < bs_get(s, mid)->nb)
			bs_boot(s, bi->good, bi->good);
		if (bs_get(s, bi->bad)->nb < bs_get(s, mid)->nb)
			bs_boot(s, bi->bad, bi->bad);
	}
}

/* The most boots the midpoint can get within the step's cap, the ends topped up beside it: the
 * maximum of the step's sequential design. */
static size_t bs_max_mid(const struct bisect *bi, size_t ng, size_t nb)
{
	size_t m = 1;
	while (m + 1 + (m + 1 > ng ? m + 1 - ng : 0) + (m + 1 > nb ? m + 1 - nb : 0) <= bi->cap && m + 1 < BS_MAXB)
		m++;
	return m;
}

struct bs_out {
	bool right, nostep_first, confirmed, stuck;
	size_t boots;
};

/* One bisection: sequential (nfixed 0) or fixed-n. */
static void bs_bisect(struct bs_sim *s, size_t nfixed, struct bs_out *out)
{
	struct bisect bi;
	struct err e;
	s->gen++;
	s->boots = 0;
	*out = (struct bs_out){0};
	assert_int_equal(bisect_init(&bi, BS_N, 0, BS_N - 1, s->cap, true, &e), 0);
	size_t mid;
	while (bisect_next(&bi, &mid)) {
		bool first = bi.nsteps == 0;
		size_t start = s->boots, looks = 0;
		struct st_compare_opts o = stats_compare_defaults();
		struct bisect_verdicts w;
		struct st_comparison mg, mb, bg;
		enum bisect_why why = BISECT_WHY_OPEN;
		enum bisect_call c, fav;
		if (nfixed) {
			bs_fill(s, &bi, mid, nfixed);
			bs_cmp(bs_get(s, bi.good), bs_get(s, mid), &o, &mg);
			bs_cmp(bs_get(s, bi.bad), bs_get(s, mid), &o, &mb);
			w = (struct bisect_verdicts){.d_good = mg.d, .d_bad = mb.d};
			c = bisect_favoured(&w, 1);
			fav = c;
			looks = 1;
		} else {
			o.max_boots = bs_max_mid(&bi, bs_get(s, bi.good)->nb, bs_get(s, bi.bad)->nb);
			for (size_t want = 2;; want = want * 2 < o.max_boots ? want * 2 : o.max_boots) {
				bs_fill(s, &bi, mid, want);
				o.look = ++looks;
				struct bs_pool *pm = bs_get(s, mid), *pg = bs_get(s, bi.good), *pb = bs_get(s, bi.bad);
				bs_cmp(pg, pm, &o, &mg);
				bs_cmp(pb, pm, &o, &mb);
				if (first)
					bs_cmp(pg, pb, &o, &bg);
				w = (struct bisect_verdicts){mg.verdict, mb.verdict, first ? bg.verdict : ST_NO_DATA, mg.d, mb.d};
				/* the boots of the next look: the midpoint doubled, the ends topped up to it */
				size_t nx = want * 2 < o.max_boots ? want * 2 : o.max_boots;
				size_t block = nx > pm->nb ? (nx - pm->nb) + (nx > pg->nb ? nx - pg->nb : 0) +
								     (nx > pb->nb ? nx - pb->nb : 0)
							   : bi.cap;
				c = bisect_decide(&w, 1, first, s->boots - start, block, bi.cap, &why);
				if (c != BISECT_MORE)
					break;
			}
			fav = bisect_favoured(&w, 1);
			if (c == BISECT_UNDECIDED)
				out->stuck = true;
			if (c == BISECT_NO_STEP && first)
				out->nostep_first = true;
		}
		assert_int_equal(bisect_record(&bi, mid, c, why, s->boots - start, looks, fav, &e), 0);
	}
	out->boots = s->boots;
	if (bi.state == BISECT_FOUND) {
		out->right = bi.culprit == s->culprit;
		struct st_compare_opts o = stats_compare_defaults();
		struct st_comparison r;
		for (size_t k = 0; k < BS_CHECK; k++) {
			bs_boot(s, bi.culprit - 1, BS_N);
			bs_boot(s, bi.culprit, BS_N + 1);
		}
		bs_cmp(bs_get(s, BS_N), bs_get(s, BS_N + 1), &o, &r);
		out->confirmed = bisect_check_decide(&r.verdict, NULL, 1) == BISECT_CONFIRMED;
	}
	bisect_free(&bi);
}

struct bs_tally {
	size_t n, right, wrong_confirmed, right_confirmed, stuck, right_unassumed, nostep, boots;
};

static void bs_run(struct bs_sim *s, size_t nfixed, bool aa, size_t reps, struct bs_tally *t)
{
	*t = (struct bs_tally){0};
	for (size_t r = 0; r < reps; r++) {
		struct bs_out o;
		s->culprit = aa ? BS_N : 1 + gsl_rng_uniform_int(s->rng, BS_N - 1);
		bs_bisect(s, nfixed, &o);
		t->n++;
		t->right += o.right;
		t->right_confirmed += o.right && o.confirmed;
		t->wrong_confirmed += !o.right && o.confirmed;
		t->stuck += o.stuck;
		t->right_unassumed += o.right && !o.stuck;
		t->nostep += o.nostep_first;
		t->boots += o.boots;
	}
}

static double bs_se(size_t x, size_t n)
{
	double p = (double)x / (double)n;
	return 100 * sqrt(p * (1 - p) / (double)n);
}

static const size_t bs_fixed_n[] = {2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32};

/* Issue 50's targets per cell; make check runs the 1% boot sd, 1 run cell with BS_FAST_REPS and
 * holds loose bounds, SYSAB_GRID=full every cell with BS_FULL_REPS (SYSAB_BISECT_REPS overrides). */
static void bisect_simulation(void **state)
{
	(void)state;
	const char *mode = getenv("SYSAB_GRID");
	bool full = mode && !strcmp(mode, "full");
	size_t reps = full ? BS_FULL_REPS : BS_FAST_REPS;
	if (full && getenv("SYSAB_BISECT_REPS"))
		reps = strtoul(getenv("SYSAB_BISECT_REPS"), NULL, 10);
	static const double sdb[] = {0.005, 0.01, 0.02};
	static const size_t nr[] = {1, 3};
	struct bs_sim s = {.rng = gsl_rng_alloc(gsl_rng_mt19937), .sd_run = 0.005, .sd_within = 0.03, .step = 0.02,
			   .pool = calloc(BS_N + 2, sizeof(struct bs_pool))};
	assert_non_null(s.pool);
	s.cap = full && getenv("SYSAB_BISECT_CAP") ? strtoul(getenv("SYSAB_BISECT_CAP"), NULL, 10) : BISECT_CAP_DEFAULT;
	if (full)
		printf("Bisection, %zu boots per step at most, %zu bisections per row:\n\n", s.cap, reps);
	if (full)
		printf("| boot sd | runs/boot | right culprit (MC SE) | right, confirmed | wrong, confirmed | stuck without --assume | "
		       "mean boots | fixed n of that accuracy: n, mean boots | ratio | A/A said at step 1 | A/B said no step | replicates |\n"
		       "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
	for (size_t ib = 0; ib < 3; ib++)
		for (size_t ir = 0; ir < 2; ir++) {
			if (!full && (ib != 1 || ir != 0))
				continue;
			s.sd_boot = sdb[ib];
			s.runs = nr[ir];
			char name[64];
			snprintf(name, sizeof name, "bisect %.1f%% %zu", 100 * sdb[ib], nr[ir]);
			gsl_rng_set(s.rng, name_seed(name));
			struct bs_tally ab, aa, fx = {0};
			bs_run(&s, 0, false, reps, &ab);
			bs_run(&s, 0, true, reps, &aa);
			size_t fn = 0;
			if (full)
				for (size_t k = 0; k < sizeof bs_fixed_n / sizeof bs_fixed_n[0]; k++) {
					bs_run(&s, bs_fixed_n[k], false, reps, &fx);
					if (fx.right >= ab.right) {
						fn = bs_fixed_n[k];
						break;
					}
				}
			double mb = (double)ab.boots / (double)ab.n, fb = fn ? (double)fx.boots / (double)fx.n : NAN;
			if (full)
				printf("| %.1f%% | %zu | %.1f%% (%.2f) | %.1f%% | %.1f%% (%.2f) | %.1f%% | %.0f | %s%zu, %.0f | %.2f | "
				       "%.1f%% (%.2f) | %.1f%% | %zu |\n", 100 * sdb[ib], nr[ir], PCT(ab.right, ab.n), bs_se(ab.right, ab.n),
				       PCT(ab.right_confirmed, ab.n), PCT(ab.wrong_confirmed, ab.n),
				       bs_se(ab.wrong_confirmed, ab.n), PCT(ab.stuck, ab.n), mb, fn ? "" : "none up to ", fn ? fn : 32,
				       fb, mb / fb, PCT(aa.nostep, aa.n), bs_se(aa.nostep, aa.n),
				       PCT(ab.nostep, ab.n), reps);
			else
				printf("  %s: right %.3f (right and confirmed %.3f), wrong confirmed %.3f, stuck %.3f, mean boots %.0f, "
				       "A/A at step 1 %.3f\n", name, PCT(ab.right, ab.n) / 100, PCT(ab.right_confirmed, ab.n) / 100,
				       PCT(ab.wrong_confirmed, ab.n) / 100, PCT(ab.stuck, ab.n) / 100, mb, PCT(aa.nostep, aa.n) / 100);
			fflush(stdout);
			if (!full) {
				/* bounds at 40 replicates about 2 binomial sd below what the full run measures
				 * (docs/METHOD.md, "Bisection"): issue 50's 95% right culprits is NOT met at
				 * the default cap, so this holds the level reached, not the target */
				assert_true(ab.right >= ab.n * 50 / 100);
				assert_true(ab.wrong_confirmed <= 1);
				assert_true(aa.nostep >= aa.n * 85 / 100);
			}
		}
	free(s.pool);
	gsl_rng_free(s.rng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grid_fast_subset_holds_its_bounds),
		cmocka_unit_test(plan_variance_models),
		cmocka_unit_test(row_effects_family),
		cmocka_unit_test(one_boot_rows_show_no_interval),
		cmocka_unit_test(bisect_simulation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
