/* fmt_kcidb.c - the kcidb format: a KCIDB v4 document, one test per (workload, copies) of each run (docs/FLEET.md). */
#include "report.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The KCIDB I/O schema version written (kcidb-io v04_05: tests with number and environment). */
#define KCIDB_MAJOR 4
#define KCIDB_MINOR 5
/* The label a lab sets to link the tests to its KCIDB build, e.g. -l kcidb.build_id=maestro:1234. */
#define KCIDB_BUILD_LABEL "kcidb.build_id"

/* KCIDB's status word for one slot: PASS when it ran and its self-checks passed, FAIL when a
 * self-check failed, ERROR when the workload failed, SKIP when it could not run here, MISS
 * when it was stopped before it finished. */
static const char *kcidb_status(const struct summary_row *r)
{
	switch (r->slot->state) {
	case STORE_SLOT_OK: return report_checks_ok(r) ? "PASS" : "FAIL";
	case STORE_SLOT_UNSUPPORTED:
	case STORE_SLOT_NO_RESOURCE: return "SKIP";
	case STORE_SLOT_ERROR: return "ERROR";
	case STORE_SLOT_STOPPED:
	case STORE_SLOT_UNKNOWN: break;
	}
	return "MISS";
}

/* True when s is a KCIDB object id: an origin ([a-z0-9_]+), a colon, then anything. */
static bool kcidb_id_ok(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");
	return n > 0 && s[n] == ':';
}

static void set_real(json_t *o, const char *key, double v)
{
	if (isfinite(v))
		json_object_set_new(o, key, json_real(v));
}

static json_t *kv_object(const struct kvlist *l)
{
	json_t *o = json_object();
	for (size_t i = 0; i < l->n; i++)
		json_object_set_new(o, l->v[i].key, json_string(l->v[i].value));
	return o;
}

/* The machine the run measured: a one-line comment and every environment key in misc. */
static json_t *kcidb_environment(const struct store_run_info *r)
{
	char comment[512];
	snprintf(comment, sizeof comment, "%s: %s, %d CPUs, %.1f GiB, Linux %s", r->hostname, r->cpu_model, r->ncpus,
		 (double)r->mem_bytes / (1024.0 * 1024 * 1024), r->kernel_release);
	json_t *misc = json_pack("{s:s, s:s, s:i, s:I, s:s, s:s, s:s}", "hostname", r->hostname, "cpu_model",
				 r->cpu_model, "ncpus", r->ncpus, "mem_bytes", (json_int_t)r->mem_bytes, "kernel_release",
				 r->kernel_release, "kernel_version", r->kernel_version, "boot_id", r->boot_id);
	json_object_set_new(misc, "env", kv_object(&r->env));
	return json_pack("{s:s, s:o}", "comment", comment, "misc", misc);
}

/* RFC 3339 UTC time of a run's start with microseconds. */
static void kcidb_time(uint64_t ns, char *buf, size_t size)
{
	time_t t = (time_t)(ns / 1000000000u);
	struct tm tm;
	gmtime_r(&t, &tm);
	char day[32];
	strftime(day, sizeof day, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, size, "%s.%06u+00:00", day, (unsigned)(ns % 1000000000u / 1000u));
}

/* What sysab knows about the slot that KCIDB has no field for. */
static json_t *kcidb_misc(const struct summary *s, const struct summary_row *row)
{
	const struct store_run_info *r = &s->run;
	const struct store_slot_info *sl = row->slot;
	json_t *m = json_pack("{s:I, s:s, s:s, s:s, s:s, s:s, s:o}", "run_id", (json_int_t)r->id, "run_uuid",
			      r->uuid ? r->uuid : "", "run_status", r->status, "source", r->source, "boot_id", r->boot_id,
			      "slot_status", sl->status, "labels", kv_object(&r->labels));
	if (sl->reason && *sl->reason)
		json_object_set_new(m, "reason", json_string(sl->reason));
	json_object_set_new(m, "unit_of_op", json_string(sl->unit));
	json_object_set_new(m, "latency", json_boolean(sl->latency));
	json_object_set_new(m, "samples", json_integer((json_int_t)row->n));
	json_object_set_new(m, "warmup_samples", json_integer((json_int_t)row->warmup));
	if (row->n) {
		set_real(m, "median", row->median);
		set_real(m, "mean", row->mean);
		set_real(m, "min", row->min);
		set_real(m, "max", row->max);
		set_real(m, "cv", row->cv);
		set_real(m, "ci95_halfwidth", row->halfwidth);
	}
	json_t *ck = json_array();
	for (size_t i = 0; i < row->nchecks; i++) {
		const struct summary_check *c = &row->checks[i];
		json_t *o = json_pack("{s:s, s:b}", "name", c->name, "ok", c->ok);
		if (c->why) /* a counter check that could not be made */
			json_object_set_new(o, "why", json_string(c->why));
		set_real(o, "value", c->value);
		set_real(o, "lo", c->lo);
		set_real(o, "hi", c->hi);
		json_array_append_new(ck, o);
	}
	json_object_set_new(m, "checks", ck);
	return m;
}

static json_t *kcidb_test(const struct summary *s, const struct summary_row *row)
{
	const struct store_run_info *r = &s->run;
	const struct store_slot_info *sl = row->slot;
	char id[512], path[300], build[300], when[64], comment[400], unit[64];
	snprintf(id, sizeof id, "sysab:%s:%s:%d", r->uuid && *r->uuid ? r->uuid : "", sl->workload, sl->copies);
	if (!r->uuid || !*r->uuid)
		snprintf(id, sizeof id, "sysab:run%lld:%s:%d", (long long)r->id, sl->workload, sl->copies);
	snprintf(path, sizeof path, "sysab.%s.c%d", sl->workload, sl->copies);
	report_name_chars(path);
	const char *b = kv_get(&r->labels, KCIDB_BUILD_LABEL);
	if (b && kcidb_id_ok(b))
		snprintf(build, sizeof build, "%s", b);
	else
		snprintf(build, sizeof build, "sysab:kernel:%s", r->kernel_release);
	kcidb_time(r->started_ns, when, sizeof when);
	const char *status = kcidb_status(row);
	if (row->n)
		snprintf(comment, sizeof comment, "sysab %s x%d: median of %zu samples", sl->workload, sl->copies,
			 row->n);
	else
		snprintf(comment, sizeof comment, "sysab %s x%d: %s%s%s", sl->workload, sl->copies, sl->status,
			 sl->reason && *sl->reason ? ": " : "", sl->reason ? sl->reason : "");
	json_t *t = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "build_id", build, "id", id, "origin", "sysab", "path",
			      path, "status", status, "start_time", when, "comment", comment);
	/* a value only for a test that ran, as the schema asks (not for SKIP or MISS) */
	if (row->n && isfinite(row->median) && strcmp(status, "SKIP") && strcmp(status, "MISS"))
		json_object_set_new(t, "number",
				    json_pack("{s:f, s:s, s:s}", "value", row->median, "unit",
					      report_json_unit(sl->unit, 0, unit, sizeof unit), "prefix", "metric"));
	json_object_set_new(t, "environment", kcidb_environment(r));
	json_object_set_new(t, "misc", kcidb_misc(s, row));
	return t;
}

static int render(FILE *f, const struct report_doc *d)
{
	if (d->kind != REPORT_SAMPLES)
		return -1;
	json_t *tests = json_array();
	for (size_t i = 0; i < d->nruns; i++)
		for (size_t j = 0; j < d->summaries[i].nslots; j++)
			json_array_append_new(tests, kcidb_test(&d->summaries[i], &d->summaries[i].rows[j]));
	json_t *doc = json_pack("{s:{s:i, s:i}, s:o}", "version", "major", KCIDB_MAJOR, "minor", KCIDB_MINOR, "tests",
				tests);
	char *s = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(doc);
	int rc = s && fputs(s, f) >= 0 && fputc('\n', f) != EOF ? 0 : -1;
	free(s);
	return rc;
}

const struct report_format report_format_kcidb = {"kcidb", 1u << REPORT_SAMPLES, render, true};
