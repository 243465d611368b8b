/* fmt_lava.c - the lava format: one lava-test-case command per (workload, copies) of each run (docs/FLEET.md). */
#include "report.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

/* LAVA's result word for one slot: pass when it ran and its self-checks passed, skip when
 * it could not run here, fail otherwise (a failed self-check, an error, a stop). */
static const char *lava_result(const struct summary_row *r)
{
	switch (r->slot->state) {
	case STORE_SLOT_OK: return report_checks_ok(r) ? "pass" : "fail";
	case STORE_SLOT_UNSUPPORTED:
	case STORE_SLOT_NO_RESOURCE: return "skip";
	case STORE_SLOT_ERROR:
	case STORE_SLOT_STOPPED:
	case STORE_SLOT_UNKNOWN: break;
	}
	return "fail";
}

static int render(FILE *f, const struct report_doc *d)
{
	if (d->kind != REPORT_SAMPLES)
		return -1;
	for (size_t i = 0; i < d->nruns; i++) {
		const struct summary *s = &d->summaries[i];
		for (size_t j = 0; j < s->nslots; j++) {
			const struct summary_row *r = &s->rows[j];
			char name[300], unit[80];
			/* several runs: the run id keeps the names apart */
			if (d->nruns > 1)
				snprintf(name, sizeof name, "run%lld.%s.c%d", (long long)s->run.id, r->slot->workload,
					 r->slot->copies);
			else
				snprintf(name, sizeof name, "%s.c%d", r->slot->workload, r->slot->copies);
			report_name_chars(name);
			const char *res = lava_result(r);
			if (fprintf(f, "lava-test-case %s --result %s", name, res) < 0)
				return -1;
			if (r->n && isfinite(r->median) && strcmp(res, "skip")) {
				/* LAVA splits its signal on spaces: the unit keeps '/' but no spaces */
				report_json_unit(r->slot->unit, 0, unit, sizeof unit);
				for (char *p = unit; *p; p++)
					if (!isalnum((unsigned char)*p) && !strchr("/_.-%", *p))
						*p = '_';
				if (fprintf(f, " --measurement %.3f --units %s", r->median, unit) < 0)
					return -1;
			}
			if (fputc('\n', f) == EOF)
				return -1;
		}
	}
	return 0;
}

const struct report_format report_format_lava = {"lava", 1u << REPORT_SAMPLES, render, true};
