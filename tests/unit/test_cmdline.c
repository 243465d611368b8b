/* test_cmdline.c - kernel.cmdline as a confounder: a campaign's per-slot marker and declared --append are not counted, the rest is; what they explain. */
#include "unit.h"
#include "analysis/analysis.h"
#include "core/tmp.h"

#include <stdlib.h>
#include <string.h>

UNIT_TMPDIR_FIXTURE

/* The marker and declared tokens go, the rest stays in order; quoted words stay whole. */
static void strip_drops_marker_and_declared_tokens(void **state)
{
	(void)state;
	struct an_cmdline_declared d = {0};
	strv_add(&d.tokens, "pti=on");
	strv_add(&d.tokens, "dyndbg=\"file x.c +p\"");
	char *s = an_cmdline_strip("console=ttyS0 panic=-1  pti=on sysab.boot=c:3\n", &d);
	assert_string_equal(s, "console=ttyS0 panic=-1");
	free(s);
	s = an_cmdline_strip("ro dyndbg=\"file x.c +p\" quiet BOOT_IMAGE=/vmlinuz-6.1", &d);
	assert_string_equal(s, "ro quiet BOOT_IMAGE=/vmlinuz-6.1");
	free(s);
	d.image = true; /* configurations that name a kernel or a boot entry: the image is the configuration */
	s = an_cmdline_strip("BOOT_IMAGE=/vmlinuz-6.1 initrd=/initrd.img ro pti=off", &d);
	assert_string_equal(s, "ro pti=off");
	free(s);
	an_cmdline_declared_free(&d);
}

/* One group's kernel.cmdline values as the store gives them (one per slot, distinct markers). */
static void env_of(struct store_env *env, const char *const *values, size_t n)
{
	memset(env, 0, sizeof *env);
	env->k = xcalloc(1, sizeof *env->k);
	env->nk = 1;
	env->nruns = env->nenv = n;
	env->k[0].key = xstrdup("kernel.cmdline");
	env->k[0].nruns = n;
	env->k[0].v = xcalloc(n, sizeof *env->k[0].v);
	env->k[0].nv = n;
	for (size_t i = 0; i < n; i++)
		env->k[0].v[i] = (struct store_env_value){xstrdup(values[i]), (int64_t)(10 + i)};
}

/* Whether the confounder check flags kernel.cmdline between a and b. */
static bool flagged(const struct store_env *a, const struct store_env *b)
{
	const struct store_env *env[2] = {a, b};
	struct st_env_set sets[2];
	const char **vals[2];
	for (int s = 0; s < 2; s++) {
		const struct store_env_key *x = &env[s]->k[0];
		vals[s] = xcalloc(x->nv, sizeof *vals[s]);
		for (size_t i = 0; i < x->nv; i++)
			vals[s][i] = x->v[i].value;
		sets[s] = (struct st_env_set){x->key, vals[s], x->nv, false};
	}
	struct strv out = {0};
	stats_confounder_sets(&sets[0], 1, env[0]->nruns, &sets[1], 1, env[1]->nruns, NULL, &out);
	bool yes = strv_has(&out, "kernel.cmdline");
	strv_free(&out);
	free(vals[0]);
	free(vals[1]);
	return yes;
}

/* A qemu campaign's groups: the marker differs per slot and --append is the configuration, so
 * kernel.cmdline is no confounder; a token the campaign did not declare still is. */
static void campaign_cmdline_is_not_a_confounder(void **state)
{
	(void)state;
	struct err e;
	char *path = xasprintf("%s/r.db", dir);
	struct store *st;
	assert_int_equal(store_open(path, STORE_RW, &st, &e), 0);
	struct store_campaign_config cfg[2] = {
		{.name = (char *)"0", .labels = (char *)"{\"pti\":\"on\"}", .append = (char *)"pti=on mitigations=auto"},
		{.name = (char *)"1", .labels = (char *)"{\"pti\":\"off\"}", .append = (char *)"pti=off"},
	};
	struct store_campaign c = {.name = (char *)"f22", .uuid = (char *)"u-f22", .backend = (char *)"qemu",
				   .run_args = (char *)"[]", .options = (char *)"{}", .state = (char *)"done",
				   .boots = 2, .runs = 1, .configs = cfg, .nconfigs = 2};
	assert_int_equal(store_campaign_create(st, &c, &e), 0);

	struct store_run_info ra = {.campaign = (char *)"f22"}, rb = {.campaign = (char *)"f22"}, rm = {0};
	const struct store_run_info *const runs[3] = {&ra, &rb, &rm};
	struct an_cmdline_declared d = {0};
	assert_int_equal(an_cmdline_declared_add(st, runs, 3, &d, &e), 0);
	assert_true(strv_has(&d.tokens, "pti=on") && strv_has(&d.tokens, "mitigations=auto") &&
		    strv_has(&d.tokens, "pti=off"));
	assert_false(d.image);

	const char *va[] = {"console=ttyS0 panic=-1 pti=on mitigations=auto sysab.boot=f22:0",
			    "console=ttyS0 panic=-1 pti=on mitigations=auto sysab.boot=f22:3"};
	const char *vb[] = {"console=ttyS0 panic=-1 pti=off sysab.boot=f22:1",
			    "console=ttyS0 panic=-1 pti=off sysab.boot=f22:2"};
	const char *vq[] = {"console=ttyS0 panic=-1 pti=off quiet sysab.boot=f22:1",
			    "console=ttyS0 panic=-1 pti=off sysab.boot=f22:2"};
	struct store_env a, b, q;
	env_of(&a, va, 2);
	env_of(&b, vb, 2);
	env_of(&q, vq, 2);
	assert_true(flagged(&a, &b)); /* before: every qemu campaign flagged it */
	an_cmdline_env_strip(&a, &d);
	an_cmdline_env_strip(&b, &d);
	an_cmdline_env_strip(&q, &d);
	assert_int_equal(a.k[0].nv, 1); /* the slots' lines are one line once the marker is gone */
	assert_string_equal(a.k[0].v[0].value, "console=ttyS0 panic=-1");
	assert_int_equal(a.k[0].v[0].first, 10);
	assert_false(flagged(&a, &b));
	assert_true(flagged(&a, &q)); /* "quiet" on one boot was not declared: still a confounder */
	store_env_free(&a);
	store_env_free(&b);
	store_env_free(&q);
	an_cmdline_declared_free(&d);

	/* a run of an unknown campaign is an error naming it */
	struct store_run_info rx = {.campaign = (char *)"nope"};
	const struct store_run_info *const one[1] = {&rx};
	assert_int_equal(an_cmdline_declared_add(st, one, 1, &d, &e), -1);
	assert_non_null(strstr(e.msg, "nope"));
	an_cmdline_declared_free(&d);
	store_close(st);
	free(path);
}

/* A confounder list as an_compare leaves it: keys in order, values irrelevant here. */
static void conf_of(struct an_compare *c, const char *const *keys, size_t n)
{
	memset(c, 0, sizeof *c);
	c->conf = xcalloc(n, sizeof *c->conf);
	for (size_t i = 0; i < n; i++)
		c->conf[c->nconf++] = (struct an_confounder){.key = xstrdup(keys[i]), .a = xstrdup("x"), .b = xstrdup("y"),
							      .impact = an_env_impact(keys[i])};
}

static void conf_free(struct an_compare *c)
{
	for (size_t i = 0; i < c->nconf; i++) {
		free(c->conf[i].key);
		free(c->conf[i].a);
		free(c->conf[i].b);
		free(c->conf[i].explained_by);
	}
	free(c->conf);
}

/* What a campaign declared explains the vuln keys it moves (its command lines no longer differ,
 * once stripped); a label by its key; nothing explains the clocksource; the impact classes. */
static void declared_words_explain_their_keys(void **state)
{
	(void)state;
	assert_int_equal(an_env_impact("clocksource"), AN_IMPACT_HIGH);
	assert_int_equal(an_env_impact("vuln.mds"), AN_IMPACT_HIGH);
	assert_int_equal(an_env_impact("cpufreq.governor"), AN_IMPACT_HIGH);
	assert_int_equal(an_env_impact("sysab.version"), AN_IMPACT_LOW);
	assert_int_equal(an_env_impact("some.new_key"), AN_IMPACT_MEDIUM);

	struct an_cmdline_declared d = {0};
	strv_add(&d.tokens, "nopti");
	struct store_run_info ra = {0}, rb = {0};
	kv_add(&ra.labels, "kernel", "a");
	kv_add(&rb.labels, "kernel", "b");
	const struct store_run_info *const pa[1] = {&ra}, *const pb[1] = {&rb};
	const char *same[] = {"console=ttyS0"};
	struct store_env ea, eb;
	env_of(&ea, same, 1);
	env_of(&eb, same, 1);
	const char *keys[] = {"clocksource", "vuln.meltdown", "vuln.mds"};
	struct an_compare c;
	conf_of(&c, keys, 3);
	an_confounders_explain(&c, pa, 1, pb, 1, &ea, &eb, &d);
	assert_int_equal(c.conf[0].explained, AN_EXPLAINED_NOT);
	assert_int_equal(c.conf[1].explained, AN_EXPLAINED_CAMPAIGN);
	assert_string_equal(c.conf[1].explained_by, "nopti");
	assert_int_equal(c.conf[2].explained, AN_EXPLAINED_NOT); /* nopti moves meltdown alone */
	conf_free(&c);

	/* a label thp=never / thp=always explains thp.enabled, by its key */
	struct store_run_info la = {0}, lb = {0};
	kv_add(&la.labels, "thp", "always");
	kv_add(&lb.labels, "thp", "never");
	const struct store_run_info *const qa[1] = {&la}, *const qb[1] = {&lb};
	const char *tk[] = {"thp.enabled", "clocksource"};
	conf_of(&c, tk, 2);
	an_confounders_explain(&c, qa, 1, qb, 1, &ea, &eb, &(struct an_cmdline_declared){0});
	assert_int_equal(c.conf[0].explained, AN_EXPLAINED_LABEL);
	assert_string_equal(c.conf[0].explained_by, "thp");
	assert_int_equal(c.conf[1].explained, AN_EXPLAINED_NOT);
	conf_free(&c);
	kv_free(&ra.labels);
	kv_free(&rb.labels);
	kv_free(&la.labels);
	kv_free(&lb.labels);
	store_env_free(&ea);
	store_env_free(&eb);
	an_cmdline_declared_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strip_drops_marker_and_declared_tokens),
		cmocka_unit_test_setup_teardown(campaign_cmdline_is_not_a_confounder, setup, teardown),
		cmocka_unit_test(declared_words_explain_their_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
