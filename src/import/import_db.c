/* import_db.c - merging another sysab database into this one, run by run, idempotent by run UUID. */
#include "import/import_db.h"
#include "import/import_check.h"
#include "store/counters.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void import_db_result_free(struct import_db_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nruns; i++)
		free(r->uuids[i]);
	free(r->uuids);
	free(r->ids);
	memset(r, 0, sizeof *r);
}

/* Copy one run (already listed with its env) of src into dst as a new run. */
static int copy_run(struct store *src, struct store *dst, const char *path, const struct store_run_info *r, int64_t *id,
		    size_t *nsamples, struct err *e)
{
	char *what = xasprintf("%s: run %.40s", path, text_is_clean(r->uuid, false) ? r->uuid : "?");
	struct store_slot_info *slots = NULL;
	struct store_sample_info *samples = NULL;
	struct store_counter_raw *cnt = NULL;
	size_t nslots = 0, nsam = 0, ncnt = 0;
	int rc = -1;
	if (store_slots_get(src, r->id, &slots, &nslots, e) || store_samples_get(src, r->id, &samples, &nsam, e) ||
	    store_counters_get(src, r->id, &cnt, &ncnt, e))
		goto out;
	bool live = r->state == STORE_RUN_RUNNING;
	struct store_run_new n = {
		.host = {r->hostname, r->cpu_model, r->ncpus, r->mem_bytes, r->boot_id, r->kernel_release,
			 r->kernel_version},
		.started_ns = r->started_ns,
		.status = r->status,
		.source = r->source,
		.seed = r->seed,
		.settings = r->settings,
		.labels = &r->labels,
		.env = &r->env,
		.uuid = r->uuid,
	};
	if (import_put_run(dst, what, &n, id, e))
		goto out;
	if (store_run_set_end(dst, *id, live ? "interrupted" : r->status,
			      live ? "still running in the imported database" : *r->reason ? r->reason : NULL,
			      r->finished_ns, r->overhead_ns, e))
		goto out;
	for (size_t i = 0; i < nslots; i++) {
		const struct store_slot_info *x = &slots[i];
		struct store_slot y = {x->workload, x->copies, x->unit, x->latency, x->status,
				       *x->reason ? x->reason : NULL, x->batch_ops, x->overhead_ns,
				       *x->checks ? x->checks : NULL};
		if (import_put_slot(dst, what, *id, &y, e))
			goto out;
	}
	for (size_t i = 0; i < nsam; i++) {
		const struct store_sample_info *x = &samples[i];
		struct store_sample y = {x->workload, x->copies, x->seq, x->round, x->ops, x->elapsed_ns, x->value,
					 x->warmup, x->dropped};
		if (import_put_sample(dst, what, *id, &y, e))
			goto out;
	}
	for (size_t i = 0; i < ncnt; i++) {
		const char *ev = cnt[i].event;
		if (!ev || strlen(ev) > 64 || !text_is_clean(ev, false)) {
			errf(e, "%s: a counter event name is not clean text of at most 64 bytes; refused, nothing of the "
				"file was stored: fix or remove that record", what);
			goto out;
		}
		if (store_counters_add(dst, *id, cnt[i].workload, cnt[i].copies, cnt[i].seq, &ev, &cnt[i].value, 1, e))
			goto out;
	}
	*nsamples += nsam;
	rc = 0;
out:
	free(what);
	store_counters_raw_free(cnt, ncnt);
	store_slots_free(slots, nslots);
	store_samples_free(samples, nsam);
	return rc;
}

/* Copy the campaigns of src that dst lacks (by uuid); a name taken by another campaign is an error. */
static int copy_campaigns(struct store *src, struct store *dst, const char *path, import_campaign_check_fn check,
			  size_t *ncopied, struct err *e)
{
	struct strv names = {0};
	int rc = -1;
	if (store_campaign_names(src, &names, e))
		goto out;
	for (size_t i = 0; i < names.n; i++) {
		struct store_campaign c, have;
		struct store_campaign_run *runs = NULL;
		size_t nruns = 0;
		if (store_campaign_get(src, names.v[i], &c, e))
			goto out;
		struct err ignore;
		int exists = store_campaign_get(dst, names.v[i], &have, &ignore) == 0;
		if (exists) {
			bool same = !strcmp(have.uuid, c.uuid);
			store_campaign_free(&have);
			if (!same) {
				errf(e, "%s: campaign '%s' differs from the campaign of that name in %s; import it into "
					"another database",
				     path, c.name, store_path(dst));
				store_campaign_free(&c);
				goto out;
			}
		}
		int64_t src_id = c.id;
		int crc = 0;
		if (!exists && !(crc = import_put_campaign(dst, path, &c, check, e)))
			(*ncopied)++;
		/* the slot -> run records, by run uuid (also for a campaign dst has: runs may be new) */
		if (!crc)
			crc = store_campaign_runs(src, src_id, &runs, &nruns, e);
		if (exists && !crc) {
			store_campaign_free(&c);
			crc = store_campaign_get(dst, names.v[i], &c, e);
		}
		for (size_t k = 0; !crc && k < nruns; k++) {
			int64_t id;
			int found = store_run_by_uuid(dst, runs[k].run_uuid, &id, e);
			if (found < 0)
				crc = -1;
			else if (found)
				crc = store_campaign_add_run(dst, c.id, runs[k].slot, id, e);
		}
		store_campaign_runs_free(runs, nruns);
		store_campaign_free(&c);
		if (crc)
			goto out;
	}
	rc = 0;
out:
	strv_free(&names);
	return rc;
}

static int cmp_uuid(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Two runs of one file with one uuid: the file is damaged (or forged), and which of them
 * "is" the run cannot be told; refused rather than one of them silently "already stored". */
static int duplicate_uuid(const struct store_run_info *runs, size_t n, const char *path, struct err *e)
{
	char **u = xcalloc(n + 1, sizeof *u);
	for (size_t i = 0; i < n; i++)
		u[i] = runs[i].uuid;
	qsort(u, n, sizeof *u, cmp_uuid);
	int rc = 0;
	for (size_t i = 1; i < n && !rc; i++)
		if (!strcmp(u[i - 1], u[i]))
			rc = errf(e, "%s: two runs share the uuid '%.40s'; the file is damaged or was not written by "
				     "sysab: remove one of them, then import it",
				  path, text_is_clean(u[i], false) ? u[i] : "?");
	free(u);
	return rc;
}

int import_db_file(struct store *dst, const char *path, import_campaign_check_fn check, struct import_db_result *res,
		   struct err *e)
{
	struct store *src = NULL;
	struct store_run_info *runs = NULL;
	size_t n = 0, cap = 0;
	int rc = -1;
	bool tx = false;
	memset(res, 0, sizeof *res);
	char *a = realpath(path, NULL), *b = realpath(store_path(dst), NULL);
	bool same = a && b && !strcmp(a, b);
	free(a);
	free(b);
	if (same) {
		errf(e, "%s: that is the database being imported into; give another database", path);
		goto out;
	}
	if (store_open(path, STORE_COPY, &src, e))
		goto out;
	if (store_runs_list(src, &runs, &n, e) || store_runs_env(src, runs, n, e))
		goto out;
	if (duplicate_uuid(runs, n, path, e))
		goto out;
	if (store_begin(dst, e))
		goto out;
	tx = true;
	for (size_t i = 0; i < n; i++) {
		int64_t id;
		int found = store_run_by_uuid(dst, runs[i].uuid, &id, e);
		if (found < 0)
			goto out;
		if (found) {
			res->nknown++;
			continue;
		}
		if (copy_run(src, dst, path, &runs[i], &id, &res->nsamples, e))
			goto out;
		res->ids = xgrow(res->ids, &cap, res->nruns + 1, sizeof *res->ids);
		res->uuids = xrealloc(res->uuids, cap * sizeof *res->uuids);
		res->ids[res->nruns] = id;
		res->uuids[res->nruns++] = xstrdup(runs[i].uuid);
	}
	if (copy_campaigns(src, dst, path, check, &res->ncampaigns, e))
		goto out;
	tx = false;
	if (store_commit(dst, e))
		goto out;
	rc = 0;
out:
	if (tx)
		store_rollback(dst);
	if (rc) {
		import_db_result_free(res);
		if (!strstr(e->msg, path))
			err_prefix(e, "%s", path);
	}
	store_runs_free(runs, n);
	store_close(src);
	return rc;
}
