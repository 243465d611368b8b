/* nodes.c - `sysab run --nodes`: one run per selected NUMA node, labelled node=K, at copies of that node. */
#include "runner.h"
#include "core/tmp.h"

#include <stdlib.h>
#include <string.h>

int run_nodes_select(const char *spec, struct run_nodes *rn, struct err *e)
{
	memset(rn, 0, sizeof *rn);
	if (node_topo_read(&rn->topo, e))
		return -1;
	int r = node_select(&rn->topo, spec, &rn->sel, &rn->n, e);
	if (r < 0)
		return -1;
	if (r == 1 && !rn->n)
		return errf(e, "--nodes all: no NUMA node here has CPUs to run on; leave --nodes out");
	rn->all_is_one = r == 1;
	return 0;
}

void run_nodes_free(struct run_nodes *rn)
{
	if (!rn)
		return;
	free(rn->sel);
	node_topo_free(&rn->topo);
	memset(rn, 0, sizeof *rn);
}

int runner_run_nodes(struct store *st, const struct run_nodes *rn, const struct run_opts *o, bool copies_per_node,
		     const struct run_node_hooks *h)
{
	int rc = 0;
	for (size_t i = 0; i < rn->n && !sig_stop; i++) {
		const struct node_info *nd = &rn->topo.v[rn->sel[i]];
		struct run_opts on = *o;
		struct kvlist labels = {0};
		for (size_t k = 0; o->labels && k < o->labels->n; k++)
			kv_add(&labels, o->labels->v[k].key, o->labels->v[k].value);
		kv_addf(&labels, "node", "%d", nd->id);
		on.labels = &labels;
		on.node = nd;
		int copies[2] = {1, nd->ncpus};
		if (copies_per_node) { /* one copy per CPU of this node */
			on.copies = copies;
			on.ncopies = nd->ncpus > 1 ? 2 : 1;
		}
		if (h->begin)
			h->begin(h->arg, i, nd);
		struct run_outcome out;
		struct err e;
		int r = (h->run ? h->run : runner_run)(st, &on, &out, &e);
		bool stopped = r || out.stop_signal;
		rc = h->done(h->arg, &on, r, &out, &e);
		kv_free(&labels);
		if (stopped)
			break;
	}
	return rc;
}
