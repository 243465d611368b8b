/* import_check.c - the one validation of every record an importer stores: CSV rows,
 * UnixBench passes and the runs and campaigns of other sysab databases meet the same rules. */
#include "import/import_check.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Clean text of at most IMPORT_MAX_TEXT bytes (NULL allowed when null_ok). */
static int check_text(const char *what, const char *s, bool null_ok, struct err *e)
{
	if (!s)
		return null_ok ? 0 : errf(e, "%s is missing", what);
	size_t n = strnlen(s, IMPORT_MAX_TEXT + 1);
	if (n > IMPORT_MAX_TEXT)
		return errf(e, "%s is longer than %d bytes", what, IMPORT_MAX_TEXT);
	if (!text_is_clean(s, true))
		return errf(e, "%s is not clean UTF-8 text (control characters or invalid bytes)", what);
	return 0;
}

static int check_workload(const char *w, int copies, struct err *e)
{
	if (!w || !import_workload_ok(w))
		return errf(e, "workload name '%.40s%s' is not %s", w && text_is_clean(w, false) ? w : "?",
			    w && strlen(w) > 40 ? "..." : "", IMPORT_WORKLOAD_RULE);
	if (copies < 1 || copies > IMPORT_MAX_COPIES)
		return errf(e, "%s: copies %d is out of range (1 to %d)", w, copies, IMPORT_MAX_COPIES);
	return 0;
}

int import_check_run(const struct store_run_new *r, struct err *e)
{
	if (r->uuid && (strlen(r->uuid) != 32 || strspn(r->uuid, "0123456789abcdef") != 32))
		return errf(e, "run uuid '%.40s' is not 32 lowercase hex digits", text_is_clean(r->uuid, false) ? r->uuid : "?");
	const char *what[] = {"hostname", "CPU model", "boot id", "kernel release", "kernel version", "status",
			      "source", "settings"};
	const char *val[] = {r->host.hostname, r->host.cpu_model, r->host.boot_id, r->host.kernel_release,
			     r->host.kernel_version, r->status, r->source, r->settings};
	for (size_t i = 0; i < sizeof val / sizeof *val; i++)
		if (check_text(what[i], val[i], i == 7, e))
			return -1;
	if (!*r->host.boot_id)
		return errf(e, "the boot id is empty");
	if (r->host.ncpus < 0)
		return errf(e, "CPU count %d is negative", r->host.ncpus);
	if (store_run_status_of(r->status) == STORE_RUN_UNKNOWN)
		return errf(e, "run status '%.40s' is not one sysab knows", r->status);
	for (size_t i = 0; r->labels && i < r->labels->n; i++)
		if (label_check_key(r->labels->v[i].key, e) || label_check_value(r->labels->v[i].key, r->labels->v[i].value, e))
			return -1;
	for (size_t i = 0; r->env && i < r->env->n; i++)
		if (check_text("an environment key", r->env->v[i].key, false, e) ||
		    check_text("an environment value", r->env->v[i].value, false, e))
			return -1;
	return 0;
}

int import_check_slot(const struct store_slot *s, struct err *e)
{
	if (check_workload(s->workload, s->copies, e))
		return -1;
	if (check_text("a slot's unit", s->unit, false, e) || check_text("a slot's status", s->status, false, e) ||
	    check_text("a slot's reason", s->reason, true, e) || check_text("a slot's checks", s->checks, true, e))
		return -1;
	if (store_slot_status_of(s->status) == STORE_SLOT_UNKNOWN)
		return errf(e, "%s: slot status '%.40s' is not one sysab knows", s->workload, s->status);
	if (s->batch_ops > INT64_MAX || !isfinite(s->overhead_ns))
		return errf(e, "%s: the slot's batch size or overhead is out of range", s->workload);
	return 0;
}

int import_check_sample(const struct store_sample *x, struct err *e)
{
	if (check_workload(x->workload, x->copies, e))
		return -1;
	if (!(x->value >= IMPORT_MIN_VALUE && x->value <= IMPORT_MAX_VALUE))
		return errf(e, "%s: sample value %g is out of range (%g to %g)", x->workload, x->value, IMPORT_MIN_VALUE,
			    IMPORT_MAX_VALUE);
	if (x->ops > INT64_MAX || x->elapsed_ns > INT64_MAX)
		return errf(e, "%s: a sample's ops or elapsed time is negative", x->workload);
	if (x->seq < 0 || x->round < -1 || (x->warmup != 0 && x->warmup != 1) || (x->dropped != 0 && x->dropped != 1))
		return errf(e, "%s: a sample's sequence number, round or flags are out of range", x->workload);
	return 0;
}

static int refused(const char *what, struct err *e)
{
	char why[sizeof e->msg];
	snprintf(why, sizeof why, "%s", e->msg);
	return errf(e, "%s: %s; refused, nothing of the file was stored: fix or remove that record", what, why);
}

int import_put_run(struct store *s, const char *what, const struct store_run_new *r, int64_t *id, struct err *e)
{
	return import_check_run(r, e) ? refused(what, e) : store_run_begin(s, r, id, e);
}

int import_put_slot(struct store *s, const char *what, int64_t run, const struct store_slot *x, struct err *e)
{
	return import_check_slot(x, e) ? refused(what, e) : store_slot_put(s, run, x, e);
}

int import_put_sample(struct store *s, const char *what, int64_t run, const struct store_sample *x, struct err *e)
{
	return import_check_sample(x, e) ? refused(what, e) : store_sample_add(s, run, x, e);
}

int import_put_campaign(struct store *s, const char *what, struct store_campaign *c, import_campaign_check_fn check,
			struct err *e)
{
	if (check(c, e)) {
		char *w = xasprintf("%s: campaign '%.64s' is damaged", what, text_is_clean(c->name, false) ? c->name : "?");
		int rc = refused(w, e);
		free(w);
		return rc;
	}
	return store_campaign_create(s, c, e);
}
