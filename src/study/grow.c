/* grow.c - same-boot designs that grow: the stopping rule and the looks of run --arm --until decided. */
#include "study/grow.h"

#include <stdlib.h>
#include <string.h>

const char *study_grow_state_word(enum study_grow_state s)
{
	static const char *const w[] = {[STUDY_GROW_GO_ON] = "go_on", [STUDY_GROW_DECIDED] = "decided",
					[STUDY_GROW_CAP] = "cap"};
	return (size_t)s < sizeof w / sizeof *w ? w[s] : "?";
}

enum study_grow_state study_grow_rule(const struct an_compare *c, size_t pairs, size_t max_runs)
{
	size_t judged = 0;
	bool open = false;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct an_row *r = &c->rows[i];
		if (!r->have_a || !r->have_b)
			continue;
		judged++;
		enum st_verdict v = r->c.verdict;
		open |= !(v == ST_FASTER || v == ST_SLOWER || v == ST_EQUIVALENT);
	}
	if (judged && !open)
		return STUDY_GROW_DECIDED;
	return pairs >= max_runs ? STUDY_GROW_CAP : STUDY_GROW_GO_ON;
}

char *study_grow_selector(const struct study_grow *g, const char *arm)
{
	return xasprintf("arm=%s grow=%s", arm, g->tag);
}

/* The comparison options of look k of g. */
static struct st_compare_opts grow_opts(const struct study_grow *g, size_t k)
{
	struct st_compare_opts co = stats_compare_defaults();
	co.unit = ST_LEVEL_RUN;
	co.look = k;
	co.max_boots = g->max_runs;
	if (g->target > 0)
		co.margin = g->target / 100;
	return co;
}

int study_grow_look(const char *path, const struct study_grow *g, size_t k, size_t pairs, struct an_compare_job *j,
		    enum study_grow_state *state, struct err *e)
{
	struct store *st = NULL;
	char *sa = study_grow_selector(g, g->arm_a), *sb = study_grow_selector(g, g->arm_b);
	struct st_compare_opts co = grow_opts(g, k);
	memset(j, 0, sizeof *j);
	int rc = store_open(path, STORE_RW, &st, e);
	if (!rc)
		rc = an_compare_job_build(st, sa, sb, g->patterns, &co, false, false, &(struct an_look_req){true, false}, j,
					  e);
	if (!rc)
		*state = study_grow_rule(&j->c, pairs, g->max_runs);
	free(sa);
	free(sb);
	return rc;
}

int study_grow_mde(const char *path, const struct study_grow *g, const char *from, size_t pairs, struct an_mde *m,
		   struct err *e)
{
	struct store *st = NULL;
	struct an_mde_in in = {.boots = pairs, .runs = 1, .alpha = 0.05, .power = 0.8, .paired = true, .from = from,
			       .target = g->target / 100, .max_boots = AN_MDE_MAX_BOOTS};
	memset(m, 0, sizeof *m);
	int rc = store_open(path, STORE_RO, &st, e);
	if (!rc)
		rc = an_mde_select(st, g->patterns, &in, m, e);
	store_close(st);
	return rc;
}
