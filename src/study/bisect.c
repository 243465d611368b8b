/* bisect.c - the bisection itself: midpoints, skips, each step's call from verdicts, the culprit check. */
#include "study/bisect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int bisect_init(struct bisect *b, size_t n, size_t good, size_t bad, size_t cap, bool assume, struct err *e)
{
	memset(b, 0, sizeof *b);
	if (n < 2)
		return errf(e, "bisect: the series has %zu configuration%s; give at least 2 (good and bad)", n,
			    n == 1 ? "" : "s");
	if (good >= n || bad >= n)
		return errf(e, "bisect: --good %zu or --bad %zu is past the series' last configuration (%zu); "
			    "number them from 1 to %zu", good + 1, bad + 1, n, n);
	if (good >= bad)
		return errf(e, "bisect: --good (%zu) must come before --bad (%zu) in the series; give the older "
			    "configuration as --good", good + 1, bad + 1);
	if (cap < 3)
		return errf(e, "bisect: --max-boots %zu cannot hold one block (the midpoint and both ends); give 3 or more",
			    cap);
	b->n = n;
	b->good = good;
	b->bad = bad;
	b->cap = cap;
	b->assume = assume;
	b->mark = xcalloc(n, sizeof *b->mark);
	b->mark[good] = BISECT_MARK_GOOD;
	b->mark[bad] = BISECT_MARK_BAD;
	b->state = BISECT_RUNNING;
	if (bad == good + 1) {
		b->state = BISECT_FOUND;
		b->culprit_lo = b->culprit = bad;
	}
	return 0;
}

void bisect_free(struct bisect *b)
{
	if (!b)
		return;
	free(b->mark);
	free(b->steps);
	memset(b, 0, sizeof *b);
}

/* The untested configuration of (good, bad) nearest its midpoint, the lower on a tie. */
static bool nearest_untested(const struct bisect *b, size_t *mid)
{
	size_t m = b->good + (b->bad - b->good) / 2;
	for (size_t k = 0; k < b->bad - b->good; k++) {
		if (m >= k && m - k > b->good && b->mark[m - k] == BISECT_UNTESTED) {
			*mid = m - k;
			return true;
		}
		if (m + k < b->bad && b->mark[m + k] == BISECT_UNTESTED) {
			*mid = m + k;
			return true;
		}
	}
	return false;
}

bool bisect_next(const struct bisect *b, size_t *mid)
{
	return b->state == BISECT_RUNNING && nearest_untested(b, mid);
}

static bool usable(enum st_verdict v)
{
	return v == ST_FASTER || v == ST_SLOWER || v == ST_EQUIVALENT || v == ST_INCONCLUSIVE;
}

enum bisect_call bisect_decide(const struct bisect_verdicts *w, size_t nw, bool first, size_t boots, size_t block,
			       size_t cap, enum bisect_why *why)
{
	bool at_cap = boots + block > cap;
	size_t good = 0, bad = 0, ends_slower = 0, ends_settled = 0, withheld = 0;
	for (size_t i = 0; i < nw; i++) {
		withheld += !usable(w[i].mid_good) || !usable(w[i].mid_bad) || (first && !usable(w[i].bad_good));
		good += w[i].mid_good == ST_EQUIVALENT;
		bad += w[i].mid_good == ST_SLOWER && w[i].mid_bad == ST_EQUIVALENT;
		ends_slower += w[i].bad_good == ST_SLOWER;
		ends_settled += w[i].bad_good == ST_EQUIVALENT || w[i].bad_good == ST_FASTER;
	}
	if (nw == 0 || withheld) {
		*why = at_cap ? BISECT_WHY_CAP : BISECT_WHY_WITHHELD;
		return at_cap ? BISECT_UNDECIDED : BISECT_MORE;
	}
	if (first && ends_slower < nw) {
		/* a workload whose ends are settled as not slower has nothing to bisect */
		if (ends_settled || at_cap) {
			*why = BISECT_WHY_ENDS_NOT_SLOWER;
			return BISECT_NO_STEP;
		}
		*why = BISECT_WHY_ENDS_PENDING;
		return BISECT_MORE;
	}
	if (good == nw) {
		*why = BISECT_WHY_EQUIV_GOOD;
		return BISECT_GOOD;
	}
	if (bad == nw) {
		*why = BISECT_WHY_SLOWER_EQUIV_BAD;
		return BISECT_BAD;
	}
	if (at_cap) {
		*why = BISECT_WHY_CAP;
		return BISECT_UNDECIDED;
	}
	*why = good + bad == nw ? BISECT_WHY_SPLIT : BISECT_WHY_OPEN;
	return BISECT_MORE;
}

enum bisect_call bisect_favoured(const struct bisect_verdicts *w, size_t nw)
{
	double g = 0, d = 0;
	for (size_t i = 0; i < nw; i++) {
		if (isfinite(w[i].d_good) && isfinite(w[i].d_bad)) {
			g += fabs(w[i].d_good);
			d += fabs(w[i].d_bad);
		}
	}
	return g < d ? BISECT_GOOD : BISECT_BAD;
}

/* After the ends moved or a skip: end the bisection when nothing untested is left between them. */
static void settle(struct bisect *b)
{
	size_t mid;
	if (b->state != BISECT_RUNNING || nearest_untested(b, &mid))
		return;
	b->culprit = b->bad;
	b->culprit_lo = b->good + 1;
	b->state = b->culprit_lo == b->culprit ? BISECT_FOUND : BISECT_AMBIGUOUS;
}

int bisect_record(struct bisect *b, size_t mid, enum bisect_call call, enum bisect_why why, size_t boots,
		  size_t looks, enum bisect_call fav, struct err *e)
{
	if (b->state != BISECT_RUNNING)
		return errf(e, "bisect: the bisection is %s; no step can be added", bisect_state_word(b->state));
	if (mid <= b->good || mid >= b->bad)
		return errf(e, "bisect: configuration %zu is not between the ends %zu and %zu", mid + 1, b->good + 1,
			    b->bad + 1);
	if (call == BISECT_MORE)
		return errf(e, "bisect: a step is recorded once decided, never as \"more\"");
	b->steps = xgrow(b->steps, &b->steps_cap, b->nsteps + 1, sizeof *b->steps);
	struct bisect_step *s = &b->steps[b->nsteps++];
	*s = (struct bisect_step){.mid = mid, .good = b->good, .bad = b->bad, .call = call, .why = why,
				  .boots = boots, .looks = looks};
	enum bisect_call side = call;
	if (call == BISECT_UNDECIDED) {
		if (!b->assume) {
			b->state = BISECT_STUCK;
			return 0;
		}
		side = fav == BISECT_GOOD ? BISECT_GOOD : BISECT_BAD;
		s->assumed = true;
	}
	switch (side) {
	case BISECT_GOOD:
		b->mark[mid] = BISECT_MARK_GOOD;
		b->good = mid;
		break;
	case BISECT_BAD:
		b->mark[mid] = BISECT_MARK_BAD;
		b->bad = mid;
		break;
	case BISECT_SKIPPED:
		b->mark[mid] = BISECT_MARK_SKIP;
		break;
	case BISECT_NO_STEP:
		b->state = BISECT_NOSTEP;
		return 0;
	default:
		break;
	}
	settle(b);
	return 0;
}

enum bisect_check bisect_check_decide(const enum st_verdict *culprit_parent, const enum st_verdict *revert,
				      size_t nw)
{
	if (nw == 0)
		return BISECT_UNCONFIRMED;
	for (size_t i = 0; i < nw; i++)
		if (culprit_parent[i] != ST_SLOWER || (revert && revert[i] != ST_FASTER))
			return BISECT_UNCONFIRMED;
	return BISECT_CONFIRMED;
}

const char *bisect_call_word(enum bisect_call c)
{
	static const char *const w[] = {
		[BISECT_MORE] = "more", [BISECT_GOOD] = "good", [BISECT_BAD] = "bad",
		[BISECT_UNDECIDED] = "undecided", [BISECT_NO_STEP] = "no_step", [BISECT_SKIPPED] = "skipped",
	};
	return (size_t)c < sizeof w / sizeof w[0] && w[c] ? w[c] : "?";
}

const char *bisect_why_word(enum bisect_why y)
{
	static const char *const w[] = {
		[BISECT_WHY_EQUIV_GOOD] = "equivalent_to_good",
		[BISECT_WHY_SLOWER_EQUIV_BAD] = "slower_than_good_equivalent_to_bad",
		[BISECT_WHY_ENDS_PENDING] = "ends_pending",
		[BISECT_WHY_ENDS_NOT_SLOWER] = "ends_not_slower",
		[BISECT_WHY_OPEN] = "open",
		[BISECT_WHY_SPLIT] = "workloads_disagree",
		[BISECT_WHY_CAP] = "cap",
		[BISECT_WHY_WITHHELD] = "withheld",
		[BISECT_WHY_BUILD] = "build_failed",
	};
	return (size_t)y < sizeof w / sizeof w[0] && w[y] ? w[y] : "?";
}

const char *bisect_state_word(enum bisect_state s)
{
	static const char *const w[] = {
		[BISECT_RUNNING] = "running", [BISECT_FOUND] = "found", [BISECT_AMBIGUOUS] = "ambiguous",
		[BISECT_STUCK] = "stuck", [BISECT_NOSTEP] = "no_step",
	};
	return (size_t)s < sizeof w / sizeof w[0] && w[s] ? w[s] : "?";
}
