/* cli.c - table-driven option parsing and help text. */
#include "cli.h"
#include "run/env.h"
#include "run/runsum.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static size_t count_opts(const struct cli_opt *o)
{
	size_t n = 0;
	while (o[n].lng)
		n++;
	return n;
}

static const struct cli_opt *find_short(const struct cli_opt *o, int c)
{
	for (; o->lng; o++)
		if (o->shrt == c)
			return o;
	return NULL;
}

/* A number option's value against its range, named as the user wrote it (lng: --name). */
static int check_number(const struct cli_opt *o, const char *arg, bool lng, struct err *e)
{
	char what[80];
	if (lng || !o->shrt)
		snprintf(what, sizeof what, "--%s", o->lng);
	else
		snprintf(what, sizeof what, "-%c", o->shrt);
	int i;
	double d;
	switch (o->num) {
	case CLI_TEXT: return 0;
	case CLI_INT: return parse_int(arg, (int)o->lo, (int)o->hi, what, &i, e);
	case CLI_REAL: return parse_double(arg, o->lo, o->hi, what, &d, e);
	case CLI_PCT: return parse_percent(arg, o->lo, o->hi, what, &d, e);
	}
	return 0;
}

int cli_int_of(const char *arg)
{
	return (int)strtol(arg, NULL, 10);
}

double cli_real_of(const char *arg)
{
	double v = 0;
	struct err ignored;
	if (strchr(arg, '%'))
		parse_percent(arg, -HUGE_VAL, HUGE_VAL, "", &v, &ignored);
	else
		parse_double(arg, -HUGE_VAL, HUGE_VAL, "", &v, &ignored);
	return v;
}

void cli_range_text(char *buf, size_t size, const struct cli_opt *o)
{
	/* as a user writes them: 1048576, never 1.04858e+06 */
	if (o->num == CLI_PCT)
		snprintf(buf, size, "from %.10g%% to %.10g%%", o->lo * 100, o->hi * 100);
	else if (o->num == CLI_INT)
		snprintf(buf, size, "from %.0f to %.0f", o->lo, o->hi);
	else if (o->num != CLI_TEXT)
		snprintf(buf, size, "from %.10g to %.10g", o->lo, o->hi);
	else
		buf[0] = 0;
}

void cli_opt_extra(char *buf, size_t size, const struct cli_opt *o)
{
	char range[80];
	cli_range_text(range, sizeof range, o);
	buf[0] = 0;
	if (*range || o->dflt)
		snprintf(buf, size, " (%s%s%s%s)", range, *range && o->dflt ? "; " : "", o->dflt ? "default " : "",
			 o->dflt ? o->dflt : "");
}

const char *cli_suggest(const char *s, const char *words, char *buf, size_t size)
{
	size_t bestd = strlen(s) < 3 ? 2 : 3, nprefixed = 0;
	bool found = false;
	char prefixed[128] = "";
	for (const char *p = words; p && *p;) {
		size_t n = strcspn(p, " ");
		char w[128];
		snprintf(w, sizeof w, "%.*s", (int)n, p);
		size_t d = edit_distance(s, w);
		if (d < bestd) {
			bestd = d;
			snprintf(buf, size, "%s", w);
			found = true;
		}
		if (*s && !strncmp(w, s, strlen(s))) {
			snprintf(prefixed, sizeof prefixed, "%s", w);
			nprefixed++;
		}
		p += n;
		p += strspn(p, " ");
	}
	if (!found && nprefixed == 1) {
		snprintf(buf, size, "%s", prefixed);
		found = true;
	}
	return found ? buf : NULL;
}

/* Whether w is one of words (space-separated). */
static bool word_in(const char *words, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = words; (p = strstr(p, w)); p++)
		if ((p == words || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/* After a handler refused arg for o, which has values: add the closest of them to e. */
static void suggest_value(const struct cli_opt *o, const char *arg, struct err *e)
{
	char best[128];
	if (!o->values || !arg || !cli_suggest(arg, o->values, best, sizeof best) || !strcmp(best, arg))
		return;
	size_t n = strlen(e->msg);
	snprintf(e->msg + n, sizeof e->msg - n, " (did you mean %s?)", best);
}

/* An unknown long option arg ("--quik" or "--quik=1"): the error, with the closest long
 * option of cmd as "did you mean". Returns -1. */
static int unknown_long(const struct cli_cmd *cmd, const char *arg, struct err *e)
{
	struct sb words = {0};
	for (const struct cli_opt *o = cmd->opts; o->lng; o++)
		sb_addf(&words, "%s%s", words.len ? " " : "", o->lng);
	char name[128], best[128];
	snprintf(name, sizeof name, "%.*s", (int)strcspn(arg + strspn(arg, "-"), "="), arg + strspn(arg, "-"));
	if (*name && cli_suggest(name, sb_str(&words), best, sizeof best))
		errf(e, "unknown option '%s'; did you mean --%s? (see `sysab %s --help`)", arg, best, cmd->name);
	else
		errf(e, "unknown option '%s'; see `sysab %s --help`", arg, cmd->name);
	sb_free(&words);
	return -1;
}

int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, cli_on_opt on_opt, void *ctx, struct strv *pos,
	      bool *help, struct err *e)
{
	size_t n = count_opts(cmd->opts);
	struct option *lo = xcalloc(n + 1, sizeof *lo);
	/* "-": positional arguments come back in order as 1; ":": a missing value as ':' */
	struct sb spec = {0};
	sb_add(&spec, "-:");
	for (size_t i = 0; i < n; i++) {
		lo[i].name = cmd->opts[i].lng;
		lo[i].has_arg = cmd->opts[i].arg ? required_argument : no_argument;
		lo[i].val = 0x10000 + (int)i;
		if (cmd->opts[i].shrt)
			sb_addf(&spec, "%c%s", cmd->opts[i].shrt, cmd->opts[i].arg ? ":" : "");
	}

	int rc = 0;
	*help = false;
	optind = 1;
	opterr = 0;
	int c, li;
	while ((c = getopt_long(argc, argv, sb_str(&spec), lo, &li)) != -1) {
		const struct cli_opt *o = NULL;
		if (c == 1) {
			strv_add(pos, optarg);
			continue;
		}
		if (c == '?') {
			if (optopt)
				rc = errf(e, "unknown option '-%c'; see `sysab %s --help`", optopt, cmd->name);
			else
				rc = unknown_long(cmd, argv[optind - 1], e);
			break;
		}
		if (c == ':') {
			rc = errf(e, "option '%s' needs a value; see `sysab %s --help`", argv[optind - 1], cmd->name);
			break;
		}
		if (c >= 0x10000)
			o = &cmd->opts[c - 0x10000];
		else
			o = find_short(cmd->opts, c);
		if (!o) {
			rc = errf(e, "unknown option; see `sysab %s --help`", cmd->name);
			break;
		}
		if (o->id == OPT_HELP) {
			*help = true;
			continue;
		}
		if ((o->arg && check_number(o, optarg, c >= 0x10000, e)) || on_opt(ctx, o->id, optarg, e)) {
			suggest_value(o, optarg, e);
			rc = -1;
			break;
		}
	}
	while (rc == 0 && optind < argc)
		strv_add(pos, argv[optind++]);
	sb_free(&spec);
	free(lo);
	return rc;
}

int cli_start(const struct cli_cmd *cmd, int argc, char **argv, cli_on_opt on_opt, void *ctx, struct strv *pos)
{
	struct err e;
	bool help;
	if (cli_parse(cmd, argc, argv, on_opt, ctx, pos, &help, &e))
		return cli_fail(cmd, &e);
	if (help) {
		cli_help(cmd, stdout);
		return EXIT_OK;
	}
	/* a mistyped subcommand (not a selector: those hold '=', ':' or spaces) */
	char best[64];
	const char *w = pos->n ? pos->v[0] : NULL;
	if (cmd->subs && w && !strpbrk(w, "=: ") && !word_in(cmd->subs, w) && cli_suggest(w, cmd->subs, best, sizeof best)) {
		errf(&e, "'%s' is not a subcommand of sysab %s (%s); did you mean %s? (see `sysab %s --help`)", w,
		     cmd->name, cmd->subs, best, cmd->name);
		return cli_fail(cmd, &e);
	}
	return -1;
}

int cli_run_args(int argc, char **argv, struct strv *run_args)
{
	int dd = argc;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			dd = i;
			break;
		}
	for (int i = dd + 1; i < argc; i++)
		strv_add(run_args, argv[i]);
	return dd;
}

void cli_help(const struct cli_cmd *cmd, FILE *f)
{
	fprintf(f, "usage: sysab %s [options]%s%s\n\n%s\n", cmd->name, cmd->args ? " " : "", cmd->args ? cmd->args : "",
		cmd->summary);
	if (cmd->details)
		fprintf(f, "\n%s\n", cmd->details);
	fprintf(f, "\noptions:\n");
	for (const struct cli_opt *o = cmd->opts; o->lng; o++) {
		char left[64];
		if (o->shrt)
			snprintf(left, sizeof left, "-%c, --%s%s%s", o->shrt, o->lng, o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof left, "    --%s%s%s", o->lng, o->arg ? " " : "", o->arg ? o->arg : "");
		char extra[160];
		cli_opt_extra(extra, sizeof extra, o);
		fprintf(f, "  %-24s %s%s\n", left, o->help, extra);
	}
}

int cli_fail(const struct cli_cmd *cmd, const struct err *e)
{
	fprintf(stderr, "sysab %s: ", cmd->name);
	struct sb m = {0};
	prog_hints(&m, e->msg); /* hints name the program as it was invoked */
	fputs_clean(sb_str(&m), stderr); /* messages quote user input */
	fputc('\n', stderr);
	sb_free(&m);
	return EXIT_INPUT;
}

bool cli_color(bool no_color_opt)
{
	const char *nc = getenv("NO_COLOR");
	return !no_color_opt && !(nc && *nc) && isatty(STDOUT_FILENO);
}

size_t cli_width(void)
{
	const char *c = getenv("COLUMNS");
	char *end;
	if (c && *c) {
		errno = 0;
		long n = strtol(c, &end, 10);
		if (!errno && !*end && n >= 40 && n <= 1000)
			return (size_t)n;
	}
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	return REPORT_WIDTH;
}

int cli_open_db(const char *db_opt, enum store_mode mode, struct store **st, char **path, struct err *e)
{
	if (db_opt && !*db_opt)
		return errf(e, "--db: empty path; give the database file, e.g. --db results.db");
	char *p = store_default_path(db_opt, e);
	if (!p)
		return -1;
	int rc = store_open(p, mode, st, e);
	if (rc == 0 && store_immutable(*st)) {
		fputs("sysab: note: ", stderr);
		fputs_clean(p, stderr);
		fputs(store_disk_full(*st)
			      ? ": its disk is full (or failing), so nothing can be written: read as it was when opened\n"
			      : " is read-only to you and its directory too: read as it was when opened; what its owner "
				"writes meanwhile is not seen\n",
		      stderr);
	}
	if (rc == 0 && store_writable(*st)) {
		char *boot = env_boot_id();
		struct err ignored;
		store_reap_interrupted(*st, boot, &ignored); /* a busy database is reaped next time */
		free(boot);
	}
	/* A writing command brings the per-run summaries up to date: after a migration added
	 * them, after a merge or import, after the method changed. Reading commands do not
	 * write them (compare and analyze only record their look, docs/METHOD.md); check-db reports
	 * what is stale. */
	if (rc == 0 && mode == STORE_RW) {
		if (runsum_ensure(*st, e)) {
			store_close(*st);
			*st = NULL;
			rc = -1;
		}
	}
	if (rc == 0 && path)
		*path = p;
	else
		free(p);
	return rc;
}

void cli_out_init(struct cli_out *o, enum report_kind kind, const char *dflt)
{
	*o = (struct cli_out){.kind = kind, .fmt = report_format_find(dflt, kind)};
}

int cli_out_opt(struct cli_out *o, int id, const char *arg, struct err *e)
{
	switch (id) {
	case OPT_JSON: arg = "json"; /* fall through */
	case OPT_FORMAT: {
		const struct report_format *f = report_format_find(arg, o->kind);
		if (!f) {
			char names[128];
			report_format_names(names, sizeof names, o->kind);
			return errf(e, "--format: this command cannot print '%s'; use %s", arg, names);
		}
		o->fmt = f;
		return 0;
	}
	case OPT_OUTPUT:
		if (!*arg)
			return errf(e, "-o: give a file name");
		o->path = arg;
		return 0;
	case OPT_NO_COLOR: o->no_color = true; return 0;
	case OPT_VERBOSE: o->verbose = true; return 0;
	case OPT_KCIDB_VERSION:
		if (strcmp(arg, "5.3") && strcmp(arg, "4.5"))
			return errf(e, "--kcidb-version: '%s' is not a KCIDB I/O schema version sysab writes; use 5.3 (the default) or 4.5",
				    arg);
		o->kcidb_version = arg;
		return 0;
	case OPT_SAMPLES_URL: {
		/* an absolute URL (scheme:...) whose last part names the file */
		size_t n = strspn(arg, "abcdefghijklmnopqrstuvwxyz0123456789+.-");
		const char *slash = strrchr(arg, '/');
		if (!n || !(arg[0] >= 'a' && arg[0] <= 'z') || arg[n] != ':' || !slash || !slash[1] || strpbrk(arg, " \t\n"))
			return errf(e, "--samples-url: '%s' is not an absolute URL of a file; give e.g. https://lab.example/run42/samples.csv or file:///srv/samples.csv",
				    arg);
		o->samples_url = arg;
		return 0;
	}
	}
	return 1;
}

int cli_out_opts_check(const struct cli_out *o, struct err *e)
{
	if ((o->kcidb_version || o->samples_url) && o->fmt != &report_format_kcidb)
		return errf(e, "--%s is an option of --format kcidb; add --format kcidb or drop it",
			    o->kcidb_version ? "kcidb-version" : "samples-url");
	return 0;
}

bool cli_out_text(const struct cli_out *o)
{
	return o->fmt == &report_format_text;
}

struct emit_job {
	const struct report_format *fmt;
	const struct report_doc *d;
};

static int emit(FILE *f, const void *arg)
{
	const struct emit_job *j = arg;
	return j->fmt->render(f, j->d);
}

int cli_out_check(const struct cli_out *o, struct err *e)
{
	if (!o->path)
		return 0;
	struct err ignored;
	char *db = store_default_path(o->db, &ignored);
	if (!db)
		return 0; /* no database, nothing to clobber */
	static const char *const suffix[] = {"", "-wal", "-shm"};
	int rc = 0;
	for (size_t i = 0; i < sizeof suffix / sizeof *suffix && !rc; i++) {
		char *f = xasprintf("%s%s", db, suffix[i]);
		if (file_same(o->path, f))
			rc = errf(e, "-o %s: that is the database %s%s; write the report to another file", o->path,
				  *suffix[i] ? "file " : "", f);
		free(f);
	}
	free(db);
	return rc;
}

int cli_emit(const struct cli_out *o, struct report_doc *d, struct err *e)
{
	if (cli_out_check(o, e))
		return -1;
	d->kind = o->kind;
	d->color = !o->path && cli_color(o->no_color);
	d->verbose = o->verbose;
	d->width = o->path ? REPORT_WIDTH : (unsigned)cli_width();
	d->kcidb_version = o->kcidb_version;
	d->kcidb_samples_url = o->samples_url;
	struct emit_job j = {o->fmt, d};
	if (o->path)
		return file_write_atomic(o->path, "-o", emit, &j, e);
	/* a table cut short by a closed pipe (sysab list | head) is not an error; a data export is */
	int w = emit(stdout, &j);
	if (o->kind == REPORT_SAMPLES && (w || fflush(stdout)))
		return errf(e, "cannot write to standard output (%s)", strerror(errno));
	return 0;
}
