/* check.c - evaluation of a workload's self-checks, shared by the runner and the tests. */
#include "workload.h"

#include <sys/resource.h>

int wl_check_eval(const struct workload *w, const struct wl_usage *total, const uint64_t count[2],
		  uint64_t ops, double *values, bool *ok)
{
	int failed = 0;
	for (int i = 0; i < WL_MAX_CHECKS; i++) {
		const struct wl_check *c = &w->checks[i];
		values[i] = 0;
		ok[i] = true;
		if (c->metric == WL_M_NONE || ops == 0)
			continue;
		uint64_t t = 0;
		switch (c->metric) {
		case WL_M_MINFLT: t = total->minflt; break;
		case WL_M_NVCSW: t = total->nvcsw; break;
		case WL_M_COUNT0: t = count[0]; break;
		case WL_M_COUNT1: t = count[1]; break;
		case WL_M_CSW: t = total->nvcsw + total->nivcsw; break;
		case WL_M_NONE: break;
		}
		values[i] = (double)t / (double)ops;
		ok[i] = values[i] >= c->lo && values[i] <= c->hi;
		failed += !ok[i];
	}
	return ops == 0 ? -1 : failed;
}

void wl_usage_now(struct wl_usage *u)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	u->minflt = (uint64_t)ru.ru_minflt;
	u->majflt = (uint64_t)ru.ru_majflt;
	u->nvcsw = (uint64_t)ru.ru_nvcsw;
	u->nivcsw = (uint64_t)ru.ru_nivcsw;
}

void wl_usage_add_delta(struct wl_usage *acc, const struct wl_usage *before, const struct wl_usage *after)
{
	acc->minflt += after->minflt - before->minflt;
	acc->majflt += after->majflt - before->majflt;
	acc->nvcsw += after->nvcsw - before->nvcsw;
	acc->nivcsw += after->nivcsw - before->nivcsw;
}
