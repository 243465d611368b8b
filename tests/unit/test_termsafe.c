/* test_termsafe.c - escaping text for the terminal, UTF-8 checks, CSV formula neutralisation. */
#include "unit.h"
#include "core/core.h"
#include "report/report.h"

#include <string.h>

static char *esc(const char *s, size_t n, bool final, bool colour, size_t *used)
{
	static struct sb out;
	sb_free(&out);
	out = (struct sb){0};
	*used = term_escape(s, n, final, colour, &out);
	return (char *)sb_str(&out);
}

static void control_bytes_are_escaped(void **state)
{
	(void)state;
	size_t u;
	const char in[] = "a\x1b]0;title\x07 \x1b[2J\r\x7f\t\n\xc3\xa9\xc2\x9b\xff";
	assert_string_equal(esc(in, sizeof in - 1, true, false, &u),
			    "a\\x1b]0;title\\x07 \\x1b[2J\\x0d\\x7f\t\n\xc3\xa9\\xc2\\x9b\\xff");
	assert_int_equal(u, sizeof in - 1);
	/* a NUL inside the text is shown, not a terminator */
	assert_string_equal(esc("a\0b", 3, true, false, &u), "a\\x00b");
}

static void own_colours_pass_only_with_colour(void **state)
{
	(void)state;
	size_t u;
	assert_string_equal(esc("\x1b[31mx\x1b[0m", 10, true, true, &u), "\x1b[31mx\x1b[0m");
	assert_string_equal(esc("\x1b[31mx", 6, true, false, &u), "\\x1b[31mx");
	/* other sequences never pass, even with colour */
	assert_string_equal(esc("\x1b[8m\x1b]0;t\x07", 10, true, true, &u), "\\x1b[8m\\x1b]0;t\\x07");
}

static void split_sequences_wait_for_more(void **state)
{
	(void)state;
	size_t u;
	assert_string_equal(esc("ab\xc3", 3, false, false, &u), "ab");
	assert_int_equal(u, 2);
	assert_string_equal(esc("ab\x1b[3", 5, false, true, &u), "ab");
	assert_int_equal(u, 2);
	assert_string_equal(esc("ab\xc3", 3, true, false, &u), "ab\\xc3");
	assert_int_equal(u, 3);
}

static void utf8_check(void **state)
{
	(void)state;
	assert_true(text_is_utf8("h\xc3\xa9 \x1b", 5));
	assert_false(text_is_utf8("a\0b", 3));
	assert_false(text_is_utf8("a\xff", 2));
	assert_false(text_is_utf8("\xed\xa0\x80", 3)); /* a surrogate */
	assert_false(text_is_utf8("\xc3", 1));
}

static void formulas_are_neutralised(void **state)
{
	(void)state;
	const char *in[] = {"=cmd|' /C calc'!A0", "+SUM(1)", "-1", "@x", "\tx", "\rx", "plain", "a=b", ""};
	const char *want[] = {"\"'=cmd|' /C calc'!A0\"", "\"'+SUM(1)\"", "\"'-1\"", "\"'@x\"", "\"'\tx\"",
			      "\"'\rx\"", "plain", "a=b", ""};
	for (size_t i = 0; i < sizeof in / sizeof *in; i++) {
		struct sb b = {0};
		report_csv_cell(&b, in[i], false);
		assert_string_equal(sb_str(&b), want[i]);
		sb_free(&b);
		report_csv_cell(&b, in[i], true);
		assert_string_equal(sb_str(&b), i == 5 ? "\"\rx\"" : in[i]);
		sb_free(&b);
	}
	struct sb b = {0};
	report_csv_cell(&b, "=\"a\",b", false);
	assert_string_equal(sb_str(&b), "\"'=\"\"a\"\",b\"");
	sb_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(control_bytes_are_escaped),
		cmocka_unit_test(own_colours_pass_only_with_colour),
		cmocka_unit_test(split_sequences_wait_for_more),
		cmocka_unit_test(utf8_check),
		cmocka_unit_test(formulas_are_neutralised),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
