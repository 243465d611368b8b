/* node.h - per-node runs: the NUMA topology from sysfs, binding a process to a node, the placement checks. */
#ifndef SYSAB_NODE_H
#define SYSAB_NODE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/core.h"

#define NODE_MAX 1024 /* node ids and CPU ids above this are not read */

/* One online node. */
struct node_info {
	int id;
	int *cpus;     /* its CPUs, ascending (none for a memory-only node) */
	int ncpus;
	char *cpulist; /* as sysfs writes it, e.g. "0-3,8-11"; "" when it has none */
	bool memory;   /* it has memory of its own (has_memory; true when sysfs does not say) */
	int mem_id;    /* the node whose memory a run on it binds to and whose pages its placement
	                * check counts: id, except under the test seam SYSAB_NODE_SYSFS, whose
	                * nodeK/sysab_bind may name a real node (a two-node campaign on a one-node
	                * machine, t_campaign_nodes) */
};

/* The online nodes, ascending by id. */
struct node_topo {
	struct node_info *v;
	size_t n;
	char *dir; /* the directory read */
};

/* Read the topology from /sys/devices/system/node, or from the directory that the test
 * seam SYSAB_NODE_SYSFS names (the same layout: online, has_memory, nodeK/cpulist, and
 * there only nodeK/sysab_bind, the real node that node K's memory is, see mem_id). A
 * kernel without NUMA (no such directory) reads as one node 0 holding every configured
 * CPU. Returns 0, or -1 with e set when the directory exists but says nothing usable.
 * node_topo_free releases (t may be zeroed). */
int node_topo_read(struct node_topo *t, struct err *e);
void node_topo_free(struct node_topo *t);

/* "0-3,8" into set[0..max): set[i] true for every id listed. Returns the number of ids,
 * or -1 when s is not such a list (or names an id at or above max). */
int node_parse_list(const char *s, bool *set, int max);

/* The nodes --nodes SPEC selects: "all" (every node with CPUs) or a list ("0", "0,2",
 * "1-3"). *sel gets indexes into t->v, ascending, *n how many (free *sel). Returns 0;
 * 1 when SPEC is "all" and the machine has one node with CPUs (that node selected: a
 * per-node run there is one run on the whole machine); -1 with e set, naming SPEC and the nodes that exist, when the
 * list is malformed or names a node that is not online or has no CPUs. */
int node_select(const struct node_topo *t, const char *spec, size_t **sel, size_t *n, struct err *e);

/* Bind the calling process to node nd: its CPUs (sched_setaffinity), its memory
 * (set_mempolicy MPOL_BIND to node nd->mem_id), and the pages it already has moved there (migrate_pages).
 * Processes it forks and programs it execs inherit both. Returns 0 with *policy set to
 * the policy read back ("bind:K", newly allocated) and *unmoved to the pages that
 * migrate_pages could not move; WL_UNSUPPORTED with why filled when the kernel lacks or
 * refuses a call (ENOSYS under qemu-user, EPERM in a container, a node without memory). */
int node_bind(const struct node_info *nd, char **policy, long *unmoved, char *why, size_t n);

/* What one process saw of its placement (a worker, over its sampled batches). */
struct node_place {
	bool on;              /* a per-node run: the checks apply */
	uint32_t batches;     /* sampled batches whose CPU was looked at */
	uint32_t batches_off; /* of them, those that ended on a CPU outside the node, or whose
			       * allowed CPUs reached outside it */
	uint64_t pages_on, pages_off; /* anonymous pages on the node and elsewhere */
	bool pages_read;      /* the numa_maps were read */
	char why[160];        /* set when the pages could not be looked at */
};

/* After a sampled batch: the CPU this process is on and the CPUs it may use, against
 * the node's cpus[0..ncpus). */
void node_place_cpu(struct node_place *p, const int *cpus, int ncpus);

/* Count this process's anonymous pages on node and elsewhere, from /proc/self/numa_maps
 * (or the file that the test seam SYSAB_TEST_NUMA_MAPS names). */
void node_place_pages(struct node_place *p, int node);

/* The anonymous pages (heap, stack, anonymous mappings: lines without file=) of numa_maps
 * text that lie on node (*on) and on other nodes (*off). A mapping with a policy of its
 * own other than the task's ("default") or bind to this node (a workload's own mbind,
 * as kernel.numa.remote does) is left out: its placement is the workload's. Returns the
 * number of lines counted. */
int node_maps_count(const char *text, int node, uint64_t *on, uint64_t *off);

/* Add copy b's placement to a. */
void node_place_merge(struct node_place *a, const struct node_place *b);

/* Append the placement checks of a run on node to the checks array a (objects {name,
 * value, lo, hi, ok, checked[, why]}): the share of sampled batches on the node's CPUs
 * and the share of anonymous pages on the node, each must be 1. Nothing when !p->on. */
void node_checks(int node, const struct node_place *p, json_t *a);

#endif
