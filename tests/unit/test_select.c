/* test_select.c - selectors: parsing, label/run/boot terms, implicit labels, usable status, errors. */
#include "unit.h"
#include "analysis/select.h"

#include <stdlib.h>
#include <string.h>

static struct store_run_info mk(int64_t id, const char *status, const char *boot, const char *kernel,
				const char *host, const char *labels)
{
	struct store_run_info r;
	memset(&r, 0, sizeof r);
	r.id = id;
	r.status = xstrdup(status);
	r.state = store_run_status_of(status);
	r.boot_id = xstrdup(boot);
	r.kernel_release = xstrdup(kernel);
	r.hostname = xstrdup(host);
	char *l = xstrdup(labels), *save = NULL;
	for (char *t = strtok_r(l, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');
		*eq = 0;
		kv_add(&r.labels, t, eq + 1);
	}
	free(l);
	return r;
}

static struct store_run_info *runs_fixture(size_t *n)
{
	struct store_run_info *r = xcalloc(5, sizeof *r);
	r[0] = mk(1, "complete", "aaaa-1", "6.1.0", "h1", "pie=yes pernode=no");
	r[1] = mk(2, "complete", "aaaa-1", "6.1.0", "h1", "pie=yes pernode=yes");
	r[2] = mk(3, "interrupted", "bbbb-2", "6.2.0", "h1", "pie=yes pernode=yes");
	r[3] = mk(4, "imported", "bbbb-2", "6.2.0", "h2", "pie=no kernel=custom");
	r[4] = mk(5, "incomplete", "cccc-3", "6.2.0", "h2", "pie=no");
	*n = 5;
	return r;
}

static size_t pick(const char *text, size_t **idx, struct err *e)
{
	size_t n, nidx = 0;
	struct store_run_info *r = runs_fixture(&n);
	struct selector s;
	*idx = NULL;
	if (select_parse(text, &s, e) == 0) {
		if (select_runs(&s, r, n, idx, &nidx, e))
			nidx = 0;
		select_free(&s);
	}
	store_runs_free(r, n);
	return nidx;
}

static void label_terms_are_anded(void **state)
{
	(void)state;
	struct err e;
	size_t *idx;
	assert_int_equal(pick("pie=yes", &idx, &e), 2); /* run 3 is interrupted: never used */
	free(idx);
	assert_int_equal(pick("  pie=yes   pernode=yes ", &idx, &e), 1);
	assert_int_equal(idx[0], 1);
	free(idx);
}

static void run_and_boot_terms(void **state)
{
	(void)state;
	struct err e;
	size_t *idx;
	assert_int_equal(pick("run:1,4-5", &idx, &e), 3);
	assert_int_equal(idx[2], 4);
	free(idx);
	assert_int_equal(pick("boot:bbbb", &idx, &e), 1); /* run 4 only: 3 is interrupted */
	assert_int_equal(idx[0], 3);
	free(idx);
	assert_int_equal(pick("", &idx, &e), 4);
	free(idx);
}

static void implicit_labels_yield_to_real_ones(void **state)
{
	(void)state;
	struct err e;
	size_t *idx;
	assert_int_equal(pick("kernel=6.2.0", &idx, &e), 1); /* run 4 has label kernel=custom */
	assert_int_equal(idx[0], 4);
	free(idx);
	assert_int_equal(pick("kernel=custom machine=h2", &idx, &e), 1);
	free(idx);
	assert_int_equal(pick("machine=h1", &idx, &e), 2);
	free(idx);
}

static void no_match_names_the_selector(void **state)
{
	(void)state;
	struct err e;
	size_t *idx;
	assert_int_equal(pick("pie=maybe", &idx, &e), 0);
	assert_null(idx);
	assert_non_null(strstr(e.msg, "pie=maybe"));
	assert_int_equal(pick("pei=yes", &idx, &e), 0);
	assert_non_null(strstr(e.msg, "did you mean pie?"));
	assert_int_equal(pick("run:3", &idx, &e), 0);
	assert_non_null(strstr(e.msg, "run 3 is interrupted"));
	assert_int_equal(pick("run:42", &idx, &e), 0);
	assert_non_null(strstr(e.msg, "no run 42"));
	assert_int_equal(pick("pie=yes pernode=no run:2", &idx, &e), 0);
	assert_non_null(strstr(e.msg, "not together"));
}

static void bad_terms_are_errors(void **state)
{
	(void)state;
	struct err e;
	struct selector s;
	assert_int_equal(select_parse("pie", &s, &e), -1);
	assert_non_null(strstr(e.msg, "malformed label 'pie'"));
	assert_int_equal(select_parse("run:", &s, &e), -1);
	assert_int_equal(select_parse("run:3,x", &s, &e), -1);
	assert_int_equal(select_parse("run:5-2", &s, &e), -1);
	assert_int_equal(select_parse("boot:", &s, &e), -1);
	assert_int_equal(select_parse("=x", &s, &e), -1);
	assert_int_equal(select_parse("a=1 run:2", &s, &e), 0);
	assert_int_equal(s.nterms, 2);
	assert_int_equal(s.terms[1].kind, SEL_RUNS);
	select_free(&s);
	select_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(label_terms_are_anded),
		cmocka_unit_test(run_and_boot_terms),
		cmocka_unit_test(implicit_labels_yield_to_real_ones),
		cmocka_unit_test(no_match_names_the_selector),
		cmocka_unit_test(bad_terms_are_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
