/* fmt_text.c - the text format: tables for a terminal. */
#include "report.h"
#include "campaign.h"
#include "counters.h"
#include "system.h"

static int render(FILE *f, const struct report_doc *d)
{
	const struct report_style st = {d->color, d->verbose, d->width ? d->width : REPORT_WIDTH, d->counters};
	switch (d->kind) {
	case REPORT_RUNS: report_runs_text(f, d->runs, d->nruns, d->color); break;
	case REPORT_RUN: report_summary_text(f, d->summary, d->with_env, &st); break;
	case REPORT_WORKLOADS: report_workloads_text(f); break;
	case REPORT_ENV: report_env_text(f, d->env); break;
	case REPORT_COMPARE: report_compare_text(f, d->compare, d->groups, &st); break;
	case REPORT_ANALYZE:
		report_analyze_text(f, d->analyze, d->groups, d->color);
		if (d->noise_levels)
			report_noise_levels_text(f, d->noise_levels);
		break;
	case REPORT_PLAN:
		report_plan_text(f, d->plan, d->groups, d->ngroups, d->color);
		if (d->mde)
			report_mde_text(f, d->mde);
		if (d->lines)
			report_study_line_text(f, d->lines);
		break;
	case REPORT_HISTORY: report_history_text(f, d->history, d->lines, d->width ? d->width : REPORT_WIDTH); break;
	case REPORT_CAMPAIGN:
		for (size_t i = 0; i < d->nviews; i++) {
			report_campaign_text(f, &d->views[i]);
			if (d->view_list)
				fputc('\n', f);
		}
		if (d->view_list && !d->nviews)
			fprintf(f, "no campaigns yet; `sysab campaign new NAME ...` plans one\n");
		break;
	case REPORT_SYSTEM: report_system_text(f, d->system); break;
	case REPORT_ALLOC:
		report_alloc_text(f, d->alloc);
		fputc('\n', f);
		break;
	case REPORT_MDE: report_design_mde_text(f, d->design_mde); break;
	case REPORT_SAMPLES: return -1;
	}
	return ferror(f) ? -1 : 0;
}

const struct report_format report_format_text = {
	"text",
	1u << REPORT_RUNS | 1u << REPORT_RUN | 1u << REPORT_WORKLOADS | 1u << REPORT_ENV | 1u << REPORT_COMPARE |
		1u << REPORT_ANALYZE | 1u << REPORT_PLAN | 1u << REPORT_HISTORY | 1u << REPORT_CAMPAIGN | 1u << REPORT_SYSTEM |
		1u << REPORT_ALLOC | 1u << REPORT_MDE,
	render,
	false,
};
