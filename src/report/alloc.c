/* alloc.c - `sysab run --allocate`: the allocation record as text, and the line of `show` for an allocated run. */
#include "report.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void report_alloc_text(FILE *f, const struct an_alloc_record *rec)
{
	const char *from = rec->from;
	size_t nruns = rec->nids, n = rec->n;
	const struct an_alloc_row *rows = rec->rows;
	const struct an_alloc *al = rec->al;
	fputs("allocation from '", f);
	fputs_clean(from, f);
	fprintf(f, "' (%zu run%s): samples per index workload for the least index variance in the same sampling "
		   "time (Neyman; floor %zu, cap %zu)\n",
		nruns, nruns == 1 ? "" : "s", al->ao.floor, al->ao.cap);
	size_t nohist = 0, noindex = 0, cut = 0;
	bool head = false;
	for (size_t i = 0; i < n; i++) {
		const struct an_alloc_row *r = &rows[i];
		if (!r->allocated) {
			noindex += r->weight <= 0;
			cut += r->weight > 0 && r->cut_short;
			nohist += r->weight > 0 && !r->cut_short;
			continue;
		}
		if (!head) {
			fprintf(f, "  %-28s %6s %7s %5s %10s %9s\n", "workload", "copies", "default", "alloc", "sd/sample",
				"s/sample");
			head = true;
		}
		fprintf(f, "  %-28s %6d %7zu %5d %9.3f%% %9.3f\n", r->workload, r->copies, al->ao.n0, r->samples,
			r->sd_sample_pct, r->cost);
	}
	if (!al->a.nalloc)
		fprintf(f, "  nothing to allocate: no index workload of this run has usable history there; every "
			   "workload takes the default %zu samples\n",
			al->ao.n0);
	else
		fprintf(f, "  predicted sd of ln(index) from the samples: %.3f%% -> %.3f%% (variance %+.0f%%); sampling "
			   "time %.1f s -> %.1f s\n",
			al->sd_default_pct, al->sd_alloc_pct, al->var_change_pct, al->a.budget_s,
			al->a.time_s);
	if (nohist || noindex || cut) {
		fprintf(f, "  default %zu samples:", al->ao.n0);
		const char *sep = " ";
		if (nohist)
			fprintf(f, "%s%zu without history there", sep, nohist), sep = ", ";
		if (cut)
			fprintf(f, "%s%zu whose earlier runs a time budget cut short", sep, cut), sep = ", ";
		if (noindex)
			fprintf(f, "%s%zu not in an index (host.ref, no baseline)", sep, noindex);
		fprintf(f, "\n");
	}
	if (!al->a.nalloc)
		return;
	if (!al->runs_planned) {
		fprintf(f, "  run level: not resolved (that needs 2 or more earlier runs on one boot holding each "
			   "allocated workload); no advice on more, shorter runs\n");
		return;
	}
	const struct st_alloc_runs *k = &al->runs;
	fprintf(f, "  run level: sd of ln(index) between runs %.3f%% (%s), within a run %.3f%%: the %s level "
		   "dominates; a run costs %.1f s beyond its samples\n",
		al->sd_run_pct,
		isfinite(al->var_run_index) ? "from the earlier runs' index" : "the workloads' own, taken as independent",
		al->sd_alloc_pct, k->run_dominates ? "run" : "within-run", al->run_cost);
	if (k->runs > 1)
		fprintf(f, "  prefer %zu runs of --samples %zu (each allocated so) to one run of %zu: index sd %.3f%% -> "
			   "%.3f%% in %.0f s instead of %.0f s\n",
			k->runs, k->n0, al->ao.n0, al->sd_one_pct, al->sd_best_pct, k->time_best, k->time_one);
	else
		fprintf(f, "  one run of this length is best for its time (index sd %.3f%%)\n", al->sd_one_pct);
}

/* The line of `show` for an allocated run (the store decoded its allocation); nothing for others. */
void report_alloc_line(FILE *f, const struct store_run_info *r)
{
	if (!r->alloc_from)
		return;
	fputs("samples: allocated from '", f);
	fputs_clean(r->alloc_from, f);
	fprintf(f, "' (%zu earlier runs; run --allocate): %zu index workloads\n", r->alloc_runs, r->alloc_workloads);
}

void report_alloc_markdown(FILE *f, const struct an_alloc_record *rec)
{
	const struct an_alloc *al = rec->al;
	fprintf(f, "## Allocation from `%s` (%zu run%s)\n\n", rec->from, rec->nids, rec->nids == 1 ? "" : "s");
	if (!al->a.nalloc) {
		fprintf(f, "Nothing to allocate: every workload takes the default %zu samples.\n\n", al->ao.n0);
		return;
	}
	fprintf(f, "| workload | copies | default | alloc | sd/sample | s/sample |\n|---|---:|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < rec->n; i++) {
		const struct an_alloc_row *r = &rec->rows[i];
		if (!r->allocated)
			continue;
		fputc('|', f);
		report_md_cell(f, r->workload);
		fprintf(f, " %d | %zu | %d | %.3f%% | %.3f |\n", r->copies, al->ao.n0, r->samples, r->sd_sample_pct, r->cost);
	}
	fprintf(f, "\nPredicted sd of ln(index) from the samples: %.3f%% -> %.3f%%; sampling time %.1f s -> %.1f s "
		   "(Neyman; floor %zu, cap %zu).\n\n",
		al->sd_default_pct, al->sd_alloc_pct, al->a.budget_s, al->a.time_s, al->ao.floor, al->ao.cap);
}
