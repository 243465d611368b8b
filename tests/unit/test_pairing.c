/* test_pairing.c - an_pairing_decide: which of the four designs pairs B with A, from given runs. */
#include "unit.h"
#include "analysis/analysis.h"
#include "core/core.h"

#include <math.h>
#include <string.h>

/* A run of a comparison: its id, boot, and design units (pair tag, duet campaign and block). */
static struct store_run_info run(int64_t id, const char *boot, const char *pair, const char *camp, int64_t block)
{
	return (struct store_run_info){.id = id, .boot_id = (char *)boot, .pair = (char *)pair, .campaign = (char *)camp,
				       .in_duet = block >= 0, .duet_block = block};
}

static enum an_pairing decide(const struct store_run_info *a, size_t na, const struct store_run_info *b, size_t nb,
			      enum st_level unit)
{
	const struct store_run_info *pa[8], *pb[8];
	for (size_t i = 0; i < na; i++)
		pa[i] = &a[i];
	for (size_t i = 0; i < nb; i++)
		pb[i] = &b[i];
	return an_pairing_decide(pa, na, pb, nb, unit);
}

static void independent_groups(void **state)
{
	(void)state;
	struct store_run_info a[] = {run(1, "b1", NULL, NULL, -1), run(2, "b2", NULL, NULL, -1)};
	struct store_run_info b[] = {run(3, "b3", NULL, NULL, -1), run(4, "b4", NULL, NULL, -1)};
	assert_int_equal(decide(a, 2, b, 2, ST_LEVEL_BOOT), AN_PAIR_GROUPS);
	assert_int_equal(decide(a, 2, NULL, 0, ST_LEVEL_BOOT), AN_PAIR_GROUPS); /* one group */
}

static void shared_boots_pair_by_boot(void **state)
{
	(void)state;
	struct store_run_info a[] = {run(1, "b1", NULL, NULL, -1), run(2, "b2", NULL, NULL, -1)};
	struct store_run_info b[] = {run(3, "b1", NULL, NULL, -1), run(4, "b2", NULL, NULL, -1)};
	assert_int_equal(decide(a, 2, b, 2, ST_LEVEL_BOOT), AN_PAIR_BY_BOOT);
	/* --unit run compares runs: never paired by boot */
	assert_int_equal(decide(a, 2, b, 2, ST_LEVEL_RUN), AN_PAIR_GROUPS);
	/* one shared boot has nothing to pair over */
	assert_int_equal(decide(a, 1, b, 1, ST_LEVEL_BOOT), AN_PAIR_GROUPS);
	/* a mixture: a boot that holds only A's runs */
	struct store_run_info a3[] = {a[0], a[1], run(5, "b9", NULL, NULL, -1)};
	assert_int_equal(decide(a3, 3, b, 2, ST_LEVEL_BOOT), AN_PAIR_GROUPS);
}

static void duet_blocks_pair_by_block(void **state)
{
	(void)state;
	/* A and B on their own boots, booted at once in blocks 0 and 1 */
	struct store_run_info a[] = {run(1, "a0", NULL, "d", 0), run(2, "a1", NULL, "d", 1)};
	struct store_run_info b[] = {run(3, "b0", NULL, "d", 0), run(4, "b1", NULL, "d", 1)};
	assert_int_equal(decide(a, 2, b, 2, ST_LEVEL_BOOT), AN_PAIR_BY_BLOCK);
	assert_int_equal(decide(a, 2, b, 2, ST_LEVEL_RUN), AN_PAIR_GROUPS);
	/* one block: nothing to pair over */
	assert_int_equal(decide(a, 1, b, 1, ST_LEVEL_BOOT), AN_PAIR_GROUPS);
	/* a block only A holds */
	struct store_run_info b1[] = {b[0], run(4, "b1", NULL, "d", 2)};
	assert_int_equal(decide(a, 2, b1, 2, ST_LEVEL_BOOT), AN_PAIR_GROUPS);
	/* runs of two campaigns, or a run without its block, are no duet */
	struct store_run_info b2[] = {b[0], run(4, "b1", NULL, "other", 1)};
	assert_int_equal(decide(a, 2, b2, 2, ST_LEVEL_BOOT), AN_PAIR_GROUPS);
	struct store_run_info b3[] = {b[0], run(4, "b1", NULL, "d", -1)};
	assert_int_equal(decide(a, 2, b3, 2, ST_LEVEL_BOOT), AN_PAIR_GROUPS);
}

static void duet_boot_in_two_blocks_is_no_duet(void **state)
{
	(void)state;
	/* the runs of boot s0 say two blocks: no duet; A and B share boots s0 and s1, so by boot */
	struct store_run_info a[] = {run(1, "s0", NULL, "d", 0), run(2, "s1", NULL, "d", 1)};
	struct store_run_info b[] = {run(3, "s0", NULL, "d", 1), run(4, "s1", NULL, "d", 1)};
	assert_int_equal(decide(a, 2, b, 2, ST_LEVEL_BOOT), AN_PAIR_BY_BOOT);
}

static void arms_pair_by_round(void **state)
{
	(void)state;
	struct store_run_info a[] = {run(1, "b1", "p1", NULL, -1), run(3, "b2", "p2", NULL, -1)};
	struct store_run_info b[] = {run(2, "b1", "p1", NULL, -1), run(4, "b2", "p2", NULL, -1)};
	assert_int_equal(decide(a, 2, b, 2, ST_LEVEL_BOOT), AN_PAIR_BY_ROUND);
	/* by round whatever the unit, and a single paired run is enough */
	assert_int_equal(decide(a, 2, b, 2, ST_LEVEL_RUN), AN_PAIR_BY_ROUND);
	assert_int_equal(decide(a, 1, b, 1, ST_LEVEL_BOOT), AN_PAIR_BY_ROUND);
	/* refusals: a run of A that is no arm; two arms of one pair on one side; arms on two boots */
	struct store_run_info a1[] = {a[0], run(3, "b2", NULL, NULL, -1)};
	assert_int_equal(decide(a1, 2, b, 2, ST_LEVEL_BOOT), AN_PAIR_BY_BOOT);
	struct store_run_info a2[] = {a[0], run(3, "b1", "p1", NULL, -1)};
	assert_int_equal(decide(a2, 2, b, 2, ST_LEVEL_BOOT), AN_PAIR_GROUPS);
	struct store_run_info b3[] = {run(2, "b7", "p1", NULL, -1), b[1]};
	assert_int_equal(decide(a, 2, b3, 2, ST_LEVEL_BOOT), AN_PAIR_GROUPS);
	/* arms win over a duet's blocks */
	struct store_run_info da[] = {run(1, "a0", "p1", "d", 0), run(3, "a1", "p2", "d", 1)};
	struct store_run_info db[] = {run(2, "a0", "p1", "d", 0), run(4, "a1", "p2", "d", 1)};
	assert_int_equal(decide(da, 2, db, 2, ST_LEVEL_BOOT), AN_PAIR_BY_ROUND);
}

/* The rule table: one row per pairing, each naming its estimator and what it needs. */
static void each_pairing_has_its_rule(void **state)
{
	(void)state;
	static const enum an_pairing all[] = {AN_PAIR_GROUPS, AN_PAIR_BY_BOOT, AN_PAIR_BY_BLOCK, AN_PAIR_BY_ROUND};
	static const char *const names[] = {"groups", "by_boot", "by_block", "by_round"};
	for (size_t i = 0; i < 4; i++) {
		const struct an_pair_rule *r = an_pair_rule(all[i]);
		assert_int_equal(r->pairing, all[i]);
		assert_string_equal(r->name, names[i]);
		assert_non_null(r->estimator);
		assert_true(r->adjust_host == (all[i] == AN_PAIR_GROUPS));
		assert_true(r->adjust_host || r->no_adjust);
	}
	assert_true(an_pair_rule(AN_PAIR_BY_ROUND)->raw);
	assert_false(an_pair_rule(AN_PAIR_BY_BOOT)->raw);
	assert_int_equal(an_pair_rule(AN_PAIR_BY_BOOT)->caveat, ST_CAVEAT_PAIRED);
	assert_int_equal(an_pair_rule(AN_PAIR_BY_BLOCK)->caveat, ST_CAVEAT_DUET_PAIRED);
	assert_int_equal(an_pair_rule(AN_PAIR_BY_ROUND)->caveat, ST_CAVEAT_PAIRED_ROUNDS);
}

/* One group's set for kernel.syscall.null: boot boots[b] holds run ids[b], with samples y. */
struct one_set {
	struct store_series_run r[4];
	struct store_series_boot b[4];
	struct store_series x;
	struct store_set set;
	double y[4][5];
};

static void one_set(struct one_set *s, const int64_t *boots, const int64_t *ids, size_t n, double shift)
{
	memset(s, 0, sizeof *s);
	for (size_t b = 0; b < n; b++) {
		for (size_t k = 0; k < 5; k++) /* each boot its own level, shared by both groups of a unit */
			s->y[b][k] = 10 + 0.03 * (double)b * (double)b + shift + 0.001 * (double)((k * 7 + b * 3) % 5);
		s->r[b] = (struct store_series_run){.run = ids[b], .y = s->y[b], .n = 5, .kept_y = NAN, .elapsed_s = 1};
		s->b[b] = (struct store_series_boot){boots[b], &s->r[b], 1};
	}
	s->x = (struct store_series){.workload = "kernel.syscall.null", .copies = 1, .unit = "syscall", .boots = s->b,
				     .nboots = n};
	s->set = (struct store_set){&s->x, 1};
}

static void compare_as(const struct one_set *a, const struct one_set *b, const struct store_run_info *const *ra,
		       const struct store_run_info *const *rb, enum an_pairing p, struct an_compare *c)
{
	struct err e = {{0}};
	struct st_compare_opts o = stats_compare_defaults();
	struct store_env env = {0};
	struct strv none = {0};
	const struct an_compare_in in = {&a->set, &b->set, ra, rb, 4, 4, &env, &env, &none, &o, p};
	assert_int_equal(an_compare(&in, c, &e), 0);
	assert_int_equal(c->nrows, 1);
	assert_int_equal(c->pairing, p);
}

/* A duet's blocks pair B with A as shared boots do, with no boot ids made up: the same row as
 * the same samples on shared boots, caveat duet_paired in place of paired; as groups, another. */
static void by_block_is_by_boot_with_blocks_as_units(void **state)
{
	(void)state;
	static const int64_t ida[] = {1, 2, 3, 4}, idb[] = {5, 6, 7, 8};
	static const int64_t ba[] = {10, 11, 12, 13}, bb[] = {20, 21, 22, 23};
	struct store_run_info runs[8];
	const struct store_run_info *ra[4], *rb[4];
	static const char *const boot[] = {"a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3"};
	for (size_t i = 0; i < 8; i++)
		runs[i] = run((int64_t)i + 1, boot[i], NULL, "d", (int64_t)(i % 4));
	for (size_t i = 0; i < 4; i++) {
		ra[i] = &runs[i];
		rb[i] = &runs[4 + i];
	}
	assert_int_equal(an_pairing_decide(ra, 4, rb, 4, ST_LEVEL_BOOT), AN_PAIR_BY_BLOCK);
	struct one_set a, b, bshared;
	one_set(&a, ba, ida, 4, 0);
	one_set(&b, bb, idb, 4, 0.01);
	one_set(&bshared, ba, idb, 4, 0.01); /* B's runs on A's boots */
	struct an_compare blk, boot_, grp;
	compare_as(&a, &b, ra, rb, AN_PAIR_BY_BLOCK, &blk);
	compare_as(&a, &bshared, ra, rb, AN_PAIR_BY_BOOT, &boot_);
	compare_as(&a, &b, ra, rb, AN_PAIR_GROUPS, &grp);
	const struct st_comparison *x = &blk.rows[0].c, *y = &boot_.rows[0].c, *z = &grp.rows[0].c;
	assert_true(blk.paired && blk.duet && boot_.paired && !boot_.duet && !grp.paired);
	assert_true(x->caveats & ST_CAVEAT_DUET_PAIRED);
	assert_false(x->caveats & ST_CAVEAT_PAIRED);
	assert_true(y->caveats & ST_CAVEAT_PAIRED);
	assert_int_equal(x->caveats & ~ST_CAVEAT_DUET_PAIRED, y->caveats & ~ST_CAVEAT_PAIRED);
	assert_true(fabs((x->d) - (y->d)) < 1e-12);
	assert_true(fabs((x->lo) - (y->lo)) < 1e-12);
	assert_true(fabs((x->df) - (y->df)) < 1e-12);
	assert_true(fabs(z->lo - x->lo) > 1e-6); /* the boots' own levels widen the groups' interval */
	an_compare_free(&blk);
	an_compare_free(&boot_);
	an_compare_free(&grp);
}

/* --adjust host reaches only independent groups: a paired rule refuses it in its own words. */
static void paired_rules_refuse_adjust_host(void **state)
{
	(void)state;
	struct store_run_info runs[2] = {run(1, "x", NULL, NULL, -1), run(2, "x", NULL, NULL, -1)};
	const struct store_run_info *ra[] = {&runs[0]}, *rb[] = {&runs[1]};
	static const int64_t ida[] = {1}, idb[] = {2}, bt[] = {10};
	struct one_set a, b;
	one_set(&a, bt, ida, 1, 0);
	one_set(&b, bt, idb, 1, 0);
	struct st_compare_opts o = stats_compare_defaults();
	o.host_adjust = true;
	struct store_env env = {0};
	struct strv none = {0};
	static const enum an_pairing paired[] = {AN_PAIR_BY_BOOT, AN_PAIR_BY_BLOCK, AN_PAIR_BY_ROUND};
	for (size_t i = 0; i < 3; i++) {
		struct err e = {{0}};
		struct an_compare c;
		const struct an_compare_in in = {&a.set, &b.set, ra, rb, 1, 1, &env, &env, &none, &o, paired[i]};
		assert_int_equal(an_compare(&in, &c, &e), -1);
		assert_string_equal(e.msg, an_pair_rule(paired[i])->no_adjust);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(independent_groups),
		cmocka_unit_test(shared_boots_pair_by_boot),
		cmocka_unit_test(duet_blocks_pair_by_block),
		cmocka_unit_test(duet_boot_in_two_blocks_is_no_duet),
		cmocka_unit_test(arms_pair_by_round),
		cmocka_unit_test(each_pairing_has_its_rule),
		cmocka_unit_test(by_block_is_by_boot_with_blocks_as_units),
		cmocka_unit_test(paired_rules_refuse_adjust_host),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
