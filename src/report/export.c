/* export.c - every sample as CSV (RFC 4180), one row per sample with its run's labels and environment. */
#include "report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void report_csv_cell(struct sb *b, const char *s, bool raw)
{
	/* a spreadsheet would run a cell starting with = + - @ TAB or CR as a formula (OWASP) */
	bool neutral = !raw && *s && strchr("=+-@\t\r", *s);
	if (!neutral && !strpbrk(s, ",\"\r\n")) {
		sb_add(b, s);
		return;
	}
	sb_add(b, neutral ? "\"'" : "\"");
	for (; *s; s++)
		sb_add(b, *s == '"' ? "\"\"" : (char[]){*s, 0});
	sb_add(b, "\"");
}

/* One text field after the first: see report_csv_cell. */
static void csv_field(struct sb *b, const char *s, bool raw)
{
	sb_add(b, ",");
	report_csv_cell(b, s, raw);
}

/* A number or a fixed name: never neutralised. */
static void csv_fieldf(struct sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void csv_fieldf(struct sb *b, const char *fmt, ...)
{
	struct sb t = {0};
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&t, fmt, ap);
	va_end(ap);
	csv_field(b, sb_str(&t), true);
	sb_free(&t);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted union of the keys of one kvlist per run. */
static void keys_of(const struct store_run_info *runs, size_t n, bool env, struct strv *out)
{
	for (size_t i = 0; i < n; i++) {
		const struct kvlist *l = env ? &runs[i].env : &runs[i].labels;
		for (size_t j = 0; j < l->n; j++)
			if (!strv_has(out, l->v[j].key))
				strv_add(out, l->v[j].key);
	}
	if (out->n)
		qsort(out->v, out->n, sizeof *out->v, str_cmp);
}

static const char *const fixed[] = {
	"run", "status", "source", "started_ns", "boot_id", "hostname", "cpu_model", "kernel", "workload", "copies",
	"unit", "latency", "seq", "round", "warmup", "ops", "elapsed_ns", "ops_per_s", "dropped",
};

int report_export_csv(FILE *f, const struct store_run_info *runs, size_t n, const struct store_export *x, bool raw)
{
	struct strv lk = {0}, ek = {0};
	keys_of(runs, n, false, &lk);
	keys_of(runs, n, true, &ek);
	struct sb b = {0};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		if (i)
			sb_add(&b, ",");
		report_csv_cell(&b, fixed[i], true);
	}
	for (size_t i = 0; i < lk.n; i++)
		csv_fieldf(&b, "label.%s", lk.v[i]);
	for (size_t i = 0; i < ek.n; i++)
		csv_fieldf(&b, "env.%s", ek.v[i]);
	sb_add(&b, "\r\n");
	int rc = 0;
	size_t k = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		const struct store_run_info *r = &runs[i];
		while (k < x->n && x->v[k].run < r->id)
			k++;
		for (; k < x->n && x->v[k].run == r->id; k++) {
			const struct store_export_sample *v = &x->v[k];
			sb_addf(&b, "%lld", (long long)r->id);
			csv_field(&b, r->status, raw);
			csv_field(&b, r->source, raw);
			csv_fieldf(&b, "%llu", (unsigned long long)r->started_ns);
			csv_field(&b, r->boot_id, raw);
			csv_field(&b, r->hostname, raw);
			csv_field(&b, r->cpu_model, raw);
			csv_field(&b, r->kernel_release, raw);
			csv_field(&b, v->workload, raw);
			csv_fieldf(&b, "%d", v->copies);
			csv_field(&b, v->unit, raw);
			csv_fieldf(&b, "%d", v->latency);
			csv_fieldf(&b, "%d", v->seq);
			csv_fieldf(&b, "%d", v->round);
			csv_fieldf(&b, "%d", v->warmup);
			csv_fieldf(&b, "%llu", (unsigned long long)v->ops);
			csv_fieldf(&b, "%llu", (unsigned long long)v->elapsed_ns);
			csv_fieldf(&b, "%.17g", v->value);
			csv_fieldf(&b, "%d", v->dropped);
			for (size_t j = 0; j < lk.n; j++) {
				const char *val = kv_get(&r->labels, lk.v[j]);
				csv_field(&b, val ? val : "", raw);
			}
			for (size_t j = 0; j < ek.n; j++) {
				const char *val = kv_get(&r->env, ek.v[j]);
				csv_field(&b, val ? val : "", raw);
			}
			sb_add(&b, "\r\n");
			if (b.len > 1 << 16) {
				rc = fwrite(sb_str(&b), 1, b.len, f) == b.len ? 0 : -1;
				sb_free(&b);
			}
		}
	}
	if (!rc && b.len)
		rc = fwrite(sb_str(&b), 1, b.len, f) == b.len ? 0 : -1;
	sb_free(&b);
	strv_free(&lk);
	strv_free(&ek);
	return rc;
}
