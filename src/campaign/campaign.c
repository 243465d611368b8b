/* campaign.c - a campaign's schedule, states, options, creation, validated loading and view, and
 * what the driver and the backends share (slot records, attaching runs, per-slot files). */
#include "campaign/backend.h"
#include "core/tmp.h"
#include "import/import_db.h"
#include "run/node.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void campaign_schedule(uint64_t seed, int nconfigs, int boots, int *order)
{
	uint64_t s = seed;
	for (int b = 0; b < boots; b++) {
		int *blk = order + (size_t)b * nconfigs;
		for (int i = 0; i < nconfigs; i++)
			blk[i] = i;
		for (int i = nconfigs - 1; i > 0; i--) {
			int j = (int)(splitmix64(&s) % (uint64_t)(i + 1));
			int t = blk[i];
			blk[i] = blk[j];
			blk[j] = t;
		}
	}
}

char *campaign_marker(const char *name, int slot)
{
	return xasprintf("sysab.boot=%s:%d", name, slot);
}

bool campaign_cmdline_has(const char *line, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = line; n && p && (p = strstr(p, word)); p++)
		if ((p == line || p[-1] == ' ') && (p[n] == 0 || p[n] == ' ' || p[n] == '\n'))
			return true;
	return false;
}

char *campaign_cmdline_value(const char *line, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = line; p && *p;) {
		p += strspn(p, " ");
		size_t w = strcspn(p, " \n");
		if (w > n && !strncmp(p, key, n) && p[n] == '=')
			return xstrndup(p + n + 1, w - n - 1);
		p += w;
		if (*p == '\n')
			break;
	}
	return NULL;
}

/* ---- states: one word table each ---- */

static const char *const campaign_words[CAMPAIGN_NSTATES] = {
	[CAMPAIGN_NEW] = "new", [CAMPAIGN_RUNNING] = "running", [CAMPAIGN_STOPPED] = "stopped",
	[CAMPAIGN_FAILED] = "failed", [CAMPAIGN_DONE] = "done",
};
static const char *const slot_words[SLOT_NSTATES] = {
	[SLOT_PENDING] = "pending", [SLOT_BOOTING] = "booting", [SLOT_RUNNING] = "running", [SLOT_DONE] = "done",
	[SLOT_FAILED] = "failed", [SLOT_INTERRUPTED] = "interrupted", [SLOT_SKIPPED] = "skipped",
};

static int word_index(const char *const *words, int n, const char *w)
{
	for (int i = 0; w && i < n; i++)
		if (!strcmp(words[i], w))
			return i;
	return -1;
}

const char *campaign_state_word(enum campaign_state s)
{
	return (unsigned)s < CAMPAIGN_NSTATES ? campaign_words[s] : "?";
}
int campaign_state_of(const char *word)
{
	return word_index(campaign_words, CAMPAIGN_NSTATES, word);
}
const char *slot_state_word(enum slot_state s)
{
	return (unsigned)s < SLOT_NSTATES ? slot_words[s] : "?";
}
int slot_state_of(const char *word)
{
	return word_index(slot_words, SLOT_NSTATES, word);
}

/* ---- the backend table ---- */

#define CAMPAIGN_BACKEND_ENTRY(n) &campaign_backend_##n,
static const struct campaign_backend *const table[] = {
	CAMPAIGN_BACKENDS(CAMPAIGN_BACKEND_ENTRY, CAMPAIGN_BACKEND_ENTRY, CAMPAIGN_BACKEND_ENTRY)};
#undef CAMPAIGN_BACKEND_ENTRY
#define NBACKENDS (sizeof table / sizeof table[0])

const struct campaign_backend *campaign_backend_find(const char *name)
{
	for (size_t i = 0; name && i < NBACKENDS; i++)
		if (!strcmp(table[i]->name, name))
			return table[i];
	return NULL;
}

bool campaign_backend_emulates(const char *backend, const char *accel)
{
	const struct campaign_backend *be = backend ? campaign_backend_find(backend) : NULL;
	return be && be->emulates && be->emulates(accel);
}

const char *campaign_backend_names(void)
{
	return CAMPAIGN_BACKEND_NAMES;
}

int campaign_name_check(const char *name, struct err *e)
{
	if (!name || !*name || strlen(name) > 64 ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != strlen(name) ||
	    name[0] == '.')
		return errf(e, "campaign name '%s': use 1-64 letters, digits, '_', '.' or '-' (not first '.')",
			    name ? name : "");
	return 0;
}

char *campaign_stop_path(const char *db_path, const char *name)
{
	return xasprintf("%s.%s.stop", db_path, name);
}

/* ---- options ---- */

int campaign_duet_set(const struct campaign *c, int i)
{
	return (c->r.slots[i].config + c->r.slots[i].block) % 2;
}

bool campaign_is_duet(const struct campaign *c)
{
	return c->be && c->be->duet && c->be->duet(&c->opts);
}

int campaign_guest_nodes(const struct campaign *c)
{
	int n = c->be && c->be->nodes ? c->be->nodes(&c->opts) : 1;
	return n > 1 ? n : 1;
}

/* o's generic options and its backend's from the options object j. */
static void opts_read(const struct campaign_backend *be, const json_t *j, struct campaign_opts *o)
{
	memset(o, 0, sizeof *o);
	const char *s;
	if ((s = json_string_value(json_object_get(j, "unit_dir"))))
		o->unit_dir = xstrdup(s);
	o->max_failures = (int)json_integer_value(json_object_get(j, "max_failures"));
	o->settle_load = json_number_value(json_object_get(j, "settle_load"));
	o->settle_timeout_s = (int)json_integer_value(json_object_get(j, "settle_timeout_s"));
	if (o->max_failures <= 0)
		o->max_failures = 2;
	if (!(o->settle_load > 0))
		o->settle_load = 1.0;
	if (o->settle_timeout_s < 0)
		o->settle_timeout_s = 0;
	if (!o->unit_dir)
		o->unit_dir = xstrdup("/etc/systemd/system");
	o->bk = be;
	if (be && be->opts_size) {
		o->be = xcalloc(1, be->opts_size);
		be->opts_read(o->be, j);
	}
}

void campaign_opts_parse(const struct campaign_backend *be, const char *json, struct campaign_opts *o)
{
	json_t *j = json_loads(json ? json : "{}", 0, NULL);
	if (!json_is_object(j)) {
		json_decref(j);
		j = json_object();
	}
	opts_read(be, j, o);
	json_decref(j);
}

char *campaign_opts_json(const struct campaign_opts *o)
{
	json_t *j = json_object();
	if (o->be)
		o->bk->opts_write(o->be, j);
	json_object_set_new(j, "max_failures", json_integer(o->max_failures));
	json_object_set_new(j, "settle_load", json_real(o->settle_load));
	json_object_set_new(j, "settle_timeout_s", json_integer(o->settle_timeout_s));
	if (o->unit_dir)
		json_object_set_new(j, "unit_dir", json_string(o->unit_dir));
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(j);
	char *r = xstrdup(s);
	free(s);
	return r;
}

void campaign_opts_free(struct campaign_opts *o)
{
	if (o->be && o->bk->opts_free)
		o->bk->opts_free(o->be);
	free(o->be);
	free(o->unit_dir);
	memset(o, 0, sizeof *o);
}

/* ---- creation ---- */

static uint64_t random_seed(void)
{
	uint64_t v = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, &v, sizeof v) != (ssize_t)sizeof v)
		v = clock_wall_ns() ^ ((uint64_t)getpid() << 32);
	if (fd >= 0)
		close(fd);
	return v >> 1; /* fits SQLite's signed integer */
}

static void random_uuid(char out[33])
{
	uint64_t a = random_seed(), b = random_seed();
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
}

int campaign_path_check(const char *what, const char *p, bool abs, struct err *e)
{
	if (!p)
		return 0;
	if (!*p || !text_is_clean(p, false) || strlen(p) > 4000 || (abs && p[0] != '/'))
		return errf(e, "%s '%s': give %sprintable text without newlines", what, p, abs ? "an absolute path of " : "");
	return 0;
}

/* The backend whose parse_opt takes option --name (arg), or NULL. */
static const struct campaign_backend *opt_owner(const char *name, const char *arg)
{
	for (size_t i = 0; i < NBACKENDS; i++) {
		const struct campaign_backend *b = table[i];
		if (!b->parse_opt)
			continue;
		void *scratch = xcalloc(1, b->opts_size);
		json_t *j = json_object();
		b->opts_read(scratch, j);
		json_decref(j);
		struct err ig;
		int r = b->parse_opt(scratch, name, arg, &ig);
		if (b->opts_free)
			b->opts_free(scratch);
		free(scratch);
		if (r <= 0)
			return b;
	}
	return NULL;
}

/* Refuse --name arg, an option backend be does not take, naming the backend that does. */
static int opt_refuse(const struct campaign_backend *be, const char *name, const char *arg, struct err *e)
{
	const struct campaign_backend *o = opt_owner(name, arg);
	const char *owner = o ? o->name : "another";
	if (o && (o->caps & CB_NUMA) && !(be->caps & CB_NUMA) && !strcmp(name, "numa"))
		return errf(e, "--numa %s: NUMA nodes are given to %s guests; the %s backend boots the machine's own, so "
			       "leave --numa out (or use --backend %s)",
			    arg, owner, be->name, owner);
	if (o && (o->caps & CB_DUET) && !(be->caps & CB_DUET) && !strcmp(name, "duet"))
		return errf(e, "--duet: two guests booted at once are %s guests; the %s backend boots this machine "
			       "itself, one kernel at a time, so leave --duet out (or use --backend %s)",
			    owner, be->name, owner);
	return errf(e, "--%s: an option of the %s backend; the %s backend has no such option, so leave it out (or use "
		       "--backend %s)",
		    name, owner, be->name, owner);
}

/* The options of spec sp as they will be read back from the store: its generic ones, its backend
 * options parsed by be (one be does not take is refused), be's defaults of `new`, through their
 * JSON. 0 (free *o with campaign_opts_free), or -1 with e naming the option and *o empty. */
static int spec_opts(const struct campaign_backend *be, const struct campaign_spec *sp, struct campaign_opts *o,
		     struct err *e)
{
	struct campaign_opts g = sp->opts; /* borrowed: only g.be is its own */
	g.bk = be;
	g.be = NULL;
	int rc = -1;
	memset(o, 0, sizeof *o);
	if (be->opts_size) {
		g.be = xcalloc(1, be->opts_size);
		json_t *j = json_object();
		be->opts_read(g.be, j);
		json_decref(j);
	}
	for (size_t i = 0; i + 1 < sp->be_args.n; i += 2) {
		const char *name = sp->be_args.v[i], *arg = sp->be_args.v[i + 1];
		int r = be->parse_opt ? be->parse_opt(g.be, name, arg, e) : 1;
		if (r < 0 || (r > 0 && opt_refuse(be, name, arg, e)))
			goto out;
	}
	if (be->new_defaults)
		be->new_defaults(g.be, sp->self);
	char *j = campaign_opts_json(&g);
	campaign_opts_parse(be, j, o);
	free(j);
	rc = 0;
out:
	if (g.be && be->opts_free)
		be->opts_free(g.be);
	free(g.be);
	return rc;
}

int campaign_create(struct store *st, struct campaign_spec *sp, struct err *e)
{
	const struct campaign_backend *be = campaign_backend_find(sp->backend);
	if (!be)
		return errf(e, "--backend: give %s", campaign_backend_names());
	if (campaign_name_check(sp->name, e))
		return -1;
	if (sp->nconfigs < 1)
		return errf(e, "give at least one --config 'KEY=VALUE ...' (its labels), each followed by how to boot it");
	if (sp->boots < 1)
		return errf(e, "--boots: give the boots per configuration (at least 1; 2 or more for a verdict)");
	if (sp->runs < 1)
		return errf(e, "--runs: give the runs per boot (at least 1)");
	if (campaign_path_check("--unit-dir", sp->opts.unit_dir, true, e))
		return -1;
	struct campaign_opts o;
	if (spec_opts(be, sp, &o, e))
		return -1;
	int rc = -1;
	if (be->check_opts && be->check_opts(&o, sp->nconfigs, true, e))
		goto out;
	for (size_t i = 0; i < sp->nconfigs; i++) {
		const struct store_campaign_config *k = &sp->configs[i];
		for (size_t j = 0; j < i; j++)
			if (!strcmp(sp->configs[j].labels, k->labels)) {
				errf(e, "--config '%s' is given twice; each configuration needs its own labels", k->name);
				goto out;
			}
		if (be->check_config(NULL, k, e))
			goto out;
	}
	if (!sp->seed_given)
		sp->seed = random_seed();
	int nslots = (int)sp->nconfigs * sp->boots;
	int *order = xcalloc((size_t)nslots, sizeof *order);
	campaign_schedule(sp->seed, (int)sp->nconfigs, sp->boots, order);
	struct store_campaign c = {0};
	char uuid[33];
	random_uuid(uuid);
	json_t *args = json_array();
	for (size_t i = 0; i < sp->run_args.n; i++)
		json_array_append_new(args, json_string(sp->run_args.v[i]));
	char *args_json = json_dumps(args, JSON_COMPACT);
	json_decref(args);
	char *opts_json = campaign_opts_json(&o);
	c.name = (char *)sp->name;
	c.uuid = uuid;
	c.backend = (char *)be->name;
	c.seed = sp->seed;
	c.boots = sp->boots;
	c.runs = sp->runs;
	c.run_args = args_json;
	c.options = opts_json;
	c.state = (char *)campaign_state_word(CAMPAIGN_NEW);
	c.created_ns = clock_wall_ns();
	c.configs = sp->configs;
	c.nconfigs = sp->nconfigs;
	c.slots = xcalloc((size_t)nslots, sizeof *c.slots);
	c.nslots = (size_t)nslots;
	for (int i = 0; i < nslots; i++) {
		c.slots[i].slot = i;
		c.slots[i].block = i / (int)sp->nconfigs;
		c.slots[i].config = order[i];
		c.slots[i].state = (char *)slot_state_word(SLOT_PENDING);
	}
	c.adaptive = sp->adaptive;
	rc = store_campaign_create(st, &c, e);
	free(c.slots);
	free(order);
	free(args_json);
	free(opts_json);
out:
	campaign_opts_free(&o);
	return rc;
}

/* ---- loading: every field a driver or a report uses is checked here ---- */

/* Free what campaign_validate derived from c->r, not c->r itself. */
static void campaign_free_derived(struct campaign *c)
{
	for (size_t i = 0; c->labels && i < c->r.nconfigs; i++)
		kv_free(&c->labels[i]);
	free(c->labels);
	free(c->slot);
	strv_free(&c->run_args);
	campaign_opts_free(&c->opts);
}

void campaign_free(struct campaign *c)
{
	if (!c)
		return;
	campaign_free_derived(c);
	store_campaign_free(&c->r);
	memset(c, 0, sizeof *c);
}

/* How many runs one `sysab run` of c stores: 1, or with --nodes one per node it names. "all"
 * is the guest's --numa nodes under qemu, else this machine's nodes with CPUs (the
 * self-rebooting backends run on the machine they campaign on). A spec the run itself would
 * refuse counts 1: that run stores nothing, and its slot fails for it. */
static int campaign_per_run(const struct campaign *c)
{
	const char *spec = NULL;
	for (size_t i = 0; i < c->run_args.n; i++) {
		const char *a = c->run_args.v[i];
		if (!strcmp(a, "--nodes") && i + 1 < c->run_args.n)
			spec = c->run_args.v[i + 1];
		else if (!strncmp(a, "--nodes=", 8))
			spec = a + 8;
	}
	if (!spec)
		return 1;
	if (strcmp(spec, "all")) {
		bool set[1024] = {false};
		int n = node_parse_list(spec, set, 1024);
		return n > 0 ? n : 1;
	}
	if (c->be->caps & CB_NUMA) /* the guest's own nodes */
		return campaign_guest_nodes(c);
	struct node_topo t = {0};
	struct err ig;
	int n = 0;
	if (!node_topo_read(&t, &ig))
		for (size_t k = 0; k < t.n; k++)
			n += t.v[k].ncpus > 0;
	node_topo_free(&t);
	return n > 0 ? n : 1;
}

/* The checks of campaign_load on a record already read; -1 with e naming the field.
 * Long by design: one check per field of the record, in the record's order. */
static int campaign_validate(struct campaign *c, struct err *e)
{
	struct store_campaign *r = &c->r;
	int s;
	if (campaign_name_check(r->name, e))
		return -1;
	if (!(c->be = campaign_backend_find(r->backend)))
		return errf(e, "backend '%s' is none of %s", r->backend, campaign_backend_names());
	if ((s = campaign_state_of(r->state)) < 0)
		return errf(e, "state '%s' is no campaign state", r->state);
	c->state = (enum campaign_state)s;
	if (r->boots < 1 || r->runs < 1 || r->runs > 100000)
		return errf(e, "boots %d and runs %d: each must be at least 1", r->boots, r->runs);
	json_error_t je;
	json_t *a = json_loads(r->run_args ? r->run_args : "", 0, &je);
	bool ok = json_is_array(a);
	for (size_t i = 0; ok && i < json_array_size(a); i++) {
		const char *v = json_string_value(json_array_get(a, i));
		ok = v && text_is_clean(v, false);
		if (ok)
			strv_add(&c->run_args, v);
	}
	json_decref(a);
	if (!ok)
		return errf(e, "run_args is not a JSON array of printable strings");
	a = json_loads(r->options ? r->options : "", 0, &je);
	ok = json_is_object(a);
	json_decref(a);
	if (!ok)
		return errf(e, "options is not a JSON object");
	campaign_opts_parse(c->be, r->options, &c->opts);
	if (campaign_path_check("unit_dir", c->opts.unit_dir, true, e))
		return -1;
	if (c->be->check_opts && c->be->check_opts(&c->opts, r->nconfigs, false, e))
		return -1;
	c->per_run = campaign_per_run(c);
	if (!r->nconfigs)
		return errf(e, "it has no configuration");
	c->labels = xcalloc(r->nconfigs, sizeof *c->labels);
	for (size_t i = 0; i < r->nconfigs; i++) {
		const struct store_campaign_config *k = &r->configs[i];
		if (!k->name || !text_is_clean(k->name, false))
			return errf(e, "configuration %zu has no printable name", i);
		a = json_loads(k->labels ? k->labels : "", 0, &je);
		ok = json_is_object(a) && json_object_size(a) > 0;
		const char *key;
		json_t *v;
		json_object_foreach(a, key, v)
		{
			struct err ig;
			if (!json_is_string(v) || label_check_key(key, &ig) ||
			    label_check_value(key, json_string_value(v), &ig)) {
				ok = false;
				break;
			}
			kv_add(&c->labels[i], key, json_string_value(v));
		}
		json_decref(a);
		if (!ok)
			return errf(e, "configuration %zu ('%s'): labels are not a JSON object of valid labels", i,
				    k->name);
		if (campaign_path_check("kernel", k->kernel, false, e) || campaign_path_check("initrd", k->initrd, false, e) ||
		    campaign_path_check("append", k->append, false, e) || campaign_path_check("entry", k->entry, false, e) ||
		    campaign_path_check("command", k->command, false, e) || c->be->check_config(c, k, e)) {
			err_prefix(e, "configuration %zu", i);
			return -1;
		}
	}
	if (r->nslots != r->nconfigs * (size_t)r->boots)
		return errf(e, "%zu slots, but %zu configurations x %d boots", r->nslots, r->nconfigs, r->boots);
	c->slot = xcalloc(r->nslots, sizeof *c->slot);
	for (size_t i = 0; i < r->nslots; i++) {
		struct store_campaign_slot *x = &r->slots[i];
		if (x->slot != (int)i)
			return errf(e, "slot %zu is numbered %d", i, x->slot);
		if (x->config < 0 || (size_t)x->config >= r->nconfigs)
			return errf(e, "slot %zu names configuration %d, but there are %zu (0 to %zu)", i, x->config,
				    r->nconfigs, r->nconfigs - 1);
		if ((s = slot_state_of(x->state)) < 0)
			return errf(e, "slot %zu: state '%s' is no slot state", i, x->state);
		c->slot[i] = (enum slot_state)s;
		if ((x->reason && !text_is_clean(x->reason, false)) || (x->boot_id && !text_is_clean(x->boot_id, false)))
			return errf(e, "slot %zu: reason or boot id is not printable text", i);
	}
	return 0;
}

int campaign_record_check(const struct store_campaign *r, struct err *e)
{
	struct campaign c = {.r = *r}; /* borrowed: only what validation derives is freed */
	int rc = campaign_validate(&c, e);
	campaign_free_derived(&c);
	return rc;
}

int campaign_load(struct store *st, const char *name, struct campaign *c, struct err *e)
{
	memset(c, 0, sizeof *c);
	if (campaign_name_check(name, e) || store_campaign_get(st, name, &c->r, e))
		return -1;
	if (campaign_validate(c, e)) {
		err_prefix(e, "campaign '%s' in %s is damaged (hand-edited or imported)", name, store_path(st));
		campaign_free(c);
		return -1;
	}
	if (store_campaign_nodes(st, name, &c->run_nodes, e)) {
		campaign_free(c);
		return -1;
	}
	return 0;
}

/* ---- the view of `campaign show` ---- */

static bool slot_final(enum slot_state s)
{
	return s == SLOT_DONE || s == SLOT_FAILED || s == SLOT_SKIPPED;
}

/* Is slot i still to boot: pending, booting, running, or interrupted with a retry left? */
static bool slot_to_boot(const struct campaign *c, size_t i)
{
	enum slot_state s = c->slot[i];
	return s == SLOT_PENDING || s == SLOT_BOOTING || s == SLOT_RUNNING ||
	       (s == SLOT_INTERRUPTED && c->r.slots[i].attempts <= CAMPAIGN_RETRIES);
}

bool campaign_slot_rearmable(const struct campaign *c, int i)
{
	enum slot_state s = c->slot[i];
	int per = c->per_run > 0 ? c->per_run : 1;
	bool ended = s == SLOT_FAILED || s == SLOT_SKIPPED ||
		     (s == SLOT_INTERRUPTED && c->r.slots[i].attempts > CAMPAIGN_RETRIES);
	return ended && campaign_slot_remaining(c, i) > 0 && c->r.slots[i].nruns % per == 0;
}

int campaign_next_slot(const struct campaign *c)
{
	for (size_t i = 0; i < c->r.nslots; i++)
		if (slot_to_boot(c, i))
			return (int)i;
	return -1;
}

int campaign_duet_partner(const struct campaign *c, int i)
{
	for (size_t k = 0; campaign_is_duet(c) && k < c->r.nslots; k++)
		if ((int)k != i && c->r.slots[k].block == c->r.slots[i].block && slot_to_boot(c, k))
			return (int)k;
	return -1;
}

/* The configurations being sorted by campaign_view, for its qsort callback. */
struct config_sort {
	size_t i;
	const char *name;
};
static int config_cmp(const void *a, const void *b)
{
	const struct config_sort *x = a, *y = b;
	int d = strcmp(x->name, y->name);
	return d ? d : x->i < y->i ? -1 : x->i > y->i;
}

void campaign_view(const struct campaign *c, bool slots, struct campaign_view *v)
{
	memset(v, 0, sizeof *v);
	v->c = c;
	v->slots = slots;
	struct config_sort *cs = xcalloc(c->r.nconfigs, sizeof *cs);
	for (size_t i = 0; i < c->r.nconfigs; i++)
		cs[i] = (struct config_sort){i, c->r.configs[i].name};
	qsort(cs, c->r.nconfigs, sizeof *cs, config_cmp);
	v->config_order = xcalloc(c->r.nconfigs, sizeof *v->config_order);
	for (size_t i = 0; i < c->r.nconfigs; i++)
		v->config_order[i] = cs[i].i;
	free(cs);
	uint64_t spent = 0;
	for (size_t i = 0; i < c->r.nslots; i++) {
		const struct store_campaign_slot *x = &c->r.slots[i];
		v->done += c->slot[i] == SLOT_DONE;
		v->failed += c->slot[i] == SLOT_FAILED;
		v->skipped += c->slot[i] == SLOT_SKIPPED;
		v->left += !slot_final(c->slot[i]);
		if (c->slot[i] == SLOT_DONE && x->started_ns && x->finished_ns > x->started_ns)
			spent += x->finished_ns - x->started_ns;
	}
	if (v->done) {
		v->s_per_boot = (double)spent / (double)v->done / 1e9;
		v->min_left = v->s_per_boot * (double)v->left / 60;
	}
	v->next = c->state == CAMPAIGN_DONE ? -1 : campaign_next_slot(c);
	v->duet = campaign_is_duet(c);
	v->guest_nodes = 1;
	if (v->duet) {
		v->duet_set = xcalloc(c->r.nslots, sizeof *v->duet_set);
		for (size_t i = 0; i < c->r.nslots; i++)
			v->duet_set[i] = campaign_duet_set(c, (int)i);
	}
	if (c->be->view)
		c->be->view(c, v);
}

void campaign_view_free(struct campaign_view *v)
{
	free(v->duet_set);
	v->duet_set = NULL;
	free(v->config_order);
	v->config_order = NULL;
}

/* ---- what the driver and the backends share ---- */

void campaign_slot_set(struct campaign *c, int i, enum slot_state s, char *reason)
{
	struct store_campaign_slot *x = &c->r.slots[i];
	c->slot[i] = s;
	free(x->state);
	x->state = xstrdup(slot_state_word(s));
	free(x->reason);
	x->reason = reason;
}

int campaign_slot_save(const struct campaign_ctx *x, int i, struct err *e)
{
	return store_campaign_slot_put(x->env->st, x->c->r.id, &x->c->r.slots[i], e);
}

void campaign_slot_interrupted(struct campaign *c, int i, const char *why)
{
	struct store_campaign_slot *s = &c->r.slots[i];
	if (campaign_slot_remaining(c, i) == 0)
		campaign_slot_set(c, i, SLOT_DONE, NULL);
	else if (s->attempts <= CAMPAIGN_RETRIES)
		campaign_slot_set(c, i, SLOT_INTERRUPTED, xasprintf("%s; retried once, for its %d missing runs", why,
								    campaign_slot_remaining(c, i)));
	else
		campaign_slot_set(c, i, SLOT_SKIPPED, xasprintf("interrupted again on its retry; skipped (%s)", why));
	s->finished_ns = clock_wall_ns();
}

int campaign_slot_remaining(const struct campaign *c, int i)
{
	int per = c->per_run > 0 ? c->per_run : 1, n = c->r.runs * per - c->r.slots[i].nruns;
	return n > 0 ? n : 0;
}

int campaign_slot_invocations(const struct campaign *c, int i)
{
	int per = c->per_run > 0 ? c->per_run : 1;
	return (campaign_slot_remaining(c, i) + per - 1) / per;
}

int campaign_attach_db(const struct campaign_ctx *x, int i, const char *path, const struct kvlist *tags,
		       size_t *added, struct err *e)
{
	const struct campaign *c = x->c;
	struct store *sl = NULL;
	struct store_run_info *runs = NULL;
	size_t n = 0;
	int rc = -1;
	*added = 0;
	if (store_open(path, STORE_RW, &sl, e) || store_runs_list_bare(sl, &runs, &n, e))
		goto out;
	/* the campaign and the slot's links go into the slot's own database first */
	struct store_campaign copy = c->r;
	struct err ig;
	struct store_campaign have;
	if (store_campaign_get(sl, c->r.name, &have, &ig) == 0)
		store_campaign_free(&have);
	else if (store_campaign_create(sl, &copy, e))
		goto out;
	struct store_campaign mine;
	if (store_campaign_get(sl, c->r.name, &mine, e))
		goto out;
	int64_t id = mine.id;
	store_campaign_free(&mine);
	for (size_t k = 0; k < n; k++) {
		if (store_campaign_add_run(sl, id, i, runs[k].id, e))
			goto out;
		for (size_t t = 0; tags && t < tags->n; t++)
			if (store_run_env(sl, runs[k].id, tags->v[t].key, tags->v[t].value, e))
				goto out;
	}
	store_close(sl);
	sl = NULL;
	struct import_db_result res;
	if (import_db_file(x->env->st, path, campaign_record_check, &res, e))
		goto out;
	*added = res.nruns;
	x->c->r.slots[i].nruns += (int)res.nruns;
	import_db_result_free(&res);
	rc = 0;
out:
	store_runs_free(runs, n);
	store_close(sl);
	return rc;
}

char *campaign_slot_file(const struct campaign_ctx *x, int i, const char *ext)
{
	return xasprintf("%s.campaign-%s.slot%d.try%d.%s", x->env->db_path, x->c->r.name, i, x->c->r.slots[i].attempts,
			 ext);
}

int campaign_write_new(const char *path, mode_t mode, const char *a, size_t alen, const char *b, size_t blen, struct err *e)
{
	unlink(path); /* removes a planted symlink itself, never its target */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0 || (alen && write(fd, a, alen) != (ssize_t)alen) || (blen && write(fd, b, blen) != (ssize_t)blen)) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		return errf(e, "%s: cannot write: %s", path, strerror(err));
	}
	close(fd);
	return 0;
}

void campaign_sh_quote(struct sb *b, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == strlen(s)) {
		sb_add(b, s);
		return;
	}
	sb_add(b, "'");
	for (; *s; s++)
		if (*s == '\'')
			sb_add(b, "'\\''");
		else
			sb_addn(b, s, 1);
	sb_add(b, "'");
}

void campaign_cmd_print(const struct campaign_ctx *x, const struct campaign_cmd *cmd)
{
	struct sb b = {0};
	for (size_t i = 0; i < cmd->envp.n; i++) {
		const char *eq = strchr(cmd->envp.v[i], '=');
		sb_addn(&b, cmd->envp.v[i], (size_t)(eq - cmd->envp.v[i] + 1));
		campaign_sh_quote(&b, eq + 1);
		sb_add(&b, " ");
	}
	for (size_t i = 0; i < cmd->argv.n; i++) {
		if (i)
			sb_add(&b, " ");
		campaign_sh_quote(&b, cmd->argv.v[i]);
	}
	fprintf(x->env->out, "  would run: %s\n", sb_str(&b));
	sb_free(&b);
}

struct campaign_cmd *campaign_cmds_add(struct campaign_cmds *l, bool shutdown)
{
	l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v);
	struct campaign_cmd *c = &l->v[l->n++];
	memset(c, 0, sizeof *c);
	c->shutdown = shutdown;
	return c;
}

void campaign_cmds_free(struct campaign_cmds *l)
{
	for (size_t i = 0; i < l->n; i++) {
		strv_free(&l->v[i].argv);
		strv_free(&l->v[i].envp);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}

char *campaign_kernel_release(const char *image)
{
	if (!image)
		return NULL;
	unsigned char h[0x210];
	char *rel = NULL;
	int fd = open(image, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && pread(fd, h, sizeof h, 0) == (ssize_t)sizeof h && !memcmp(h + 0x202, "HdrS", 4)) {
		/* x86 boot protocol: kernel_version at 0x20e points to "RELEASE (builder) #1 ..." */
		unsigned off = (unsigned)h[0x20e] | (unsigned)h[0x20f] << 8;
		char v[128] = {0};
		if (off && pread(fd, v, sizeof v - 1, (off_t)off + 0x200) > 0) {
			size_t n = strcspn(v, " ");
			if (n && n < sizeof v - 1 && text_is_clean(v, false))
				rel = xstrndup(v, n);
		}
	}
	if (fd >= 0)
		close(fd);
	if (rel)
		return rel;
	const char *base = strrchr(image, '/');
	base = base ? base + 1 : image;
	static const char *const prefixes[] = {"vmlinuz-", "vmlinux-", "Image-"};
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (!strncmp(base, prefixes[i], strlen(prefixes[i])) && base[strlen(prefixes[i])])
			return xstrdup(base + strlen(prefixes[i]));
	return NULL;
}

void campaign_note(const struct campaign_ctx *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(x->env->out, "campaign %s: ", x->c->r.name);
	vfprintf(x->env->out, fmt, ap);
	fputc('\n', x->env->out);
	fflush(x->env->out);
	va_end(ap);
}
