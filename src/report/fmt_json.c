/* fmt_json.c - the json format: one JSON document per record (docs/FORMATS.md). */
#include "report.h"
#include "campaign.h"
#include "counters.h"
#include "system.h"

#include <jansson.h>

#include <stdlib.h>

/* Every campaign as an array (view_list), else the one campaign's object (with "mde", the MDE
 * of its design, when d has it); indented, ASCII. */
static char *campaign_json(const struct report_doc *d)
{
	json_t *j = d->view_list ? json_array() : NULL;
	for (size_t i = 0; i < d->nviews; i++) {
		json_t *v = report_campaign_json(&d->views[i]);
		if (!d->view_list) {
			j = v;
			break;
		}
		json_array_append_new(j, v);
	}
	if (j && !d->view_list && d->design_mde) /* campaign new: the MDE of its design */
		json_object_set_new(j, "mde", report_design_mde_json(d->design_mde));
	char *s = j ? json_dumps(j, JSON_INDENT(2) | JSON_ENSURE_ASCII) : NULL;
	json_decref(j);
	return s;
}

static int render(FILE *f, const struct report_doc *d)
{
	char *s = NULL;
	switch (d->kind) {
	case REPORT_RUNS: s = report_runs_json(d->runs, d->nruns); break;
	case REPORT_RUN: s = report_summary_json(d->summary, d->with_env); break;
	case REPORT_WORKLOADS: s = report_workloads_json(); break;
	case REPORT_ENV: s = report_env_json(d->env); break;
	case REPORT_COMPARE: s = report_compare_json(d->compare, d->groups); break;
	case REPORT_ANALYZE:
		s = report_analyze_json(d->analyze, d->groups);
		if (d->noise_levels && d->noise_levels->n > 1)
			s = report_add_json(s, "noise_levels", report_noise_levels_json(d->noise_levels));
		break;
	case REPORT_PLAN: s = report_plan_json(d->plan, d->groups, d->ngroups, d->lines, d->mde); break;
	case REPORT_HISTORY: s = report_history_json(d->history, d->lines); break;
	case REPORT_CAMPAIGN: s = campaign_json(d); break;
	case REPORT_SYSTEM: s = report_system_json(d->system); break;
	case REPORT_ALLOC: s = an_alloc_record_json(d->alloc); break;
	case REPORT_MDE: s = report_design_mde_doc(d->design_mde); break;
	case REPORT_SAMPLES: return report_export_json(f, d->runs, d->nruns, d->samples);
	}
	int rc = s && fputs(s, f) >= 0 && fputc('\n', f) != EOF ? 0 : -1;
	free(s);
	return rc;
}

const struct report_format report_format_json = {
	"json",
	1u << REPORT_RUNS | 1u << REPORT_RUN | 1u << REPORT_WORKLOADS | 1u << REPORT_ENV | 1u << REPORT_COMPARE |
		1u << REPORT_ANALYZE | 1u << REPORT_PLAN | 1u << REPORT_SAMPLES | 1u << REPORT_HISTORY | 1u << REPORT_CAMPAIGN |
		1u << REPORT_SYSTEM | 1u << REPORT_ALLOC | 1u << REPORT_MDE,
	render,
	false,
};
