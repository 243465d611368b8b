/* mde.c - the MDE lines of campaign new, campaign start and plan: text and JSON. */
#include "report.h"
#include "analysis/mde.h"

#include <jansson.h>
#include <math.h>

/* "2.3%", or "none" when not computable. */
static void pct(char *buf, size_t n, double x)
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
		pct(b, sizeof b, r->m.mde);
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
		pct(t, sizeof t, in->target);
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
	json_t *o = json_object(), *rows = json_array();
	json_object_set_new(o, "boots", json_integer((json_int_t)m->in.boots));
	json_object_set_new(o, "runs_per_boot", json_integer((json_int_t)m->in.runs));
	json_object_set_new(o, "alpha", json_real(m->in.alpha));
	json_object_set_new(o, "power", json_real(m->in.power));
	json_object_set_new(o, "emulated", json_boolean(m->in.emulated));
	if (m->in.from)
		json_object_set_new(o, "from", json_string(m->in.from));
	if (m->in.probe_cv > 0)
		json_object_set_new(o, "probe_cv", json_real(m->in.probe_cv));
	for (size_t i = 0; i < m->nrows; i++) {
		const struct an_mde_row *r = &m->rows[i];
		json_t *x = json_object();
		json_object_set_new(x, "workload", json_string(r->workload));
		json_object_set_new(x, "copies", json_integer(r->copies));
		json_object_set_new(x, "samples_per_run", json_integer((json_int_t)r->samples));
		json_object_set_new(x, "mde", isnan(r->m.mde) ? json_null() : json_real(r->m.mde));
		json_object_set_new(x, "source", json_string(an_mde_source_word(r->source)));
		if (m->in.target > 0)
			json_object_set_new(x, "boots_needed", json_integer((json_int_t)r->m.boots_needed));
		json_array_append_new(rows, x);
	}
	json_object_set_new(o, "rows", rows);
	if (m->in.target > 0) {
		json_object_set_new(o, "target", json_real(m->in.target));
		json_object_set_new(o, "reaches", json_boolean(m->reaches));
		json_object_set_new(o, "boots_needed", json_integer((json_int_t)m->boots_needed));
	}
	return o;
}
