/* campaign.c - storing boot campaigns: configurations, the slot schedule, slot progress, their runs. */
#include "store_impl.h"

#include <stdlib.h>
#include <string.h>

static int step_done(struct store *s, sqlite3_stmt *st, const char *what, struct err *e)
{
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, what, e);
	return 0;
}

static void bind_u64_or_null(sqlite3_stmt *st, int i, uint64_t v)
{
	if (v)
		sqlite3_bind_int64(st, i, (int64_t)v);
	else
		sqlite3_bind_null(st, i);
}

/* Long by design: one transaction inserting the campaign, its configurations and its slots. */
int store_campaign_create(struct store *s, struct store_campaign *c, struct err *e)
{
	int own_tx = !s->in_tx;
	if (own_tx && store_begin(s, e))
		return -1;
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "INSERT INTO campaign(name, uuid, backend, seed, boots, runs, run_args, options, state, reason, "
			  "created_ns, looks) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			  &st, e))
		goto fail;
	store_bind_text(st, 1, c->name);
	store_bind_text(st, 2, c->uuid);
	store_bind_text(st, 3, c->backend);
	sqlite3_bind_int64(st, 4, (int64_t)c->seed);
	sqlite3_bind_int(st, 5, c->boots);
	sqlite3_bind_int(st, 6, c->runs);
	store_bind_text(st, 7, c->run_args);
	store_bind_text(st, 8, c->options);
	store_bind_text(st, 9, c->state);
	store_bind_text(st, 10, c->reason);
	sqlite3_bind_int64(st, 11, (int64_t)c->created_ns);
	sqlite3_bind_int(st, 12, c->looks);
	if (sqlite3_step(st) != SQLITE_DONE) {
		int code = sqlite3_errcode(s->db);
		sqlite3_finalize(st);
		if (code == SQLITE_CONSTRAINT)
			errf(e, "campaign '%s': a campaign of that name (or uuid) exists in %s; pick another name or "
				"`sysab campaign show %s`",
			     c->name, s->path, c->name);
		else
			store_fail(s, "cannot record the campaign", e);
		goto fail;
	}
	sqlite3_finalize(st);
	c->id = sqlite3_last_insert_rowid(s->db);
	for (size_t i = 0; i < c->nconfigs; i++) {
		const struct store_campaign_config *k = &c->configs[i];
		if (store_prepare(s,
				  "INSERT INTO campaign_config(campaign, idx, name, labels, kernel, initrd, append, entry, "
				  "command) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)",
				  &st, e))
			goto fail;
		sqlite3_bind_int64(st, 1, c->id);
		sqlite3_bind_int(st, 2, (int)i);
		store_bind_text(st, 3, k->name);
		store_bind_text(st, 4, k->labels);
		store_bind_text(st, 5, k->kernel);
		store_bind_text(st, 6, k->initrd);
		store_bind_text(st, 7, k->append);
		store_bind_text(st, 8, k->entry);
		store_bind_text(st, 9, k->command);
		if (step_done(s, st, "cannot record a campaign configuration", e))
			goto fail;
	}
	for (size_t i = 0; i < c->nslots; i++) {
		const struct store_campaign_slot *x = &c->slots[i];
		if (store_prepare(s,
				  "INSERT INTO campaign_slot(campaign, slot, block, config, state, attempts, reason, boot_id, "
				  "started_ns, finished_ns) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
				  &st, e))
			goto fail;
		sqlite3_bind_int64(st, 1, c->id);
		sqlite3_bind_int(st, 2, x->slot);
		sqlite3_bind_int(st, 3, x->block);
		sqlite3_bind_int(st, 4, x->config);
		store_bind_text(st, 5, x->state ? x->state : "pending");
		sqlite3_bind_int(st, 6, x->attempts);
		store_bind_text(st, 7, x->reason);
		store_bind_text(st, 8, x->boot_id);
		bind_u64_or_null(st, 9, x->started_ns);
		bind_u64_or_null(st, 10, x->finished_ns);
		if (step_done(s, st, "cannot record the campaign schedule", e))
			goto fail;
	}
	if (c->adaptive) {
		const struct store_adaptive *a = c->adaptive;
		if (store_prepare(s,
				  "INSERT INTO campaign_adaptive(campaign, until, target, max_boots, budget_s, stopped) "
				  "VALUES(?, ?, ?, ?, ?, ?)",
				  &st, e))
			goto fail;
		sqlite3_bind_int64(st, 1, c->id);
		store_bind_text(st, 2, a->until);
		sqlite3_bind_double(st, 3, a->target);
		sqlite3_bind_int(st, 4, a->max_boots);
		sqlite3_bind_double(st, 5, a->budget_s);
		store_bind_text(st, 6, a->stopped);
		if (step_done(s, st, "cannot record the campaign's adaptive settings", e))
			goto fail;
	}
	if (own_tx && store_commit(s, e))
		return -1;
	return 0;
fail:
	if (own_tx)
		store_rollback(s);
	return -1;
}

/* The configurations of campaign c, in order. */
static int campaign_configs(struct store *s, struct store_campaign *c, struct err *e)
{
	size_t cap = 0;
	int rc;
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT name, labels, kernel, initrd, append, entry, command FROM campaign_config "
			  "WHERE campaign = ? ORDER BY idx",
			  &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, c->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		c->configs = xgrow(c->configs, &cap, c->nconfigs + 1, sizeof *c->configs);
		struct store_campaign_config *k = &c->configs[c->nconfigs++];
		k->name = store_col_text(st, 0);
		k->labels = store_col_text(st, 1);
		k->kernel = store_col_text_or_null(st, 2);
		k->initrd = store_col_text_or_null(st, 3);
		k->append = store_col_text_or_null(st, 4);
		k->entry = store_col_text_or_null(st, 5);
		k->command = store_col_text_or_null(st, 6);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read the campaign configurations", e);
	return 0;
}

/* The slots of campaign c (its schedule), in order, with their run counts. */
static int campaign_slots(struct store *s, struct store_campaign *c, struct err *e)
{
	size_t cap = 0;
	int rc;
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT slot, block, config, state, attempts, reason, boot_id, started_ns, finished_ns, "
			  "(SELECT count(*) FROM campaign_run r WHERE r.campaign = campaign_slot.campaign AND r.slot = "
			  "campaign_slot.slot) FROM campaign_slot WHERE campaign = ? ORDER BY slot",
			  &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, c->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		c->slots = xgrow(c->slots, &cap, c->nslots + 1, sizeof *c->slots);
		struct store_campaign_slot *x = &c->slots[c->nslots++];
		x->slot = sqlite3_column_int(st, 0);
		x->block = sqlite3_column_int(st, 1);
		x->config = sqlite3_column_int(st, 2);
		x->state = store_col_text(st, 3);
		x->attempts = sqlite3_column_int(st, 4);
		x->reason = store_col_text_or_null(st, 5);
		x->boot_id = store_col_text_or_null(st, 6);
		x->started_ns = (uint64_t)sqlite3_column_int64(st, 7);
		x->finished_ns = (uint64_t)sqlite3_column_int64(st, 8);
		x->nruns = sqlite3_column_int(st, 9);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read the campaign schedule", e);
	return 0;
}

int store_campaign_get(struct store *s, const char *name, struct store_campaign *c, struct err *e)
{
	memset(c, 0, sizeof *c);
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT id, name, uuid, backend, seed, boots, runs, run_args, options, state, reason, created_ns, "
			  "looks FROM campaign WHERE name = ?",
			  &st, e))
		return -1;
	store_bind_text(st, 1, name);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		c->id = sqlite3_column_int64(st, 0);
		c->name = store_col_text(st, 1);
		c->uuid = store_col_text(st, 2);
		c->backend = store_col_text(st, 3);
		c->seed = (uint64_t)sqlite3_column_int64(st, 4);
		c->boots = sqlite3_column_int(st, 5);
		c->runs = sqlite3_column_int(st, 6);
		c->run_args = store_col_text(st, 7);
		c->options = store_col_text(st, 8);
		c->state = store_col_text(st, 9);
		c->reason = store_col_text_or_null(st, 10);
		c->created_ns = (uint64_t)sqlite3_column_int64(st, 11);
		c->looks = sqlite3_column_int(st, 12);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return errf(e, "campaign '%s': no such campaign in %s; `sysab campaign show` lists them", name, s->path);
	if (rc != SQLITE_ROW)
		return store_fail(s, "cannot read the campaign", e);
	if (campaign_configs(s, c, e) || campaign_slots(s, c, e)) {
		store_campaign_free(c);
		return -1;
	}
	return 0;
}

void store_campaign_config_free(struct store_campaign_config *k)
{
	if (!k)
		return;
	free(k->name);
	free(k->labels);
	free(k->kernel);
	free(k->initrd);
	free(k->append);
	free(k->entry);
	free(k->command);
	memset(k, 0, sizeof *k);
}

void store_campaign_free(struct store_campaign *c)
{
	if (!c)
		return;
	free(c->name);
	free(c->uuid);
	free(c->backend);
	free(c->run_args);
	free(c->options);
	free(c->state);
	free(c->reason);
	for (size_t i = 0; i < c->nconfigs; i++)
		store_campaign_config_free(&c->configs[i]);
	free(c->configs);
	for (size_t i = 0; i < c->nslots; i++) {
		free(c->slots[i].state);
		free(c->slots[i].reason);
		free(c->slots[i].boot_id);
	}
	free(c->slots);
	memset(c, 0, sizeof *c);
}

int store_campaign_names(struct store *s, struct strv *names, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "SELECT name FROM campaign ORDER BY id", &st, e))
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		strv_add(names, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot list campaigns", e);
	return 0;
}

int store_campaign_set_state(struct store *s, int64_t id, const char *state, const char *reason, int looks,
			     struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "UPDATE campaign SET state = ?, reason = ?, looks = max(looks, ?) WHERE id = ?", &st, e))
		return -1;
	store_bind_text(st, 1, state);
	store_bind_text(st, 2, reason);
	sqlite3_bind_int(st, 3, looks);
	sqlite3_bind_int64(st, 4, id);
	return step_done(s, st, "cannot record the campaign's state", e);
}

int store_campaign_look(struct store *s, int64_t id, int k, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "UPDATE campaign SET looks = max(looks, ?) WHERE id = ?", &st, e))
		return -1;
	sqlite3_bind_int(st, 1, k);
	sqlite3_bind_int64(st, 2, id);
	return step_done(s, st, "cannot count the look at the campaign", e);
}

int store_campaign_slot_put(struct store *s, int64_t id, const struct store_campaign_slot *x, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "UPDATE campaign_slot SET state = ?, attempts = ?, reason = ?, boot_id = ?, started_ns = ?, "
			  "finished_ns = ? WHERE campaign = ? AND slot = ?",
			  &st, e))
		return -1;
	store_bind_text(st, 1, x->state);
	sqlite3_bind_int(st, 2, x->attempts);
	store_bind_text(st, 3, x->reason);
	store_bind_text(st, 4, x->boot_id);
	bind_u64_or_null(st, 5, x->started_ns);
	bind_u64_or_null(st, 6, x->finished_ns);
	sqlite3_bind_int64(st, 7, id);
	sqlite3_bind_int(st, 8, x->slot);
	return step_done(s, st, "cannot record the slot's progress", e);
}

int store_campaign_add_run(struct store *s, int64_t id, int slot, int64_t run, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "INSERT OR IGNORE INTO campaign_run(run, campaign, slot) VALUES(?, ?, ?)", &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_int(st, 3, slot);
	return step_done(s, st, "cannot record the campaign's run", e);
}

int store_campaign_runs(struct store *s, int64_t id, struct store_campaign_run **out, size_t *n, struct err *e)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT cr.slot, run.uuid FROM campaign_run cr JOIN run ON run.id = cr.run "
			  "WHERE cr.campaign = ? ORDER BY cr.run",
			  &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xgrow(*out, &cap, *n + 1, sizeof **out);
		(*out)[*n].slot = sqlite3_column_int(st, 0);
		(*out)[(*n)++].run_uuid = store_col_text(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		store_campaign_runs_free(*out, *n);
		*out = NULL;
		*n = 0;
		return store_fail(s, "cannot read the campaign's runs", e);
	}
	return 0;
}

void store_campaign_runs_free(struct store_campaign_run *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].run_uuid);
	free(v);
}

int store_adaptive_get(struct store *s, int64_t id, struct store_adaptive *a, struct err *e)
{
	memset(a, 0, sizeof *a);
	sqlite3_stmt *st;
	if (store_prepare(s, "SELECT until, target, max_boots, budget_s, stopped FROM campaign_adaptive WHERE campaign = ?",
			  &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		a->until = store_col_text(st, 0);
		a->target = sqlite3_column_double(st, 1);
		a->max_boots = sqlite3_column_int(st, 2);
		a->budget_s = sqlite3_column_double(st, 3);
		a->stopped = store_col_text_or_null(st, 4);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return store_fail(s, "cannot read the campaign's adaptive settings", e);
}

void store_adaptive_free(struct store_adaptive *a)
{
	if (!a)
		return;
	free(a->until);
	free(a->stopped);
	memset(a, 0, sizeof *a);
}

int store_adaptive_set_stopped(struct store *s, int64_t id, const char *why, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "UPDATE campaign_adaptive SET stopped = ? WHERE campaign = ?", &st, e))
		return -1;
	store_bind_text(st, 1, why);
	sqlite3_bind_int64(st, 2, id);
	return step_done(s, st, "cannot record why the adaptive campaign stopped", e);
}

int store_adaptive_look_put(struct store *s, int64_t id, const struct store_adaptive_look *l, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "INSERT OR IGNORE INTO campaign_adaptive_look(campaign, k, blocks, at_ns, decision, verdicts) "
			  "VALUES(?, ?, ?, ?, ?, ?)",
			  &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, l->k);
	sqlite3_bind_int(st, 3, l->blocks);
	sqlite3_bind_int64(st, 4, (int64_t)l->at_ns);
	store_bind_text(st, 5, l->decision);
	store_bind_text(st, 6, l->verdicts ? l->verdicts : "{}");
	if (step_done(s, st, "cannot record the adaptive campaign's look", e))
		return -1;
	return sqlite3_changes(s->db) > 0;
}

int store_adaptive_looks(struct store *s, int64_t id, struct store_adaptive_look **out, size_t *n, struct err *e)
{
	*out = NULL;
	*n = 0;
	size_t cap = 0;
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT k, blocks, at_ns, decision, verdicts FROM campaign_adaptive_look WHERE campaign = ? "
			  "ORDER BY k",
			  &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xgrow(*out, &cap, *n + 1, sizeof **out);
		struct store_adaptive_look *l = &(*out)[(*n)++];
		l->k = sqlite3_column_int(st, 0);
		l->blocks = sqlite3_column_int(st, 1);
		l->at_ns = (uint64_t)sqlite3_column_int64(st, 2);
		l->decision = store_col_text(st, 3);
		l->verdicts = store_col_text(st, 4);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		store_adaptive_looks_free(*out, *n);
		*out = NULL;
		*n = 0;
		return store_fail(s, "cannot read the adaptive campaign's looks", e);
	}
	return 0;
}

void store_adaptive_looks_free(struct store_adaptive_look *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].decision);
		free(v[i].verdicts);
	}
	free(v);
}

int store_campaign_end_after_block(struct store *s, int64_t id, int blocks, struct err *e)
{
	int own_tx = !s->in_tx;
	if (own_tx && store_begin(s, e))
		return -1;
	sqlite3_stmt *st;
	if (store_prepare(s, "DELETE FROM campaign_slot WHERE campaign = ? AND block >= ?", &st, e))
		goto fail;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, blocks);
	if (step_done(s, st, "cannot end the campaign after its block", e))
		goto fail;
	if (store_prepare(s, "UPDATE campaign SET boots = ? WHERE id = ?", &st, e))
		goto fail;
	sqlite3_bind_int(st, 1, blocks);
	sqlite3_bind_int64(st, 2, id);
	if (step_done(s, st, "cannot end the campaign after its block", e))
		goto fail;
	if (own_tx && store_commit(s, e))
		return -1;
	return 0;
fail:
	if (own_tx)
		store_rollback(s);
	return -1;
}
