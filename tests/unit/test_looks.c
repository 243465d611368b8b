/* test_looks.c - repeated looks: the question's key, the rule of a later look, and the look store. */
#include "unit.h"
#include "analysis/job.h"
#include "core/tmp.h"
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

UNIT_TMPDIR_FIXTURE

/* The key: term order and A/B order do not make another question; the unit and -w do. */
static void key_names_the_question_not_its_spelling(void **state)
{
	(void)state;
	struct strv none = {0}, w = {0};
	strv_add(&w, "kernel.*");
	bool sw1, sw2, sw3;
	char *k1 = an_look_key_compare("pie=no  kernel=6.1", "pie=yes kernel=6.1", &none, ST_LEVEL_BOOT, &sw1);
	char *k2 = an_look_key_compare("pie=yes kernel=6.1", "kernel=6.1 pie=no", &none, ST_LEVEL_BOOT, &sw2);
	char *k3 = an_look_key_compare("kernel=6.1 pie=no", "kernel=6.1 pie=yes", &w, ST_LEVEL_BOOT, &sw3);
	char *k4 = an_look_key_compare("kernel=6.1 pie=no", "kernel=6.1 pie=yes", &none, ST_LEVEL_RUN, &sw3);
	assert_string_equal(k1, k2);
	assert_true(sw1 != sw2); /* the pair is taken in one order: the fingerprint follows it */
	assert_string_not_equal(k1, k3);
	assert_string_not_equal(k1, k4);
	struct strv f1 = {0}, f2 = {0}, filt = {0};
	strv_add(&f1, "pie");
	strv_add(&f1, "pernode");
	strv_add(&f2, "pernode");
	strv_add(&f2, "pie");
	char *a1 = an_look_key_analyze(&filt, &f1, NULL, &none, ST_LEVEL_BOOT);
	char *a2 = an_look_key_analyze(&filt, &f2, NULL, &none, ST_LEVEL_BOOT);
	strv_add(&filt, "kernel=6.1");
	char *a3 = an_look_key_analyze(&filt, &f2, NULL, &none, ST_LEVEL_BOOT);
	assert_string_equal(a1, a2);
	assert_string_not_equal(a1, a3);
	assert_string_not_equal(a1, k1);
	free(k1), free(k2), free(k3), free(k4), free(a1), free(a2), free(a3);
	strv_free(&w), strv_free(&f1), strv_free(&f2), strv_free(&filt);
}

static void fingerprint_is_of_the_set_of_runs_per_group(void **state)
{
	(void)state;
	int64_t a[] = {3, 1, 2}, b[] = {7, 8}, a2[] = {1, 2, 3}, b2[] = {8, 7};
	int64_t *g1[2] = {a, b}, *g2[2] = {a2, b2}, *g3[2] = {b, a};
	size_t n1[2] = {3, 2}, n3[2] = {2, 3};
	char f1[17], f2[17], f3[17];
	an_repeat_fingerprint(g1, n1, 2, f1);
	an_repeat_fingerprint(g2, n1, 2, f2);
	an_repeat_fingerprint(g3, n3, 2, f3);
	assert_string_equal(f1, f2); /* order within a group does not matter */
	assert_string_not_equal(f1, f3); /* which group a run is in does */
}

/* The rule: first look full alpha; the same runs repeat the answer; more runs are a later look,
 * withheld unless a design was declared from the first look; --fresh starts question 2. */
static void later_undeclared_look_is_withheld(void **state)
{
	(void)state;
	struct an_repeat r = {0};
	an_repeat_decide(NULL, 0, "f1", 0, false, &r);
	assert_true(r.question == 1 && r.k == 1 && !r.same && !r.withheld);
	struct an_look_prior p[3] = {{"f1", 1, 1, 0, false}};
	an_repeat_decide(p, 1, "f1", 0, false, &r); /* printed again, in another format */
	assert_true(r.same && r.k == 1 && !r.withheld);
	an_repeat_decide(p, 1, "f2", 0, false, &r); /* boots added */
	assert_true(!r.same && r.k == 2 && r.withheld && r.first_undeclared);
	an_repeat_decide(p, 1, "f2", 8, false, &r); /* declared only now: alpha is spent */
	assert_true(r.withheld && r.first_undeclared);
	p[1] = (struct an_look_prior){"f2", 1, 2, 0, true};
	an_repeat_decide(p, 2, "f2", 0, false, &r); /* the withheld look, read again */
	assert_true(r.same && r.k == 2 && r.withheld);
	an_repeat_decide(p, 2, "f3", 0, true, &r);
	assert_true(r.question == 2 && r.k == 1 && !r.withheld && !r.same);
	/* a design declared from the first look goes on, and must be declared at every look */
	struct an_look_prior d[1] = {{"g1", 1, 1, 8, false}};
	an_repeat_decide(d, 1, "g2", 8, false, &r);
	assert_true(r.k == 2 && !r.withheld && r.max_boots == 8);
	an_repeat_decide(d, 1, "g2", 0, false, &r);
	assert_true(r.k == 2 && r.withheld && !r.first_undeclared);
	an_repeat_decide(d, 1, "g1", 0, false, &r); /* read again without the options: the design comes back */
	assert_true(r.same && r.max_boots == 8 && r.k == 1);
	an_repeat_decide(d, 1, "g2", 6, false, &r); /* another maximum than look 1 declared */
	assert_true(r.withheld && r.first_max_boots == 8);
	struct an_look_prior d2[2] = {{"g1", 1, 1, 8, false}, {"g2", 1, 2, 0, true}};
	an_repeat_decide(d2, 2, "g2", 8, false, &r); /* look 2 forgot the options, and is given them */
	assert_true(!r.same && !r.withheld && r.k == 2);
}

static void withholding_keeps_rows_without_data(void **state)
{
	(void)state;
	struct an_row rows[3] = {{0}};
	rows[0].c.verdict = ST_FASTER;
	rows[0].c.negligible = true;
	rows[1].c.verdict = ST_NO_DATA;
	rows[2].c.verdict = ST_INCONCLUSIVE;
	struct an_compare c = {.rows = rows, .nrows = 3};
	an_compare_repeat(&c); /* not withheld: nothing changes */
	assert_int_equal(rows[0].c.verdict, ST_FASTER);
	c.look.withheld = true;
	an_compare_repeat(&c);
	assert_int_equal(rows[0].c.verdict, ST_WITHHELD);
	assert_false(rows[0].c.negligible);
	assert_int_equal(rows[1].c.verdict, ST_NO_DATA);
	assert_int_equal(rows[2].c.verdict, ST_WITHHELD);
	assert_true(rows[0].look_withheld && !rows[1].look_withheld && rows[2].look_withheld);
	assert_int_equal(c.look.rows, 2);
}

/* The store: looks in order, the same look twice is one row, the runs judged per question. */
static void look_store_is_idempotent(void **state)
{
	(void)state;
	struct err e = {{0}};
	char *path = xasprintf("%s/looks.db", dir);
	struct store *s;
	assert_int_equal(store_open(path, STORE_RW, &s, &e), 0);
	struct store_look x = {.key = "compare [a] [b]", .question = 1, .k = 1, .at_ns = 5, .fingerprint = "f1"};
	int64_t ids1[] = {1, 2, 3, 4}, ids2[] = {1, 2, 3, 4, 5, 6};
	assert_int_equal(store_look_add(s, &x, ids1, 4, &e), 0);
	assert_int_equal(store_look_add(s, &x, ids1, 4, &e), 0); /* again: kept as it was */
	struct store_look y = {.key = "compare [a] [b]", .question = 1, .k = 2, .at_ns = 6, .fingerprint = "f2",
			       .withheld = true, .design = "{\"boots\":[3,3]}"};
	assert_int_equal(store_look_add(s, &y, ids2, 6, &e), 0);
	struct store_look z = {.key = "compare [a] [c]", .question = 1, .k = 1, .at_ns = 7, .fingerprint = "f1"};
	assert_int_equal(store_look_add(s, &z, ids1, 2, &e), 0);
	struct store_look *got;
	size_t n;
	assert_int_equal(store_looks_get(s, "compare [a] [b]", &got, &n, &e), 0);
	assert_int_equal(n, 2);
	assert_int_equal(got[0].k, 1);
	assert_false(got[0].withheld);
	assert_int_equal(got[1].k, 2);
	assert_true(got[1].withheld);
	assert_string_equal(got[1].fingerprint, "f2");
	assert_string_equal(got[1].design, "{\"boots\":[3,3]}");
	store_looks_free(got, n);
	int64_t *seen;
	assert_int_equal(store_looks_seen(s, "compare [a] [b]", 2, &seen, &n, &e), 0);
	assert_int_equal(n, 6);
	assert_int_equal(seen[5], 6);
	free(seen);
	assert_int_equal(store_looks_seen(s, "compare [a] [b]", 1, &seen, &n, &e), 0);
	assert_int_equal(n, 0); /* no question before the first */
	free(seen);
	store_close(s);
	free(path);
}

/* Issue 52 item 6: two compares of one question at once. Both read the looks before either
 * records; the one that records second must find the first's look under the write lock and
 * become look 2, withheld, instead of a second look 1 (the same runs: the same look). */
static void looks_recorded_at_once_are_counted(void **state)
{
	(void)state;
	struct err e = {{0}};
	char *path = xasprintf("%s/race.db", dir);
	struct store *s1, *s2;
	assert_int_equal(store_open(path, STORE_RW, &s1, &e), 0);
	assert_int_equal(store_open(path, STORE_RW, &s2, &e), 0);
	const char *key = "compare [a] [b] unit=boot w=[]";
	int64_t ids1[] = {1, 2}, ids2[] = {1, 2, 3};
	struct an_look_state l1, l2, l3;
	assert_int_equal(an_look_begin(s1, key, &l1, &e), 0);
	assert_int_equal(an_look_begin(s2, key, &l2, &e), 0);
	assert_int_equal(an_look_begin(s2, key, &l3, &e), 0);
	struct an_repeat r1 = {0}, r2 = {0}, r3 = {0};
	an_look_decide(&l1, "f1", 0, false, &r1);
	an_look_decide(&l2, "f2", 0, false, &r2);
	an_look_decide(&l3, "f1", 0, false, &r3);
	assert_int_equal(r2.k, 1); /* each judges as the question's first look */
	assert_false(r2.withheld);
	assert_int_equal(an_look_record(s1, &l1, &r1, "f1", "{}", "{}", ids1, 2, &e), 0);
	assert_true(r1.recorded);
	/* the other runs: decided again as look 2, withheld, and recorded so when asked again */
	assert_int_equal(an_look_record(s2, &l2, &r2, "f2", "{}", "{}", ids2, 3, &e), 1);
	assert_false(r2.recorded);
	assert_int_equal(r2.k, 2);
	assert_true(r2.withheld);
	assert_int_equal(an_look_record(s2, &l2, &r2, "f2", "{}", "{}", ids2, 3, &e), 0);
	assert_true(r2.recorded);
	/* the same runs as look 1: that look again, nothing recorded */
	assert_int_equal(an_look_record(s2, &l3, &r3, "f1", "{}", "{}", ids1, 2, &e), 1);
	assert_true(r3.same);
	assert_int_equal(r3.k, 1);
	assert_int_equal(an_look_record(s2, &l3, &r3, "f1", "{}", "{}", ids1, 2, &e), 0);
	assert_false(r3.recorded);
	struct store_look *got;
	size_t n;
	assert_int_equal(store_looks_get(s1, key, &got, &n, &e), 0);
	assert_int_equal(n, 2);
	assert_int_equal(got[0].k, 1);
	assert_string_equal(got[0].fingerprint, "f1");
	assert_int_equal(got[1].k, 2);
	assert_true(got[1].withheld);
	store_looks_free(got, n);
	/* a fresh question decided on stale looks cannot be renumbered: run again */
	struct an_look_state l4;
	assert_int_equal(an_look_begin(s2, key, &l4, &e), 0);
	struct an_repeat r4 = {0};
	an_look_decide(&l4, "f4", 0, true, &r4);
	assert_int_equal(r4.question, 2);
	struct store_look other = {.key = (char *)key, .question = 2, .k = 1, .at_ns = 9, .fingerprint = "f5"};
	assert_int_equal(store_look_add(s1, &other, ids2, 3, &e), 0);
	assert_int_equal(an_look_record(s2, &l4, &r4, "f4", "{}", "{}", ids2, 3, &e), -1);
	assert_non_null(strstr(e.msg, "run this command again"));
	an_look_state_free(&l1), an_look_state_free(&l2), an_look_state_free(&l3), an_look_state_free(&l4);
	store_close(s1);
	store_close(s2);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(key_names_the_question_not_its_spelling),
		cmocka_unit_test(fingerprint_is_of_the_set_of_runs_per_group),
		cmocka_unit_test(later_undeclared_look_is_withheld),
		cmocka_unit_test(withholding_keeps_rows_without_data),
		cmocka_unit_test(look_store_is_idempotent),
		cmocka_unit_test(looks_recorded_at_once_are_counted),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
