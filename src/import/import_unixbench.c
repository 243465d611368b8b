/* import_unixbench.c - UnixBench 6 results log parser, written from the observed log format. */
#include "import/import_unixbench.h"
#include "import/import_util.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UB_MAX_COPIES 4096
#define UB_MAX_PASSES 100000
#define UB_MAX_TITLE 200
#define UB_MAX_PROG 64
#define UB_MAX_TOKENS 64
#define UB_MAX_COUNT 1e15   /* COUNT0 above this is not a real UnixBench count */
#define UB_MAX_SECONDS 1e7  /* elapsed or TIME above this (115 days) is corrupt */

/* A view of part of the input: not NUL-terminated. */
struct span {
	const char *p;
	size_t n;
};

struct ctx {
	const char *name;
	const char *buf;
	size_t len, pos;
	size_t lineno;   /* number of the line last returned */
	struct span ln;  /* the line last returned, without its newline or trailing CR */
	struct err *e;
};

static int fail(struct ctx *c, size_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(struct ctx *c, size_t line, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return errf(c->e, "%s:%zu: %s", c->name, line ? line : 1, msg);
}

/* Error for input that ends where more was expected. */
static int truncated(struct ctx *c, const char *what)
{
	return fail(c, c->lineno, "expected %s; the log may be truncated", what);
}

/* Advance to the next line. Returns 1 with c->ln set, 0 at the end, -1 on a NUL byte. */
static int next_line(struct ctx *c)
{
	if (c->pos >= c->len)
		return 0;
	const char *start = c->buf + c->pos;
	size_t room = c->len - c->pos;
	const char *nl = memchr(start, '\n', room);
	size_t n = nl ? (size_t)(nl - start) : room;
	c->pos += nl ? n + 1 : n;
	c->lineno++;
	if (memchr(start, 0, n))
		return fail(c, c->lineno, "NUL byte in the log; the file is corrupt or not a UnixBench log");
	if (n > 0 && start[n - 1] == '\r')
		n--;
	c->ln.p = start;
	c->ln.n = n;
	return 1;
}

static bool blank(struct span s)
{
	for (size_t i = 0; i < s.n; i++)
		if (s.p[i] != ' ' && s.p[i] != '\t')
			return false;
	return true;
}

/* Next line that is not blank: 1, 0 at the end, -1 on error. */
static int next_nonblank(struct ctx *c)
{
	int r;
	while ((r = next_line(c)) == 1 && blank(c->ln))
		;
	return r;
}

static bool starts(struct span s, const char *prefix)
{
	size_t n = strlen(prefix);
	return s.n >= n && memcmp(s.p, prefix, n) == 0;
}

static struct span trim(struct span s)
{
	while (s.n && (s.p[0] == ' ' || s.p[0] == '\t')) {
		s.p++;
		s.n--;
	}
	while (s.n && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t'))
		s.n--;
	return s;
}

static struct span after(struct span s, size_t k)
{
	return (struct span){s.p + k, s.n - k};
}

static bool is_separator(struct span s)
{
	if (s.n < 20)
		return false;
	for (size_t i = 0; i < s.n; i++)
		if (s.p[i] != '#')
			return false;
	return true;
}

static bool span_eq(struct span s, const char *t)
{
	return s.n == strlen(t) && memcmp(s.p, t, s.n) == 0;
}

/* Parse a number from s into *out, or fail naming what it is. */
static int number(struct ctx *c, struct span s, double min, double max, bool integer, const char *what,
		  double *out)
{
	s = trim(s);
	double v;
	int r = import_number(s.p, s.n, min, max, &v);
	if (r == IMPORT_NUM_OK && integer && v != floor(v))
		return fail(c, c->lineno, "%s '%.*s' is not a whole number; the log is corrupt", what,
			    (int)(s.n > 40 ? 40 : s.n), s.p);
	if (r != IMPORT_NUM_OK) {
		char msg[200];
		import_number_msg(msg, sizeof msg, r, what, s.p, s.n, min, max);
		return fail(c, c->lineno, "%s; the log is corrupt", msg);
	}
	*out = v;
	return 0;
}

/* Split the "==> " command line into up to max tokens, stopping at the output redirection. */
static size_t tokenize(struct span s, struct span *tok, size_t max)
{
	size_t n = 0, i = 0;
	while (n < max) {
		while (i < s.n && s.p[i] == ' ')
			i++;
		if (i >= s.n)
			break;
		size_t b, e;
		bool quoted = s.p[i] == '"';
		if (quoted) {
			b = ++i;
			while (i < s.n && s.p[i] != '"')
				i++;
			e = i;
			if (i < s.n)
				i++;
		} else {
			b = i;
			while (i < s.n && s.p[i] != ' ')
				i++;
			e = i;
		}
		struct span t = {s.p + b, e - b};
		if (span_eq(t, "2>&1") || (!quoted && t.n && t.p[0] == '>'))
			break;
		tok[n++] = t;
	}
	return n;
}

static struct span basename_of(struct span s)
{
	for (size_t i = s.n; i > 0; i--)
		if (s.p[i - 1] == '/')
			return after(s, i);
	return s;
}

static bool plain_name(struct span s)
{
	if (s.n == 0 || s.n > UB_MAX_PROG)
		return false;
	for (size_t i = 0; i < s.n; i++) {
		char ch = s.p[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      ch == '.' || ch == '_' || ch == '-' || ch == '+'))
			return false;
	}
	return true;
}

/* fstime's three UnixBench sizings, by block size and max blocks. */
static const struct {
	const char *bufsize, *maxblocks, *name;
} fs_sizes[] = {
	{"1024", "2000", "fstime"},
	{"256", "500", "fsbuffer"},
	{"4096", "8000", "fsdisk"},
};

/* The sysab workload whose descriptor names this UnixBench test (its .unixbench field), or
 * NULL: the mapping lives in the descriptors, not in a table here. */
static const char *workload_of(const char *test)
{
	for (size_t i = 0; i < wl_count(); i++) {
		const struct workload *w = wl_at(i);
		if (w->unixbench && !strcmp(w->unixbench, test))
			return w->name;
	}
	return NULL;
}

/* The UnixBench test name for fstime's arguments, or NULL when they are not a standard sizing. */
static char *fstime_name(const struct span *tok, size_t ntok)
{
	const char *mode = NULL;
	struct span b = {0}, m = {0};
	for (size_t i = 1; i < ntok; i++) {
		if (span_eq(tok[i], "-c"))
			mode = "";
		else if (span_eq(tok[i], "-r"))
			mode = "-r";
		else if (span_eq(tok[i], "-w"))
			mode = "-w";
		else if (span_eq(tok[i], "-b") && i + 1 < ntok)
			b = tok[++i];
		else if (span_eq(tok[i], "-m") && i + 1 < ntok)
			m = tok[++i];
		else if ((span_eq(tok[i], "-t") || span_eq(tok[i], "-d")) && i + 1 < ntok)
			i++;
	}
	if (!mode)
		return NULL;
	for (size_t k = 0; k < sizeof fs_sizes / sizeof fs_sizes[0]; k++)
		if (span_eq(b, fs_sizes[k].bufsize) && span_eq(m, fs_sizes[k].maxblocks))
			return xasprintf("%s%s", fs_sizes[k].name, mode);
	return NULL;
}

/* "shellN" for looper running multi.sh N, or NULL. */
static char *looper_name(const struct span *tok, size_t ntok)
{
	if (ntok < 4 || !span_eq(basename_of(tok[2]), "multi.sh"))
		return NULL;
	double n;
	if (import_number(tok[3].p, tok[3].n, 1, 9999, &n) || n != floor(n) || tok[3].p[0] == '+')
		return NULL;
	return xasprintf("shell%u", (unsigned)n);
}

/* Split the "==> " line's text s at its first unquoted '>' token ("2>&1", ">> FILE"): the
 * command before it into t->command, the target of its last '>' (unquoted) into t->results. */
static void split_redirect(struct span s, struct ub_test *t)
{
	size_t cut = s.n, last = s.n;
	bool quoted = false;
	for (size_t i = 0; i < s.n; i++) {
		if (s.p[i] == '"')
			quoted = !quoted;
		else if (s.p[i] == '>' && !quoted) {
			if (cut == s.n) {
				cut = i;
				while (cut > 0 && s.p[cut - 1] != ' ')
					cut--;
			}
			last = i;
		}
	}
	t->command = xstrndup(s.p, trim((struct span){s.p, cut}).n);
	struct span r = last < s.n ? trim(after(s, last + 1)) : (struct span){s.p, 0};
	if (r.n >= 2 && r.p[0] == '"' && r.p[r.n - 1] == '"')
		r = (struct span){r.p + 1, r.n - 2};
	if (starts(r, "&"))
		r.n = 0; /* "2>&1" alone: no file */
	t->results = xstrndup(r.p, r.n);
}

/* Fill program, name, workload and unknown from the "==> " line in c->ln. */
static int parse_command(struct ctx *c, struct ub_test *t)
{
	split_redirect(trim(after(c->ln, 4)), t);
	struct span tok[UB_MAX_TOKENS];
	size_t ntok = tokenize(after(c->ln, 4), tok, UB_MAX_TOKENS);
	if (ntok == 0)
		return fail(c, c->lineno, "'==>' line names no program; the log is corrupt");
	struct span prog = basename_of(tok[0]);
	if (prog.n > UB_MAX_PROG)
		return fail(c, c->lineno,
			    "program name '%.*s...' in the '==>' line is %zu bytes, longer than the %d a UnixBench "
			    "program has; the log is corrupt",
			    40, prog.p, prog.n, UB_MAX_PROG);
	if (!plain_name(prog))
		return fail(c, c->lineno,
			    "program '%.*s' in the '==>' line is not a plain file name; the log is corrupt",
			    (int)(tok[0].n > 60 ? 60 : tok[0].n), tok[0].p);
	t->program = xstrndup(prog.p, prog.n);
	if (!strcmp(t->program, "fstime"))
		t->name = fstime_name(tok, ntok);
	else if (!strcmp(t->program, "looper"))
		t->name = looper_name(tok, ntok);
	if (!t->name) {
		t->name = xstrdup(t->program);
		/* fstime with other sizes or modes measures something no sysab workload does. */
		if (!strcmp(t->program, "fstime")) {
			t->workload = xstrdup("unixbench.fstime-other");
			t->unknown = true;
			return 0;
		}
	}
	const char *w = workload_of(t->name);
	if (w) {
		t->workload = xstrdup(w);
		return 0;
	}
	t->workload = xasprintf("unixbench.%s", t->name);
	t->unknown = true;
	if (!import_workload_ok(t->workload))
		return fail(c, c->lineno, "test '%.60s' would be stored as workload '%.80s', which is not a "
			    "workload name (" IMPORT_WORKLOAD_RULE "); the log is corrupt", t->name, t->workload);
	return 0;
}

/* "TITLE -- N copy" or "TITLE -- N copies" in c->ln. */
static int parse_title(struct ctx *c, struct ub_test *t)
{
	struct span s = c->ln;
	size_t cut = SIZE_MAX;
	for (size_t i = 0; i + 4 <= s.n; i++)
		if (!memcmp(s.p + i, " -- ", 4))
			cut = i;
	if (cut == SIZE_MAX)
		return fail(c, c->lineno, "expected a test title such as 'Pipe Throughput -- 1 copy'");
	struct span title = trim((struct span){s.p, cut});
	struct span rest = after(s, cut + 4);
	size_t k = 0;
	while (k < rest.n && rest.p[k] != ' ')
		k++;
	struct span word = trim(after(rest, k));
	if (!span_eq(word, "copy") && !span_eq(word, "copies"))
		return fail(c, c->lineno, "expected 'N copy' or 'N copies' after ' -- ' in the test title");
	double copies;
	if (number(c, (struct span){rest.p, k}, 1, UB_MAX_COPIES, true, "copy count", &copies))
		return -1;
	if (title.n == 0 || title.n > UB_MAX_TITLE)
		return fail(c, c->lineno, "test title is empty or longer than %d bytes; the log is corrupt",
			    UB_MAX_TITLE);
	t->title = xstrndup(title.p, title.n);
	if (!text_is_clean(t->title, false))
		return fail(c, c->lineno, "test title is not clean UTF-8 text; the log is corrupt");
	t->copies = (unsigned)copies;
	t->line = c->lineno;
	return 0;
}

enum field { F_COUNT0, F_COUNT1, F_COUNT2, F_TIME, F_ELAPSED, F_PID, F_STATUS, F_OTHER };

static const char *const field_names[] = {"COUNT0", "COUNT1", "COUNT2", "TIME", "elapsed", "pid", "status"};

/* A pass being read: its copies and which fields the current copy already has. */
struct pass_build {
	struct ub_pass *p;
	size_t cap;
	unsigned seen; /* bit per enum field, for the last copy */
};

/* One "# KEY: VALUE" line in c->ln (already known to start with "# "). */
static int parse_field(struct ctx *c, struct ub_test *t, struct pass_build *pb)
{
	struct span s = after(c->ln, 2);
	const char *colon = memchr(s.p, ':', s.n);
	if (!colon)
		return 0; /* program output that happens to start with "# " */
	struct span key = {s.p, (size_t)(colon - s.p)};
	struct span val = trim(after(s, key.n + 1));
	enum field f = F_OTHER;
	for (int i = 0; i < F_OTHER; i++)
		if (span_eq(key, field_names[i]))
			f = (enum field)i;
	if (f == F_OTHER)
		return 0;
	struct ub_pass *p = pb->p;
	if (f == F_COUNT0) {
		if (p->ncopy >= t->copies)
			return fail(c, c->lineno,
				    "more COUNT records in pass %u than the %u cop%s the title announced; "
				    "the log is corrupt",
				    p->number, t->copies, t->copies == 1 ? "y" : "ies");
		p->copy = xgrow(p->copy, &pb->cap, p->ncopy + 1, sizeof *p->copy);
		p->copy[p->ncopy++] = (struct ub_copy){.pid = -1, .status = -1, .line = c->lineno};
		pb->seen = 0;
	} else if (p->ncopy == 0) {
		return fail(c, c->lineno, "'# %s:' comes before any '# COUNT0:' in pass %u; the log is corrupt",
			    field_names[f], p->number);
	}
	if (pb->seen & (1u << f))
		return fail(c, c->lineno, "'# %s:' appears twice in one COUNT record; the log is corrupt",
			    field_names[f]);
	pb->seen |= 1u << f;
	struct ub_copy *cp = &p->copy[p->ncopy - 1];
	double v;
	switch (f) {
	case F_COUNT0:
		return number(c, val, 0, UB_MAX_COUNT, false, "COUNT0", &cp->count);
	case F_COUNT1:
		return number(c, val, 0, 86400, false, "COUNT1 (time base)", &cp->timebase);
	case F_COUNT2:
		if (val.n == 0 || val.n >= sizeof t->unit || !plain_name(val) ||
		    (t->unit[0] && !span_eq(val, t->unit)))
			return fail(c, c->lineno,
				    "COUNT2 (unit) '%.*s' is not a short name or differs from the test's "
				    "unit '%s'; the log is corrupt",
				    (int)(val.n > 40 ? 40 : val.n), val.p, t->unit);
		memcpy(t->unit, val.p, val.n);
		t->unit[val.n] = 0;
		return 0;
	case F_TIME:
		cp->has_time = true;
		return number(c, val, 0, UB_MAX_SECONDS, false, "TIME", &cp->time);
	case F_ELAPSED:
		return number(c, val, 0, UB_MAX_SECONDS, false, "elapsed", &cp->elapsed);
	case F_PID:
		if (number(c, val, 0, 4194304.0 * 1024, true, "pid", &v))
			return -1;
		cp->pid = (long)v;
		return 0;
	case F_STATUS:
		if (number(c, val, 0, 65535, true, "status", &v))
			return -1;
		cp->status = (long)v;
		return 0;
	default:
		return 0;
	}
}

/* Check a finished pass and compute its rates and score. */
static int close_pass(struct ctx *c, struct ub_test *t, struct ub_pass *p)
{
	if (p->ncopy != t->copies)
		return fail(c, p->line, "pass %u holds %zu COUNT record%s, expected one per copy (%u); the log "
			    "is corrupt or truncated", p->number, p->ncopy, p->ncopy == 1 ? "" : "s", t->copies);
	double sum = 0, sumtime = 0, timebase = p->copy[0].timebase;
	for (size_t i = 0; i < p->ncopy; i++) {
		struct ub_copy *cp = &p->copy[i];
		/* Every record needs COUNT0 (it opened the record), COUNT1, COUNT2 and elapsed. */
		if (cp->timebase != timebase)
			return fail(c, cp->line, "COUNT1 differs between the copies of pass %u; the log is corrupt",
				    p->number);
		if (!cp->has_time)
			cp->time = cp->elapsed;
		if (timebase > 0 && !(cp->time > 0))
			return fail(c, cp->line, "COUNT record has no positive elapsed time to divide by; the "
				    "log is corrupt or truncated");
		cp->rate = timebase > 0 ? cp->count * timebase / cp->time : cp->count;
		sum += cp->count;
		sumtime += cp->time;
	}
	p->count = sum;
	p->score = timebase > 0 ? sum * timebase / (sumtime / (double)p->ncopy) : sum;
	p->ops_per_s = timebase > 0 ? p->score / timebase : p->score;
	return 0;
}

/* Which fields a record must have. Checked at each COUNT0 and pass end via seen bits. */
#define REQUIRED ((1u << F_COUNT0) | (1u << F_COUNT1) | (1u << F_COUNT2) | (1u << F_ELAPSED))

static int check_record(struct ctx *c, struct pass_build *pb)
{
	if (pb->p->ncopy == 0 || (pb->seen & REQUIRED) == REQUIRED)
		return 0;
	for (int f = 0; f < F_OTHER; f++)
		if ((REQUIRED & (1u << f)) && !(pb->seen & (1u << f)))
			return fail(c, pb->p->copy[pb->p->ncopy - 1].line,
				    "COUNT record has no '# %s:' line; the log is corrupt or truncated",
				    field_names[f]);
	return 0;
}

/* Mark the pass whose total count UnixBench printed as "*Dump score: d" as discarded. */
static int mark_dump(struct ctx *c, struct ub_test *t, double d, size_t line)
{
	for (size_t i = 0; i < t->npass; i++) {
		struct ub_pass *p = &t->pass[i];
		if (!p->discarded && fabs(p->count - d) <= 0.0501 + 1e-12 * fabs(d)) {
			p->discarded = true;
			return 0;
		}
	}
	return fail(c, line, "'*Dump score: %.1f' matches no pass of the test; the log is corrupt", d);
}

static int parse_summary(struct ctx *c, struct ub_test *t)
{
	size_t nkept = 0, ndump = 0;
	int r;
	/* c->ln holds the first "*Dump score:" or "Count score:" line. */
	for (;;) {
		double v;
		if (starts(c->ln, "*Dump score:")) {
			if (number(c, after(c->ln, 12), 0, UB_MAX_COUNT * UB_MAX_COPIES, false, "dump score", &v) ||
			    mark_dump(c, t, v, c->lineno))
				return -1;
			ndump++;
		} else if (starts(c->ln, "Count score:")) {
			if (number(c, after(c->ln, 12), 0, UB_MAX_COUNT * UB_MAX_COPIES, false, "count score", &v))
				return -1;
			nkept++;
		} else {
			break;
		}
		if ((r = next_nonblank(c)) <= 0)
			return r < 0 ? -1 : truncated(c, "'>>>> Results of N copy' after the pass scores");
	}
	if (ndump + nkept != t->npass)
		return fail(c, c->lineno, "%zu dump and %zu count scores for %zu passes; the log is corrupt",
			    ndump, nkept, t->npass);
	char want[64];
	snprintf(want, sizeof want, t->copies == 1 ? ">>>> Results of 1 copy" : ">>>> Sum of %u copies",
		 t->copies);
	if (!span_eq(trim(c->ln), want))
		return fail(c, c->lineno, "expected '%s'; the log is corrupt", want);
	static const char *const keys[] = {">>>> score:", ">>>> time:", ">>>> iterations:"};
	for (int k = 0; k < 3; k++) {
		if ((r = next_nonblank(c)) <= 0) {
			char what[64];
			snprintf(what, sizeof what, "'%s'", keys[k]);
			return r < 0 ? -1 : truncated(c, what);
		}
		if (!starts(c->ln, keys[k]))
			return fail(c, c->lineno, "expected '%s'; the log is corrupt", keys[k]);
		struct span v = after(c->ln, strlen(keys[k]));
		double it;
		if (k == 0 && number(c, v, 0, 1e300, false, "score", &t->reported_score))
			return -1;
		if (k == 1 && number(c, v, 0, UB_MAX_SECONDS, false, "time", &t->reported_time))
			return -1;
		if (k == 2) {
			if (number(c, v, 0, UB_MAX_PASSES, true, "iterations", &it))
				return -1;
			t->reported_iterations = (unsigned)it;
			if (it != (double)nkept)
				return fail(c, c->lineno, "iterations %u differs from the %zu kept passes; the log "
					    "is corrupt", t->reported_iterations, nkept);
		}
	}
	return 0;
}

/* Parse the section after a separator line into t. Returns 0 or -1. */
static int parse_section(struct ctx *c, struct ub_test *t)
{
	int r;
	if ((r = next_nonblank(c)) <= 0)
		return r < 0 ? -1 : truncated(c, "a test title after the '####' line");
	if (parse_title(c, t))
		return -1;
	if ((r = next_nonblank(c)) <= 0)
		return r < 0 ? -1 : truncated(c, "the '==>' command line");
	if (!starts(c->ln, "==> "))
		return fail(c, c->lineno, "expected the '==> \"PROGRAM\" ARGS' command line after the title");
	if (parse_command(c, t))
		return -1;
	if ((r = next_nonblank(c)) <= 0)
		return r < 0 ? -1 : truncated(c, "'#### Pass 1'");
	size_t passcap = 0;
	struct pass_build pb = {0};
	for (;;) {
		if (starts(c->ln, "#### Pass ")) {
			if (pb.p && (check_record(c, &pb) || close_pass(c, t, pb.p)))
				return -1;
			double n;
			if (number(c, after(c->ln, 10), 1, UB_MAX_PASSES, true, "pass number", &n))
				return -1;
			if ((size_t)n != t->npass + 1)
				return fail(c, c->lineno, "expected '#### Pass %zu', found pass %.0f; the log is corrupt",
					    t->npass + 1, n);
			t->pass = xgrow(t->pass, &passcap, t->npass + 1, sizeof *t->pass);
			pb.p = &t->pass[t->npass++];
			*pb.p = (struct ub_pass){.number = (unsigned)n, .line = c->lineno};
			pb.cap = 0;
			pb.seen = 0;
		} else if (!pb.p) {
			return fail(c, c->lineno, "expected '#### Pass 1' after the command line");
		} else if (starts(c->ln, "# ")) {
			if (starts(c->ln, "# COUNT0:") && check_record(c, &pb))
				return -1;
			if (parse_field(c, t, &pb))
				return -1;
		} else if (starts(c->ln, "*Dump score:") || starts(c->ln, "Count score:")) {
			if (check_record(c, &pb) || close_pass(c, t, pb.p))
				return -1;
			return parse_summary(c, t);
		} else if (is_separator(c->ln) || starts(c->ln, ">>>> ")) {
			return fail(c, c->lineno, "expected the pass scores ('Count score:') before this line; "
				    "the log is corrupt");
		} /* else: the program's own output, which is kept out of the result */
		if ((r = next_line(c)) <= 0)
			return r < 0 ? -1 : truncated(c, "more of the pass or its 'Count score:' lines");
	}
}

static void test_free(struct ub_test *t)
{
	free(t->title);
	free(t->program);
	free(t->name);
	free(t->workload);
	free(t->command);
	free(t->results);
	for (size_t i = 0; i < t->npass; i++)
		free(t->pass[i].copy);
	free(t->pass);
}

/* Which run section i belongs to: the run of the section before it, or the next run when
 * its results file differs from that section's, or its command and copies repeat a
 * section of that run (UnixBench's Run runs each test once per copies count). */
static void assign_run(struct ub_log *log, size_t i)
{
	struct ub_test *t = &log->test[i];
	if (i == 0) {
		t->run = 0;
		log->nrun = 1;
		return;
	}
	const struct ub_test *prev = &log->test[i - 1];
	bool next = strcmp(prev->results, t->results) != 0;
	for (size_t k = i; !next && k-- > 0 && log->test[k].run == prev->run;)
		next = log->test[k].copies == t->copies && !strcmp(log->test[k].command, t->command);
	t->run = prev->run + next;
	log->nrun = t->run + 1;
}

int import_unixbench_parse(const char *name, const char *buf, size_t len, struct ub_log *out, struct err *e)
{
	struct ctx c = {.name = name ? name : "<input>", .buf = buf, .len = buf ? len : 0, .e = e};
	struct ub_log log = {0};
	size_t cap = 0;
	int r;
	*out = (struct ub_log){0};
	while ((r = next_nonblank(&c)) == 1) {
		if (!is_separator(c.ln)) {
			r = fail(&c, c.lineno, "expected a '####...' test separator line; is this a UnixBench "
				 "results/*.log file?");
			break;
		}
		log.test = xgrow(log.test, &cap, log.ntest + 1, sizeof *log.test);
		struct ub_test *t = &log.test[log.ntest++];
		*t = (struct ub_test){0};
		if ((r = parse_section(&c, t)) < 0)
			break;
		r = 0;
		assign_run(&log, log.ntest - 1);
	}
	if (r == 0 && log.ntest == 0)
		r = fail(&c, c.lineno, "no UnixBench test sections found; give a UnixBench results/NAME.log file");
	if (r < 0) {
		import_unixbench_free(&log);
		return -1;
	}
	*out = log;
	return 0;
}

double import_unixbench_score(const struct ub_test *t)
{
	double logsum = 0;
	size_t n = 0;
	for (size_t i = 0; i < t->npass; i++) {
		if (t->pass[i].discarded)
			continue;
		if (!(t->pass[i].score > 0))
			return 0;
		logsum += log(t->pass[i].score);
		n++;
	}
	return n ? exp(logsum / (double)n) : 0;
}

void import_unixbench_free(struct ub_log *log)
{
	if (!log)
		return;
	for (size_t i = 0; i < log->ntest; i++)
		test_free(&log->test[i]);
	free(log->test);
	*log = (struct ub_log){0};
}
