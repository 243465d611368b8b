/* text.c - terminal tables for runs, workloads and the environment. */
#include "report.h"
#include "counters.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void labels_text(struct sb *b, const struct kvlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		sb_addf(b, "%s%s=%s", i ? " " : "", l->v[i].key, l->v[i].value);
}

/* "minor faults per op 1.00; ..." from a row's self-checks; *failed is set when one failed.
 * Unless all, a check that passed is left out (the table marks it). */
static void checks_text(struct sb *b, const struct summary_row *r, bool *failed, bool color, bool all)
{
	for (size_t i = 0; i < r->nchecks; i++) {
		const struct summary_check *c = &r->checks[i];
		if (c->why) { /* a counter check without its counter */
			sb_addf(b, "%s%s: %s", b->len ? "; " : "", c->name, c->why);
			continue;
		}
		if (c->ok && !all)
			continue;
		sb_addf(b, "%s%s %.3g%s%s%s", b->len ? "; " : "", c->name, c->value, c->ok || !color ? "" : "\033[31m",
			c->ok ? "" : " FAILED", c->ok || !color ? "" : "\033[0m");
		if (c->failed_batches) /* some sampled batches measured something else */
			sb_addf(b, " (in %d of %d sampled batches; worst %.3g)", c->failed_batches, c->batches, c->worst);
		if (!c->ok)
			*failed = true;
	}
}

/* Whether a row has self-checks and every one was judged and passed. */
static bool checks_passed(const struct summary_row *r)
{
	for (size_t i = 0; i < r->nchecks; i++)
		if (r->checks[i].why || !r->checks[i].ok)
			return false;
	return r->nchecks > 0;
}

/* Green for a finished run or a slot that went well, red for one that broke, yellow between. */
static const char *run_color(enum store_run_status st, bool color)
{
	if (!color)
		return "";
	return st == STORE_RUN_COMPLETE ? "\033[32m" : st == STORE_RUN_INTERRUPTED ? "\033[31m" : "\033[33m";
}

static const char *slot_color(enum store_slot_status st, bool color)
{
	if (!color)
		return "";
	return st == STORE_SLOT_OK ? "\033[32m" : st == STORE_SLOT_ERROR ? "\033[31m" : "\033[33m";
}

#define RUN_NAME_W 24

/* Print a line without its trailing spaces, and free it. */
static void put_line(FILE *f, struct sb *line)
{
	while (line->len && line->s[line->len - 1] == ' ')
		line->s[--line->len] = 0;
	fprintf(f, "%s\n", line->len ? sb_str(line) : "");
	sb_free(line);
}

/* The part of a boot id worth showing: imported boots all start with "import:". */
static const char *boot_short(const char *boot_id)
{
	return strncmp(boot_id, "import:", 7) == 0 ? boot_id + 7 : boot_id;
}

/* A fraction as a percent cell of at most 6 columns: "0.4%", "12.3%", ">999%", "-". */
static void pct_cell(char *buf, size_t size, double x)
{
	if (!isfinite(x))
		snprintf(buf, size, "-");
	else if (x >= 10)
		snprintf(buf, size, ">999%%");
	else
		snprintf(buf, size, "%.*f%%", x < 1 ? 1 : 0, x * 100);
}

/* The run's --icache-pressure, when it had one: what was swept before each op. */
static void pressure_text(FILE *f, const struct kvlist *env)
{
	const char *spec = kv_get(env, "run.icache_pressure");
	if (!spec)
		return;
	const char *code = kv_get(env, "run.icache_pressure.code_bytes"), *data = kv_get(env, "run.icache_pressure.data_bytes");
	const char *src = kv_get(env, "run.icache_pressure.sizes");
	unsigned long long c = code ? strtoull(code, NULL, 10) : 0, d = data ? strtoull(data, NULL, 10) : 0;
	char line[256];
	if (d)
		snprintf(line, sizeof line, "%s: %llu KiB of code and %llu KiB of data swept before each op, untimed; "
					   "each op timed on its own (cache sizes: %s)", spec, c >> 10, d >> 10, src ? src : "?");
	else
		snprintf(line, sizeof line, "%s: %llu KiB of code swept before each op, untimed; each op timed on its own "
					   "(cache sizes: %s)", spec, c >> 10, src ? src : "?");
	report_wrap(f, "icache pressure: ", "  ", line);
}

/* Long by design: the run's header, results table, index, notes and environment in print order. */
/* The run's header: id, time, boot, kernel, host, labels, status, batch cost, noise. */
static void run_header(FILE *f, const struct store_run_info *r, bool color)
{
	const char *reset = color ? "\033[0m" : "";
	char when[32];
	format_wall(r->started_ns, when, sizeof when);
	struct sb lab = {0};
	labels_text(&lab, &r->labels);
	fprintf(f, "run %lld  %s UTC  boot %.8s  kernel %s\n", (long long)r->id, when, boot_short(r->boot_id),
		r->kernel_release);
	fprintf(f, "host: %s\n", r->hostname);
	report_wrap(f, "labels: ", "        ", lab.len ? sb_str(&lab) : "(none)");
	fprintf(f, "status: %s%s%s%s%s%s\n", run_color(r->state, color), r->status, reset, *r->reason ? " (" : "",
		*r->reason ? r->reason : "", *r->reason ? ")" : "");
	sb_free(&lab);
	if (r->overhead_ns >= 0)
		fprintf(f, "empty batch cost: %.0f ns\n", r->overhead_ns);
	report_alloc_line(f, r);
	pressure_text(f, &r->env);
	report_noise_text(f, &r->env);
}

/* A slot's note (self-checks, status, warm-up) added to notes; its mark ("[k]") into mark.
 * Unless verbose, checks that all passed are the mark "ok" instead of a note. */
static void slot_note(const struct summary_row *row, struct strv *notes, char mark[32], const struct report_style *st)
{
	const struct store_slot_info *sl = row->slot;
	bool color = st->color, ok = !st->verbose && checks_passed(row);
	const char *reset = color ? "\033[0m" : "";
	struct sb chk = {0};
	bool failed = false;
	checks_text(&chk, row, &failed, color, st->verbose);
	if (sl->state != STORE_SLOT_OK)
		sb_addf(&chk, "%s%s%s%s: %s", chk.len ? "; " : "", slot_color(sl->state, color), sl->status, reset,
			sl->reason);
	else if (*sl->reason) /* ok, with a remark: stopped short of the precision target */
		sb_addf(&chk, "%s%s", chk.len ? "; " : "", sl->reason);
	if (row->warmup)
		sb_addf(&chk, "%s%zu warm-up sample%s left out", chk.len ? "; " : "", row->warmup,
			row->warmup == 1 ? "" : "s");
	snprintf(mark, 32, "%s", ok ? "ok" : "");
	if (chk.len) {
		/* verbose: one note per slot, named; compact: the row names it, and slots
		 * with the same note share it */
		struct sb t = {0};
		if (st->verbose) {
			sb_addf(&t, "%s", sl->workload);
			if (sl->copies > 1)
				sb_addf(&t, " (%d copies)", sl->copies);
			sb_add(&t, ": ");
		}
		sb_add(&t, sb_str(&chk));
		size_t k = 0;
		while (!st->verbose && k < notes->n && strcmp(notes->v[k], sb_str(&t)))
			k++;
		if (st->verbose || k == notes->n)
			strv_add(notes, sb_str(&t));
		sb_free(&t);
		snprintf(mark, 32, "%s%s[%zu]%s", ok ? "ok " : "", failed && color ? "\033[31m" : "",
			 st->verbose ? notes->n : k + 1, failed && color ? reset : "");
	}
	sb_free(&chk);
}

/* One slot's line of the run's table; returns whether its interval was left out for low df. */
static bool slot_line(FILE *f, const struct summary_row *row, const char *mark, bool color, int unit_w)
{
	const struct store_slot_info *sl = row->slot;
	char name[64];
	report_short_name(name, sizeof name, sl->workload, 1, RUN_NAME_W);
	if (sl->state != STORE_SLOT_OK && row->n == 0) {
		fprintf(f, "%-*s %6d %8s %-*s %6s %6s %3s  %s%s%s %s\n", RUN_NAME_W, name, sl->copies, "-", unit_w, "-", "-",
			"-", "0", slot_color(sl->state, color), sl->status, color ? "\033[0m" : "", mark);
		return false;
	}
	char v[48], u[64], us[32];
	report_cell_value(v, sizeof v, row->median, sl->latency, !report_rate_unit(sl->unit));
	report_table_unit(u, sizeof u, sl->unit, sl->latency);
	report_short_name(us, sizeof us, u, 1, (size_t)unit_w);
	char hw[16] = "-", cv[16];
	report_interval_cell(hw, sizeof hw, row->halfwidth);
	pct_cell(cv, sizeof cv, row->cv);
	/* pad by columns: "±" is two bytes but one column */
	int pad = 9 + (strstr(hw, "±") ? 1 : 0);
	struct sb line = {0};
	sb_addf(&line, "%-*s %6d %8s %-*s %*s %6s %3zu  %s", RUN_NAME_W, name, sl->copies, v, unit_w, us, pad, hw, cv,
		row->n,
		mark);
	put_line(f, &line);
	return row->n > 1 && !isfinite(row->halfwidth);
}

/* Below the run's table: why some CI95 cells are empty, the notes, the index. */
static void summary_footer(FILE *f, const struct summary *s, bool low_df, bool oks, const struct strv *notes)
{
	if (oks)
		fprintf(f, "\nok: every self-check of the workload held (-v gives their values).\n");
	if (low_df) {
		char why[256];
		snprintf(why, sizeof why, "CI95 '-': the run's batch means give fewer than %d degrees of freedom, too few "
			 "for an interval that means something; CV shows the spread instead (25 samples or more after warm-up give one).",
			 AN_MIN_INTERVAL_DF);
		fprintf(f, "\n");
		report_wrap(f, "", "  ", why);
	}
	if (notes->n)
		fprintf(f, "\nnotes (self-checks, status, warm-up):\n");
	for (size_t i = 0; i < notes->n; i++) {
		char first[32];
		snprintf(first, sizeof first, "[%zu] ", i + 1);
		report_wrap(f, first, i + 1 >= 10 ? "     " : "    ", notes->v[i]);
	}
	for (size_t i = 0; i < s->nindex; i++) {
		const struct summary_index *x = &s->index[i];
		struct sb t = {0};
		sb_addf(&t, "%s (%d cop%s): %.1f (%s)", x->name, x->copies, x->copies == 1 ? "y" : "ies", x->value,
			x->about);
		fprintf(f, "\n");
		report_wrap(f, "", "  ", sb_str(&t));
		sb_free(&t);
	}
	for (size_t i = 0; i < s->nnoindex; i++) {
		const struct summary_noindex *x = &s->noindex[i];
		struct sb t = {0};
		sb_addf(&t, "no %s (%d cop%s): it needs every member, and %s", x->name, x->copies,
			x->copies == 1 ? "y" : "ies", x->why);
		fprintf(f, "\n");
		report_wrap(f, "", "  ", sb_str(&t));
		sb_free(&t);
	}
}

void report_summary_text(FILE *f, const struct summary *s, bool with_env, const struct report_style *st)
{
	const struct store_run_info *r = &s->run;
	bool color = st->color, low_df = false, oks = false;
	run_header(f, r, color);
	/* 24 + 7 + 9 + 15 + 10 + 7 + 4 + 2 + notes: 83 columns with a note mark of up to 5; the
	 * unit column is as wide as the longest unit (at least 14, at most 30), never cut short */
	int unit_w = 14;
	for (size_t i = 0; i < s->nslots; i++) {
		char u[64];
		report_table_unit(u, sizeof u, s->rows[i].slot->unit, s->rows[i].slot->latency);
		int n = (int)report_text_width(u);
		unit_w = n > unit_w ? (n < 30 ? n : 30) : unit_w;
	}
	fprintf(f, "\n%-*s %6s %8s %-*s %9s %6s %3s  %s\n", RUN_NAME_W, "workload", "copies", "median", unit_w, "unit",
		"CI95", "CV", "n", "notes");
	struct strv notes = {0};
	for (size_t i = 0; i < s->nslots; i++) {
		char mark[32];
		slot_note(&s->rows[i], &notes, mark, st);
		oks |= !strncmp(mark, "ok", 2);
		low_df |= slot_line(f, &s->rows[i], mark, color, unit_w);
	}
	summary_footer(f, s, low_df, oks, &notes);
	strv_free(&notes);
	if (with_env) {
		fprintf(f, "\nenvironment:%s\n", r->env.n ? "" : " none recorded (imported run)");
		for (size_t i = 0; i < r->env.n; i++) {
			char first[64];
			snprintf(first, sizeof first, "  %-28s ", r->env.v[i].key);
			report_wrap(f, first, "                               ", r->env.v[i].value);
		}
	}
	report_counters_text(f, s->counters, s->ncounters);
}

void report_runs_text(FILE *f, const struct store_run_info *runs, size_t n, bool color)
{
	if (!n) {
		fprintf(f, "no runs yet; `sysab run --quick` makes one\n");
		return;
	}
	/* the kernel column is as wide as the longest release (up to 48): releases differ at the end */
	int kw = 6;
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(runs[i].kernel_release) > kw)
			kw = (int)strlen(runs[i].kernel_release) > 48 ? 48 : (int)strlen(runs[i].kernel_release);
	fprintf(f, "%4s %-16s %-11s %-8s %-*s %3s  %s\n", "id", "started (UTC)", "status", "boot", kw, "kernel", "wl",
		"labels");
	for (size_t i = 0; i < n; i++) {
		const struct store_run_info *r = &runs[i];
		char when[32], kernel[64];
		format_wall(r->started_ns, when, sizeof when);
		report_short_name(kernel, sizeof kernel, r->kernel_release, 1, (size_t)kw);
		struct sb lab = {0};
		labels_text(&lab, &r->labels);
		struct sb line = {0};
		sb_addf(&line, "%4lld %-16.16s %s%-11s%s %-8.8s %-*s %3zu  ", (long long)r->id, when,
			run_color(r->state, color), r->status, color ? "\033[0m" : "", boot_short(r->boot_id), kw, kernel,
			r->workloads.n);
		/* labels that do not fit go on the next lines, indented */
		if (report_text_width(sb_str(&line)) + lab.len <= REPORT_WIDTH) {
			sb_add(&line, sb_str(&lab));
			put_line(f, &line);
		} else {
			put_line(f, &line);
			report_wrap(f, "     ", "     ", sb_str(&lab));
		}
		sb_free(&line);
		sb_free(&lab);
	}
}

void report_workloads_text(FILE *f)
{
	fprintf(f, "%-28s %s\n", "workload", "unit");
	for (size_t i = 0; i < wl_count(); i++) {
		const struct workload *w = wl_at(i);
		char u[48];
		report_display_unit(w->unit, (w->flags & WL_LATENCY) != 0, u, sizeof u);
		fprintf(f, "%-28s %s\n", w->name, u);
		report_wrap(f, "    ", "    ", w->summary);
		report_wrap(f, "    kernel: ", "            ", w->kernel_path);
	}
}

void report_env_text(FILE *f, const struct kvlist *env)
{
	for (size_t i = 0; i < env->n; i++) {
		char first[64];
		snprintf(first, sizeof first, "%-28s ", env->v[i].key);
		report_wrap(f, first, "                             ", env->v[i].value);
	}
}

/* One line of at most REPORT_WIDTH columns: indent and text, cut with "..." when longer. */
static void brief_line(FILE *f, const char *indent, const char *text)
{
	struct sb l = {0};
	sb_addf(&l, "%s%s", indent, text);
	if (report_text_width(sb_str(&l)) > REPORT_WIDTH) {
		size_t cut = 0, w = 0;
		while (l.s[cut] && w < REPORT_WIDTH - 3) { /* whole UTF-8 characters */
			cut++;
			while (((unsigned char)l.s[cut] & 0xC0) == 0x80)
				cut++;
			w++;
		}
		l.s[cut] = 0;
		l.len = cut;
		sb_add(&l, "...");
	}
	put_line(f, &l);
}

void report_run_brief_text(FILE *f, const struct summary_brief *b, const char *path, const char *prog)
{
	const struct summary *s = b->s;
	const struct summary_tally *t = &b->tally;
	long long id = (long long)s->run.id;
	struct sb l = {0};
	/* 1-2 lines: what ran; 1: where it is */
	sb_addf(&l, "run %lld: %s; %zu ran ok, %zu unsupported, %zu failed a self-check", id, s->run.status, t->ok,
		t->unsupported, t->failed_checks);
	if (t->other)
		sb_addf(&l, ", %zu did not finish", t->other);
	report_wrap(f, "", "  ", sb_str(&l));
	sb_free(&l);
	if (path) { /* the database's path whole, on a line of its own when it does not fit: it is copied */
		sb_addf(&l, "stored as run %lld in %s", id, path);
		if (report_text_width(sb_str(&l)) > REPORT_WIDTH)
			fprintf(f, "stored as run %lld in\n  %s\n", id, path);
		else
			brief_line(f, "", sb_str(&l));
		sb_free(&l);
	}
	/* 1 line: the labels, cut to it */
	labels_text(&l, &s->run.labels);
	if (l.len)
		brief_line(f, "labels: ", sb_str(&l));
	sb_free(&l);
	/* 1-3 lines: the indexes, by name, each copies count */
	for (size_t i = 0; i < s->nindex; i++) {
		const struct summary_index *x = &s->index[i];
		if (!i || strcmp(s->index[i - 1].name, x->name))
			sb_addf(&l, "%s%s ", i ? "; " : "", x->name);
		else
			sb_add(&l, ", ");
		sb_addf(&l, "%.1f (%d cop%s)", x->value, x->copies, x->copies == 1 ? "y" : "ies");
	}
	for (size_t i = 0; i < s->nnoindex; i++) /* the first member without samples says why */
		sb_addf(&l, "%sno %s (%d cop%s): %s", l.len ? "; " : "", s->noindex[i].name, s->noindex[i].copies,
			s->noindex[i].copies == 1 ? "y" : "ies", s->noindex[i].why);
	if (l.len)
		report_wrap(f, "index: ", "  ", sb_str(&l));
	sb_free(&l);
	/* 1-3 lines: may this machine be used for measurement */
	sb_addf(&l, "%s: %s", summary_machine_word(b->machine.verdict), b->machine.why ? b->machine.why : "");
	report_wrap(f, "machine: ", "  ", sb_str(&l));
	sb_free(&l);
	/* at most REPORT_BRIEF_FAILED + 2 lines: the failed self-checks, one line each */
	if (t->failed_checks)
		fprintf(f, "failed self-checks (these rows measured something else; do not use their times):\n");
	for (size_t i = 0; i < t->failed_checks && i < REPORT_BRIEF_FAILED; i++) {
		const struct summary_failed *x = &t->fails[i];
		char name[64];
		report_short_name(name, sizeof name, x->row->slot->workload, x->row->slot->copies, 40);
		sb_addf(&l, "%s: %.3g, not in [%.3g, %.3g]: %s", name, x->check->value, x->check->lo, x->check->hi,
			x->check->name);
		brief_line(f, "  ", sb_str(&l));
		sb_free(&l);
	}
	if (t->failed_checks > REPORT_BRIEF_FAILED)
		fprintf(f, "  and %zu more\n", t->failed_checks - REPORT_BRIEF_FAILED);
	/* 1 line: those that did not finish */
	for (size_t i = 0; i < t->other; i++) {
		char name[64];
		report_short_name(name, sizeof name, t->unfinished[i]->slot->workload, t->unfinished[i]->slot->copies, 40);
		sb_addf(&l, "%s%s (%s)", i ? ", " : "", name, t->unfinished[i]->slot->status);
	}
	if (t->other)
		brief_line(f, "did not finish: ", sb_str(&l));
	sb_free(&l);
	/* 1-2 lines: what next */
	if (b->machine.verdict == SUMMARY_MACHINE_NOISY)
		sb_addf(&l, "quiet the machine (`%s system show` says what to tune) and run again; `%s show %lld` shows "
			    "every workload, the notes and counters",
			prog, prog, id);
	else
		sb_addf(&l, "`%s show %lld` shows every workload, the notes and counters; `%s compare run:%lld run:N` "
			    "judges a later run against this one",
			prog, id, prog, id);
	report_wrap(f, "next: ", "  ", sb_str(&l));
	sb_free(&l);
}
