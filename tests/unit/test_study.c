/* test_study.c - the campaign line of a design and of history --confirm: built from stored campaigns, or why not. */
#include "unit.h"
#include "study/study.h"
#include "report/report.h"
#include "core/tmp.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

UNIT_TMPDIR_FIXTURE

/* A done campaign `name` of backend (command or grub) with one configuration per labels[i]
 * (JSON object text), one boot each, and run_args (a JSON array). */
static void add_campaign(struct store *st, const char *name, const char *backend, const char *run_args,
			 const char *const *labels, size_t n)
{
	struct err e;
	struct store_campaign_config cfg[4] = {0};
	struct store_campaign_slot slots[4] = {0};
	char names[4][4];
	bool grub = !strcmp(backend, "grub");
	for (size_t i = 0; i < n; i++) {
		snprintf(names[i], sizeof names[i], "%zu", i);
		cfg[i].name = names[i];
		cfg[i].labels = (char *)labels[i];
		if (grub) {
			cfg[i].entry = (char *)"1";
			cfg[i].kernel = (char *)"/boot/vmlinuz";
		} else {
			cfg[i].command = (char *)"true";
		}
		slots[i] = (struct store_campaign_slot){.slot = (int)i, .config = (int)i, .state = (char *)"done"};
	}
	char *uuid = xasprintf("u-%s", name);
	struct store_campaign c = {.name = (char *)name, .uuid = uuid, .backend = (char *)backend,
				   .run_args = (char *)run_args, .options = (char *)"{}", .state = (char *)"done",
				   .boots = 1, .runs = 1, .configs = cfg, .nconfigs = n, .slots = slots, .nslots = n};
	assert_int_equal(store_campaign_create(st, &c, &e), 0);
	free(uuid);
}

static struct store *open_db(const char *file)
{
	struct err e;
	struct store *st;
	char *path = xasprintf("%s/%s", dir, file);
	assert_int_equal(store_open(path, STORE_RW, &st, &e), 0);
	free(path);
	return st;
}

/* design d's line with configs sels, into *l (free it) */
static void line_of(struct store *st, const char *name, const char *const *sels, size_t n, size_t boots,
		    bool fixed, struct study_line *l)
{
	struct study_design d = {.name = name, .db = "x.db", .configs = sels, .nconfigs = n, .boots = boots,
				 .runs = 2, .samples = 7, .samples_fixed = fixed};
	study_design_line(st, &d, l);
}

static bool argv_has_pair(const struct strv *v, const char *flag, const char *value)
{
	for (size_t i = 0; i + 1 < v->n; i++)
		if (!strcmp(v->v[i], flag) && !strcmp(v->v[i + 1], value))
			return true;
	return false;
}

/* Two configurations that one campaign booted: a line that boots both as it did, sized by
 * the design, runnable as printed. */
static void design_line_boots_each_config_as_booted(void **state)
{
	(void)state;
	struct store *st = open_db("a.db");
	const char *lab[] = {"{\"pti\":\"on\"}", "{\"pti\":\"off\"}"};
	add_campaign(st, "c", "command", "[\"-w\",\"harness.null\",\"--samples\",\"5\"]", lab, 2);
	struct study_line l;
	const char *sels[] = {"campaign:c pti=on", "pti=off"};
	line_of(st, "c2", sels, 2, 3, false, &l);
	assert_null(l.why);
	assert_int_equal(l.why_kind, STUDY_LINE_OK);
	assert_string_equal(l.name, "c2");
	assert_string_equal(l.source, "c");
	assert_int_equal(l.nconfigs, 2);
	assert_string_equal(l.argv.v[0], "campaign");
	assert_string_equal(l.argv.v[1], "new");
	assert_string_equal(l.argv.v[2], "c2");
	assert_true(argv_has_pair(&l.argv, "--backend", "command"));
	assert_true(argv_has_pair(&l.argv, "--boots", "3"));
	assert_true(argv_has_pair(&l.argv, "--runs", "2"));
	assert_true(argv_has_pair(&l.argv, "--config", "pti=on"));
	assert_true(argv_has_pair(&l.argv, "--config", "pti=off"));
	assert_true(argv_has_pair(&l.argv, "--samples", "7")); /* the design's, not the pilot's 5 */
	assert_false(argv_has_pair(&l.argv, "--samples", "5"));
	assert_true(argv_has_pair(&l.argv, "-w", "harness.null"));
	assert_non_null(strstr(l.line, "sysab campaign new c2 --db x.db "));
	assert_non_null(strstr(l.line, " && sysab campaign start c2 --db x.db"));
	study_line_free(&l);
	assert_null(l.line);
	study_line_free(NULL);

	/* one selector that is only campaign:NAME: every configuration of it */
	const char *all[] = {"campaign:c"};
	line_of(st, "c3", all, 1, 2, false, &l);
	assert_null(l.why);
	assert_int_equal(l.nconfigs, 2);
	study_line_free(&l);
	store_close(st);
}

struct why_case {
	const char *const *sels;
	size_t n;
	const char *name;
	size_t boots;
	bool fixed;
	enum study_why kind;
	const char *words; /* in the why */
};

/* Every reason a design has no line, named in the record with what would give one. */
static void design_line_says_why_missing(void **state)
{
	(void)state;
	struct store *st = open_db("b.db");
	const char *lab[] = {"{\"pti\":\"on\",\"k\":\"a\"}", "{\"pti\":\"off\",\"k\":\"a\"}"};
	add_campaign(st, "c", "command", "[\"-w\",\"harness.null\"]", lab, 2);
	const char *labg[] = {"{\"thp\":\"on\"}"};
	add_campaign(st, "g", "grub", "[]", labg, 1);
	const char *labu[] = {"{\"ub\":\"1\"}", "{\"ub\":\"2\"}"};
	add_campaign(st, "u", "command", "[\"--unixbench\",\"./Run -i 3\"]", labu, 2);
	const char *two[] = {"pti=on", "pti=off"}, *one[] = {"pti=on"}, *runs[] = {"run:1", "pti=off"},
		   *none[] = {"x=1", "pti=off"}, *amb[] = {"k=a", "pti=off"}, *nope[] = {"campaign:nope"},
		   *mixed[] = {"pti=on", "thp=on"}, *ub[] = {"ub=1", "ub=2"}, *named[] = {"campaign:g pti=on", "pti=off"};
	const struct why_case cases[] = {
		{NULL, 0, "n", 3, false, STUDY_NO_CONFIGS, "the pilot is every run"},
		{two, 2, "c", 3, false, STUDY_NAME_TAKEN, "a campaign named c exists"},
		{one, 1, "n", 3, false, STUDY_ONE_CONFIG, "give that configuration as selector B"},
		{runs, 2, "n", 3, false, STUDY_NO_LABELS, "selector 'run:1' names no configuration"},
		{none, 2, "n", 3, false, STUDY_NOT_BOOTED, "no campaign booted a configuration labelled 'x=1'"},
		{named, 2, "n", 3, false, STUDY_NOT_BOOTED, "no campaign named g booted a configuration labelled"},
		{amb, 2, "n", 3, false, STUDY_AMBIGUOUS, "'k=a' matches 2 configurations of campaign c"},
		{nope, 1, "n", 3, false, STUDY_UNREADABLE, "campaign nope cannot be read"},
		{mixed, 2, "n", 3, false, STUDY_BACKENDS_DIFFER, "c was booted by the command backend and g by grub"},
		{ub, 2, "n", 3, false, STUDY_UNIXBENCH, "give --samples N"},
		{two, 2, "n", 0, false, STUDY_NO_DESIGN, "no design meets the target"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct study_line l;
		line_of(st, cases[i].name, cases[i].sels, cases[i].n, cases[i].boots, cases[i].fixed, &l);
		if (l.why_kind != cases[i].kind || !l.why || !strstr(l.why, cases[i].words))
			fail_msg("case %zu: kind %s, why %s", i, study_why_word(l.why_kind), l.why ? l.why : "(none)");
		assert_null(l.line);
		assert_int_equal(l.argv.n, 0);
		study_line_free(&l);
	}
	/* UnixBench with the samples fixed (plan --samples N): a line, its command as it was */
	struct study_line l;
	line_of(st, "n", ub, 2, 3, true, &l);
	assert_null(l.why);
	assert_non_null(strstr(l.line, "--unixbench"));
	study_line_free(&l);
	assert_string_equal(study_why_word(STUDY_NOT_BOOTED), "not-booted");
	assert_string_equal(study_why_word((enum study_why)99), "?");
	store_close(st);
}

/* A history of two changes, by kernel, each planned at 4 boots x 1 run x 9 samples. */
static void history_of(struct an_history *h, struct an_history_change *ch, struct st_cp_change *cp, const char *by)
{
	memset(h, 0, sizeof *h);
	memset(ch, 0, 2 * sizeof *ch);
	memset(cp, 0, 2 * sizeof *cp);
	h->workload = "kernel.syscall.null";
	h->copies = 1;
	h->by = by;
	h->selector = "";
	h->cp.nchanges = 2;
	h->changes = ch;
	const char *sides[2][2] = {{"6.1", "6.2"}, {"6.2", "6.3"}};
	for (int i = 0; i < 2; i++) {
		ch[i].c = &cp[i];
		ch[i].label_before = sides[i][0];
		ch[i].label_after = sides[i][1];
		ch[i].confirm_planned = true;
		ch[i].confirm = (struct st_plan){.feasible = true, .boots = 4, .runs = 1, .samples = 9};
	}
}

/* history --confirm: a line per change booting both sides as campaigns did, named apart
 * from taken names and each other; why not when a side was never booted, or in time order;
 * nothing for a change without a design. The JSON carries each line or reason. */
static void confirm_lines_per_change(void **state)
{
	(void)state;
	struct store *st = open_db("c.db");
	const char *lab[] = {"{\"kernel\":\"6.1\"}", "{\"kernel\":\"6.2\"}"};
	add_campaign(st, "k", "command", "[\"-w\",\"kernel.syscall.null\"]", lab, 2);
	add_campaign(st, "confirm-kernel-6.1-6.2", "command", "[]", lab, 2); /* the name is taken */
	struct an_history h;
	struct an_history_change ch[2];
	struct st_cp_change cp[2];
	struct study_line l[2];
	history_of(&h, ch, cp, "kernel");
	study_confirm_lines(st, NULL, &h, l);
	assert_null(l[0].why);
	assert_string_equal(l[0].name, "confirm-kernel-6.1-6.2-2");
	assert_true(argv_has_pair(&l[0].argv, "--boots", "4"));
	assert_true(argv_has_pair(&l[0].argv, "--samples", "9"));
	assert_true(argv_has_pair(&l[0].argv, "--config", "kernel=6.1"));
	assert_true(argv_has_pair(&l[0].argv, "--config", "kernel=6.2"));
	assert_null(l[1].line); /* 6.3 was never booted */
	assert_int_equal(l[1].why_kind, STUDY_NOT_BOOTED);
	assert_non_null(strstr(l[1].why, "no campaign booted kernel=6.3"));

	char *js = report_history_json(&h, l);
	json_error_t je;
	json_t *d = json_loads(js, 0, &je);
	assert_non_null(d);
	json_t *c0 = json_object_get(json_array_get(json_object_get(d, "change_points"), 0), "confirm");
	json_t *c1 = json_object_get(json_array_get(json_object_get(d, "change_points"), 1), "confirm");
	assert_string_equal(json_string_value(json_object_get(c0, "campaign")), "confirm-kernel-6.1-6.2-2");
	assert_string_equal(json_string_value(json_object_get(c0, "line")), l[0].line);
	assert_string_equal(json_string_value(json_object_get(c1, "reason")), "not-booted");
	assert_string_equal(json_string_value(json_object_get(c1, "why")), l[1].why);
	json_decref(d);
	free(js);
	js = report_history_json(&h, NULL); /* without --confirm: no confirm member */
	assert_null(strstr(js, "\"confirm\""));
	free(js);
	for (int i = 0; i < 2; i++)
		study_line_free(&l[i]);

	ch[1].confirm_planned = false; /* no design: no line and no reason */
	history_of(&h, ch, cp, "time");
	ch[1].confirm.feasible = false;
	study_confirm_lines(st, NULL, &h, l);
	assert_int_equal(l[0].why_kind, STUDY_TIME_ORDER);
	assert_non_null(strstr(l[0].why, "order them by the label"));
	assert_null(l[1].why);
	assert_null(l[1].line);
	for (int i = 0; i < 2; i++)
		study_line_free(&l[i]);
	store_close(st);
}

/* plan --json: the campaign line, or its reason, as the member campaign_line. */
static void plan_json_carries_line(void **state)
{
	(void)state;
	struct an_plan p = {0};
	struct study_line l = {.why_kind = STUDY_NOT_BOOTED, .why = xstrdup("no campaign booted it")};
	json_error_t je;
	char *js = report_plan_json(&p, NULL, 0, &l, NULL);
	json_t *d = json_loads(js, 0, &je);
	json_t *c = json_object_get(d, "campaign_line");
	assert_string_equal(json_string_value(json_object_get(c, "reason")), "not-booted");
	assert_string_equal(json_string_value(json_object_get(c, "why")), "no campaign booted it");
	assert_null(json_object_get(c, "line"));
	json_decref(d);
	free(js);
	study_line_free(&l);
	l = (struct study_line){.name = xstrdup("c2"), .line = xstrdup("sysab campaign new c2 && sysab campaign start c2")};
	strv_add(&l.argv, "campaign");
	js = report_plan_json(&p, NULL, 0, &l, NULL);
	d = json_loads(js, 0, &je);
	c = json_object_get(d, "campaign_line");
	assert_string_equal(json_string_value(json_object_get(c, "line")), l.line);
	assert_string_equal(json_string_value(json_object_get(c, "campaign")), "c2");
	assert_string_equal(json_string_value(json_array_get(json_object_get(c, "argv"), 1)), "campaign");
	assert_null(json_object_get(c, "why"));
	json_decref(d);
	free(js);
	study_line_free(&l);
	js = report_plan_json(&p, NULL, 0, NULL, NULL);
	assert_null(strstr(js, "campaign_line"));
	free(js);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(design_line_boots_each_config_as_booted, setup, teardown),
		cmocka_unit_test_setup_teardown(design_line_says_why_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(confirm_lines_per_change, setup, teardown),
		cmocka_unit_test(plan_json_carries_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
