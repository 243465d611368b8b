/* node.c - per-node runs: the NUMA topology from sysfs, binding a process to a node, the placement checks. */
#include "node.h"
#include "core/testhooks.h"
#include "workloads/workload.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The memory policy calls, made directly (no libnuma). */
#define NODE_MPOL_BIND 2
#define NODE_MPOL_F_MEMS_ALLOWED (1 << 2)
#define LONG_BITS (8 * sizeof(unsigned long))

int node_parse_list(const char *s, bool *set, int max)
{
	int n = 0;
	const char *p = s;
	if (!s)
		return -1;
	while (*p && *p != '\n') {
		char *end;
		if (*p < '0' || *p > '9')
			return -1;
		long a = strtol(p, &end, 10), b = a;
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return -1;
			b = strtol(end + 1, &end, 10);
		}
		if (a > b || b >= max)
			return -1;
		for (long i = a; i <= b; i++)
			if (!set[i]) {
				set[i] = true;
				n++;
			}
		if (*end == ',')
			end++;
		else if (*end && *end != '\n')
			return -1;
		p = end;
	}
	return n;
}

static char *topo_file(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	char *s = read_text_file(p);
	free(p);
	return s;
}

void node_topo_free(struct node_topo *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].cpus);
		free(t->v[i].cpulist);
	}
	free(t->v);
	free(t->dir);
	memset(t, 0, sizeof *t);
}

/* node with the CPUs of cpulist (NULL: none). */
static void topo_add(struct node_topo *t, int id, const char *cpulist, bool memory)
{
	struct node_info *nd = &t->v[t->n++];
	bool *set = xcalloc(NODE_MAX, sizeof *set);
	nd->id = id;
	nd->mem_id = id;
	nd->memory = memory;
	nd->cpulist = xstrdup(cpulist && node_parse_list(cpulist, set, NODE_MAX) > 0 ? cpulist : "");
	nd->cpus = xcalloc(NODE_MAX, sizeof *nd->cpus);
	for (int c = 0; c < NODE_MAX; c++)
		if (set[c])
			nd->cpus[nd->ncpus++] = c;
	free(set);
}

int node_topo_read(struct node_topo *t, struct err *e)
{
	memset(t, 0, sizeof *t);
	const char *seam = testhooks()->node_sysfs;
	t->dir = xstrdup(seam && *seam ? seam : "/sys/devices/system/node");
	struct stat sb;
	t->v = xcalloc(NODE_MAX, sizeof *t->v);
	if (stat(t->dir, &sb) < 0) {
		/* no NUMA in this kernel: one node with every CPU */
		long n = sysconf(_SC_NPROCESSORS_CONF);
		char *all = n > 1 ? xasprintf("0-%ld", n - 1) : xstrdup("0");
		topo_add(t, 0, all, true);
		free(all);
		return 0;
	}
	bool *online = xcalloc(NODE_MAX, sizeof *online), *mem = xcalloc(NODE_MAX, sizeof *mem);
	char *s = topo_file(t->dir, "online");
	char *m = topo_file(t->dir, "has_memory");
	int rc = 0;
	if (node_parse_list(s, online, NODE_MAX) <= 0) {
		rc = errf(e, "%s/online does not list the online NUMA nodes (it reads '%s')", t->dir, s ? s : "nothing");
		goto out;
	}
	bool mem_known = m && node_parse_list(m, mem, NODE_MAX) >= 0;
	for (int i = 0; i < NODE_MAX; i++) {
		if (!online[i])
			continue;
		char *name = xasprintf("node%d/cpulist", i);
		char *cl = topo_file(t->dir, name);
		topo_add(t, i, cl, mem_known ? mem[i] : true);
		free(cl);
		free(name);
		if (seam && *seam) { /* the test seam's node may stand for a real one */
			name = xasprintf("node%d/sysab_bind", i);
			char *as = topo_file(t->dir, name);
			bool one[NODE_MAX] = {0};
			if (as && node_parse_list(as, one, NODE_MAX) == 1)
				for (int k = 0; k < NODE_MAX; k++)
					if (one[k])
						t->v[t->n - 1].mem_id = k;
			free(as);
			free(name);
		}
	}
out:
	free(s);
	free(m);
	free(online);
	free(mem);
	if (rc)
		node_topo_free(t);
	return rc;
}

/* "0 (CPUs 0-3), 1 (CPUs 4-7)": the nodes of t, for messages. */
static void topo_describe(const struct node_topo *t, struct sb *b)
{
	for (size_t i = 0; i < t->n; i++)
		sb_addf(b, "%s%d (%s%s)", i ? ", " : "", t->v[i].id, t->v[i].ncpus ? "CPUs " : "no CPUs",
			t->v[i].cpulist);
}

static ssize_t topo_find(const struct node_topo *t, int id)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].id == id)
			return (ssize_t)i;
	return -1;
}

int node_select(const struct node_topo *t, const char *spec, size_t **sel, size_t *n, struct err *e)
{
	*sel = xcalloc(t->n, sizeof **sel);
	*n = 0;
	struct sb d = {0};
	int rc = 0;
	topo_describe(t, &d);
	if (!strcmp(spec, "all")) {
		for (size_t i = 0; i < t->n; i++)
			if (t->v[i].ncpus)
				(*sel)[(*n)++] = i;
		rc = *n < 2; /* one node (or none with CPUs): that one */
		goto out;
	}
	bool *set = xcalloc(NODE_MAX, sizeof *set);
	if (node_parse_list(spec, set, NODE_MAX) <= 0) {
		rc = errf(e, "--nodes %s: not a node list; give all or node ids like 0 or 0,2 (this machine's nodes: %s)",
			  spec, sb_str(&d));
	} else {
		for (int id = 0; id < NODE_MAX && !rc; id++) {
			if (!set[id])
				continue;
			ssize_t k = topo_find(t, id);
			if (k < 0)
				rc = errf(e, "--nodes %s: there is no node %d here; this machine's nodes: %s", spec, id,
					  sb_str(&d));
			else if (!t->v[k].ncpus)
				rc = errf(e, "--nodes %s: node %d has memory but no CPUs to run on; nodes: %s", spec, id,
					  sb_str(&d));
			else
				(*sel)[(*n)++] = (size_t)k;
		}
		if (rc)
			*n = 0;
	}
	free(set);
out:
	sb_free(&d);
	return rc;
}

int node_bind(const struct node_info *nd, char **policy, long *unmoved, char *why, size_t n)
{
	*policy = NULL;
	*unmoved = 0;
	if (!nd->memory) {
		snprintf(why, n, "node %d has no memory of its own to bind to", nd->id);
		return WL_UNSUPPORTED;
	}
	if (nd->mem_id >= NODE_MAX - 1) {
		snprintf(why, n, "node %d is beyond the %d nodes sysab can bind", nd->mem_id, NODE_MAX - 1);
		return WL_UNSUPPORTED;
	}
	cpu_set_t cs;
	CPU_ZERO(&cs);
	for (int i = 0; i < nd->ncpus; i++)
		if (nd->cpus[i] < CPU_SETSIZE)
			CPU_SET(nd->cpus[i], &cs);
	if (sched_setaffinity(0, sizeof cs, &cs) < 0) {
		snprintf(why, n, "cannot pin to node %d's CPUs %s: sched_setaffinity: %s", nd->id, nd->cpulist,
			 strerror(errno));
		return WL_UNSUPPORTED;
	}
	unsigned long mask[NODE_MAX / LONG_BITS] = {0}, all[NODE_MAX / LONG_BITS] = {0};
	mask[nd->mem_id / LONG_BITS] = 1ul << (nd->mem_id % LONG_BITS);
	if (syscall(SYS_set_mempolicy, NODE_MPOL_BIND, mask, (unsigned long)NODE_MAX) < 0) {
		snprintf(why, n, "cannot bind memory to node %d: set_mempolicy(MPOL_BIND): %s", nd->mem_id, strerror(errno));
		return WL_UNSUPPORTED;
	}
	/* what was allocated before (the heap, the database's cache) moves along, from every node
	 * this process may use (a mask of more nodes than the kernel has is refused) */
	if (syscall(SYS_get_mempolicy, NULL, all, (unsigned long)NODE_MAX, NULL, NODE_MPOL_F_MEMS_ALLOWED) < 0) {
		snprintf(why, n, "cannot read the nodes this process may use: get_mempolicy: %s", strerror(errno));
		return WL_UNSUPPORTED;
	}
	long r = syscall(SYS_migrate_pages, 0, (unsigned long)NODE_MAX, all, mask);
	if (r < 0) {
		snprintf(why, n, "cannot move this process's pages to node %d: migrate_pages: %s", nd->mem_id, strerror(errno));
		return WL_UNSUPPORTED;
	}
	*unmoved = r;
	int mode = -1;
	unsigned long got[NODE_MAX / LONG_BITS] = {0};
	if (syscall(SYS_get_mempolicy, &mode, got, (unsigned long)NODE_MAX, NULL, 0ul) < 0 || mode != NODE_MPOL_BIND ||
	    memcmp(got, mask, sizeof got)) {
		snprintf(why, n, "the memory policy does not read back as bound to node %d (get_mempolicy: %s)", nd->mem_id,
			 mode < 0 ? strerror(errno) : "another policy");
		return WL_UNSUPPORTED;
	}
	*policy = xasprintf("bind:%d", nd->mem_id);
	return 0;
}

void node_place_cpu(struct node_place *p, const int *cpus, int ncpus)
{
	int cpu = sched_getcpu();
	bool in = false;
	for (int i = 0; i < ncpus && !in; i++)
		in = cpus[i] == cpu;
	cpu_set_t aff;
	if (in && sched_getaffinity(0, sizeof aff, &aff) == 0)
		for (int c = 0; c < CPU_SETSIZE && in; c++)
			if (CPU_ISSET(c, &aff)) {
				bool listed = false;
				for (int i = 0; i < ncpus && !listed; i++)
					listed = cpus[i] == c;
				in = listed;
			}
	p->batches++;
	p->batches_off += !in;
}

/* The value of "KEY=" in a numa_maps line's words, or NULL. */
static const char *maps_field(const char *line, const char *key)
{
	size_t k = strlen(key);
	for (const char *w = line; w && *w;) {
		if (!strncmp(w, key, k))
			return w + k;
		w = strchr(w, ' ');
		if (w)
			w++;
	}
	return NULL;
}

int node_maps_count(const char *text, int node, uint64_t *on, uint64_t *off)
{
	*on = *off = 0;
	int lines = 0;
	char own[32];
	snprintf(own, sizeof own, "bind:%d", node);
	for (const char *l = text; l && *l;) {
		const char *nl = strchr(l, '\n');
		char *line = nl ? xstrndup(l, (size_t)(nl - l)) : xstrdup(l);
		l = nl ? nl + 1 : NULL;
		/* "ADDR POLICY words...": the policy is the second word */
		char *pol = strchr(line, ' ');
		if (pol) {
			pol++;
			size_t pl = strcspn(pol, " ");
			bool task = (pl == 7 && !strncmp(pol, "default", 7)) || (pl == strlen(own) && !strncmp(pol, own, pl));
			if (task && !maps_field(pol, "file=")) {
				lines++;
				for (const char *w = pol; (w = strchr(w, ' '));) {
					w++;
					char *end;
					if (w[0] != 'N' || w[1] < '0' || w[1] > '9')
						continue;
					long id = strtol(w + 1, &end, 10);
					if (*end != '=')
						continue;
					uint64_t pages = strtoull(end + 1, NULL, 10);
					if (id == node)
						*on += pages;
					else
						*off += pages;
				}
			}
		}
		free(line);
	}
	return lines;
}

void node_place_pages(struct node_place *p, int node)
{
	const char *seam = testhooks()->numa_maps;
	const char *path = seam && *seam ? seam : "/proc/self/numa_maps";
	FILE *f = fopen(path, "re");
	struct sb b = {0};
	char buf[4096];
	size_t r;
	if (!f) {
		snprintf(p->why, sizeof p->why, "cannot check: %s cannot be read (%s)", path, strerror(errno));
		return;
	}
	while ((r = fread(buf, 1, sizeof buf, f)) > 0)
		sb_addn(&b, buf, r);
	fclose(f);
	uint64_t on, off;
	node_maps_count(sb_str(&b), node, &on, &off);
	sb_free(&b);
	p->pages_on += on;
	p->pages_off += off;
	p->pages_read = true;
}

void node_place_merge(struct node_place *a, const struct node_place *b)
{
	a->on |= b->on;
	a->batches += b->batches;
	a->batches_off += b->batches_off;
	a->pages_on += b->pages_on;
	a->pages_off += b->pages_off;
	if (!b->pages_read && b->why[0] && !a->why[0])
		memcpy(a->why, b->why, sizeof a->why);
	a->pages_read = a->pages_read && b->pages_read;
}

static void check_add(json_t *a, const char *name, uint64_t good, uint64_t total, const char *why)
{
	json_t *o = json_pack("{s:s, s:f, s:f}", "name", name, "lo", 1.0, "hi", 1.0);
	if (why || !total) {
		json_object_set_new(o, "value", json_null());
		json_object_set_new(o, "ok", json_true());
		json_object_set_new(o, "checked", json_false());
		json_object_set_new(o, "why", json_string(why ? why : "cannot check: nothing was looked at"));
	} else {
		json_object_set_new(o, "value", json_real((double)good / (double)total));
		json_object_set_new(o, "ok", json_boolean(good == total));
		json_object_set_new(o, "checked", json_true());
	}
	json_array_append_new(a, o);
}

void node_checks(int node, const struct node_place *p, json_t *a)
{
	if (!p->on)
		return;
	char name[96];
	snprintf(name, sizeof name, "share of sampled batches on node %d's CPUs (placement)", node);
	check_add(a, name, p->batches - p->batches_off, p->batches, NULL);
	snprintf(name, sizeof name, "share of anonymous pages on node %d (placement)", node);
	check_add(a, name, p->pages_on, p->pages_on + p->pages_off, p->pages_read ? NULL : p->why);
}
