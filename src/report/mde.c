/* mde.c - the MDE lines of campaign new, campaign start, run --arm and plan: text and JSON. */
#include "report.h"
#include "analysis/mde.h"
#include "study/mde.h"

#include <jansson.h>
#include <math.h>

void report_mde_pct(char *buf, size_t n, double x)
{
	if (isnan(x))
		snprintf(buf, n, "none");
	else
		snprintf(buf, n, "%.*f%%", x < 0.1 ? 2 : 1, 100 * x);
}

void report_mde_text(FILE *f, const struct an_mde *m)
{
	const struct an_mde_in *in = &m->in;
	if (in->paired)
		fprintf(f, "MDE of %zu paired runs on this boot (%g%% confidence, %g%% power):\n", in->boots,
			100 * (1 - in->alpha), 100 * in->power);
	else
		fprintf(f, "MDE of %zu boot%s x %zu run%s per configuration (%g%% confidence, %g%% power)%s:\n",
		in->boots, in->boots == 1 ? "" : "s", in->runs, in->runs == 1 ? "" : "s", 100 * (1 - in->alpha),
		100 * in->power, in->emulated ? ",\n  of emulator costs (qemu TCG), not the kernel's" : "");
	bool rough = false;
	for (size_t i = 0; i < m->nrows; i++) {
		const struct an_mde_row *r = &m->rows[i];
		char b[32];
		report_mde_pct(b, sizeof b, r->m.mde);
		const char *src = r->source == AN_MDE_PILOT ? "pilot" : r->source == AN_MDE_HISTORY ? "earlier runs" : "rough";
		fprintf(f, "  %-26s %7s  %zu %s, %s%s%s\n", r->workload, b, r->samples,
			in->paired ? "rounds" : "samples/run", src, r->source == AN_MDE_PILOT && in->from ? " " : "",
			r->source == AN_MDE_PILOT && in->from ? in->from : "");
		rough |= r->source == AN_MDE_ROUGH;
	}
	if (rough && in->probe_cv > ST_MDE_ROUGH_SD_SAMPLE)
		fprintf(f, "  rough: no runs of it here; documented defaults, sample noise %.1f%%\n"
			   "  from this host's noise probe (docs/METHOD.md)\n",
			100 * in->probe_cv);
	else if (rough)
		fprintf(f, "  rough: no runs of it here; documented defaults (docs/METHOD.md)\n");
	if (in->target > 0) {
		char t[32];
		report_mde_pct(t, sizeof t, in->target);
		if (m->reaches)
			fprintf(f, "target %s: reached\n", t);
		else if (m->boots_needed)
			fprintf(f, "target %s: not reached; %zu %s would\n", t, m->boots_needed,
				in->paired ? "paired runs" : "boots per configuration");
		else
			fprintf(f, "target %s: not reached by %d boots; add runs or samples\n", t, AN_MDE_MAX_BOOTS);
	}
}

json_t *report_mde_json(const struct an_mde *m)
{
	const struct an_mde_in *in = &m->in;
	/* paired runs on one boot count paired runs where a design across boots counts boots */
	const char *n_key = in->paired ? "paired_runs" : "boots";
	const char *need_key = in->paired ? "paired_runs_needed" : "boots_needed";
	json_t *o = json_object(), *rows = json_array();
	json_object_set_new(o, "paired", json_boolean(in->paired));
	json_object_set_new(o, n_key, json_integer((json_int_t)in->boots));
	json_object_set_new(o, "runs_per_boot", json_integer((json_int_t)in->runs));
	json_object_set_new(o, "alpha", json_real(in->alpha));
	json_object_set_new(o, "confidence", json_real(1 - in->alpha));
	json_object_set_new(o, "power", json_real(in->power));
	json_object_set_new(o, "emulated", json_boolean(in->emulated));
	if (in->from)
		json_object_set_new(o, "from", json_string(in->from));
	if (in->probe_cv > 0)
		json_object_set_new(o, "probe_cv", json_real(in->probe_cv));
	for (size_t i = 0; i < m->nrows; i++) {
		const struct an_mde_row *r = &m->rows[i];
		json_t *x = json_object();
		json_object_set_new(x, "workload", json_string(r->workload));
		json_object_set_new(x, "copies", json_integer(r->copies));
		json_object_set_new(x, in->paired ? "rounds" : "samples_per_run", json_integer((json_int_t)r->samples));
		json_object_set_new(x, "mde", isnan(r->m.mde) ? json_null() : json_real(r->m.mde));
		json_object_set_new(x, "source", json_string(an_mde_source_word(r->source)));
		if (in->target > 0) {
			json_object_set_new(x, "reaches", json_boolean(r->reaches));
			json_object_set_new(x, need_key, json_integer((json_int_t)r->m.boots_needed));
		}
		json_array_append_new(rows, x);
	}
	json_object_set_new(o, "rows", rows);
	if (in->target > 0) {
		json_object_set_new(o, "target", json_real(in->target));
		json_object_set_new(o, "reaches", json_boolean(m->reaches));
		json_object_set_new(o, need_key, json_integer((json_int_t)m->boots_needed));
	}
	return o;
}

void report_design_mde_text(FILE *f, const struct study_mde *md)
{
	if (md->have)
		report_mde_text(f, &md->m);
	if (md->cannot)
		fputs(md->cannot, f);
}

json_t *report_design_mde_json(const struct study_mde *md)
{
	json_t *o = report_mde_json(&md->m);
	json_object_set_new(o, "available", json_boolean(md->have));
	json_object_set_new(o, "cannot", md->cannot ? json_string(md->cannot) : json_null());
	return o;
}

char *report_design_mde_doc(const struct study_mde *md)
{
	json_t *d = json_object();
	json_object_set_new(d, "schema_version", json_integer(REPORT_SCHEMA_VERSION));
	json_object_set_new(d, "kind", json_string("mde"));
	json_object_set_new(d, "mde", report_design_mde_json(md));
	char *s = json_dumps(d, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	json_decref(d);
	return s;
}
