/* import_check.h - the one gate every importer's records pass before the store. */
#ifndef SYSAB_IMPORT_CHECK_H
#define SYSAB_IMPORT_CHECK_H

#include "import/import_util.h"
#include "store/store.h"

/* Copies of a slot: 1 to this many (the CSV and UnixBench parsers' bound). */
#define IMPORT_MAX_COPIES 4096
/* Machine, boot, kernel and environment text: clean UTF-8 of at most this many bytes. */
#define IMPORT_MAX_TEXT 65536

/* The one gate every importer (CSV, UnixBench logs, other sysab databases) passes each
 * record through just before the store: what a run of sysab could have written, nothing
 * else. A run: its uuid NULL (a fresh one) or 32 lowercase hex digits; labels by
 * label_check_key/label_check_value; machine, boot, kernel, environment, status and source
 * clean text of at most IMPORT_MAX_TEXT bytes; a known run status. A slot: a workload by
 * IMPORT_WORKLOAD_RULE, copies 1 to IMPORT_MAX_COPIES, clean unit, status, reason and
 * checks. A sample: the same workload and copies rules, a value in [IMPORT_MIN_VALUE,
 * IMPORT_MAX_VALUE] (so never Inf or NaN), ops and elapsed_ns at most INT64_MAX (a
 * negative number read back from SQLite is refused), seq >= 0, round >= -1, warmup and
 * dropped 0 or 1. Each returns 0, or -1 with e saying what is wrong (the caller names the
 * file and the run). */
int import_check_run(const struct store_run_new *r, struct err *e);
int import_check_slot(const struct store_slot *s, struct err *e);
int import_check_sample(const struct store_sample *x, struct err *e);

/* Check, then store: the only way importers write runs, slots and samples. what names the
 * record for a refusal ("FILE: run UUID"); a refused record is "WHAT: REASON; nothing of
 * the file was stored: fix or remove that record". Returns what the store function
 * returns, or -1 with e set and nothing written. */
int import_put_run(struct store *s, const char *what, const struct store_run_new *r, int64_t *id, struct err *e);
int import_put_slot(struct store *s, const char *what, int64_t run, const struct store_slot *x, struct err *e);
int import_put_sample(struct store *s, const char *what, int64_t run, const struct store_sample *x, struct err *e);

/* The check a campaign record must pass before it is stored: the caller gives campaign's
 * (campaign_record_check, what campaign_load applies), since import sits below campaign.
 * 0, or -1 with e naming the damaged field. */
typedef int (*import_campaign_check_fn)(const struct store_campaign *c, struct err *e);
/* Check c with check, then store it as a new campaign (store_campaign_create, sets c->id). A
 * refused campaign is "WHAT: campaign 'NAME' is damaged: REASON; refused, nothing of the file
 * was stored: ...". Returns 0, or -1 with e set and nothing written. */
int import_put_campaign(struct store *s, const char *what, struct store_campaign *c, import_campaign_check_fn check,
			struct err *e);

#endif
