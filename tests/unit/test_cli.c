/* test_cli.c - the option tables: each number is checked against its table range as the user
 * spelled it, and each default the tables print is the value the code uses. */
#include "unit.h"
#include "cli/cli.h"
#include "campaign/campaign.h"
#include "stats/stats.h"
#include "analysis/analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const struct cli_opt cli_run_opts[], cli_compare_opts[], cli_analyze_opts[], cli_plan_opts[],
	cli_report_opts[], cli_campaign_opts[];

static const struct cli_opt *find(const struct cli_opt *t, const char *lng)
{
	for (; t->lng; t++)
		if (!strcmp(t->lng, lng))
			return t;
	fail_msg("no option --%s", lng);
	return NULL;
}

/* The value an option's printed default stands for (durations in seconds). */
static double dflt(const struct cli_opt *t, const char *lng)
{
	const struct cli_opt *o = find(t, lng);
	assert_non_null(o->dflt);
	if (o->num != CLI_TEXT)
		return cli_real_of(o->dflt);
	uint64_t ns;
	struct err e;
	assert_int_equal(parse_duration(o->dflt, o->lng, &ns, &e), 0);
	return (double)ns / 1e9;
}

static void printed_defaults_are_the_code_defaults(void **state)
{
	(void)state;
	struct st_compare_opts co = stats_compare_defaults();
	struct st_plan_opts po = stats_plan_defaults();
	const struct cli_opt *verdict[] = {cli_compare_opts, cli_analyze_opts, cli_report_opts};
	for (size_t i = 0; i < 3; i++) {
		assert_true(fabs(dflt(verdict[i], "margin") - co.margin) < 1e-12);
		assert_true(fabs(dflt(verdict[i], "alpha") - co.alpha) < 1e-12);
	}
	assert_true(fabs(dflt(cli_plan_opts, "target") - po.target) < 1e-12);
	assert_int_equal((int)dflt(cli_run_opts, "max-runs"), AN_GROW_DEFAULT_RUNS); /* run --until decided */
	assert_true(fabs(dflt(cli_run_opts, "target") - stats_compare_defaults().margin) < 1e-12);
	assert_true(fabs(dflt(cli_plan_opts, "alpha") - po.alpha) < 1e-12);
	assert_true(fabs(dflt(cli_plan_opts, "boot-cost") - po.cost_boot) < 1e-9);
	struct campaign_opts o;
	campaign_opts_parse(campaign_backend_find("qemu"), "{}", &o);
	assert_int_equal((int)dflt(cli_campaign_opts, "smp"), campaign_qemu_smp(&o));
	assert_int_equal((int)dflt(cli_campaign_opts, "mem"), campaign_qemu_mem_mb(&o));
	assert_int_equal((int)dflt(cli_campaign_opts, "boot-timeout"), campaign_qemu_boot_timeout_s(&o));
	assert_int_equal((int)dflt(cli_campaign_opts, "max-failures"), o.max_failures);
	assert_true(fabs(dflt(cli_campaign_opts, "settle-load") - o.settle_load) < 1e-12);
	assert_int_equal((int)dflt(cli_campaign_opts, "settle-timeout"), o.settle_timeout_s);
	campaign_opts_free(&o);
}

/* Every default a table prints lies in the option's own range. */
static void defaults_lie_in_their_ranges(void **state)
{
	(void)state;
	const struct cli_opt *all[] = {cli_run_opts, cli_compare_opts, cli_analyze_opts, cli_plan_opts, cli_report_opts,
				       cli_campaign_opts};
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		for (const struct cli_opt *o = all[i]; o->lng; o++)
			if (o->dflt && o->num != CLI_TEXT) {
				double v = cli_real_of(o->dflt);
				if (!(v >= o->lo && v <= o->hi))
					fail_msg("--%s: default %s outside [%g, %g]", o->lng, o->dflt, o->lo, o->hi);
			}
}

static int seen_id;
static const char *seen_arg;
static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	(void)ctx;
	(void)e;
	seen_id = id;
	seen_arg = arg;
	return 0;
}

static const struct cli_opt test_opts[] = {
	CLI_NUM("count", 'n', "N", "a count", 1, CLI_INT, 1, 5, "2"),
	CLI_NUM("share", 0, "PCT", "a share", 2, CLI_PCT, 0.01, 0.5, NULL),
	CLI_END,
};
static const struct cli_cmd test_cmd = {"t", NULL, "test", NULL, test_opts, NULL, NULL};

/* parse ARGS... (NULL-terminated): 0 or -1 with the message in e */
static int parse(struct err *e, const char *a1, const char *a2)
{
	char *argv[] = {"t", (char *)a1, (char *)a2, NULL};
	struct strv pos = {0};
	bool help;
	seen_id = 0;
	int rc = cli_parse(&test_cmd, a2 ? 3 : 2, argv, on_opt, NULL, &pos, &help, e);
	strv_free(&pos);
	return rc;
}

static void numbers_checked_by_the_table_as_spelled(void **state)
{
	(void)state;
	struct err e;
	assert_int_equal(parse(&e, "-n", "6"), -1);
	assert_non_null(strstr(e.msg, "-n: 6 is out of range; give a number from 1 to 5"));
	assert_int_equal(seen_id, 0); /* the handler never saw it */
	assert_int_equal(parse(&e, "--count=0", NULL), -1);
	assert_non_null(strstr(e.msg, "--count: 0 is out of range"));
	assert_int_equal(parse(&e, "--count", "x"), -1);
	assert_non_null(strstr(e.msg, "--count: 'x' is not a whole number"));
	assert_int_equal(parse(&e, "--share", "60%"), -1);
	assert_non_null(strstr(e.msg, "--share: 60% is out of range; give 1% to 50%"));
	assert_int_equal(parse(&e, "-n", "5"), 0);
	assert_int_equal(seen_id, 1);
	assert_int_equal(cli_int_of(seen_arg), 5);
	assert_int_equal(parse(&e, "--share", "2.5%"), 0);
	assert_true(fabs(cli_real_of(seen_arg) - 0.025) < 1e-15);
	char extra[160];
	cli_opt_extra(extra, sizeof extra, &test_opts[0]);
	assert_string_equal(extra, " (from 1 to 5; default 2)");
	cli_opt_extra(extra, sizeof extra, &test_opts[1]);
	assert_string_equal(extra, " (from 1% to 50%)");
}

/* Each command's --format offers exactly the formats it prints: the completion words (values)
 * are the format table's names for the command's kind, and the help names each of them. */
static bool report_find_kind_ok(const struct report_format *f, enum report_kind kind)
{
	return report_format_find(f->name, kind) == f;
}

/* kcidb renders a comparison with the tests of B's runs, which only `sysab compare` loads:
 * `report` (kind compare too) refuses it, and analyze has no such tests. */
static bool compare_only(const struct report_format *f)
{
	return f == &report_format_kcidb;
}

static void format_help_matches_the_format_table(void **state)
{
	(void)state;
	static const struct {
		const char *cmd;
		enum report_kind kind;
	} kinds[] = {
		{"run", REPORT_RUN},         {"list", REPORT_RUNS},      {"show", REPORT_RUN},
		{"workloads", REPORT_WORKLOADS}, {"env", REPORT_ENV},    {"compare", REPORT_COMPARE},
		{"analyze", REPORT_ANALYZE}, {"plan", REPORT_PLAN},      {"export", REPORT_SAMPLES},
		{"report", REPORT_COMPARE},  {"history", REPORT_HISTORY}, {"campaign", REPORT_CAMPAIGN},
		{"system", REPORT_SYSTEM},
	};
	size_t checked = 0;
	for (size_t i = 0; i < cli_ncmds; i++)
		for (const struct cli_opt *o = cli_cmds[i].opts; o->lng; o++) {
			if (o->id != OPT_FORMAT)
				continue;
			size_t k = 0;
			while (k < sizeof kinds / sizeof kinds[0] && strcmp(kinds[k].cmd, cli_cmds[i].name))
				k++;
			assert_true(k < sizeof kinds / sizeof kinds[0]); /* a new command: add its kind above */
			assert_non_null(o->values);
			size_t nvalues = 0;
			char *v = xstrdup(o->values), *save = NULL;
			for (char *w = strtok_r(v, " ", &save); w; w = strtok_r(NULL, " ", &save), nvalues++) {
				if (!report_format_find(w, kinds[k].kind))
					fail_msg("%s --format: offers %s, which it cannot print", cli_cmds[i].name, w);
				if (!strstr(o->help, w))
					fail_msg("%s --format: its help does not name %s", cli_cmds[i].name, w);
			}
			free(v);
			size_t nformats = 0;
			for (size_t f = 0; report_formats[f]; f++)
				nformats += report_find_kind_ok(report_formats[f], kinds[k].kind) &&
					    !(compare_only(report_formats[f]) && strcmp(cli_cmds[i].name, "compare") &&
					      kinds[k].kind == REPORT_COMPARE);
			if (nvalues != nformats)
				fail_msg("%s --format: offers %zu formats, prints %zu", cli_cmds[i].name, nvalues, nformats);
			checked++;
		}
	assert_true(checked >= 9);
	/* ranges read as a user writes numbers: no e-notation */
	char buf[80];
	const struct cli_opt big = CLI_NUM("mem", 0, "MB", "m", 1, CLI_INT, 64, 1 << 20, "512");
	cli_range_text(buf, sizeof buf, &big);
	assert_string_equal(buf, "from 64 to 1048576");
	/* report analyze prints what report compare prints (markdown since issue 37) */
	for (size_t f = 0; report_formats[f]; f++)
		if (!compare_only(report_formats[f]))
			assert_int_equal(report_find_kind_ok(report_formats[f], REPORT_ANALYZE),
					 report_find_kind_ok(report_formats[f], REPORT_COMPARE));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(printed_defaults_are_the_code_defaults),
		cmocka_unit_test(defaults_lie_in_their_ranges),
		cmocka_unit_test(numbers_checked_by_the_table_as_spelled),
		cmocka_unit_test(format_help_matches_the_format_table),
	};
	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
