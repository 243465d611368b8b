/* test_campaign.c - the campaign schedule (randomized complete blocks from a seed) and the option record. */
#include "unit.h"
#include "campaign/backend.h"

#include <stdlib.h>
#include <string.h>

/* Every block holds each configuration exactly once. */
static void blocks_are_complete(void **state)
{
	(void)state;
	for (int k = 1; k <= 7; k++)
		for (uint64_t seed = 0; seed < 50; seed++) {
			int order[7 * 5];
			campaign_schedule(seed, k, 5, order);
			for (int b = 0; b < 5; b++) {
				int seen[7] = {0};
				for (int i = 0; i < k; i++) {
					int c = order[b * k + i];
					assert_true(c >= 0 && c < k);
					seen[c]++;
				}
				for (int i = 0; i < k; i++)
					assert_int_equal(seen[i], 1);
			}
		}
}

/* The schedule is a pure function of the seed: pinned values, and different seeds differ. */
static void schedule_is_pinned_by_its_seed(void **state)
{
	(void)state;
	int a[4 * 3], b[4 * 3];
	campaign_schedule(42, 4, 3, a);
	campaign_schedule(42, 4, 3, b);
	assert_memory_equal(a, b, sizeof a);
	char got[13];
	for (int i = 0; i < 12; i++)
		got[i] = (char)('0' + a[i]);
	got[12] = 0;
	/* pinned: changing the generator would silently change recorded campaigns' schedules */
	assert_string_equal(got, "203123100321");
	int differ = 0;
	for (uint64_t s = 0; s < 20; s++) {
		campaign_schedule(s, 4, 3, b);
		differ += memcmp(a, b, sizeof a) != 0;
	}
	assert_true(differ >= 15);
	/* orders are shuffled, not fixed: over many seeds each config leads a block about equally */
	int first[4] = {0};
	for (uint64_t s = 0; s < 4000; s++) {
		campaign_schedule(s, 4, 1, b);
		first[b[0]]++;
	}
	for (int i = 0; i < 4; i++)
		assert_true(first[i] > 850 && first[i] < 1150);
}

/* Set qemu option --name to arg in o through the backend's parse_opt. */
static void qemu_set(struct campaign_opts *o, const char *name, const char *arg)
{
	struct err e;
	assert_int_equal(campaign_backend_find("qemu")->parse_opt(o->be, name, arg, &e), 0);
}

/* Options round-trip through their JSON record, with defaults for missing keys. */
static void options_round_trip(void **state)
{
	(void)state;
	const struct campaign_backend *qemu = campaign_backend_find("qemu");
	struct campaign_opts o, p;
	campaign_opts_parse(qemu, "{}", &o);
	assert_int_equal(campaign_qemu_smp(&o), 1);
	assert_int_equal(campaign_qemu_mem_mb(&o), 512);
	assert_int_equal(o.max_failures, 2);
	assert_string_equal(campaign_qemu_accel(&o), "auto");
	assert_string_equal(o.unit_dir, "/etc/systemd/system");
	qemu_set(&o, "smp", "3");
	o.max_failures = 5;
	qemu_set(&o, "accel", "tcg");
	char *j = campaign_opts_json(&o);
	campaign_opts_parse(qemu, j, &p);
	assert_int_equal(campaign_qemu_smp(&p), 3);
	assert_int_equal(p.max_failures, 5);
	assert_string_equal(campaign_qemu_accel(&p), "tcg");
	free(j);
	campaign_opts_free(&o);
	campaign_opts_free(&p);
	/* a backend without options of its own reads and writes only the generic ones */
	campaign_opts_parse(campaign_backend_find("kexec"), "{\"smp\":4,\"max_failures\":3}", &o);
	assert_null(o.be);
	assert_int_equal(o.max_failures, 3);
	assert_int_equal(campaign_qemu_smp(&o), 1); /* its stored "smp" is none of its options */
	j = campaign_opts_json(&o);
	assert_null(strstr(j, "smp"));
	free(j);
	campaign_opts_free(&o);
	char *m = campaign_marker("pti", 7);
	assert_string_equal(m, "sysab.boot=pti:7");
	free(m);
}

/* --numa: one node is the default and is not stored (older campaigns read the same); more
 * nodes round-trip, and must split --smp and --mem evenly on an architecture that gets them. */
static void numa_nodes_split_evenly(void **state)
{
	(void)state;
	const struct campaign_backend *qemu = campaign_backend_find("qemu");
	struct campaign_opts o, p;
	struct err e;
	campaign_opts_parse(qemu, "{}", &o);
	assert_int_equal(campaign_qemu_numa(&o), 1);
	char *j = campaign_opts_json(&o);
	assert_null(strstr(j, "numa"));
	free(j);
	assert_int_equal(campaign_qemu_numa_check(&o, "loongarch64", &e), 0);
	qemu_set(&o, "numa", "2");
	qemu_set(&o, "smp", "2");
	qemu_set(&o, "mem", "1024");
	j = campaign_opts_json(&o);
	campaign_opts_parse(qemu, j, &p);
	free(j);
	assert_int_equal(campaign_qemu_numa(&p), 2);
	assert_int_equal(campaign_qemu_numa_check(&o, "x86_64", &e), 0);
	assert_int_equal(campaign_qemu_numa_check(&o, "auto", &e), 0);
	assert_int_equal(campaign_qemu_numa_check(&o, "loongarch64", &e), -1);
	assert_non_null(strstr(e.msg, "loongarch64"));
	qemu_set(&o, "smp", "3");
	assert_int_equal(campaign_qemu_numa_check(&o, "x86_64", &e), -1);
	assert_non_null(strstr(e.msg, "--smp 3"));
	qemu_set(&o, "smp", "4");
	qemu_set(&o, "mem", "1000");
	assert_int_equal(campaign_qemu_numa_check(&o, "x86_64", &e), 0);
	qemu_set(&o, "mem", "1001");
	assert_int_equal(campaign_qemu_numa_check(&o, "x86_64", &e), -1);
	assert_non_null(strstr(e.msg, "--mem 1001"));
	qemu_set(&o, "numa", "8");
	assert_int_equal(campaign_qemu_numa_check(&o, "x86_64", &e), -1);
	assert_non_null(strstr(e.msg, "--smp at least 8"));
	campaign_opts_free(&o);
	campaign_opts_free(&p);
}

/* --duet: not stored unless given (older campaigns read the same), round-trips; refused off
 * qemu, with other than 2 configurations and with --numa; each slot's CPU set is its
 * configuration + block mod 2 (the block's two on different sets, swapped every block). */
static void duet_options_and_cpu_sets(void **state)
{
	(void)state;
	const struct campaign_backend *qemu = campaign_backend_find("qemu");
	struct campaign_opts o, p;
	struct err e;
	campaign_opts_parse(qemu, "{}", &o);
	assert_false(campaign_qemu_duet(&o));
	char *j = campaign_opts_json(&o);
	assert_null(strstr(j, "duet"));
	free(j);
	assert_int_equal(campaign_duet_check(&o, "kexec", 3, &e), 0); /* not a duet: nothing to refuse */
	qemu_set(&o, "duet", "");
	j = campaign_opts_json(&o);
	campaign_opts_parse(qemu, j, &p);
	free(j);
	assert_true(campaign_qemu_duet(&p));
	assert_int_equal(campaign_duet_check(&o, "command", 2, &e), -1);
	assert_non_null(strstr(e.msg, "command backend"));
	assert_int_equal(campaign_duet_check(&o, "qemu", 3, &e), -1);
	assert_non_null(strstr(e.msg, "exactly two"));
	qemu_set(&o, "smp", "256");
	assert_int_equal(campaign_duet_check(&o, "qemu", 2, &e), -1);
	assert_non_null(strstr(e.msg, "2 x --smp 256 = 512"));
	char cpus[64];
	assert_false(campaign_duet_cpus(256, 0, cpus, sizeof cpus));
	struct store_campaign_slot sl[4] = {{.slot = 0, .block = 0, .config = 1}, {.slot = 1, .block = 0, .config = 0},
					    {.slot = 2, .block = 1, .config = 0}, {.slot = 3, .block = 1, .config = 1}};
	struct campaign c = {.r = {.slots = sl, .nslots = 4}};
	assert_int_equal(campaign_duet_set(&c, 0), 1);
	assert_int_equal(campaign_duet_set(&c, 1), 0);
	assert_int_equal(campaign_duet_set(&c, 2), 1);
	assert_int_equal(campaign_duet_set(&c, 3), 0);
	campaign_opts_free(&o);
	campaign_opts_free(&p);
}

/* ExecStart= follows systemd's rules: quotes group, \\ and \" escape, %% and $$ are literal. */
static void exec_start_is_quoted_for_systemd(void **state)
{
	(void)state;
	const char *av[] = {"/usr/bin/sysab", "campaign", "resume", "pti", "--db", "/data/a b/%h $HOME \"x\"\\.db", NULL};
	char *s = reboot_exec_start(av);
	assert_string_equal(s, "/usr/bin/sysab campaign resume pti --db \"/data/a b/%%h $$HOME \\\"x\\\"\\\\.db\"");
	free(s);
}

/* Every state has one word, and the word reads back as the state; other words are none. */
static void states_round_trip_through_their_words(void **state)
{
	(void)state;
	for (int i = 0; i < CAMPAIGN_NSTATES; i++)
		assert_int_equal(campaign_state_of(campaign_state_word((enum campaign_state)i)), i);
	for (int i = 0; i < SLOT_NSTATES; i++)
		assert_int_equal(slot_state_of(slot_state_word((enum slot_state)i)), i);
	assert_int_equal(campaign_state_of("runing"), -1);
	assert_int_equal(slot_state_of(NULL), -1);
	assert_non_null(campaign_backend_find("kexec"));
	assert_null(campaign_backend_find("floppy"));
	struct err e;
	assert_int_equal(campaign_name_check("a\nb", &e), -1);
	assert_int_equal(campaign_name_check("pti-1.x", &e), 0);
}

/* A marker or a word is found as a whole word only (slot 1's marker is not in slot 10's line),
 * and BOOT_IMAGE= is read as the value of its own word. */
static void cmdline_words_are_whole_words(void **state)
{
	(void)state;
	const char *l = "BOOT_IMAGE=/vmlinuz-6.1.0-a ro quiet sysab.boot=c:10";
	assert_false(campaign_cmdline_has(l, "sysab.boot=c:1"));
	assert_true(campaign_cmdline_has(l, "sysab.boot=c:10"));
	assert_true(campaign_cmdline_has(l, "quiet"));
	assert_false(campaign_cmdline_has(l, "qui"));
	assert_false(campaign_cmdline_has(l, "ro quiet x"));
	assert_true(campaign_cmdline_has("quiet\n", "quiet"));
	assert_false(campaign_cmdline_has(NULL, "quiet"));
	char *v = campaign_cmdline_value(l, "BOOT_IMAGE");
	assert_string_equal(v, "/vmlinuz-6.1.0-a");
	free(v);
	assert_null(campaign_cmdline_value("ro XBOOT_IMAGE=/a quiet", "BOOT_IMAGE"));
	assert_null(campaign_cmdline_value("ro BOOT_IMAGE quiet", "BOOT_IMAGE"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(blocks_are_complete),
		cmocka_unit_test(schedule_is_pinned_by_its_seed),
		cmocka_unit_test(options_round_trip),
		cmocka_unit_test(numa_nodes_split_evenly),
		cmocka_unit_test(duet_options_and_cpu_sets),
		cmocka_unit_test(exec_start_is_quoted_for_systemd),
		cmocka_unit_test(states_round_trip_through_their_words),
		cmocka_unit_test(cmdline_words_are_whole_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
