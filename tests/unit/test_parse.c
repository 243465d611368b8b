/* test_parse.c - label, number and duration parsing reject bad input and accept good. */
#include "unit.h"
#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void label_accepts_key_value(void **state)
{
	(void)state;
	char *k, *v;
	struct err e;
	assert_int_equal(label_parse("pie=yes", &k, &v, &e), 0);
	assert_string_equal(k, "pie");
	assert_string_equal(v, "yes");
	free(k);
	free(v);
	assert_int_equal(label_parse("kernel=6.8=rc1", &k, &v, &e), 0);
	assert_string_equal(v, "6.8=rc1");
	free(k);
	free(v);
}

static void label_rejects_malformed(void **state)
{
	(void)state;
	const char *bad[] = {"foo", "=x", "k=", "", "1k=v", "k y=v", "k=a\nb", "k=\xff\xfe"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *k = NULL, *v = NULL;
		struct err e = {{0}};
		assert_int_equal(label_parse(bad[i], &k, &v, &e), -1);
		assert_true(strlen(e.msg) > 0);
		assert_null(k);
	}
}

static void numbers_are_range_checked(void **state)
{
	(void)state;
	struct err e;
	uint64_t v;
	int i;
	double d;
	assert_int_equal(parse_u64("12", 1, 100, "-s", &v, &e), 0);
	assert_int_equal(v, 12);
	assert_int_equal(parse_u64("0", 1, 100, "-s", &v, &e), -1);
	assert_int_equal(parse_u64("12x", 1, 100, "-s", &v, &e), -1);
	assert_int_equal(parse_u64("99999999999999999999999", 1, UINT64_MAX, "-s", &v, &e), -1);
	assert_int_equal(parse_int("-3", 1, 10, "-c", &i, &e), -1);
	assert_int_equal(parse_percent("1%", 0, 1, "--margin", &d, &e), 0);
	assert_float_equal(d, 0.01, 1e-15);
	assert_int_equal(parse_percent("1", 0, 1, "--margin", &d, &e), -1);
}

static void durations_have_units(void **state)
{
	(void)state;
	struct err e;
	uint64_t ns;
	assert_int_equal(parse_duration("250ms", "--x", &ns, &e), 0);
	assert_int_equal(ns, 250000000ull);
	assert_int_equal(parse_duration("2m", "--x", &ns, &e), 0);
	assert_int_equal(ns, 120000000000ull);
	assert_int_equal(parse_duration("3", "--x", &ns, &e), 0);
	assert_int_equal(ns, 3000000000ull);
	assert_int_equal(parse_duration("3 parsecs", "--x", &ns, &e), -1);
	assert_int_equal(parse_duration("-1s", "--x", &ns, &e), -1);
}

static void text_cleanliness(void **state)
{
	(void)state;
	assert_true(text_is_clean("héllo wörld", false));
	assert_false(text_is_clean("a\tb", false));
	assert_true(text_is_clean("a\tb", true));
	assert_false(text_is_clean("\xc0\xaf", false)); /* overlong */
	assert_false(text_is_clean("\xed\xa0\x80", false)); /* surrogate */
}

/* Control bytes and invalid UTF-8 come out as \xNN; clean text (tab included) as is. */
static void quoted_input_is_escaped(void **state)
{
	(void)state;
	char buf[256];
	FILE *f = fmemopen(buf, sizeof buf, "w");
	assert_non_null(f);
	fputs_clean("a\tb \xc3\xa9 \x1b[31m\x7f\xff\xc3 \xe2\x82", f);
	fclose(f);
	assert_string_equal(buf, "a\tb \xc3\xa9 \\x1b[31m\\x7f\\xff\\xc3 \\xe2\\x82");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(label_accepts_key_value),
		cmocka_unit_test(label_rejects_malformed),
		cmocka_unit_test(numbers_are_range_checked),
		cmocka_unit_test(durations_have_units),
		cmocka_unit_test(text_cleanliness),
		cmocka_unit_test(quoted_input_is_escaped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
