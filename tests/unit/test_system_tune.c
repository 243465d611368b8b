/* test_system_tune.c - tune's fixed knob table, the default state file, and what reset trusts. */
#include "core/core.h"
#include "core/tmp.h"
#include "system/system.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

UNIT_TMPDIR_FIXTURE

static void knob_table_admits_only_its_files_and_values(void **state)
{
	(void)state;
	const char *gov = "sys/devices/system/cpu/cpu12/cpufreq/scaling_governor";
	assert_null(system_knob_file_check("cpufreq.governor", gov, "schedutil\n"));
	assert_null(system_knob_file_check(NULL, gov, NULL));
	assert_non_null(system_knob_file_check("cpufreq.governor", gov, "a b\n"));
	assert_non_null(system_knob_file_check("cpufreq.governor", gov, ""));
	assert_non_null(system_knob_file_check("turbo", gov, "performance"));
	assert_non_null(system_knob_file_check(NULL, "sys/devices/system/cpu/cpu/cpufreq/scaling_governor", NULL));
	assert_non_null(system_knob_file_check(NULL, "sys/devices/system/cpu/cpu0/../../../../etc/shadow", NULL));
	assert_non_null(system_knob_file_check(NULL, "etc/passwd", NULL));
	assert_null(system_knob_file_check("turbo", "sys/devices/system/cpu/intel_pstate/no_turbo", "1\n"));
	assert_non_null(system_knob_file_check("turbo", "sys/devices/system/cpu/intel_pstate/no_turbo", "2\n"));
	assert_null(system_knob_file_check("cpufreq.min_freq", "sys/devices/system/cpu/cpu3/cpufreq/scaling_min_freq",
					   "800000\n"));
	assert_non_null(system_knob_file_check("perf_event_max_sample_rate",
					       "proc/sys/kernel/perf_event_max_sample_rate", "-1\n"));
}

/* every file tune would set on the fixture trees is in the table: the two cannot drift */
static void tune_sets_only_table_files(void **state)
{
	(void)state;
	const char *trees[] = {"intel-smt", "amd-nosmt", "acpi-tuned", "vm-nocpufreq"};
	for (size_t t = 0; t < sizeof trees / sizeof *trees; t++) {
		char *root = xasprintf("tests/fixtures/system/%s", trees[t]);
		struct sys_state s;
		system_read(root, NULL, 0, 0, &s);
		for (size_t i = 0; i < s.nknob; i++)
			for (size_t j = 0; j < s.knob[i].nset; j++)
				assert_null(system_knob_file_check(s.knob[i].name, s.knob[i].set[j].path,
								   s.knob[i].set[j].value));
		system_free(&s);
		free(root);
	}
}

static void state_file_never_in_the_current_directory(void **state)
{
	(void)state;
	char *home = getenv("HOME") ? xstrdup(getenv("HOME")) : NULL;
	char *xdg = getenv("XDG_STATE_HOME") ? xstrdup(getenv("XDG_STATE_HOME")) : NULL;
	char cwd[4096];
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(dir), 0);
	unsetenv("XDG_STATE_HOME");
	unsetenv("HOME");
	struct err e;
	char *f = system_state_file_default(&e);
	if (f) { /* the password database's home, absolute */
		assert_int_equal(f[0], '/');
		assert_null(strstr(f, dir));
	} else {
		assert_non_null(strstr(e.msg, "--state-file"));
	}
	free(f);
	setenv("HOME", "rel", 1);
	f = system_state_file_default(&e);
	assert_null(f);
	assert_non_null(strstr(e.msg, "not an absolute path"));
	setenv("HOME", "/h", 1);
	f = system_state_file_default(&e);
	assert_string_equal(f, "/h/.local/state/sysab/tune.json");
	free(f);
	assert_int_equal(chdir(cwd), 0);
	if (home)
		setenv("HOME", home, 1);
	else
		unsetenv("HOME");
	if (xdg)
		setenv("XDG_STATE_HOME", xdg, 1);
	free(home);
	free(xdg);
}

static void reset_refuses_an_untrusted_state_file(void **state)
{
	(void)state;
	char *victim = xasprintf("%s/victim", dir);
	char *st = xasprintf("%s/tune.json", dir);
	FILE *f = fopen(victim, "w");
	fputs("precious\n", f);
	fclose(f);
	f = fopen(st, "w");
	fprintf(f, "{\"version\":1,\"saved\":[{\"knob\":\"turbo\",\"path\":\"%s\",\"original\":\"1\\n\"}]}", victim);
	fclose(f);
	struct sys_changes ch;
	bool ok;
	struct err e;
	chmod(st, 0620);
	assert_int_equal(system_reset("/", st, &ch, &ok, &e), -1);
	assert_non_null(strstr(e.msg, "writable by its group"));
	system_changes_free(&ch);
	chmod(st, 0600);
	assert_int_equal(system_reset("/", st, &ch, &ok, &e), 0);
	assert_false(ok);
	assert_int_equal(ch.n, 1);
	assert_non_null(ch.v[0].refused);
	system_changes_free(&ch);
	char *text = read_text_file(victim);
	assert_string_equal(text, "precious");
	free(text);
	free(victim);
	free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(knob_table_admits_only_its_files_and_values),
		cmocka_unit_test(tune_sets_only_table_files),
		cmocka_unit_test_setup_teardown(state_file_never_in_the_current_directory, setup, teardown),
		cmocka_unit_test_setup_teardown(reset_refuses_an_untrusted_state_file, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
