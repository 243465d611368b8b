/* select.h - selectors: which stored runs form a group (pure logic over run lists). */
#ifndef SYSAB_SELECT_H
#define SYSAB_SELECT_H

#include "store/store.h"

/*
 * A selector is one argument holding terms separated by spaces; a run matches
 * when it matches every term (AND). Terms:
 *   KEY=VALUE        the run has label KEY with VALUE; the implicit labels
 *                    kernel=<release> and machine=<hostname> apply when the run
 *                    has no label of that name, and so does source=sysab|csv|unixbench
 *                    (where the run came from)
 *   run:ID[,ID|A-B]  the run is one of these ids
 *   boot:PREFIX      the run's boot id starts with PREFIX
 *   campaign:NAME    the run was made by boot campaign NAME
 * The empty selector matches every usable run. Only runs whose status is
 * complete, incomplete or imported are usable: running and interrupted runs
 * never match (docs/FORMATS.md, "Selectors").
 */

enum sel_kind { SEL_LABEL, SEL_RUNS, SEL_BOOT, SEL_CAMPAIGN };

struct sel_term {
	enum sel_kind kind;
	char *key, *value;  /* SEL_LABEL; SEL_BOOT keeps the prefix, SEL_CAMPAIGN the name in value */
	int64_t *ids;       /* SEL_RUNS */
	size_t nids;
};

struct selector {
	char *text; /* as given */
	struct sel_term *terms;
	size_t nterms;
};

/* Parse text into *out (free with select_free). On error -1 with e naming the term. */
int select_parse(const char *text, struct selector *out, struct err *e);
void select_free(struct selector *s);

/* True when the run's status lets its samples be used. */
bool select_usable(const struct store_run_info *r);
/* The value of label key for a run, falling back on the implicit labels
 * kernel, machine and source; NULL when it has none. Points into r. */
const char *select_label(const struct store_run_info *r, const char *key);
/* True when usable run r matches every term of s. */
bool select_matches(const struct selector *s, const struct store_run_info *r);

/* The indexes into runs[0..n-1] of the usable runs matching s, in order, into
 * *idx (new array, free it). When none match returns -1 with e naming the
 * selector and saying why (an unknown label key with a suggestion, a missing
 * or unusable run id) and *idx is NULL. */
int select_runs(const struct selector *s, const struct store_run_info *runs, size_t n, size_t **idx, size_t *nidx,
		struct err *e);
/* The same for `sysab list`, which shows runs of every status: running and interrupted
 * runs match too. */
int select_listed(const struct selector *s, const struct store_run_info *runs, size_t n, size_t **idx, size_t *nidx,
		  struct err *e);

#endif
