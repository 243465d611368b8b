/* test_study_adaptive.c - adaptive campaigns: the decided rule on injected verdicts, the checks of the settings, and the looks' bookkeeping across a crash. */
#include "unit.h"
#include "study/adaptive.h"
#include "core/tmp.h"

#include <stdlib.h>
#include <string.h>

UNIT_TMPDIR_FIXTURE

static void decided_rule_stops_only_when_every_row_is_decided(void **state)
{
	(void)state;
	enum st_verdict all[] = {ST_FASTER, ST_EQUIVALENT, ST_SLOWER};
	enum st_verdict open[] = {ST_SLOWER, ST_INCONCLUSIVE};
	enum st_verdict held[] = {ST_FASTER, ST_WITHHELD};
	enum st_verdict none[] = {ST_NO_DATA};
	assert_int_equal(study_decided_stop(all, 3, 2, 6, 0, 0), STUDY_DECIDED);
	assert_int_equal(study_decided_stop(open, 2, 2, 6, 0, 0), STUDY_GO_ON);
	assert_int_equal(study_decided_stop(held, 2, 2, 6, 0, 0), STUDY_GO_ON);
	assert_int_equal(study_decided_stop(none, 1, 2, 6, 0, 0), STUDY_GO_ON);
	/* nothing judged yet (the first block) is not decided */
	assert_int_equal(study_decided_stop(NULL, 0, 1, 6, 0, 0), STUDY_GO_ON);
	/* the cap: boots per configuration; a decision at the cap is a decision */
	assert_int_equal(study_decided_stop(open, 2, 6, 6, 0, 0), STUDY_CAP);
	assert_int_equal(study_decided_stop(all, 3, 6, 6, 0, 0), STUDY_DECIDED);
	/* the budget: wall time spent, none when 0 */
	assert_int_equal(study_decided_stop(open, 2, 3, 6, 3600, 3599), STUDY_BUDGET);
	assert_int_equal(study_decided_stop(open, 2, 3, 6, 3598, 3599), STUDY_GO_ON);
	assert_int_equal(study_decided_stop(open, 2, 3, 6, 1e9, 0), STUDY_GO_ON);
	assert_string_equal(study_stop_word(STUDY_CAP), "cap");
	assert_string_equal(study_stop_word(STUDY_BUDGET), "budget");
}

static void adaptive_settings_are_checked_by_option(void **state)
{
	(void)state;
	struct err e;
	struct study_adaptive_spec a = {.until = "decided", .target = 0.01, .max_boots = 4};
	assert_int_equal(study_adaptive_check(&a, 2, false, &e), 0);
	a.until = "sure";
	assert_int_equal(study_adaptive_check(&a, 2, false, &e), -1);
	assert_non_null(strstr(e.msg, "--until 'sure'"));
	a.until = "decided";
	a.max_boots = 1;
	assert_int_equal(study_adaptive_check(&a, 2, false, &e), -1);
	assert_non_null(strstr(e.msg, "--max-boots 1"));
	a.max_boots = 4;
	assert_int_equal(study_adaptive_check(&a, 2, true, &e), -1);
	assert_non_null(strstr(e.msg, "--boots"));
	assert_int_equal(study_adaptive_check(&a, 3, false, &e), -1);
	assert_non_null(strstr(e.msg, "exactly two --config"));
	a.target = 0;
	assert_int_equal(study_adaptive_check(&a, 2, false, &e), -1);
	assert_non_null(strstr(e.msg, "--target"));
}

/* A rule that never stops and counts how often it was asked. */
static int count_decide(const struct study_rule *r, const struct campaign_env *env, const struct campaign *c,
			const struct store_adaptive *a, int blocks, double elapsed_s, struct study_decision *out,
			struct err *e)
{
	(void)env, (void)c, (void)a, (void)elapsed_s, (void)e;
	(*(int *)r->arg)++;
	memset(out, 0, sizeof *out);
	out->blocks = blocks;
	out->k = blocks - 1;
	out->stop = STUDY_GO_ON;
	out->verdicts = xstrdup("{}");
	return 0;
}

/* Slot i of campaign id is done (or back to pending, never booted). */
static void set_slot(struct store *st, int64_t id, int i, int block, int config, bool done)
{
	struct err e;
	struct store_campaign_slot x = {.slot = i, .block = block, .config = config,
					.state = (char *)(done ? "done" : "pending"), .attempts = done,
					.started_ns = done ? 1 : 0, .finished_ns = done ? 2 : 0};
	assert_int_equal(store_campaign_slot_put(st, id, &x, &e), 0);
}

static void looks_are_taken_once_per_block_across_a_crash(void **state)
{
	(void)state;
	struct err e;
	char *db = xasprintf("%s/a.db", dir), *opts = xasprintf("{\"unit_dir\":\"%s\"}", dir);
	struct store *st;
	assert_int_equal(store_open(db, STORE_RW, &st, &e), 0);
	struct store_campaign_config cfg[2] = {{.name = (char *)"a=1", .labels = (char *)"{\"a\":\"1\"}", .command = (char *)"true"},
					       {.name = (char *)"a=2", .labels = (char *)"{\"a\":\"2\"}", .command = (char *)"true"}};
	struct store_campaign_slot slots[8];
	for (int i = 0; i < 8; i++)
		slots[i] = (struct store_campaign_slot){.slot = i, .block = i / 2, .config = i % 2, .state = (char *)"pending"};
	struct store_adaptive ad = {.until = (char *)"decided", .target = 0.02, .max_boots = 4};
	struct store_campaign c = {.name = (char *)"ad", .uuid = (char *)"u-ad", .backend = (char *)"command",
				   .run_args = (char *)"[\"--quick\"]", .options = opts, .state = (char *)"running",
				   .boots = 4, .runs = 1, .configs = cfg, .nconfigs = 2, .slots = slots, .nslots = 8,
				   .adaptive = &ad};
	assert_int_equal(store_campaign_create(st, &c, &e), 0);
	for (int i = 0; i < 4; i++)
		set_slot(st, c.id, i, i / 2, i % 2, true);
	int asked = 0;
	struct study_rule rule = {.name = "count", .decide = count_decide, .arg = &asked};
	FILE *out = fopen("/dev/null", "w");
	struct campaign_env env = {.st = st, .db_path = db, .self = "sysab", .out = out};
	struct study_decision d;
	/* between blocks 2 and 3: look 1; the driver then arms slot 4 (its command is `true`) */
	assert_int_equal(study_adaptive_step(&env, "ad", true, &rule, false, &d, &e), 0);
	assert_int_equal(asked, 1);
	assert_int_equal(d.k, 1);
	assert_int_equal(d.blocks, 2);
	study_decision_free(&d);
	/* a crash before slot 4 booted: it is pending again, and the driver comes back to the same
	 * point; the rule is asked again, but the look is the same look */
	set_slot(st, c.id, 4, 2, 0, false);
	assert_int_equal(study_adaptive_step(&env, "ad", true, &rule, false, &d, &e), 0);
	assert_int_equal(asked, 2);
	study_decision_free(&d);
	struct study_adaptive_state s;
	assert_int_equal(study_adaptive_state(st, c.id, &s, &e), 0);
	assert_int_equal(s.nlooks, 1);
	assert_int_equal(s.looks[0].k, 1);
	assert_int_equal(s.looks[0].blocks, 2);
	assert_string_equal(s.looks[0].decision, "go_on");
	assert_string_equal(s.a.until, "decided");
	assert_int_equal(s.a.max_boots, 4);
	assert_null(s.a.stopped);
	study_adaptive_state_free(&s);
	/* block 3 done: the campaign stands between blocks 3 and 4: look 2 */
	set_slot(st, c.id, 4, 2, 0, true);
	set_slot(st, c.id, 5, 2, 1, true);
	assert_int_equal(study_adaptive_step(&env, "ad", true, &rule, false, &d, &e), 0);
	assert_int_equal(d.k, 2);
	study_decision_free(&d);
	assert_int_equal(study_adaptive_state(st, c.id, &s, &e), 0);
	assert_int_equal(s.nlooks, 2);
	assert_int_equal(s.looks[1].k, 2);
	assert_int_equal(s.looks[1].blocks, 3);
	study_adaptive_state_free(&s);
	/* the end after a block: later slots go, boots follow */
	assert_int_equal(store_campaign_end_after_block(st, c.id, 3, &e), 0);
	struct store_campaign r;
	assert_int_equal(store_campaign_get(st, "ad", &r, &e), 0);
	assert_int_equal(r.boots, 3);
	assert_int_equal(r.nslots, 6);
	store_campaign_free(&r);
	fclose(out);
	store_close(st);
	free(opts);
	free(db);
}

static void a_look_of_the_same_number_is_stored_once(void **state)
{
	(void)state;
	struct err e;
	char *db = xasprintf("%s/b.db", dir);
	struct store *st;
	assert_int_equal(store_open(db, STORE_RW, &st, &e), 0);
	struct store_campaign_config cfg[1] = {{.name = (char *)"a=1", .labels = (char *)"{\"a\":\"1\"}", .command = (char *)"true"}};
	struct store_adaptive ad = {.until = (char *)"decided", .target = 0.01, .max_boots = 3, .budget_s = 60};
	struct store_campaign c = {.name = (char *)"b", .uuid = (char *)"u-b", .backend = (char *)"command",
				   .run_args = (char *)"[]", .options = (char *)"{}", .state = (char *)"new", .boots = 3,
				   .runs = 1, .configs = cfg, .nconfigs = 1, .adaptive = &ad};
	assert_int_equal(store_campaign_create(st, &c, &e), 0);
	struct store_adaptive_look l = {.k = 1, .blocks = 2, .at_ns = 5, .decision = (char *)"go_on", .verdicts = (char *)"{}"};
	assert_int_equal(store_adaptive_look_put(st, c.id, &l, &e), 1);
	l.decision = (char *)"decided";
	assert_int_equal(store_adaptive_look_put(st, c.id, &l, &e), 0);
	struct store_adaptive_look *v;
	size_t n;
	assert_int_equal(store_adaptive_looks(st, c.id, &v, &n, &e), 0);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].decision, "go_on");
	store_adaptive_looks_free(v, n);
	assert_int_equal(store_adaptive_set_stopped(st, c.id, "budget", &e), 0);
	struct store_adaptive got;
	assert_int_equal(store_adaptive_get(st, c.id, &got, &e), 1);
	assert_string_equal(got.stopped, "budget");
	assert_true(got.budget_s == 60);
	store_adaptive_free(&got);
	store_close(st);
	free(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decided_rule_stops_only_when_every_row_is_decided),
		cmocka_unit_test(adaptive_settings_are_checked_by_option),
		cmocka_unit_test_setup_teardown(looks_are_taken_once_per_block_across_a_crash, setup, teardown),
		cmocka_unit_test_setup_teardown(a_look_of_the_same_number_is_stored_once, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
