/* test_import_csv.c - the CSV importer reads RFC 4180 quoting, converts units, and names bad cells. */
#include "unit.h"
#include "core/core.h"
#include "import/import_csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse(const char *text, struct csv_import *out, struct err *e)
{
	return import_csv_parse("t.csv", text, strlen(text), out, e);
}

static void example_file_has_four_index_values(void **state)
{
	(void)state;
	struct err e;
	size_t len;
	char *s = read_whole_file("examples/unixbench-pernode.csv", 1 << 20, &len, &e);
	assert_non_null(s);
	struct csv_import c;
	if (import_csv_parse("examples/unixbench-pernode.csv", s, len, &c, &e))
		fail_msg("%s", e.msg);
	static const struct {
		double v;
		const char *pernode, *pie;
	} want[] = {{3938.7, "no", "no"}, {4062.2, "yes", "no"}, {4009.7, "no", "yes"}, {4028.7, "yes", "yes"}};
	assert_int_equal(c.nrow, 4);
	for (size_t i = 0; i < 4; i++) {
		const struct csv_row *r = &c.row[i];
		assert_float_equal(r->value, want[i].v, 1e-12);
		assert_string_equal(r->unit, "index");
		assert_string_equal(r->workload, "index");
		assert_int_equal(r->copies, 1);
		assert_int_equal(r->labels.n, 2);
		assert_string_equal(kv_get(&r->labels, "pernode"), want[i].pernode);
		assert_string_equal(kv_get(&r->labels, "pie"), want[i].pie);
		assert_int_equal(r->line, i + 2);
		for (size_t j = 0; j < i; j++) { /* each row its own run and boot */
			assert_string_not_equal(r->run, c.row[j].run);
			assert_string_not_equal(r->boot, c.row[j].boot);
		}
	}
	import_csv_free(&c);
	import_csv_free(NULL);
	free(s);
}

static void quoting_follows_rfc4180(void **state)
{
	(void)state;
	struct csv_import c;
	struct err e;
	const char *text = "\xef\xbb\xbf" "value,unit,\"note\",kernel\r\n"
			   "1,ops/s,\"a, b\",\"6.8 \"\"rc\"\"\"\r\n"
			   "\r\n"
			   "2,ops/s,,\"\"\r\n"
			   "\"3\",\"lps\",plain,x";
	if (parse(text, &c, &e))
		fail_msg("%s", e.msg);
	assert_int_equal(c.nrow, 3);
	assert_string_equal(kv_get(&c.row[0].labels, "note"), "a, b");
	assert_string_equal(kv_get(&c.row[0].labels, "kernel"), "6.8 \"rc\"");
	assert_int_equal(c.row[1].labels.n, 0); /* empty cells are no label */
	assert_int_equal(c.row[1].line, 4);
	assert_float_equal(c.row[2].value, 3, 0);
	assert_string_equal(c.row[2].unit, "lps");
	assert_int_equal(c.row[2].line, 5);
	import_csv_free(&c);
	/* A quoted newline is part of the field, so the next row's line number counts it. */
	assert_int_equal(parse("value,unit,w\n1,lps,\"a\nb\"\n2,lps,\"\"\n", &c, &e), -1);
	assert_string_equal(e.msg, "t.csv:2:7: label 'w' has a value that is not clean UTF-8 text (control "
				   "characters or invalid bytes); use printable text");
}

static void units_convert_to_ops_per_second(void **state)
{
	(void)state;
	struct csv_import c;
	struct err e;
	assert_int_equal(parse("unit,value,workload,copies\nns/op,250,kernel.syscall.null,2\nus/op,4,a,1\n"
			       "ms/op,0.5,a,1\ns/op,2,a,1\nlpm,120,unixbench.shell8,8\nKiB/s,1e3,a,1\n",
			       &c, &e), 0);
	assert_int_equal(c.nrow, 6);
	assert_float_equal(c.row[0].value, 4e6, 1e-6);
	assert_float_equal(c.row[0].written, 250, 0);
	assert_string_equal(c.row[0].unit, "ns/op");
	assert_string_equal(c.row[0].workload, "kernel.syscall.null");
	assert_int_equal(c.row[0].copies, 2);
	assert_float_equal(c.row[1].value, 250000, 1e-6);
	assert_float_equal(c.row[2].value, 2000, 1e-9);
	assert_float_equal(c.row[3].value, 0.5, 1e-12);
	assert_float_equal(c.row[4].value, 2, 1e-12);
	assert_float_equal(c.row[5].value, 1000, 0);
	import_csv_free(&c);
}

static void boot_and_run_keys_group_rows(void **state)
{
	(void)state;
	struct csv_import c;
	struct err e;
	assert_int_equal(parse("value,unit,boot,run\n1,lps,b1,r1\n2,lps,b1,r1\n3,lps,b1,\n4,lps,,r2\n5,lps,,\n",
			       &c, &e), 0);
	assert_string_equal(c.row[0].boot, "b1");
	assert_string_equal(c.row[1].run, "r1");
	assert_string_equal(c.row[2].boot, "b1");
	assert_string_equal(c.row[2].run, "@4");
	assert_string_equal(c.row[3].boot, "@run:r2");
	assert_string_equal(c.row[3].run, "r2");
	assert_string_equal(c.row[4].boot, "@boot:6");
	assert_string_equal(c.row[4].run, "@6");
	import_csv_free(&c);
	assert_int_equal(parse("value,unit,boot,run\n1,lps,b1,r1\n2,lps,b2,r1\n", &c, &e), -1);
	assert_non_null(strstr(e.msg, "t.csv:3:1: run 'r1' is on boot 'b2' here but on boot 'b1' at line 2"));
	assert_int_equal(parse("value,unit,boot\n1,lps,@x\n", &c, &e), -1);
	assert_non_null(strstr(e.msg, "t.csv:2:7: boot key must"));
}

static void bad_input_names_line_and_column(void **state)
{
	(void)state;
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{"", "t.csv:1:1: no header row"},
		{"\n\r\n", "t.csv:3:1: no header row"},
		{"value,unit\n", "t.csv:2:1: no data rows"},
		{"value,pie\n1,yes\n", "t.csv:1:1: the header has no 'unit' column"},
		{"unit,pie\nlps,yes\n", "t.csv:1:1: the header has no 'value' column"},
		{"value,unit,value\n", "t.csv:1:12: column 'value' appears twice"},
		{"value,unit,a,a\n", "t.csv:1:14: column 'a' appears twice"},
		{"value,unit,1pie\n", "t.csv:1:12: header column 3: label key '1pie' must start"},
		{"value,unit,\n", "t.csv:1:12: header column 3: label has an empty key"},
		{"value,unit,pi e\n", "t.csv:1:12: header column 3: label key 'pi e' may only"},
		{"value,unit\nabc,lps\n", "t.csv:2:1: value 'abc' is not a plain decimal number"},
		{"value,unit\n 1,lps\n", "t.csv:2:1: value ' 1' is not"},
		{"value,unit\n0x10,lps\n", "t.csv:2:1: value '0x10' is not"},
		{"value,unit\ninf,lps\n", "t.csv:2:1: value 'inf' is not"},
		{"value,unit\nnan,lps\n", "t.csv:2:1: value 'nan' is not"},
		{"value,unit\n0,lps\n", "t.csv:2:1: value 0 is out of range"},
		{"value,unit\n-5,lps\n", "t.csv:2:1: value -5 is out of range"},
		{"value,unit\n1e999,lps\n", "t.csv:2:1: value 1e999 is out of range"},
		{"value,unit\n1e16,lps\n", "t.csv:2:1: value 1e16 is out of range"},
		{"value,unit\n1e-10,ns/op\n", "t.csv:2:1: value 1e-10 ns/op is 1e+19 ops/s, out of range"},
		{"value,unit\n1,furlongs\n", "t.csv:2:3: unknown unit 'furlongs'; use one of ops/s"},
		{"value,unit\n1,\xff\n", "t.csv:2:3: unknown unit '?'"},
		{"value,unit\n1,lps,x\n", "t.csv:2:1: this row has 3 fields but the header has 2"},
		{"value,unit\n1\n", "t.csv:2:1: this row has 1 field but the header has 2"},
		{"value,unit\n1,l\"ps\n", "t.csv:2:4: quote inside an unquoted field"},
		{"value,unit\n1,\"lps\"x\n", "t.csv:2:8: expected ',' or the end of the line after a closing quote"},
		{"value,unit\n1,\"lps\n", "t.csv:2:3: quoted field is never closed"},
		{"value,unit\n1,lps\rx\n", "t.csv:2:6: carriage return without a line feed"},
		{"value,unit,k\n1,lps,\xc3\x28\n", "t.csv:2:7: label 'k' has a value that is not clean UTF-8"},
		{"value,unit,workload\n1,lps,\n", "t.csv:2:7: workload must be a name"},
		{"value,unit,workload\n1,lps,a b\n", "t.csv:2:7: workload must be a name"},
		{"value,unit,copies\n1,lps,0\n", "t.csv:2:7: copies must be a whole number from 1 to 4096"},
		{"value,unit,copies\n1,lps,1.5\n", "t.csv:2:7: copies must be"},
		{"value,unit,copies\n1,lps,+2\n", "t.csv:2:7: copies must be"},
		{"value,unit,copies\n1,lps,99999999999999999999\n", "t.csv:2:7: copies must be"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct csv_import c;
		struct err e = {{0}};
		assert_int_equal(parse(cases[i].text, &c, &e), -1);
		if (strncmp(e.msg, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("case %zu: got '%s', want '%s...'", i, e.msg, cases[i].msg);
		assert_null(c.row);
		assert_int_equal(c.nrow, 0);
	}
}

static void nul_bytes_and_huge_fields_are_rejected(void **state)
{
	(void)state;
	struct csv_import c;
	struct err e;
	static const char nul[] = "value,unit\n1,l\0ps\n";
	assert_int_equal(import_csv_parse("n.csv", nul, sizeof nul - 1, &c, &e), -1);
	assert_string_equal(e.msg, "n.csv:2:4: NUL byte in the file; save it as plain UTF-8 text");
	static const char qnul[] = "value,unit\n1,\"l\0ps\"\n";
	assert_int_equal(import_csv_parse("n.csv", qnul, sizeof qnul - 1, &c, &e), -1);
	assert_string_equal(e.msg, "n.csv:2:5: NUL byte in the file; save it as plain UTF-8 text");
	/* Only len bytes are read: a missing final newline and no terminator are fine. */
	assert_int_equal(import_csv_parse("n.csv", "value,unit\n7,lpsXXXX", 16, &c, &e), 0);
	assert_string_equal(c.row[0].unit, "lps");
	import_csv_free(&c);
	assert_int_equal(import_csv_parse("n.csv", NULL, 0, &c, &e), -1);
	/* A field of 1 MiB is rejected at its start; so is a label of 300 bytes. */
	struct sb b = {0};
	sb_add(&b, "value,unit,k\n1,lps,\"");
	for (int i = 0; i < 1 << 20; i++)
		sb_addn(&b, "x", 1);
	sb_add(&b, "\"\n");
	assert_int_equal(import_csv_parse("h.csv", b.s, b.len, &c, &e), -1);
	assert_string_equal(e.msg, "h.csv:2:7: field longer than 4096 bytes; shorten it");
	b.len = 0;
	sb_add(&b, "value,unit,k\n1,lps,");
	for (int i = 0; i < 300; i++)
		sb_addn(&b, "y", 1);
	assert_int_equal(import_csv_parse("h.csv", b.s, b.len, &c, &e), -1);
	assert_non_null(strstr(e.msg, "h.csv:2:7: label 'k' has a value longer than 256 bytes"));
	/* Too many columns. */
	b.len = 0;
	sb_add(&b, "value,unit");
	for (int i = 0; i < 300; i++)
		sb_addf(&b, ",k%d", i);
	assert_int_equal(import_csv_parse("h.csv", b.s, b.len, &c, &e), -1);
	assert_non_null(strstr(e.msg, "more than 256 fields"));
	sb_free(&b);
}

/* Every prefix of a valid file parses or fails with a location; none crash. */
static void every_prefix_is_handled(void **state)
{
	(void)state;
	const char *text = "value,unit,boot,run,\"k\"\r\n1.5,ns/op,b,r,\"x,\"\"y\"\r\n2,lps,b,r,z\n";
	size_t len = strlen(text);
	for (size_t cut = 0; cut <= len; cut++) {
		char *part = xstrndup(text, cut);
		struct csv_import c;
		struct err e = {{0}};
		if (import_csv_parse("p.csv", part, cut, &c, &e) == 0) {
			assert_true(c.nrow >= 1 && c.nrow <= 2);
			import_csv_free(&c);
		} else {
			unsigned line, col;
			assert_int_equal(sscanf(e.msg, "p.csv:%u:%u:", &line, &col), 2);
		}
		free(part);
	}
}

/* Repeated strings and label sets are held once (what keeps 1M rows under 500 MB). */
static void repeated_strings_are_held_once(void **state)
{
	(void)state;
	struct csv_import c;
	struct err e = {{0}};
	assert_int_equal(parse("workload,value,unit,run,cfg,os\nw1,1,lps,r1,a,x\nw1,2,lps,r1,a,x\n"
			       "w2,3,lps,r2,b,x\nw1,4,lps,r3,,x\n", &c, &e), 0);
	assert_int_equal(c.nrow, 4);
	assert_ptr_equal(c.row[0].workload, c.row[1].workload);
	assert_ptr_equal(c.row[0].unit, c.row[2].unit);
	assert_ptr_equal(c.row[0].run, c.row[1].run);
	assert_ptr_equal(c.row[0].labels.v, c.row[1].labels.v);
	assert_ptr_not_equal(c.row[0].labels.v, c.row[2].labels.v);
	assert_ptr_equal(c.row[0].labels.v[1].value, c.row[2].labels.v[1].value);
	assert_int_equal(c.row[2].labels.n, 2);
	assert_string_equal(c.row[2].labels.v[0].key, "cfg");
	assert_string_equal(c.row[2].labels.v[0].value, "b");
	assert_int_equal(c.row[3].labels.n, 1); /* an empty cell is no label */
	assert_string_equal(c.row[3].labels.v[0].key, "os");
	assert_string_equal(c.row[3].workload, "w1");
	assert_string_equal(c.row[2].run, "r2");
	import_csv_free(&c);
	assert_null(c.row);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(example_file_has_four_index_values),
		cmocka_unit_test(quoting_follows_rfc4180),
		cmocka_unit_test(units_convert_to_ops_per_second),
		cmocka_unit_test(boot_and_run_keys_group_rows),
		cmocka_unit_test(bad_input_names_line_and_column),
		cmocka_unit_test(nul_bytes_and_huge_fields_are_rejected),
		cmocka_unit_test(every_prefix_is_handled),
		cmocka_unit_test(repeated_strings_are_held_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
