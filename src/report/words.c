/* words.c - the words every format shares: verdict, caveat, need and warning names, units, q, counter cells, colour. */
#include "report.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *report_verdict_name(enum st_verdict v)
{
	switch (v) {
	case ST_FASTER: return "faster";
	case ST_SLOWER: return "slower";
	case ST_EQUIVALENT: return "equivalent";
	case ST_INCONCLUSIVE: return "inconclusive";
	case ST_WITHHELD: return "withheld";
	case ST_NO_DATA: break;
	}
	return "no_data";
}

void report_check_text(struct sb *t, const struct an_failed_check *f)
{
	if (!f->check)
		return;
	sb_addf(t, "%sself-check '%s' of %s failed in %zu run%s (`sysab show %lld -v` gives its values)",
		f->withheld ? "no verdict: " : "", f->check, f->workload, f->runs, f->runs == 1 ? "" : "s",
		(long long)f->first_run);
	if (f->withheld)
		sb_add(t, ", so the numbers may measure something other than the workload's name says; "
			  "--allow-failed-checks gives the verdict anyway");
}

void report_emulation_text(struct sb *t, const char *const *names, const struct an_emulation *emu, size_t n)
{
	size_t k = 0, last = 0;
	bool same = true; /* every emulated group has the same evidence */
	for (size_t i = 0; i < n; i++)
		if (emu[i].any) {
			if (k && strcmp(emu[i].how ? emu[i].how : "", emu[last].how ? emu[last].how : ""))
				same = false;
			k++;
			last = i;
		}
	if (!k)
		return;
	if (n == 1 && !names[0]) {
		sb_add(t, "emulated: some of the runs were measured under an emulator (");
	} else {
		sb_add(t, "emulated: runs of ");
		for (size_t i = 0, j = 0; i < n; i++)
			if (emu[i].any)
				sb_addf(t, "%s%s", j++ ? (j == k ? " and " : ", ") : "", names[i]);
		sb_add(t, " were measured under an emulator (");
	}
	for (size_t i = 0, j = 0; i < n; i++) {
		if (!emu[i].any || (same && j))
			continue;
		if (!same && names[i])
			sb_addf(t, "%s%s: ", j ? "; " : "", names[i]);
		sb_add(t, emu[i].how ? emu[i].how : "emulated");
		j++;
	}
	sb_add(t, k == 1 ? "; first in run " : "; first in runs ");
	for (size_t i = 0, j = 0; i < n; i++)
		if (emu[i].any)
			sb_addf(t, "%s%lld", j++ ? (j == k ? " and " : ", ") : "", (long long)emu[i].first);
	bool cpu = false;
	for (size_t i = 0; i < n; i++)
		cpu |= emu[i].any && emu[i].cpu;
	sb_add(t, cpu ? "): their times are the emulator's costs, not the kernel's or the machine's"
		      : "): their nodes are qemu's, on the host's memory alike, so a difference between nodes is not "
			"the machine's");
}

void report_allow_text(struct sb *t, size_t rows)
{
	if (rows)
		sb_addf(t, "--allow-failed-checks: %zu row%s kept %s verdict although a self-check of %s runs failed",
			rows, rows == 1 ? "" : "s", rows == 1 ? "its" : "their", rows == 1 ? "its" : "their");
}

void report_look_text(struct sb *t, const struct an_repeat *look, double alpha)
{
	if (!look->on)
		return;
	if (look->withheld) {
		/* the step a same-boot look prints is a command (paired runs that grow) or words */
		bool grow = look->next_step && !strncmp(look->next_step, "sysab ", 6);
		sb_addf(t, "withheld: this is look %d of this question (the same selectors, --unit and -w) with other runs "
			   "than its look 1, and ",
			look->k);
		if (look->first_undeclared && look->same_boot)
			sb_addf(t, "look 1 declared no sequential design, so it spent all of alpha = %g; comparing again after "
				   "adding runs gives no faster, slower or equivalent verdict (looking again until something is "
				   "settled called 10-14%% of A/A comparisons). This comparison is within one boot, so more boots "
				   "are not what it needs. To go on, keeping every run: %s%s%s (docs/METHOD.md, \"%s\")",
				alpha, grow ? "`" : "",
				look->next_step ? look->next_step : "add runs on this boot and compare with --fresh",
				grow ? "`, a new design of its own over the paired runs it adds, looked at after each one "
				       "with alpha spent by O'Brien-Fleming, until every row is faster, slower or equivalent"
				     : "",
				grow ? "Paired runs that grow" : "Repeated looks");
		else if (look->first_undeclared)
			sb_addf(t, "look 1 declared no sequential design, so it spent all of alpha = %g; comparing again after "
				   "adding runs gives no faster, slower or equivalent verdict (looking again until something is "
				   "settled called 10-14%% of A/A comparisons). To go on: add boots and compare with --fresh, "
				   "which judges only the runs no earlier look judged (a new question; declare --max-boots N "
				   "--look 1 there to look again later), or size a new experiment with `sysab plan` "
				   "(docs/METHOD.md, \"Repeated looks\")",
				alpha);
		else
			sb_addf(t, "look 1 declared a sequential design of %d boots per group, which this look does not: give "
				   "--max-boots %d --look %d so that it spends alpha as the design does (docs/METHOD.md, "
				   "\"Repeated looks\")",
				look->first_max_boots, look->first_max_boots, look->k);
	} else if (look->look_given) {
		sb_addf(t, "look %d of the declared design: this question has %d earlier looks recorded, so it is judged as "
			   "look %d, not as --look %d said",
			look->k, look->k - 1, look->k, look->look_given);
	} else if (look->fresh && look->question > 1) {
		sb_addf(t, "--fresh: question %d of these selectors, over the runs no earlier look judged (%zu run%s left "
			   "out)",
			look->question, look->excluded, look->excluded == 1 ? "" : "s");
	}
}

void *report_look_json(const struct an_repeat *look)
{
	if (!look->on)
		return json_null();
	json_t *o = json_object();
	json_object_set_new(o, "question", json_integer(look->question));
	json_object_set_new(o, "number", json_integer(look->k));
	json_object_set_new(o, "verdicts_withheld", json_boolean(look->withheld));
	json_object_set_new(o, "rows_withheld", json_integer((json_int_t)look->rows));
	json_object_set_new(o, "declared_max_boots", look->max_boots ? json_integer(look->max_boots) : json_null());
	json_object_set_new(o, "fresh", json_boolean(look->fresh));
	json_object_set_new(o, "runs_left_out", json_integer((json_int_t)look->excluded));
	if (look->next_step) /* a withheld same-boot look: the step that fits it */
		json_object_set_new(o, "next_step", json_string(look->next_step));
	return o;
}

static const struct {
	unsigned bit;
	const char *name, *text;
} caveat_table[] = {
	{ST_CAVEAT_NO_BOOT_LEVEL, "no_boot_level",
	 "1 boot per config: boot-to-boot (KASLR/layout) variation is not covered by this interval"},
	{ST_CAVEAT_NO_RUN_LEVEL, "no_run_level",
	 "1 run per boot: run-to-run variation is not covered by this interval"},
	{ST_CAVEAT_BORROWED_BOOT, "borrowed_boot",
	 "boot-to-boot variance borrowed from the other group(s) for a group with one boot: this assumes its "
	 "boots vary as much as theirs (not so for a KASLR kernel against a fixed one)"},
	{ST_CAVEAT_BORROWED_RUN, "borrowed_run",
	 "run-to-run variance borrowed from the other group(s) for a group with one run per boot"},
	{ST_CAVEAT_AUTOCORR, "autocorrelated",
	 "samples stay autocorrelated after batching: the within-run part of the interval may be too narrow"},
	{ST_CAVEAT_SINGLE_OBS, "single_observation", "one observation per group: no interval and no verdict"},
	{ST_CAVEAT_NO_VARIANCE, "no_variance", "too little data to estimate any variance: no interval"},
	{ST_CAVEAT_NO_BOOT_REPL, "no_boot_replication",
	 "inconclusive: no boot replication; give every configuration at least 2 boots, or say --unit run "
	 "to compare settings within one boot"},
	{ST_CAVEAT_NO_RUN_REPL, "no_run_replication",
	 "inconclusive: no run replication; give every configuration at least 2 runs"},
	{ST_CAVEAT_RUN_UNIT, "unit_run",
	 "--unit run: runs are the replication unit; boot-to-boot variation is not covered, so the verdict "
	 "holds for this boot, not for the configuration"},
	{ST_CAVEAT_LOW_DF, "low_df",
	 "no verdict: the interval has fewer than 1 degree of freedom; add boots to every group"},
	{ST_CAVEAT_QUANTISED, "quantised",
	 "values repeat at the precision they were given in: each carries at least the rounding variance "
	 "step^2/12 (docs/METHOD.md)"},
	{ST_CAVEAT_BORROW_REFUSED, "borrow_refused",
	 "a one-boot group cannot borrow boot-to-boot variance: the other groups estimate it with under 1 "
	 "degree of freedom"},
	{ST_CAVEAT_SEQUENTIAL, "sequential",
	 "a look of a group-sequential design: verdicts use this look's level (Lan-DeMets spending), and so do "
	 "intervals, but where the design ends"},
	{ST_CAVEAT_BORROW_NONPOS, "borrow_nonpositive",
	 "a one-boot group cannot borrow boot-to-boot variance: the other groups' estimate of it is 0 or "
	 "below (their boot means vary less than their runs explain), so there is none to lend"},
	{ST_CAVEAT_BOOTS_LEFT_OUT, "boots_left_out",
	 "some boots lack a within-boot level this effect needs: they are left out of it"},
	{ST_CAVEAT_PAIRED, "paired",
	 "paired inside each boot (every boot ran both sides): the boot's own variation cancels, and the boots "
	 "are the replicates"},
	{ST_CAVEAT_DUET_PAIRED, "duet_paired",
	 "paired by duet block: A and B were booted at once on disjoint host CPUs (campaign new --duet), and each "
	 "block's difference of the two guests' means is one replicate; the host's drift, common to both, cancels, "
	 "and the CPU sets swapped every block cancel in the mean over an even number of blocks (their spread "
	 "widens the interval). It assumes the two guests do not slow each other unequally"},
	{ST_CAVEAT_ONE_BOOT_PAIRED, "one_boot_paired",
	 "one boot in a configuration: a within-boot effect takes boots as its replicates, so it has no interval "
	 "and no verdict; give every configuration at least 2 boots, or say --unit run to take the runs of this "
	 "boot as the replicates"},
	{ST_CAVEAT_HOST_ADJUSTED, "host_adjusted",
	 "adjusted for host speed (--adjust host): each run's mean moved by beta x its host.ref deviation, "
	 "beta per row from the runs' own variation; this assumes the change does not change host.ref "
	 "(a register-only user-space loop) itself"},
	{ST_CAVEAT_HOST_REF_DIFFERS, "host_ref_differs",
	 "no verdict: --adjust host, yet host.ref differs between the groups (p < 0.2): the change may move "
	 "the reference itself, and the adjustment would carry that into the row; compare without --adjust"},
	{ST_CAVEAT_PAIRED_ROUNDS, "paired_rounds",
	 "paired by round: A and B are arms of paired runs (sysab run --arm), switched round by round inside "
	 "one run, so what the host does over minutes moves both alike; each row is the mean of B - A per round "
	 "(the index: over its members), its interval from batch means of consecutive rounds"},
	{ST_CAVEAT_PAIRED_ONE_RUN, "paired_one_run",
	 "one paired run: its rounds cancel the host's phases but not what differs between the two arms' runs "
	 "(where each arm's workers and memory landed), so there is no verdict; make 2 or more paired runs "
	 "(for this boot), or paired runs on 2 or more boots"},
	{ST_CAVEAT_STAGEWISE, "stagewise",
	 "the sequential design ends at this look: the interval is the stage-wise one, which accounts for the "
	 "looks before it (the verdict used this look's level; the looks before showed repeated intervals)"},
};

const char *report_caveat_text(unsigned bit)
{
	for (size_t i = 0; i < sizeof caveat_table / sizeof caveat_table[0]; i++)
		if (caveat_table[i].bit == bit)
			return caveat_table[i].text;
	return NULL;
}

const char *report_caveat_name(unsigned bit)
{
	for (size_t i = 0; i < sizeof caveat_table / sizeof caveat_table[0]; i++)
		if (caveat_table[i].bit == bit)
			return caveat_table[i].name;
	return NULL;
}

const char *report_need_text(enum st_need n)
{
	switch (n) {
	case ST_NEED_SAMPLES: return "at least 4 samples per run, or a second run";
	case ST_NEED_RUNS: return "at least 2 runs on a boot";
	case ST_NEED_BOOTS: return "at least 2 boots per configuration";
	case ST_NEED_NOTHING: break;
	}
	return "nothing more";
}

const char *report_need_name(enum st_need n)
{
	switch (n) {
	case ST_NEED_SAMPLES: return "samples";
	case ST_NEED_RUNS: return "runs";
	case ST_NEED_BOOTS: return "boots";
	case ST_NEED_NOTHING: break;
	}
	return "nothing";
}

static void sig3(char *buf, size_t size, double v)
{
	if (v >= 100)
		snprintf(buf, size, "%.0f", v);
	else if (v >= 10)
		snprintf(buf, size, "%.1f", v);
	else
		snprintf(buf, size, "%.2f", v);
}

/* Units that are already rates or scores: shown without "/s". */
bool report_rate_unit(const char *u)
{
	static const char *const r[] = {"index", "score", "MWIPS", "lps", "KBps", "ops/s", "KiB/s", "MB/s"};
	for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
		if (!strcmp(u, r[i]))
			return true;
	return false;
}

void report_table_unit(char *buf, size_t size, const char *unit, int latency)
{
	if (latency)
		snprintf(buf, size, "time/op");
	else if (report_rate_unit(unit))
		snprintf(buf, size, "%s", unit);
	else
		snprintf(buf, size, "%s/s", unit);
}

/* A value for a table cell: "98.1ns" for latency rows, "4.06M" for throughput. */
void report_cell_value(char *buf, size_t size, double ops, int latency, bool plain_si)
{
	char num[24];
	if (!(ops > 0) || !isfinite(ops)) {
		snprintf(buf, size, "-");
		return;
	}
	if (latency) {
		double t = 1e9 / ops;
		const char *u = "ns";
		if (t >= 1e9) {
			t /= 1e9;
			u = "s";
		} else if (t >= 1e6) {
			t /= 1e6;
			u = "ms";
		} else if (t >= 1e3) {
			t /= 1e3;
			u = "us";
		}
		sig3(num, sizeof num, t);
		snprintf(buf, size, "%s%s", num, u);
		return;
	}
	static const char *const si[] = {"", "k", "M", "G", "T"};
	int k = 0;
	if (ops < 1e5 && !plain_si) {
		snprintf(buf, size, ops >= 1000 ? "%.0f" : "%.1f", ops);
		return;
	}
	while (ops >= 1000 && k < 4) {
		ops /= 1000;
		k++;
	}
	sig3(num, sizeof num, ops);
	snprintf(buf, size, "%s%s", num, si[k]);
}

void report_pct(char *buf, size_t size, double p)
{
	if (!isfinite(p))
		snprintf(buf, size, "?");
	else if (fabs(p) < 10)
		snprintf(buf, size, "%+.1f%%", p);
	else
		snprintf(buf, size, "%+.0f%%", p);
}

void report_change_legend(struct sb *b, const char *what, unsigned kinds)
{
	if (kinds == AN_CHG_TIME)
		sb_addf(b, "change: %s in time per op (+ = slower)", what);
	else if (kinds & AN_CHG_TIME)
		sb_addf(b, "change: %s as shown (time/op rows: + = slower; others: + = faster)", what);
	else
		sb_addf(b, "change: %s in throughput (+ = faster)", what);
}

void report_interval_cell(char *buf, size_t size, double hw)
{
	if (!isfinite(hw) || hw < 0) {
		snprintf(buf, size, "-");
		return;
	}
	if (hw < 0.1) {
		snprintf(buf, size, "±%.1f%%", hw * 100);
		return;
	}
	double lo = 100 * (1 - 1 / (1 + hw)), hi = 100 * hw;
	char l[8], h[8];
	snprintf(l, sizeof l, "%.*f", lo < 10 ? 1 : 0, lo);
	if (hi >= 99.5)
		snprintf(h, sizeof h, ">99");
	else
		snprintf(h, sizeof h, "%.*f", hi < 10 ? 1 : 0, hi);
	snprintf(buf, size, "-%s/+%s%%", l, h);
}

void report_adjust_text(struct sb *t, const struct st_adjust *x)
{
	if (x->status == ST_ADJ_NO_REF)
		sb_add(t, "not adjusted for host speed: some runs have no host.ref samples (run without --no-host-ref)");
	else if (x->status == ST_ADJ_FEW)
		sb_addf(t, "not adjusted for host speed: too few runs or boots to estimate its slope (%d df needed)",
			ST_ADJ_MIN_DF);
	else if (x->status == ST_ADJ_APPLIED || x->status == ST_ADJ_REF_DIFFERS)
		sb_addf(t, "adjusted for host speed: beta %.2f ± %.2f (%.0f df, from %s; r² %.0f%%); host.ref itself "
			   "%+.1f%% (p %.2g)",
			x->beta, x->se_beta, x->df_beta,
			x->level == ST_ADJ_WITHIN_BOOTS ? "runs within boots" : "boots within groups", 100 * x->r2,
			x->ref_pct, x->ref_p);
}

/* The one table of warning kinds: each as words around its count and worst value ("<count>
 * run<s> <what> <value><unit><tail>"), and as the short phrase the compact compare table names
 * it by (kind; NULL for CV, whose phrase carries its limit). */
static const struct {
	const char *name; /* the JSON key */
	const char *noun, *what, *unit, *tail;
	int digits;
	const char *kind;
} warn_words[] = {
	[ST_WARN_DRIFT] = {"drift", "run", "drift (up to ", "%", " over a run)", 1, "drift"},
	[ST_WARN_WARMUP] = {"warmup", "run", "with slower first samples (up to ", "%", ")", 1, "slow first samples"},
	[ST_WARN_OUTLIER] = {"outlier", "outlier sample", "(up to ", "%", " from the median; kept)", 1, "outliers"},
	[ST_WARN_CV] = {"cv", "run", NULL /* "with a CV above <the limit> (up to " */, "%", ")", 1,
			NULL /* "a CV above <the limit>" */},
	[ST_WARN_BIMODAL] = {"bimodal", "run", "look bimodal (coefficient up to ", "", ")", 3, "bimodal"},
	[ST_WARN_AUTOCORR] = {"autocorr", "run", "with autocorrelated batch means (r1 up to ", "", ")", 2,
			      "autocorrelated batch means"},
};

const char *report_warn_name(int kind)
{
	return warn_words[kind].name;
}

const char *report_warn_kind(int kind)
{
	return warn_words[kind].kind;
}

void report_diag_lines(struct strv *out, const char *group, const struct an_diag *d)
{
	for (int k = 0; k <= ST_WARN_AUTOCORR; k++) {
		if (!d->count[k])
			continue;
		double v = d->worst[k];
		if (k != ST_WARN_BIMODAL && k != ST_WARN_AUTOCORR)
			v *= 100;
		struct sb t = {0}, what = {0};
		sb_addf(&t, "%s: %zu ", group, d->count[k]);
		if (k == ST_WARN_CV) /* the limit it was held to, not a number written here */
			sb_addf(&what, "with a CV above %.0f%% (up to ", 100 * d->limit[k]);
		else
			sb_add(&what, warn_words[k].what);
		sb_addf(&t, "%s%s %s%.*f%s%s", warn_words[k].noun, d->count[k] == 1 ? "" : "s", sb_str(&what),
			warn_words[k].digits, fabs(v), warn_words[k].unit, warn_words[k].tail);
		sb_free(&what);
		strv_add(out, sb_str(&t));
		sb_free(&t);
	}
}

void report_settle_text(struct sb *t, size_t more, enum st_verdict as, bool in_plan, bool paired_runs)
{
	/* A plan sizes the new comparison itself: it does not send the reader to `sysab plan`. */
	const char *sized = in_plan ? "this plan sizes it" : "`sysab plan` sizes it";
	/* paired runs of one boot add paired runs (run --arm --until decided), never boots */
	const char *unit = paired_runs ? "paired run" : "boot", *per = paired_runs ? " (same rounds)" : " per group (same runs and samples)";
	if (more == ST_MORE_UNPLANNED && paired_runs)
		sb_addf(t, "inconclusive in a fixed design: adding paired runs and comparing again would inflate false "
			   "calls; grow a new design of paired runs with `sysab run --arm ... --until decided` "
			   "(docs/METHOD.md, \"Paired runs that grow\")");
	else if (more == ST_MORE_UNPLANNED)
		sb_addf(t, "inconclusive in a fixed design: adding boots and comparing again would inflate false "
			   "calls; plan repeated looks ahead with --max-boots N --look K (docs/METHOD.md), or start a "
			   "new comparison (%s)", sized);
	else if (more == ST_MORE_NONE)
		sb_addf(t, "inconclusive at the planned maximum of %ss: the final look is done; start a new "
			   "comparison (%s)", unit, sized);
	else if (more > 0 && as == ST_INCONCLUSIVE)
		sb_addf(t, "inconclusive: under the sequential design, the next look comes after %zu more %s%s%s; "
			   "at the current estimate it would not settle it yet",
			more, unit, more == 1 ? "" : "s", per);
	else if (more > 0)
		sb_addf(t, "inconclusive: under the sequential design, the next look comes after %zu more %s%s%s, "
			   "and should settle it as %s if the current estimate holds",
			more, unit, more == 1 ? "" : "s", per, report_verdict_name(as));
}

bool report_row_paired_runs(const struct an_row *r)
{
	return r->by_round && (r->c.caveats & ST_CAVEAT_RUN_UNIT);
}

void report_verdict_word(char *buf, size_t size, const struct st_comparison *c)
{
	if (c->verdict == ST_NO_DATA)
		snprintf(buf, size, (c->caveats & ST_CAVEAT_LOW_DF) ? "no verdict" : "no data");
	else if (c->verdict == ST_WITHHELD)
		snprintf(buf, size, "withheld");
	else
		snprintf(buf, size, "%s%s", report_verdict_name(c->verdict), c->negligible ? " (negligible)" : "");
}

const char *report_counter_verdict_name(const struct st_comparison *c)
{
	switch (c->verdict) {
	case ST_FASTER: return "more";
	case ST_SLOWER: return "fewer";
	case ST_EQUIVALENT: return "equivalent"; /* not given: counter rows have no margin */
	case ST_INCONCLUSIVE: return "inconclusive";
	case ST_WITHHELD: return "withheld"; /* a later look (an_repeat): never a failed self-check */
	case ST_NO_DATA: break;
	}
	return (c->caveats & ST_CAVEAT_LOW_DF) ? "no verdict" : "no data";
}

void report_q(char *buf, size_t size, double q)
{
	if (!isfinite(q))
		snprintf(buf, size, "%s", "");
	else
		snprintf(buf, size, q < 0.001 ? "<.001" : "%.3f", q);
}

void report_no_verdict_cells(char *ci, size_t ci_size, char *q, size_t q_size)
{
	snprintf(ci, ci_size, "%s", "\xe2\x80\x93"); /* an en dash */
	snprintf(q, q_size, "%s", "\xe2\x80\x93");
}

void report_count_cell(char *buf, size_t size, double v, bool sign)
{
	if (!isfinite(v)) {
		snprintf(buf, size, "-");
		return;
	}
	const char *si = "";
	double a = fabs(v);
	if (a >= 1e5) {
		static const char *const p[] = {"k", "M", "G", "T"};
		int k = -1;
		while (a >= 1e3 && k < 3) {
			a /= 1e3;
			v /= 1e3;
			k++;
		}
		si = p[k];
	}
	int dec = a > 0 ? 3 - (int)floor(log10(a)) : 0;
	dec = dec < 0 ? 0 : dec > 4 ? 4 : dec;
	snprintf(buf, size, sign ? "%+.*f%s" : "%.*f%s", dec, v, si);
}

double report_counter_scale(const char *event, double big, char *unit, size_t size)
{
	if (!strcmp(event, "task-clock")) { /* perf counts it in nanoseconds */
		snprintf(unit, size, " ns/op");
		return 1;
	}
	if (!(big < 1) || big == 0 || !isfinite(big)) {
		snprintf(unit, size, "/op");
		return 1;
	}
	static const char *const scale[] = {"/1k ops", "/1M ops", "/1G ops"};
	int k = 0;
	double mul = 1e3;
	while (big * mul < 1 && k < 2) {
		mul *= 1e3;
		k++;
	}
	snprintf(unit, size, "%s", scale[k]);
	return mul;
}

void report_counter_cells(struct report_counter_cells *out, const struct an_row *r, const char *sep)
{
	memset(out, 0, sizeof *out);
	const char *ev = r->event ? r->event : "?";
	double mul = report_counter_scale(ev, fmax(fabs(r->va.ops), fabs(r->vb.ops)), out->unit, sizeof out->unit);
	if (r->copies > 1)
		snprintf(out->name, sizeof out->name, "%s/%d · %s%s", r->workload, r->copies, ev, out->unit);
	else
		snprintf(out->name, sizeof out->name, "%s · %s%s", r->workload, ev, out->unit);
	char v[24], h[24];
	for (int k = 0; k < 2; k++) {
		const struct an_value *x = k ? &r->vb : &r->va;
		char *dst = k ? out->b : out->a;
		report_count_cell(v, sizeof v, isfinite(r->constant) ? r->constant * mul : x->ops * mul, false);
		report_count_cell(h, sizeof h, x->hw * mul, false);
		snprintf(dst, sizeof out->a, isfinite(x->hw) && !isfinite(r->constant) ? "%s ±%s" : "%s", v, h);
	}
	if (isfinite(r->constant)) {
		out->verdict = "constant";
		return;
	}
	report_count_cell(out->ch, sizeof out->ch, r->chg.pct * mul, true);
	if (isfinite(r->chg.lo) && isfinite(r->chg.hi)) {
		report_count_cell(v, sizeof v, r->chg.lo * mul, true);
		report_count_cell(h, sizeof h, r->chg.hi * mul, true);
		snprintf(out->ci, sizeof out->ci, "[%s%s%s]", v, sep, h);
	}
	report_q(out->q, sizeof out->q, r->c.q);
	if (r->chg.within) {
		report_no_verdict_cells(out->ci, sizeof out->ci, out->q, sizeof out->q);
	}
	out->verdict = report_counter_verdict_name(&r->c);
}

void report_counter_tally(char *buf, size_t size, const struct an_compare *c)
{
	static const enum st_verdict order[] = {ST_FASTER, ST_SLOWER, ST_INCONCLUSIVE, ST_NO_DATA};
	static const char *const word[] = {"more", "fewer", "inconclusive", "without a verdict", "constant"};
	size_t cnt[5] = {0};
	for (size_t i = 0; i < c->ncrows; i++) {
		if (isfinite(c->crows[i].constant)) {
			cnt[4]++;
			continue;
		}
		for (size_t k = 0; k < 4; k++)
			cnt[k] += c->crows[i].c.verdict == order[k];
	}
	struct sb t = {0};
	for (size_t k = 0; k < 5; k++)
		if (cnt[k])
			sb_addf(&t, "%s%zu %s", t.len ? ", " : "", cnt[k], word[k]);
	if (c->ncrows)
		sb_addf(&t, " of %zu row%s per op", c->ncrows, c->ncrows == 1 ? "" : "s");
	snprintf(buf, size, "%s", t.len ? sb_str(&t) : "");
	sb_free(&t);
}

const char *report_verdict_color(enum st_verdict v, bool color)
{
	if (!color)
		return "";
	switch (v) {
	case ST_FASTER: return "\033[32m";
	case ST_SLOWER: return "\033[31m";
	case ST_EQUIVALENT: return "\033[34m";
	case ST_INCONCLUSIVE: return "\033[33m";
	case ST_WITHHELD: return "\033[35m";
	case ST_NO_DATA: break;
	}
	return "\033[2m";
}

const char *report_color_reset(bool color)
{
	return color ? "\033[0m" : "";
}

const char report_counter_rows_text[] =
	"counter rows (workload · event/op): the mean count per op with the half-width of its interval, and "
	"the change as B - A in counts per op with its interval. They are estimated like the time rows "
	"(boots, runs and batches of samples, the same df and --unit rules) but on the linear scale, from the "
	"samples that have counts; their q is Benjamini-Hochberg among the counter rows alone, so they never "
	"change a time row's verdict. more/fewer say which side counts more per op; they have no equivalence "
	"margin and never trigger --fail-on.";
