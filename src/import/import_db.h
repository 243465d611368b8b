/* import_db.h - `sysab import db`: merge runs and campaigns of other sysab databases, by run UUID. */
#ifndef SYSAB_IMPORT_DB_H
#define SYSAB_IMPORT_DB_H

#include "import/import_check.h"
#include "store/store.h"

struct import_db_result {
	size_t nruns;        /* runs stored now */
	size_t nsamples;     /* their samples */
	size_t nknown;       /* runs that were already stored (same uuid) */
	size_t ncampaigns;   /* campaigns stored now */
	int64_t *ids;        /* local ids of the runs stored now, in the other database's order */
	char **uuids;        /* their uuids */
};
void import_db_result_free(struct import_db_result *r);

/*
 * Merge every run of the sysab database at path into dst: machine, boot, labels,
 * environment, slot records, samples and their counters, keeping status, times and run UUID; then the
 * campaigns it holds (configurations, schedule, progress, which runs each slot made).
 * A run whose UUID dst already holds is skipped, so importing a file twice stores
 * nothing new (res->nruns == 0). A run still marked running there is stored as
 * interrupted. The whole file lands in one transaction: on error nothing is stored and
 * -1 is returned with e naming the file. A newer schema is refused; an older one is read
 * from a migrated private copy (the file is never written). Every record passes the gate
 * of import_check.h; a campaign also check (campaign_record_check), so a damaged run or
 * campaign refuses the whole file.
 */
int import_db_file(struct store *dst, const char *path, import_campaign_check_fn check, struct import_db_result *res,
		   struct err *e);

#endif
