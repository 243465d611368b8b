/* mde.h - what a campaign's design can resolve before it boots: its MDE and what it cannot give. */
#ifndef SYSAB_STUDY_MDE_H
#define SYSAB_STUDY_MDE_H

#include "analysis/mde.h"
#include "store/store.h"

/* A campaign's design as `campaign new` or `campaign start` knows it before any boot. Adaptive
 * campaigns (--until) and per-node designs give the same record their own boots and rows. */
struct study_mde_in {
	size_t boots, runs;               /* per configuration, and `sysab run`s per boot */
	const struct strv *run_args;      /* each run's arguments: their -w patterns and --samples */
	const char *backend, *accel;      /* accel "tcg" (or "auto" without /dev/kvm): emulated */
	const char *from;                 /* the pilot selector (--from), or NULL: earlier runs */
	double target;                    /* --target, 0: none */
};

/* A finished record: the MDE (have) or why there is none, and what the design cannot give. */
struct study_mde {
	bool have;            /* m holds the MDE (the design has >= 2 boots per configuration) */
	struct an_mde m;
	char *cannot;         /* 1 boot per configuration or 1 run per boot: what it cannot give and
			       * the smallest design that can (lines, each ending in a newline); NULL */
};

/* The MDE of design in from the runs st holds (in->from's, else every run; none: rough),
 * and what the design cannot give, into *out (free with study_mde_free). Returns 0, or -1
 * with e set (a pilot selector matching nothing, a -w naming no workload). */
int study_campaign_mde(struct store *st, const struct study_mde_in *in, struct study_mde *out, struct err *e);

/* The -w patterns (appended to patterns) and --samples N (*samples, 0: none) of a `sysab run`
 * argument list args (NULL: none). */
void study_run_design(const struct strv *args, struct strv *patterns, size_t *samples);

/* Release out; NULL is a no-op. */
void study_mde_free(struct study_mde *out);

#endif
