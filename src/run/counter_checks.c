/* counter_checks.c - the table of counter-based self-checks, evaluated after a workload's samples. */
#include "counter_checks.h"
#include "stats/stats.h"

#include <math.h>
#include <string.h>

/* stat: the median per op, or the CV of the per-sample figures (stability). */
enum cc_stat { CC_MEDIAN, CC_CV };

static const struct {
	const char *workload;
	const char *name;
	int event;
	enum cc_stat stat;
	double lo, hi;
} table[] = {
	{"kernel.tlb.walk", "dTLB misses per op (counter)", CTR_DTLB_MISSES, CC_MEDIAN, 0.9, INFINITY},
	{"kernel.syscall.null", "CV of kernel instructions per op (counter)", CTR_K_INSTRUCTIONS, CC_CV, 0, 0.05},
	{"kernel.fault.anon", "page faults per op (counter)", CTR_PAGE_FAULTS, CC_MEDIAN, 0.9, 1.1},
	{"kernel.ctx.pipe", "context switches per op (counter)", CTR_CTX_SWITCHES, CC_MEDIAN, 1, INFINITY},
};

void counter_checks(const char *workload, double *const per_op[CTR_NEVENTS], const size_t n[CTR_NEVENTS], json_t *a)
{
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		if (strcmp(table[i].workload, workload))
			continue;
		int ev = table[i].event;
		json_t *o = json_object();
		json_object_set_new(o, "name", json_string(table[i].name));
		json_object_set_new(o, "lo", json_real(table[i].lo));
		json_object_set_new(o, "hi", isinf(table[i].hi) ? json_null() : json_real(table[i].hi));
		if (n[ev] < (table[i].stat == CC_CV ? 2u : 1u)) {
			json_object_set_new(o, "value", json_null());
			json_object_set_new(o, "ok", json_true());
			json_object_set_new(o, "checked", json_false());
			json_object_set_new(o, "why", json_pack("s++", "cannot check: ", counters_name(ev), " not counted"));
		} else {
			struct st_summary s;
			stats_summary(per_op[ev], n[ev], &s);
			double v = table[i].stat == CC_CV ? (isnan(s.cv) ? 0 : s.cv) : s.median;
			json_object_set_new(o, "value", json_real(v));
			json_object_set_new(o, "ok", json_boolean(v >= table[i].lo && v <= table[i].hi));
			json_object_set_new(o, "checked", json_true());
		}
		json_array_append_new(a, o);
	}
}
