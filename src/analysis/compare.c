/* compare.c - compare A with B: the pairing of a comparison, its rule table and the rows. */
#include "analysis/internal.h"
#include "analysis/composite.h"
#include "workloads/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *an_describe(const struct rowkey *k)
{
	if (!k->comp)
		return NULL;
	char buf[512];
	an_composite_describe(k->comp, buf, sizeof buf);
	return xstrdup(buf);
}

static void row_init(struct an_row *r, const struct rowkey *k)
{
	memset(r, 0, sizeof *r);
	r->workload = xstrdup(k->workload);
	r->copies = k->copies;
	r->unit = xstrdup(k->unit);
	r->latency = k->latency;
	r->ncomposite = k->ncomp;
	r->composite = an_describe(k);
	r->c.verdict = ST_NO_DATA;
	r->constant = r->rel = NAN;
	r->more_boots = 0;
}

/* ---------------------------------------------------------------- the pairing of a comparison */

/* True when the runs pair by unit (each run's boot, or by_block its duet block): the group is
 * a within-unit factor of two levels by the rule analyze follows (within_units). */
static bool units_paired(const struct store_run_info *const *const runs[2], const size_t n[2], bool by_block)
{
	struct bootcell *bc = xcalloc(n[0] + n[1] + 1, sizeof *bc);
	const char **boots = xcalloc(n[0] + n[1] + 1, sizeof *boots);
	size_t nc = 0, nboots = 0;
	for (size_t side = 0; side < 2; side++)
		for (size_t i = 0; i < n[side]; i++) {
			const struct store_run_info *r = runs[side][i];
			int64_t key = r->duet_block;
			if (!by_block) { /* a boot by the index of its id */
				const char *id = r->boot_id ? r->boot_id : "";
				size_t k = 0;
				while (k < nboots && strcmp(boots[k], id))
					k++;
				if (k == nboots)
					boots[nboots++] = id;
				key = (int64_t)k;
			}
			bc[nc++] = (struct bootcell){key, side};
		}
	static const size_t level[2] = {0, 1};
	unsigned within, mixed;
	an_within_units(bc, nc, level, 1, &within, &mixed);
	free(bc);
	free(boots);
	return within != 0;
}

/* True when the runs of every boot of both groups record one duet block. */
static bool boots_in_one_block(const struct store_run_info *const *const runs[2], const size_t n[2])
{
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < n[s]; i++)
			for (int t = 0; t < 2; t++)
				for (size_t j = 0; j < n[t]; j++) {
					const struct store_run_info *x = runs[s][i], *y = runs[t][j];
					if (x->boot_id && y->boot_id && !strcmp(x->boot_id, y->boot_id) &&
					    x->duet_block != y->duet_block)
						return false;
				}
	return true;
}

/* True when every run of both groups belongs to one campaign and records its duet block. */
static bool one_duet(const struct store_run_info *const *const runs[2], const size_t n[2])
{
	const char *camp = n[0] ? runs[0][0]->campaign : NULL;
	for (int side = 0; side < 2 && camp; side++)
		for (size_t i = 0; i < n[side] && camp; i++)
			if (!runs[side][i]->campaign || strcmp(runs[side][i]->campaign, camp) || !runs[side][i]->in_duet)
				camp = NULL;
	return camp != NULL;
}

enum an_pairing an_pairing_decide(const struct store_run_info *const *runs_a, size_t na,
				  const struct store_run_info *const *runs_b, size_t nb, enum st_level unit)
{
	if (!runs_b || !nb || !na)
		return AN_PAIR_GROUPS;
	struct an_arm_pair *ap;
	size_t nap = an_arm_pairs(runs_a, na, runs_b, nb, &ap);
	free(ap);
	if (nap)
		return AN_PAIR_BY_ROUND;
	if (unit != ST_LEVEL_BOOT)
		return AN_PAIR_GROUPS;
	const struct store_run_info *const *const runs[2] = {runs_a, runs_b};
	const size_t n[2] = {na, nb};
	if (one_duet(runs, n) && boots_in_one_block(runs, n)) /* a duet's boots are never shared */
		return units_paired(runs, n, true) ? AN_PAIR_BY_BLOCK : AN_PAIR_GROUPS;
	return units_paired(runs, n, false) ? AN_PAIR_BY_BOOT : AN_PAIR_GROUPS;
}

/* What a rule's row estimator reads: the sets, the options, the arm pairs (by round) and the
 * runs' blocks (by block). */
struct pair_ctx {
	const struct store_set *a, *b;
	const struct st_compare_opts *o;
	struct an_arm_pair *ap; /* owned: freed by an_compare */
	size_t nap;
	struct run_unit *units; /* owned too */
	size_t nu;
};

/* Compare row k (its groups' data ga, gb; r->a and r->b estimated) into r->c; *pd gets the
 * estimate of the paired differences (paired rules). Returns 0 or -1 with e set. */
typedef int pair_row_fn(const struct pair_ctx *x, const struct rowkey *k, const struct gdata *ga,
			const struct gdata *gb, struct an_row *r, struct st_estimate *pd, struct err *e);

static int row_groups(const struct pair_ctx *x, const struct rowkey *k, const struct gdata *ga,
		      const struct gdata *gb, struct an_row *r, struct st_estimate *pd, struct err *e)
{
	(void)k, (void)ga, (void)gb, (void)pd, (void)e;
	stats_compare(&r->a, &r->b, x->o, &r->c);
	return 0;
}

static int row_by_unit(const struct pair_ctx *x, const struct rowkey *k, const struct gdata *ga,
		       const struct gdata *gb, struct an_row *r, struct st_estimate *pd, struct err *e)
{
	(void)k;
	return an_compare_paired(ga, gb, x->units, x->nu, x->o, &r->c, pd, e);
}

/* by round; a row no paired run holds with rounds is compared as groups */
static int row_by_round(const struct pair_ctx *x, const struct rowkey *k, const struct gdata *ga,
			const struct gdata *gb, struct an_row *r, struct st_estimate *pd, struct err *e)
{
	int rc = an_compare_rounds(x->a, x->b, k, x->ap, x->nap, x->o, &r->c, pd, e);
	if (rc > 0)
		r->by_round = true;
	return rc < 0 ? -1 : rc ? 0 : row_groups(x, k, ga, gb, r, pd, e);
}

static const struct pair_rule {
	struct an_pair_rule rule;
	pair_row_fn *row;
} pair_rules[] = {
	[AN_PAIR_GROUPS] = {{AN_PAIR_GROUPS, "groups", "stats_compare", 0, false, true, NULL}, row_groups},
	[AN_PAIR_BY_BOOT] = {{AN_PAIR_BY_BOOT, "by_boot", "stats_factorial_within", ST_CAVEAT_PAIRED, false, false,
			      "--adjust host: A and B ran on the same boots, so B is compared with A inside each boot, "
			      "and that paired comparison is not adjusted for host speed; compare without --adjust host "
			      "(the pairing already cancels what the runs of one boot share)"},
			     row_by_unit},
	/* a duet was refused in the words of shared boots before it was a rule: the same words */
	[AN_PAIR_BY_BLOCK] = {{AN_PAIR_BY_BLOCK, "by_block", "stats_factorial_within", ST_CAVEAT_DUET_PAIRED, false,
			       false,
			       "--adjust host: A and B ran on the same boots, so B is compared with A inside each boot, "
			       "and that paired comparison is not adjusted for host speed; compare without --adjust host "
			       "(the pairing already cancels what the runs of one boot share)"},
			      row_by_unit},
	[AN_PAIR_BY_ROUND] = {{AN_PAIR_BY_ROUND, "by_round", "stats_compare_rounds", ST_CAVEAT_PAIRED_ROUNDS, true,
			       false,
			       "--adjust host: A and B are arms of paired runs (sysab run --arm), compared round by round "
			       "inside each run, and that comparison is not adjusted for host speed; compare without "
			       "--adjust host (the pairing already cancels what the rounds share)"},
			      row_by_round},
};

const struct an_pair_rule *an_pair_rule(enum an_pairing p)
{
	return &pair_rules[(size_t)p < sizeof pair_rules / sizeof *pair_rules ? p : AN_PAIR_GROUPS].rule;
}

/* The block of each run of both groups, sorted by run (for AN_PAIR_BY_BLOCK). */
static struct run_unit *run_blocks(const struct an_compare_in *in, size_t *n)
{
	struct run_unit *u = xcalloc(in->na + in->nb + 1, sizeof *u);
	*n = 0;
	for (size_t i = 0; i < in->na; i++)
		u[(*n)++] = (struct run_unit){in->runs_a[i]->id, in->runs_a[i]->duet_block};
	for (size_t i = 0; i < in->nb; i++)
		u[(*n)++] = (struct run_unit){in->runs_b[i]->id, in->runs_b[i]->duet_block};
	qsort(u, *n, sizeof *u, an_run_unit_cmp);
	return u;
}

/* Row k of a comparison into r: both groups' estimates, diagnostics and points, and where both
 * have data (*compared set) B against A by rule's estimator, its rows carrying the rule's caveat.
 * Returns 0 or -1 with e set. */
static int compare_row(const struct pair_rule *rule, const struct pair_ctx *x, const struct store_set sets[2],
		       const struct rowkey *k, struct an_row *r, struct st_estimate *pd, bool *compared, struct err *e)
{
	int rc = 0;
	row_init(r, k);
	struct gdata ga, gb;
	an_gdata_row(&sets[0], k, &ga);
	an_gdata_row(&sets[1], k, &gb);
	r->have_a = ga.have;
	r->have_b = gb.have;
	an_points_of(&ga, &r->pa);
	an_points_of(&gb, &r->pb);
	if (!k->ncomp) {
		an_diag_group(&ga, &r->diag_a);
		an_diag_group(&gb, &r->diag_b);
	}
	if (ga.have && gb.have) {
		struct st_group g[2] = {ga.g, gb.g};
		struct st_estimate est[2];
		struct gdata gd[2] = {ga, gb};
		if (an_estimate_row(sets, gd, (size_t[]){0, 1}, g, 2, k, x->o, est, &r->adj, e)) {
			err_prefix(e, "%s", r->workload);
			rc = -1;
		} else {
			r->a = est[0];
			r->b = est[1];
			rc = rule->row(x, k, &ga, &gb, r, pd, e);
			/* the estimator's "paired inside each unit" named as the rule's unit */
			if (!rc && rule->rule.caveat && (r->c.caveats & ST_CAVEAT_PAIRED))
				r->c.caveats = (r->c.caveats & ~ST_CAVEAT_PAIRED) | rule->rule.caveat;
			*compared = true;
		}
	} else if (ga.have || gb.have) {
		struct st_estimate est;
		if (stats_estimate_groups(ga.have ? &ga.g : &gb.g, 1, &est, e) == 0)
			*(ga.have ? &r->a : &r->b) = est;
	}
	an_gdata_free(&ga);
	an_gdata_free(&gb);
	return rc;
}

int an_compare(const struct an_compare_in *in, struct an_compare *out, struct err *e)
{
	const struct st_compare_opts *o = in->o;
	const struct store_set *a = in->a, *b = in->b;
	memset(out, 0, sizeof *out);
	out->o = *o;
	out->ngroups = b ? 2 : 1;
	static const struct store_set none;
	if (!b) /* one group: its estimates, with nothing to compare against */
		b = &none;
	enum an_pairing pairing = b == &none ? AN_PAIR_GROUPS : in->pairing;
	const struct pair_rule *rule = &pair_rules[an_pair_rule(pairing)->pairing];
	struct pair_ctx x = {a, b, o, NULL, 0, NULL, 0};
	if (pairing == AN_PAIR_BY_ROUND)
		x.nap = an_arm_pairs(in->runs_a, in->na, in->runs_b, in->nb, &x.ap);
	if (pairing == AN_PAIR_BY_BLOCK)
		x.units = run_blocks(in, &x.nu);
	out->pairing = pairing;
	out->paired_rounds = x.nap;
	out->paired = pairing == AN_PAIR_BY_BOOT || pairing == AN_PAIR_BY_BLOCK;
	out->duet = pairing == AN_PAIR_BY_BLOCK;
	struct store_set sets[2] = {*a, *b};
	struct rowkey *k;
	size_t nk;
	if (an_make_rows(sets, 2, in->patterns, &k, &nk, e)) {
		free(x.ap);
		free(x.units);
		return -1;
	}
	out->rows = xcalloc(nk, sizeof *out->rows);
	out->nrows = nk;
	struct st_comparison *cs = xcalloc(nk, sizeof *cs);
	size_t *ci = xcalloc(nk, sizeof *ci);
	struct st_estimate *pd = xcalloc(nk, sizeof *pd); /* paired rows: per-unit differences */
	size_t ncs = 0;
	int rc = 0;
	if (o->host_adjust && !rule->rule.adjust_host)
		rc = errf(e, "%s", rule->rule.no_adjust);
	for (size_t i = 0; i < nk && !rc; i++) {
		bool compared = false;
		rc = compare_row(rule, &x, sets, &k[i], &out->rows[i], &pd[i], &compared, e);
		if (compared) {
			cs[ncs] = out->rows[i].c;
			ci[ncs++] = i;
		}
	}
	if (!rc) {
		stats_compare_adjust(cs, ncs);
		for (size_t j = 0; j < ncs; j++) {
			struct an_row *r = &out->rows[ci[j]];
			r->c = cs[j];
			/* paired: the per-unit differences are the one varying term */
			struct st_estimate zero = pd[ci[j]], d = pd[ci[j]];
			zero.se = 0;
			/* paired runs on one boot: the paired runs are the units the design adds */
			if (r->by_round && d.nboots < 2 && d.nruns >= 2)
				zero.nboots = d.nboots = d.nruns;
			if (r->c.verdict == ST_INCONCLUSIVE)
				r->more_boots = out->paired || r->by_round
							? stats_more_boots(&zero, &d, &r->c, o, &r->settles_as)
							    : stats_more_boots(&r->a, &r->b, &r->c, o, &r->settles_as);
		}
		for (size_t i = 0; i < nk; i++) {
			struct an_row *r = &out->rows[i];
			an_value_of(r->have_a ? &r->a : NULL, o->alpha, &r->va);
			an_value_of(r->have_b ? &r->b : NULL, o->alpha, &r->vb);
			an_change_of(&r->c, r->latency, &r->chg);
			out->change_kinds |= r->latency ? AN_CHG_TIME : AN_CHG_RATE;
		}
		an_confounders(in->runs_a, in->na, in->runs_b, in->nb, in->env_a, in->env_b, out);
		an_emulation_of(in->env_a, &out->emu[0]);
		an_emulation_of(in->env_b, &out->emu[1]);
	}
	free(cs);
	free(ci);
	free(pd);
	free(x.ap);
	free(x.units);
	an_keys_free(k, nk);
	if (rc)
		an_compare_free(out);
	return rc;
}

void an_rows_free(struct an_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].workload);
		free(rows[i].event);
		free(rows[i].unit);
		free(rows[i].composite);
		an_points_free(&rows[i].pa);
		an_points_free(&rows[i].pb);
		an_failed_check_free(&rows[i].failed);
	}
	free(rows);
}

void an_compare_free(struct an_compare *c)
{
	if (!c)
		return;
	an_rows_free(c->rows, c->nrows);
	an_rows_free(c->crows, c->ncrows);
	for (size_t i = 0; i < c->nconf; i++) {
		free(c->conf[i].key);
		free(c->conf[i].a);
		free(c->conf[i].b);
		free(c->conf[i].explained_by);
	}
	free(c->conf);
	an_emulation_free(&c->emu[0]);
	an_emulation_free(&c->emu[1]);
	free(c->look.next_step);
	memset(c, 0, sizeof *c);
}
