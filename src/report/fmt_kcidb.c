/* fmt_kcidb.c - the kcidb format: a KCIDB I/O document (v5.3, or v4.5 on request): one test per (workload, copies) of each run, a slower row of a comparison as an issue with its incidents (docs/FLEET.md). */
#include "report.h"
#include "workloads/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The label a lab sets to link the tests to its KCIDB build, e.g. -l kcidb.build_id=maestro:1234. */
#define KCIDB_BUILD_LABEL "kcidb.build_id"

/* How one document is written: the schema version (5.3, or 4.5 with d->kcidb_version "4.5")
 * and the raw samples' file that output_files names. */
struct kx {
	int major, minor;
	const char *samples_url; /* NULL: no output_files */
	const struct report_doc *d;
};

/* KCIDB's status word for one slot. v5.3 (DONE: it ran and measured, with no claim about the
 * code; ERROR when a self-check failed, the value then not to be trusted; ERROR when the
 * workload failed; SKIP when it could not run here; MISS when it was stopped before it
 * finished). v4.5 as sysab always wrote it: PASS, FAIL for a failed self-check, ERROR, SKIP, MISS. */
static const char *kcidb_status(const struct kx *k, const struct summary_row *r)
{
	switch (r->slot->state) {
	case STORE_SLOT_OK:
		if (k->major >= 5)
			return report_checks_ok(r) ? "DONE" : "ERROR";
		return report_checks_ok(r) ? "PASS" : "FAIL";
	case STORE_SLOT_UNSUPPORTED:
	case STORE_SLOT_NO_RESOURCE: return "SKIP";
	case STORE_SLOT_ERROR: return "ERROR";
	case STORE_SLOT_STOPPED:
	case STORE_SLOT_UNKNOWN: break;
	}
	return "MISS";
}

/* The host-speed reference (host.ref) is a covariate of the run, never a test of its own. */
static bool kcidb_is_reference(const char *workload)
{
	const struct workload *w = wl_find(workload);
	return w && (w->flags & WL_REFERENCE);
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

/* The KCIDB id of the test of one slot of run r: sysab:UUID:WORKLOAD:COPIES (run ids for
 * runs without a uuid). */
static void kcidb_test_id(const struct store_run_info *r, const char *workload, int copies, char *buf, size_t size)
{
	if (r->uuid && *r->uuid)
		snprintf(buf, size, "sysab:%s:%s:%d", r->uuid, workload, copies);
	else
		snprintf(buf, size, "sysab:run%lld:%s:%d", (long long)r->id, workload, copies);
}

/* The KCIDB build of run r: its kcidb.build_id label when that is an id, else its kernel. */
static void kcidb_build_id(const struct store_run_info *r, char *buf, size_t size)
{
	const char *b = kv_get(&r->labels, KCIDB_BUILD_LABEL);
	if (b && kcidb_id_ok(b))
		snprintf(buf, size, "%s", b);
	else
		snprintf(buf, size, "sysab:kernel:%s", r->kernel_release);
}

/* The run's host-speed reference, which KCIDB gets as a figure of each test, not as a test. */
static json_t *kcidb_host_ref(const struct summary *s)
{
	for (size_t i = 0; i < s->nslots; i++) {
		const struct summary_row *r = &s->rows[i];
		if (!kcidb_is_reference(r->slot->workload) || !r->n || !isfinite(r->median))
			continue;
		json_t *o = json_pack("{s:s, s:i, s:s}", "workload", r->slot->workload, "copies", r->slot->copies,
				      "unit_of_op", r->slot->unit);
		set_real(o, "median", r->median);
		set_real(o, "ci95_halfwidth", r->halfwidth);
		return o;
	}
	return NULL;
}

/* The comparison's row of (workload, copies) that gives B's tests their verdict, or NULL. */
static const struct an_row *kcidb_row(const struct kx *k, const char *workload, int copies)
{
	const struct an_compare *c = k->d->kind == REPORT_COMPARE ? k->d->compare : NULL;
	for (size_t i = 0; c && i < c->nrows; i++)
		if (!c->rows[i].ncomposite && c->rows[i].copies == copies && !strcmp(c->rows[i].workload, workload))
			return &c->rows[i];
	return NULL;
}

/* The verdict of a comparison's row: B against A, its throughput change with the (1-alpha)
 * interval, q, and each group's runs and boots. */
static json_t *kcidb_verdict(const struct kx *k, const struct an_row *r)
{
	const struct report_doc *d = k->d;
	json_t *o = json_pack("{s:s, s:s, s:s, s:b}", "a", d->groups[0].selector, "b", d->groups[1].selector, "verdict",
			      report_verdict_name(r->c.verdict), "negligible", r->c.negligible);
	set_real(o, "throughput_change_pct", r->c.pct);
	set_real(o, "throughput_change_pct_lo", r->c.pct_lo);
	set_real(o, "throughput_change_pct_hi", r->c.pct_hi);
	set_real(o, "q", r->c.q);
	set_real(o, "alpha", r->c.alpha);
	json_object_set_new(o, "boots_a", json_integer((json_int_t)r->a.nboots));
	json_object_set_new(o, "boots_b", json_integer((json_int_t)r->b.nboots));
	json_object_set_new(o, "runs_a", json_integer((json_int_t)r->a.nruns));
	json_object_set_new(o, "runs_b", json_integer((json_int_t)r->b.nruns));
	if (d->compare->look.on)
		json_object_set_new(o, "look", json_integer(d->compare->look.k));
	return o;
}

/* What sysab knows about the slot that KCIDB has no field for. */
static json_t *kcidb_misc(const struct kx *k, const struct summary *s, const struct summary_row *row)
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
	json_t *ref = kcidb_host_ref(s);
	if (ref)
		json_object_set_new(m, "host_ref", ref);
	const struct an_row *cr = kcidb_row(k, sl->workload, sl->copies);
	if (cr && cr->have_a && cr->have_b)
		json_object_set_new(m, "comparison", kcidb_verdict(k, cr));
	return m;
}

/* The file holding the raw samples (every sample of the exported runs, e.g. `sysab export
 * --format csv`), named by its URL's last part. */
static json_t *kcidb_output_files(const struct kx *k)
{
	const char *slash = strrchr(k->samples_url, '/');
	const char *name = slash && slash[1] ? slash + 1 : "sysab-samples.csv";
	return json_pack("[{s:s, s:s}]", "name", name, "url", k->samples_url);
}

static json_t *kcidb_test(const struct kx *k, const struct summary *s, const struct summary_row *row)
{
	const struct store_run_info *r = &s->run;
	const struct store_slot_info *sl = row->slot;
	char id[512], path[300], build[300], when[64], comment[400], unit[64];
	kcidb_test_id(r, sl->workload, sl->copies, id, sizeof id);
	snprintf(path, sizeof path, "sysab.%s.c%d", sl->workload, sl->copies);
	report_name_chars(path);
	kcidb_build_id(r, build, sizeof build);
	kcidb_time(r->started_ns, when, sizeof when);
	const char *status = kcidb_status(k, row);
	if (row->n)
		snprintf(comment, sizeof comment, "sysab %s x%d: median of %zu samples", sl->workload, sl->copies,
			 row->n);
	else
		snprintf(comment, sizeof comment, "sysab %s x%d: %s%s%s", sl->workload, sl->copies, sl->status,
			 sl->reason && *sl->reason ? ": " : "", sl->reason ? sl->reason : "");
	json_t *t = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "build_id", build, "id", id, "origin", "sysab", "path",
			      path, "status", status, "start_time", when, "comment", comment);
	/* a value only for a test that ran, as the schema asks: v5.3 only for DONE (the value
	 * of a failed self-check is not to be trusted), v4.5 also for FAIL */
	bool valued = k->major >= 5 ? !strcmp(status, "DONE") : strcmp(status, "SKIP") && strcmp(status, "MISS");
	if (row->n && isfinite(row->median) && valued)
		json_object_set_new(t, "number",
				    json_pack("{s:f, s:s, s:s}", "value", row->median, "unit",
					      report_json_unit(sl->unit, 0, unit, sizeof unit), "prefix", "metric"));
	if (k->samples_url && row->n)
		json_object_set_new(t, "output_files", kcidb_output_files(k));
	json_object_set_new(t, "environment", kcidb_environment(r));
	json_object_set_new(t, "misc", kcidb_misc(k, s, row));
	return t;
}

/* The issue of one slower row: B is slower than A at it (the question's id, its look as the
 * version), and one incident per test of B it occurs in (per run of B for a composite row,
 * which has no test: then the run's build). */
static void kcidb_issue(const struct kx *k, const struct an_row *r, json_t *issues, json_t *incidents)
{
	const struct report_doc *d = k->d;
	const char *sa = d->groups[0].selector, *sb = d->groups[1].selector;
	int version = d->compare->look.on && d->compare->look.k > 0 ? d->compare->look.k : 0;
	char id[1024], comment[1024], lo[32], hi[32], pct[32];
	snprintf(id, sizeof id, "sysab:slower:%s:%d:%s:%s", r->workload, r->copies, sa, sb);
	report_pct(pct, sizeof pct, r->c.pct);
	report_pct(lo, sizeof lo, r->c.pct_lo);
	report_pct(hi, sizeof hi, r->c.pct_hi);
	snprintf(comment, sizeof comment, "sysab: %s x%d slower in %s than in %s: throughput %s [%s, %s], q %.3g, %zu vs %zu boots",
		 r->workload, r->copies, sb, sa, pct, lo, hi, r->c.q, r->b.nboots, r->a.nboots);
	json_t *is = json_pack("{s:s, s:i, s:s, s:{s:b, s:b, s:b}, s:s, s:o}", "id", id, "version", version, "origin",
			       "sysab", "culprit", "code", 1, "tool", 0, "harness", 0, "comment", comment, "misc",
			       kcidb_verdict(k, r));
	json_array_append_new(issues, is);
	for (size_t i = 0; i < d->nruns; i++) {
		const struct summary *s = &d->summaries[i];
		char tid[512], iid[1200], build[300];
		bool linked = false, test = false;
		for (size_t j = 0; j < s->nslots && !r->ncomposite; j++) {
			const struct store_slot_info *sl = s->rows[j].slot;
			if (sl->copies != r->copies || strcmp(sl->workload, r->workload))
				continue;
			kcidb_test_id(&s->run, sl->workload, sl->copies, tid, sizeof tid);
			linked = test = true;
		}
		for (size_t j = 0; j < s->nindex && r->ncomposite; j++)
			if (s->index[j].copies == r->copies && !strcmp(s->index[j].name, r->workload))
				linked = true; /* the run has the index, yet no test: its build */
		if (!linked)
			continue;
		snprintf(iid, sizeof iid, "%s@%s", id, s->run.uuid && *s->run.uuid ? s->run.uuid : "");
		json_t *in = json_pack("{s:s, s:s, s:s, s:i, s:b, s:s}", "id", iid, "origin", "sysab", "issue_id", id,
				       "issue_version", version, "present", 1, "comment", comment);
		if (test) {
			json_object_set_new(in, "test_id", json_string(tid));
		} else {
			kcidb_build_id(&s->run, build, sizeof build);
			json_object_set_new(in, "build_id", json_string(build));
		}
		json_array_append_new(incidents, in);
	}
}

static int render(FILE *f, const struct report_doc *d)
{
	if (d->kind != REPORT_SAMPLES && d->kind != REPORT_COMPARE)
		return -1;
	bool v45 = d->kcidb_version && !strcmp(d->kcidb_version, "4.5");
	struct kx k = {v45 ? 4 : 5, v45 ? 5 : 3, d->kcidb_samples_url, d};
	json_t *tests = json_array();
	for (size_t i = 0; i < d->nruns; i++)
		for (size_t j = 0; j < d->summaries[i].nslots; j++) {
			const struct store_slot_info *sl = d->summaries[i].rows[j].slot;
			/* a comparison's tests: B's slots of the rows compared */
			if (kcidb_is_reference(sl->workload) ||
			    (d->kind == REPORT_COMPARE && !kcidb_row(&k, sl->workload, sl->copies)))
				continue;
			json_array_append_new(tests, kcidb_test(&k, &d->summaries[i], &d->summaries[i].rows[j]));
		}
	json_t *doc = json_pack("{s:{s:i, s:i}, s:o}", "version", "major", k.major, "minor", k.minor, "tests", tests);
	if (d->kind == REPORT_COMPARE && d->compare->ngroups == 2) {
		json_t *issues = json_array(), *incidents = json_array();
		for (size_t i = 0; i < d->compare->nrows; i++) {
			const struct an_row *r = &d->compare->rows[i];
			if (r->have_a && r->have_b && r->c.verdict == ST_SLOWER && !kcidb_is_reference(r->workload))
				kcidb_issue(&k, r, issues, incidents);
		}
		json_object_set_new(doc, "issues", issues);
		json_object_set_new(doc, "incidents", incidents);
	}
	char *s = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(doc);
	int rc = s && fputs(s, f) >= 0 && fputc('\n', f) != EOF ? 0 : -1;
	free(s);
	return rc;
}

const struct report_format report_format_kcidb = {"kcidb", 1u << REPORT_SAMPLES | 1u << REPORT_COMPARE, render, true};
