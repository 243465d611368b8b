/* test_report.c - HTML escaping, axis ticks, wrapping, CSV quoting, the emulation caveat and the run brief of the report layer. */
#include "unit.h"
#include "report/report.h"
#include "report/svg.h"
#include "analysis/analysis.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

static void html_escapes_the_five_characters(void **state)
{
	(void)state;
	struct sb b = {0};
	html_esc(&b, "<script>alert('x')</script> & \"q\"");
	assert_string_equal(sb_str(&b), "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
	sb_free(&b);
	html_esc(&b, NULL);
	assert_int_equal(b.len, 0);
}

static void svg_text_is_escaped(void **state)
{
	(void)state;
	struct sb b = {0};
	svg_text(&b, 1, 2, "end", "lbl", "a<b>&c");
	assert_non_null(strstr(sb_str(&b), ">a&lt;b&gt;&amp;c</text>"));
	assert_null(strstr(sb_str(&b), "<b>"));
	sb_free(&b);
}

static void ticks_are_round_and_cover_the_range(void **state)
{
	(void)state;
	double lo = 3.7, hi = 41.2, t[12];
	size_t n = svg_ticks(&lo, &hi, t, 7);
	assert_true(n >= 3 && n <= 7);
	assert_true(t[0] <= 3.7 && t[n - 1] >= 41.2);
	assert_true(lo == t[0] && hi == t[n - 1]);
	for (size_t i = 0; i < n; i++)
		assert_true(t[i] == 0 || t[i] / 10 == (double)(long)(t[i] / 10) || t[i] / 5 == (double)(long)(t[i] / 5));
	/* an empty range is widened; a non-finite one gives no ticks */
	lo = hi = 100;
	assert_true(svg_ticks(&lo, &hi, t, 7) >= 2);
	lo = 0, hi = 1.0 / 0.0;
	assert_int_equal(svg_ticks(&lo, &hi, t, 7), 0);
}

static void width_ignores_colour_and_counts_utf8_once(void **state)
{
	(void)state;
	assert_int_equal(report_text_width("\033[32mfaster\033[0m"), 6);
	assert_int_equal(report_text_width("±0.4% µs"), 8);
}

static void long_names_keep_start_and_end(void **state)
{
	(void)state;
	char b[64];
	report_short_name(b, sizeof b, "unixbench.fsbuffer-write", 1, 15);
	assert_string_equal(b, "unixbench~write");
	assert_int_equal(strlen(b), 15);
	report_short_name(b, sizeof b, "short", 2, 15);
	assert_string_equal(b, "short/2");
}

static void csv_quotes_what_rfc4180_asks(void **state)
{
	(void)state;
	struct store_run_info r = {0};
	r.id = 7;
	r.status = "imported";
	r.state = STORE_RUN_IMPORTED;
	r.source = "csv";
	r.boot_id = "b";
	r.hostname = "h,1";
	r.cpu_model = "say \"x\"";
	r.kernel_release = "line\nbreak";
	kv_add(&r.labels, "note", "a,\"b\"");
	kv_add(&r.env, "k", "v");
	struct store_export_sample s = {7, "w", "op", 1, 0, 0, -1, 0, 0, 10, 1000, 2.5};
	struct store_export x = {&s, 1};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(report_export_csv(f, &r, 1, &x, false), 0);
	fclose(f);
	assert_non_null(strstr(buf, ",label.note,env.k\r\n"));
	assert_non_null(strstr(buf, "\r\n7,imported,csv,0,b,\"h,1\",\"say \"\"x\"\"\",\"line\nbreak\",w,1,op,0,0,-1,0,10,1000,"
				    "2.5,0,\"a,\"\"b\"\"\",v\r\n"));
	free(buf);
	kv_free(&r.labels);
	kv_free(&r.env);
}

/* Issue 17 item 6: one cap spelling, no "±" for a visibly asymmetric interval, and no
 * interval at all below AN_MIN_INTERVAL_DF. */
static void intervals_spell_caps_once_and_need_4_df(void **state)
{
	(void)state;
	char b[32];
	report_interval_cell(b, sizeof b, 0.044);
	assert_string_equal(b, "±4.4%");
	report_interval_cell(b, sizeof b, 0.21);
	assert_string_equal(b, "-17/+21%");
	report_interval_cell(b, sizeof b, 1.5);
	assert_string_equal(b, "-60/+>99%");
	report_interval_cell(b, sizeof b, 9.17);
	assert_string_equal(b, "-90/+>99%");
	report_interval_cell(b, sizeof b, NAN);
	assert_string_equal(b, "-");
	struct st_estimate e = {.mean = log(100), .se = 0.1, .df = 3, .has_interval = true, .nsamples = 8};
	struct an_value v;
	an_value_of(&e, 0.05, &v);
	assert_true(v.low_df);
	assert_true(isnan(v.hw) && isnan(v.lo) && isnan(v.hi));
	assert_true(fabs(v.ops - 100) < 1e-9);
	e.df = AN_MIN_INTERVAL_DF;
	an_value_of(&e, 0.05, &v);
	assert_false(v.low_df);
	assert_true(v.hw > 0 && v.lo < 100 && v.hi > 100);
}

/* Counter cells: units scaled so the larger mean is at least 1, fixed notation, the constant. */
static void counter_cells_carry_units_and_no_e_notation(void **state)
{
	(void)state;
	struct an_row r = {.workload = "w", .event = "context-switches", .copies = 1, .constant = NAN};
	r.va = (struct an_value){.ops = 4.538e-4, .hw = 2e-5};
	r.vb = (struct an_value){.ops = 5.698e-4, .hw = NAN};
	r.chg = (struct an_change){.pct = 1.16e-4, .lo = -6.557e-4, .hi = 8.877e-4};
	r.c.q = 0.0004;
	r.c.verdict = ST_INCONCLUSIVE;
	struct report_counter_cells cc;
	report_counter_cells(&cc, &r, ",");
	assert_string_equal(cc.name, "w · context-switches/1M ops");
	assert_string_equal(cc.a, "453.8 ±20.00");
	assert_string_equal(cc.b, "569.8");
	assert_string_equal(cc.ch, "+116.0");
	assert_string_equal(cc.ci, "[-655.7,+887.7]");
	assert_string_equal(cc.q, "<.001");
	assert_string_equal(cc.verdict, "inconclusive");
	r.event = "task-clock";
	r.va = (struct an_value){.ops = 1106000, .hw = 2500};
	report_counter_cells(&cc, &r, ",");
	assert_string_equal(cc.name, "w · task-clock ns/op");
	assert_string_equal(cc.a, "1.106M ±2500");
	r.event = "page-faults";
	r.constant = 1;
	r.va.ops = r.vb.ops = 1;
	report_counter_cells(&cc, &r, ",");
	assert_string_equal(cc.name, "w · page-faults/op");
	assert_string_equal(cc.a, "1.000");
	assert_string_equal(cc.verdict, "constant");
	assert_string_equal(cc.ch, "");
}

/* One table names each warning kind: its JSON key, its phrase in the compact compare note
 * (none for CV, whose phrase carries its limit) and one line of a group's warnings. */
static void every_warning_kind_has_its_words_in_one_table(void **state)
{
	(void)state;
	static const char *const key[] = {"drift", "warmup", "outlier", "cv", "bimodal", "autocorr"};
	static const char *const kind[] = {"drift", "slow first samples", "outliers", NULL, "bimodal",
					   "autocorrelated batch means"};
	for (int k = 0; k <= ST_WARN_AUTOCORR; k++) {
		assert_string_equal(report_warn_name(k), key[k]);
		if (kind[k])
			assert_string_equal(report_warn_kind(k), kind[k]);
		else
			assert_null(report_warn_kind(k));
		struct an_diag d = {0};
		d.count[k] = 2;
		d.worst[k] = 0.5;
		d.limit[k] = 0.05;
		struct strv l = {0};
		report_diag_lines(&l, "A", &d);
		assert_int_equal(l.n, 1);
		strv_free(&l);
	}
}

static void emulated_groups_share_one_caveat(void **state)
{
	(void)state;
	char user[] = "qemu-user: emulated yes", tcg[] = "qemu TCG: campaign.accel tcg";
	const char *names[] = {"A", "B", "C"};
	struct an_emulation emu[3] = {{true, user, 1, true}, {true, user, 2, true}, {false, NULL, 0, false}};
	struct sb t = {0};
	report_emulation_text(&t, names, emu, 3);
	assert_string_equal(sb_str(&t), "emulated: runs of A and B were measured under an emulator (qemu-user: emulated "
					"yes; first in runs 1 and 2): their times are the emulator's costs, not the "
					"kernel's or the machine's");
	sb_free(&t);
	emu[2] = (struct an_emulation){true, tcg, 9, true};
	report_emulation_text(&t, names, emu, 3);
	assert_non_null(strstr(sb_str(&t), "runs of A, B and C were measured under an emulator (A: qemu-user: "
					    "emulated yes; B: qemu-user: emulated yes; C: qemu TCG: campaign.accel "
					    "tcg; first in runs 1, 2 and 9)"));
	sb_free(&t);
	const char *none[] = {NULL};
	report_emulation_text(&t, none, &emu[2], 1);
	assert_non_null(strstr(sb_str(&t), "emulated: some of the runs were measured under an emulator (qemu TCG: "
					    "campaign.accel tcg; first in run 9)"));
	sb_free(&t);
	/* only the NUMA nodes were emulated (qemu --numa under KVM): not the emulator's costs */
	char numa[] = "qemu -numa: campaign.numa";
	struct an_emulation nodes = {true, numa, 4, false};
	report_emulation_text(&t, none, &nodes, 1);
	assert_non_null(strstr(sb_str(&t), "first in run 4): their nodes are qemu's"));
	assert_null(strstr(sb_str(&t), "emulator's costs"));
	sb_free(&t);
	emu[0].any = emu[1].any = emu[2].any = false;
	report_emulation_text(&t, names, emu, 3);
	assert_int_equal(t.len, 0);
}

/* A run of nslots (workload, copies): nfail failing a self-check, the rest not finished
 * (error), with the environment env (key, value pairs, NULL-ended) and 4 indexes. */
struct fake_run {
	struct summary s;
	struct store_slot_info slots[80];
	struct summary_row rows[80];
	struct summary_check check;
	struct summary_index index[4];
};
static void fake_run(struct fake_run *f, size_t nslots, size_t nfail, const char *const *env)
{
	memset(f, 0, sizeof *f);
	f->s.run.id = 12;
	f->s.run.status = "complete";
	for (size_t i = 0; env[i]; i += 2)
		kv_add(&f->s.run.env, env[i], env[i + 1]);
	for (int i = 0; i < 30; i++) /* more labels than a line holds */
		kv_addf(&f->s.run.labels, "label", "value-%d", i);
	f->check = (struct summary_check){.name = "involuntary switches of the spinner per second (another task took "
						  "its CPU), a check with a long name",
					  .value = 80.3, .lo = 0, .hi = 5, .ok = false};
	for (size_t i = 0; i < nslots; i++) {
		f->slots[i] = (struct store_slot_info){.workload = "kernel.a-long-workload-name-of-forty-characters",
						      .copies = (int)(i % 3) + 1, .status = i < nfail ? "ok" : "error",
						      .state = i < nfail ? STORE_SLOT_OK : STORE_SLOT_ERROR};
		f->rows[i] = (struct summary_row){.slot = &f->slots[i], .checks = &f->check, .nchecks = i < nfail};
	}
	static const char *const names[] = {"sysab-index", "sysab-index", "unixbench-index-partial",
					    "unixbench-index-partial"};
	for (int i = 0; i < 4; i++)
		f->index[i] = (struct summary_index){names[i], 1 + i % 2 * 63, 4, 12345.6, "x"};
	f->s.nslots = nslots;
	f->s.slots = f->slots;
	f->s.rows = f->rows;
	f->s.index = f->index;
	f->s.nindex = 4;
}

/* Renders b into *lines (one per line, the count returned) and asserts every line fits. */
static size_t brief_lines(const struct summary_brief *b, const char *path, char **text)
{
	size_t size;
	FILE *f = open_memstream(text, &size);
	report_run_brief_text(f, b, path, "build/sysab");
	fclose(f);
	size_t n = 0;
	for (char *p = *text, *nl; *p; p = nl + 1, n++) {
		nl = strchr(p, '\n');
		assert_non_null(nl);
		*nl = 0;
		/* the database's path is never cut: the one line that may be wider is it alone */
		if (report_text_width(p) > REPORT_WIDTH && !(path && p[0] == ' ' && p[1] == ' ' && !strcmp(p + 2, path)))
			fail_msg("line %zu is %zu columns: %s", n + 1, report_text_width(p), p);
		*nl = '\n';
	}
	return n;
}

static void run_brief_fits_25_lines_of_80_columns_whatever_the_workloads(void **state)
{
	(void)state;
	static const char *const noisy[] = {"noise.level", "high", "probe.cv", "0.062", "probe.drift", "0.051",
					    "steal.level", "high", "probe.steal_pct", "12.50", "load.before",
					    "6.02 5.10 4.00", "cpu.online", "2", NULL};
	char path[400];
	memset(path, 'd', sizeof path - 1);
	path[sizeof path - 1] = 0;
	path[0] = '/';
	struct fake_run *f = xcalloc(1, sizeof *f);
	size_t most = 0;
	/* every mix of failed and unfinished rows, up to 80 rows */
	for (size_t n = 1; n <= 80; n += 13)
		for (size_t k = 0; k <= n; k += 5) {
			fake_run(f, n, k, noisy);
			struct summary_brief b;
			char *text = NULL;
			summary_brief_of(&f->s, &b);
			size_t lines = brief_lines(&b, path, &text);
			if (lines > 25)
				fail_msg("%zu lines for %zu rows, %zu failed:\n%s", lines, n, k, text);
			most = lines > most ? lines : most;
			if (k)
				assert_non_null(strstr(text, "80.3, not in [0, 5]: involuntary"));
			assert_non_null(strstr(text, "next: quiet the machine (`build/sysab system show`"));
			assert_non_null(strstr(text, "`build/sysab show 12`"));
			assert_non_null(strstr(text, path)); /* whole */
			summary_brief_free(&b);
			free(text);
			kv_free(&f->s.run.env);
			kv_free(&f->s.run.labels);
		}
	assert_true(most >= 15); /* the worst case was reached: the caps, not luck, keep it short */
	free(f);
}

static void machine_verdict_judges_noise_steal_load_and_emulation(void **state)
{
	(void)state;
	static const char *const quiet[] = {"noise.level", "low", "probe.cv", "0.004", "steal.level", "none",
					    "load.before", "0.75 0.7 0.5", "cpu.online", "2", NULL};
	static const char *const loaded[] = {"noise.level", "low", "probe.cv", "0.004", "steal.level", "none",
					     "load.before", "6.00 6 6", "cpu.online", "2", NULL};
	static const char *const emulated[] = {"noise.level", "low", "emulated", "yes: qemu-user", NULL};
	static const char *const none[] = {"load.before", "0.1 0.1 0.1", NULL};
	static const struct {
		const char *const *env;
		enum summary_machine_verdict v;
		const char *why;
	} cases[] = {
		{quiet, SUMMARY_MACHINE_QUIET, "noise floor low (probe CV 0.4%); no CPU steal; load 0.8 on 2 CPUs"},
		{loaded, SUMMARY_MACHINE_NOISY, "load 6.0 on 2 CPUs before the run (other tasks wanted every CPU)"},
		{emulated, SUMMARY_MACHINE_EMULATED, "qemu-user: emulated yes; the times mean nothing here"},
		{none, SUMMARY_MACHINE_UNJUDGED, "no noise probe in this run"},
	};
	struct fake_run *f = xcalloc(1, sizeof *f);
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		fake_run(f, 3, 1, cases[i].env);
		struct summary_brief b;
		summary_brief_of(&f->s, &b);
		assert_string_equal(summary_machine_word(b.machine.verdict), summary_machine_word(cases[i].v));
		if (!strstr(b.machine.why, cases[i].why))
			fail_msg("case %zu: '%s' lacks '%s'", i, b.machine.why, cases[i].why);
		summary_brief_free(&b);
		kv_free(&f->s.run.env);
		kv_free(&f->s.run.labels);
	}
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(run_brief_fits_25_lines_of_80_columns_whatever_the_workloads),
		cmocka_unit_test(machine_verdict_judges_noise_steal_load_and_emulation),
		cmocka_unit_test(html_escapes_the_five_characters),
		cmocka_unit_test(svg_text_is_escaped),
		cmocka_unit_test(ticks_are_round_and_cover_the_range),
		cmocka_unit_test(width_ignores_colour_and_counts_utf8_once),
		cmocka_unit_test(long_names_keep_start_and_end),
		cmocka_unit_test(csv_quotes_what_rfc4180_asks),
		cmocka_unit_test(intervals_spell_caps_once_and_need_4_df),
		cmocka_unit_test(counter_cells_carry_units_and_no_e_notation),
		cmocka_unit_test(every_warning_kind_has_its_words_in_one_table),
		cmocka_unit_test(emulated_groups_share_one_caveat),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
