/* test_node.c - per-node runs: the topology read from a fake sysfs, the selection of --nodes and its
 * errors, the loop of run --nodes (labels and copies per node), the placement checks' counting and
 * judgement, and a real binding to node 0. */
#include "unit.h"
#include "core/testhooks.h"
#include "core/tmp.h"
#include "run/node.h"
#include "run/runner.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

UNIT_TMPDIR_FIXTURE

static void put(const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);
	char *slash = strrchr(p, '/');
	*slash = 0;
	mkdir(p, 0700);
	*slash = '/';
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(p);
}

/* Two nodes of one CPU each, and a memory-only node 2 (CXL-style). */
static void fake_three(void)
{
	put("online", "0-2\n");
	put("has_memory", "0-2\n");
	put("node0/cpulist", "0\n");
	put("node1/cpulist", "1\n");
	put("node2/cpulist", "\n");
	setenv("SYSAB_NODE_SYSFS", dir, 1);
	testhooks_reload();
}

static void topology_is_read_from_the_seam(void **state)
{
	(void)state;
	fake_three();
	struct node_topo t;
	struct err e;
	assert_int_equal(node_topo_read(&t, &e), 0);
	assert_int_equal(t.n, 3);
	assert_int_equal(t.v[1].id, 1);
	assert_int_equal(t.v[1].ncpus, 1);
	assert_int_equal(t.v[1].cpus[0], 1);
	assert_string_equal(t.v[1].cpulist, "1");
	assert_int_equal(t.v[2].ncpus, 0);
	assert_true(t.v[2].memory);
	node_topo_free(&t);
}

static void select_all_takes_the_nodes_with_cpus(void **state)
{
	(void)state;
	fake_three();
	struct node_topo t;
	struct err e;
	size_t *sel, n;
	assert_int_equal(node_topo_read(&t, &e), 0);
	assert_int_equal(node_select(&t, "all", &sel, &n, &e), 0);
	assert_int_equal(n, 2);
	assert_int_equal(t.v[sel[0]].id, 0);
	assert_int_equal(t.v[sel[1]].id, 1);
	free(sel);
	assert_int_equal(node_select(&t, "1", &sel, &n, &e), 0);
	assert_int_equal(n, 1);
	assert_int_equal(t.v[sel[0]].id, 1);
	free(sel);
	node_topo_free(&t);
}

static void select_names_the_input_and_the_nodes_that_exist(void **state)
{
	(void)state;
	fake_three();
	struct node_topo t;
	struct err e;
	size_t *sel, n;
	assert_int_equal(node_topo_read(&t, &e), 0);
	assert_int_equal(node_select(&t, "0,3", &sel, &n, &e), -1);
	assert_int_equal(n, 0);
	assert_non_null(strstr(e.msg, "--nodes 0,3: there is no node 3 here"));
	assert_non_null(strstr(e.msg, "0 (CPUs 0), 1 (CPUs 1), 2 (no CPUs)"));
	free(sel);
	assert_int_equal(node_select(&t, "2", &sel, &n, &e), -1);
	assert_non_null(strstr(e.msg, "node 2 has memory but no CPUs"));
	free(sel);
	assert_int_equal(node_select(&t, "zero", &sel, &n, &e), -1);
	assert_non_null(strstr(e.msg, "--nodes zero: not a node list"));
	free(sel);
	node_topo_free(&t);
}

static void all_on_one_node_is_unsupported(void **state)
{
	(void)state;
	put("online", "0\n");
	put("has_memory", "0\n");
	put("node0/cpulist", "0-1\n");
	setenv("SYSAB_NODE_SYSFS", dir, 1);
	testhooks_reload();
	struct node_topo t;
	struct err e;
	size_t *sel, n;
	assert_int_equal(node_topo_read(&t, &e), 0);
	assert_int_equal(node_select(&t, "all", &sel, &n, &e), 1);
	assert_int_equal(n, 1); /* the one node */
	assert_int_equal(t.v[sel[0]].id, 0);
	free(sel);
	assert_int_equal(node_select(&t, "0", &sel, &n, &e), 0); /* pinning to it still works */
	assert_int_equal(n, 1);
	free(sel);
	node_topo_free(&t);
	/* a kernel without NUMA: one node with every CPU */
	char *none = xasprintf("%s/absent", dir);
	setenv("SYSAB_NODE_SYSFS", none, 1);
	testhooks_reload();
	assert_int_equal(node_topo_read(&t, &e), 0);
	assert_int_equal(t.n, 1);
	assert_true(t.v[0].ncpus >= 1);
	node_topo_free(&t);
	free(none);
}

static void lists_parse_ranges_and_refuse_junk(void **state)
{
	(void)state;
	bool set[16] = {false};
	assert_int_equal(node_parse_list("0-2,5\n", set, 16), 4);
	assert_true(set[0] && set[2] && set[5] && !set[3]);
	bool s2[16] = {false};
	assert_int_equal(node_parse_list("1-", s2, 16), -1);
	assert_int_equal(node_parse_list("3-1", s2, 16), -1);
	assert_int_equal(node_parse_list("16", s2, 16), -1);
	assert_int_equal(node_parse_list("1;2", s2, 16), -1);
}

static const char maps[] =
	"55d0 default file=/usr/bin/sysab mapped=20 N0=12 N1=8 kernelpagesize_kB=4\n"
	"55d1 default file=/usr/bin/sysab anon=2 dirty=2 N1=2 kernelpagesize_kB=4\n"
	"55d2 default heap anon=40 dirty=40 N0=37 N1=3 kernelpagesize_kB=4\n"
	"7f00 bind:1 anon=100 dirty=100 N1=100 kernelpagesize_kB=4\n"
	"7f01 bind:0 anon=10 dirty=10 N0=10 kernelpagesize_kB=4\n"
	"7ffd default stack anon=5 dirty=5 N0=5 kernelpagesize_kB=4\n"
	"7ffe default\n";

static void page_count_takes_anonymous_pages_under_the_task_policy(void **state)
{
	(void)state;
	uint64_t on, off;
	/* heap 37+3, bind:0 10, stack 5, the bare line; file pages and bind:1 are left out */
	assert_int_equal(node_maps_count(maps, 0, &on, &off), 4);
	assert_int_equal(on, 52);
	assert_int_equal(off, 3);
	/* seen from node 1: bind:1 is its own policy; bind:0 is the workload's */
	assert_int_equal(node_maps_count(maps, 1, &on, &off), 4);
	assert_int_equal(on, 103);
	assert_int_equal(off, 42);
}

/* The check named name in checks, or NULL. */
static json_t *check_named(json_t *a, const char *part)
{
	size_t i;
	json_t *o;
	json_array_foreach(a, i, o)
	if (strstr(json_string_value(json_object_get(o, "name")), part))
		return o;
	return NULL;
}

static void placement_checks_fail_on_a_page_or_a_batch_elsewhere(void **state)
{
	(void)state;
	json_t *a = json_array();
	struct node_place p = {.on = true, .batches = 28, .pages_read = true, .pages_on = 100};
	node_checks(1, &p, a);
	assert_int_equal(json_array_size(a), 2);
	assert_true(json_is_true(json_object_get(check_named(a, "batches on node 1's CPUs"), "ok")));
	assert_true(json_is_true(json_object_get(check_named(a, "pages on node 1"), "ok")));
	json_array_clear(a);
	p.pages_off = 1;
	p.batches_off = 1;
	node_checks(1, &p, a);
	assert_true(json_is_false(json_object_get(check_named(a, "batches on node 1's CPUs"), "ok")));
	json_t *pg = check_named(a, "pages on node 1");
	assert_true(json_is_false(json_object_get(pg, "ok")));
	assert_true(json_real_value(json_object_get(pg, "value")) < 1);
	/* pages that could not be read: said, and nothing failed */
	json_array_clear(a);
	struct node_place q = {.on = true, .batches = 3};
	snprintf(q.why, sizeof q.why, "cannot check: /proc/self/numa_maps cannot be read (No such file)");
	node_checks(0, &q, a);
	pg = check_named(a, "pages on node 0");
	assert_true(json_is_true(json_object_get(pg, "ok")));
	assert_true(json_is_false(json_object_get(pg, "checked")));
	/* not a per-node run: no checks */
	json_array_clear(a);
	struct node_place none = {0};
	node_checks(0, &none, a);
	assert_int_equal(json_array_size(a), 0);
	json_decref(a);
}

static void merge_adds_the_copies(void **state)
{
	(void)state;
	struct node_place a = {.on = true, .batches = 2, .pages_on = 5, .pages_read = true};
	struct node_place b = {.on = true, .batches = 3, .batches_off = 1, .pages_on = 4, .pages_off = 1,
			       .pages_read = true};
	node_place_merge(&a, &b);
	assert_int_equal(a.batches, 5);
	assert_int_equal(a.batches_off, 1);
	assert_int_equal(a.pages_on, 9);
	assert_int_equal(a.pages_off, 1);
	assert_true(a.pages_read);
}

static void the_cpu_check_sees_a_cpu_off_the_list(void **state)
{
	(void)state;
	struct node_place p = {0};
	node_place_cpu(&p, (const int[]){-1}, 1); /* no CPU of ours is listed */
	assert_int_equal(p.batches, 1);
	assert_int_equal(p.batches_off, 1);
}

/* The real thing on this machine's node 0: bound, the policy reads back, our anonymous pages
 * are there and our CPU is one of its. Where the kernel refuses (a container, qemu-user), the
 * refusal is unsupported with a reason. Runs last: it binds this test process. */
static void binding_to_node_0_passes_its_checks(void **state)
{
	(void)state;
	unsetenv("SYSAB_NODE_SYSFS");
	testhooks_reload();
	struct node_topo t;
	struct err e;
	assert_int_equal(node_topo_read(&t, &e), 0);
	char *policy, why[256] = "";
	long unmoved;
	int rc = node_bind(&t.v[0], &policy, &unmoved, why, sizeof why);
	if (rc) {
		assert_int_equal(rc, WL_UNSUPPORTED);
		assert_true(why[0]);
		print_message("node 0 unsupported here: %s\n", why);
	} else {
		assert_string_equal(policy, "bind:0");
		free(policy);
		struct node_place p = {.on = true};
		char *buf = xcalloc(1 << 20, 1); /* touched after the binding */
		memset(buf, 1, 1 << 20);
		__asm__ volatile("" : : "r"(buf) : "memory"); /* the pages stay written */
		node_place_cpu(&p, t.v[0].cpus, t.v[0].ncpus);
		node_place_pages(&p, 0);
		assert_true(p.pages_read);
		assert_int_equal(p.batches_off, 0);
		assert_true(p.pages_on >= 256);
		assert_int_equal(p.pages_off, 0);
		free(buf);
	}
	node_topo_free(&t);
}

/* What the injected runner saw of each node's run. */
struct seen {
	int n, node[4], ncopies[4], copies[4][2];
	char labels[4][64];
	int stop_at;  /* the run with this index (1-based) ends by a stop signal; 0: none */
	int begun, done;
};

static struct seen seen;

static int fake_run(struct store *st, const struct run_opts *o, struct run_outcome *out, struct err *e)
{
	(void)st;
	(void)e;
	memset(out, 0, sizeof *out);
	int i = seen.n++;
	seen.node[i] = o->node->id;
	seen.ncopies[i] = (int)o->ncopies;
	for (size_t k = 0; k < o->ncopies && k < 2; k++)
		seen.copies[i][k] = o->copies[k];
	struct sb b = {0};
	for (size_t k = 0; k < o->labels->n; k++)
		sb_addf(&b, "%s%s=%s", k ? " " : "", o->labels->v[k].key, o->labels->v[k].value);
	snprintf(seen.labels[i], sizeof seen.labels[i], "%s", sb_str(&b));
	sb_free(&b);
	if (seen.stop_at == seen.n)
		out->stop_signal = 15;
	out->run_id = seen.n;
	return 0;
}

static void begin_hook(void *arg, size_t i, const struct node_info *nd)
{
	(void)arg;
	(void)nd;
	assert_int_equal((int)i, seen.begun++);
}

static int done_hook(void *arg, const struct run_opts *o, int r, struct run_outcome *out, struct err *e)
{
	(void)arg;
	(void)o;
	(void)e;
	seen.done++;
	return r ? 1 : out->stop_signal ? 128 + out->stop_signal : (int)out->run_id * 10;
}

/* run --nodes: one run per selected node in order, each labelled with the user's labels and
 * node=K, at 1 copy and one per CPU of that node when copies are the default, o untouched;
 * a stop signal ends the loop after that node's run. */
static void run_nodes_runs_each_node_with_its_label_and_copies(void **state)
{
	(void)state;
	put("online", "0-2\n");
	put("has_memory", "0-2\n");
	put("node0/cpulist", "0-2\n");
	put("node1/cpulist", "3\n");
	put("node2/cpulist", "4-5\n");
	setenv("SYSAB_NODE_SYSFS", dir, 1);
	testhooks_reload();
	struct run_nodes rn;
	struct err e;
	assert_int_equal(run_nodes_select("0,2", &rn, &e), 0);
	assert_int_equal(rn.n, 2);
	assert_false(rn.all_is_one);
	struct kvlist user = {0};
	kv_add(&user, "kernel", "k1");
	const int copies[] = {1, 8};
	struct run_opts o = {.labels = &user, .copies = copies, .ncopies = 2};
	struct run_node_hooks h = {.begin = begin_hook, .done = done_hook, .run = fake_run};
	memset(&seen, 0, sizeof seen);
	assert_int_equal(runner_run_nodes(NULL, &rn, &o, true, &h), 20); /* the last done's */
	assert_int_equal(seen.n, 2);
	assert_int_equal(seen.begun, 2);
	assert_int_equal(seen.done, 2);
	assert_int_equal(seen.node[0], 0);
	assert_int_equal(seen.node[1], 2);
	assert_string_equal(seen.labels[0], "kernel=k1 node=0");
	assert_string_equal(seen.labels[1], "kernel=k1 node=2");
	assert_int_equal(seen.ncopies[0], 2);
	assert_int_equal(seen.copies[0][1], 3); /* node 0's three CPUs */
	assert_int_equal(seen.copies[1][1], 2);
	assert_true(o.labels == &user && o.copies == copies && o.ncopies == 2 && !o.node);
	assert_int_equal(user.n, 1);
	run_nodes_free(&rn);

	/* copies given (-c): every node runs them; a node of one CPU runs 1 copy by default */
	assert_int_equal(run_nodes_select("all", &rn, &e), 0);
	assert_int_equal(rn.n, 3);
	memset(&seen, 0, sizeof seen);
	assert_int_equal(runner_run_nodes(NULL, &rn, &o, false, &h), 30);
	assert_int_equal(seen.ncopies[1], 2);
	assert_int_equal(seen.copies[1][1], 8);
	memset(&seen, 0, sizeof seen);
	runner_run_nodes(NULL, &rn, &o, true, &h);
	assert_int_equal(seen.ncopies[1], 1);
	assert_int_equal(seen.copies[1][0], 1);

	/* a stop signal in node 1's run: node 2 does not run */
	memset(&seen, 0, sizeof seen);
	seen.stop_at = 2;
	assert_int_equal(runner_run_nodes(NULL, &rn, &o, true, &h), 128 + 15);
	assert_int_equal(seen.n, 2);
	run_nodes_free(&rn);
	run_nodes_free(NULL);

	/* a bad list is an error naming it */
	assert_int_equal(run_nodes_select("7", &rn, &e), -1);
	assert_non_null(strstr(e.msg, "7"));
	run_nodes_free(&rn);
	kv_free(&user);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(topology_is_read_from_the_seam, setup, teardown),
		cmocka_unit_test_setup_teardown(select_all_takes_the_nodes_with_cpus, setup, teardown),
		cmocka_unit_test_setup_teardown(select_names_the_input_and_the_nodes_that_exist, setup, teardown),
		cmocka_unit_test_setup_teardown(all_on_one_node_is_unsupported, setup, teardown),
		cmocka_unit_test_setup_teardown(run_nodes_runs_each_node_with_its_label_and_copies, setup, teardown),
		cmocka_unit_test(lists_parse_ranges_and_refuse_junk),
		cmocka_unit_test(page_count_takes_anonymous_pages_under_the_task_policy),
		cmocka_unit_test(placement_checks_fail_on_a_page_or_a_batch_elsewhere),
		cmocka_unit_test(merge_adds_the_copies),
		cmocka_unit_test(the_cpu_check_sees_a_cpu_off_the_list),
		cmocka_unit_test(binding_to_node_0_passes_its_checks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
