/* mde.c - a campaign design's resolution before it boots: its MDE per workload and its limits. */
#include "study/mde.h"
#include "campaign/campaign.h"
#include "core/core.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void study_run_design(const struct strv *args, struct strv *patterns, size_t *samples)
{
	*samples = 0;
	for (size_t i = 0; args && i < args->n; i++) {
		const char *a = args->v[i], *next = i + 1 < args->n ? args->v[i + 1] : NULL;
		if ((!strcmp(a, "-w") || !strcmp(a, "--workload")) && next)
			strv_add(patterns, args->v[++i]);
		else if (!strncmp(a, "--workload=", 11))
			strv_add(patterns, a + 11);
		else if (!strncmp(a, "-w", 2) && a[2])
			strv_add(patterns, a + 2);
		else if (!strcmp(a, "--samples") && next)
			*samples = strtoul(args->v[++i], NULL, 10);
		else if (!strncmp(a, "--samples=", 10))
			*samples = strtoul(a + 10, NULL, 10);
	}
}

/* qemu under TCG measures the emulator; "auto" falls back to TCG without a usable /dev/kvm
 * (the backend's own rule: campaign_backend_emulates). */
static bool emulated(const struct study_mde_in *in)
{
	return campaign_backend_emulates(in->backend, in->accel);
}

int study_campaign_mde(struct store *st, const struct study_mde_in *in, struct study_mde *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	struct sb why = {0};
	/* plan claims assurance from ST_PLAN_MIN_DF boot-level df: two groups of b boots give
	 * about 2 (b - 1) (stats/plan.c, df_rule) */
	size_t plan_boots = ST_PLAN_MIN_DF / 2 + 1;
	if (in->boots < 2)
		sb_addf(&why, "1 boot per configuration gives no verdict (boot noise is unmeasured) and no\n"
			      "  plan assurance; the smallest designs that can: --boots 2 (a verdict),\n"
			      "  --boots %zu --runs 2 (a plan too)\n", plan_boots);
	else if (in->runs < 2)
		sb_addf(&why, "1 run per boot: verdicts, but no plan assurance (run and boot noise cannot be\n"
			      "  told apart); the smallest pilot that can plan: --boots %zu --runs 2\n", plan_boots);
	else if (in->boots < plan_boots)
		sb_addf(&why, "as a pilot, %zu boots per configuration give plan no assurance (%d boot-level\n"
			      "  degrees of freedom are needed); the smallest that can: --boots %zu\n",
			in->boots, ST_PLAN_MIN_DF, plan_boots);
	out->cannot = why.s;
	if (in->boots < 2)
		return 0;
	struct strv patterns = {0};
	size_t samples;
	study_run_design(in->run_args, &patterns, &samples);
	struct an_mde_in mi = {
		.boots = in->boots, .runs = in->runs ? in->runs : 1, .samples = samples, .alpha = 0.05, .power = 0.8,
		.target = in->target, .emulated = emulated(in), .from = in->from,
	};
	int rc = an_mde_select(st, &patterns, &mi, &out->m, e);
	strv_free(&patterns);
	if (rc) {
		study_mde_free(out);
		return -1;
	}
	out->have = true;
	return 0;
}

void study_mde_free(struct study_mde *out)
{
	if (!out)
		return;
	an_mde_free(&out->m);
	free(out->cannot);
	memset(out, 0, sizeof *out);
}
