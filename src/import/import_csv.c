/* import_csv.c - RFC 4180 CSV importer for published results: values, units, labels, grouping keys. */
#include "import/import_csv.h"
#include "import/import_util.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CSV_MAX_FIELD 4096
#define CSV_MAX_COLUMNS 256
#define CSV_MAX_KEY 256      /* boot and run keys */
#define CSV_MAX_COPIES 4096
#define CSV_MIN_VALUE IMPORT_MIN_VALUE /* ops/s and written values must lie in [min, max] */
#define CSV_MAX_VALUE IMPORT_MAX_VALUE

/* Units: throughput ones multiply (ops/s = value * factor), latency ones divide
 * (ops/s = factor / value). */
static const struct {
	const char *name;
	double factor;
	bool latency;
} units[] = {
	{"ops/s", 1, false}, {"lps", 1, false},   {"KiB/s", 1, false}, {"KBps", 1, false},
	{"MB/s", 1, false},  {"MWIPS", 1, false}, {"index", 1, false}, {"score", 1, false},
	{"lpm", 1.0 / 60, false}, {"ns/op", 1e9, true}, {"us/op", 1e6, true}, {"ms/op", 1e3, true},
	{"s/op", 1, true},
};
#define UNIT_LIST "ops/s, lps, KiB/s, KBps, MB/s, MWIPS, index, score, lpm, ns/op, us/op, ms/op, s/op"

enum col { C_VALUE, C_UNIT, C_WORKLOAD, C_COPIES, C_BOOT, C_RUN, C_LABEL, C_IGNORE };
static const char *const col_names[] = {"value", "unit", "workload", "copies", "boot", "run"};

/* One field of the record being read: bytes in ctx.text at off, and where it starts. */
struct field {
	size_t off, len;
	size_t line, col;
};

struct ctx {
	const char *name;
	const char *buf;
	size_t len, pos;
	size_t line, col;    /* of buf[pos], 1-based */
	struct sb text;      /* the current record's field contents, each NUL-terminated */
	struct field f[CSV_MAX_COLUMNS];
	size_t nf;
	struct err *e;
	struct csv_pool *pool;
};

/* Interned blobs (strings, label arrays): rows repeat the same workloads, units, keys and
 * labels, so each distinct one is stored once and rows point to it. Open addressing on
 * FNV-1a; the table stays at most half full. */
struct blob {
	uint64_t hash;
	size_t len;
	max_align_t data[]; /* len bytes */
};

struct csv_pool {
	struct blob **slot;
	size_t cap, n;
};

static uint64_t fnv1a(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

static void pool_insert(struct blob **slot, size_t cap, struct blob *b)
{
	size_t i = (size_t)b->hash & (cap - 1);
	while (slot[i])
		i = (i + 1) & (cap - 1);
	slot[i] = b;
}

/* The pool's copy of the n bytes at p (followed by a NUL byte). */
static const void *intern(struct csv_pool *pl, const void *p, size_t n)
{
	uint64_t h = fnv1a(p, n);
	if (pl->cap) {
		for (size_t i = (size_t)h & (pl->cap - 1); pl->slot[i]; i = (i + 1) & (pl->cap - 1)) {
			struct blob *b = pl->slot[i];
			if (b->hash == h && b->len == n && !memcmp(b->data, p, n))
				return b->data;
		}
	}
	if (2 * (pl->n + 1) > pl->cap) {
		size_t cap = pl->cap ? 2 * pl->cap : 256;
		struct blob **slot = xcalloc(cap, sizeof *slot);
		for (size_t i = 0; i < pl->cap; i++)
			if (pl->slot[i])
				pool_insert(slot, cap, pl->slot[i]);
		free(pl->slot);
		pl->slot = slot;
		pl->cap = cap;
	}
	struct blob *b = xmalloc(sizeof *b + n + 1);
	b->hash = h;
	b->len = n;
	memcpy(b->data, p, n);
	((char *)b->data)[n] = 0;
	pool_insert(pl->slot, pl->cap, b);
	pl->n++;
	return b->data;
}

static char *pool_str(struct csv_pool *pl, const char *s)
{
	return (char *)intern(pl, s, strlen(s));
}

/* Like pool_str, for a string made with xasprintf: the pool keeps a copy, s is freed. */
static char *pool_own(struct csv_pool *pl, char *s)
{
	char *r = pool_str(pl, s);
	free(s);
	return r;
}

static void pool_free(struct csv_pool *pl)
{
	if (!pl)
		return;
	for (size_t i = 0; i < pl->cap; i++)
		free(pl->slot[i]);
	free(pl->slot);
	free(pl);
}

static int fail(struct ctx *c, size_t line, size_t col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail(struct ctx *c, size_t line, size_t col, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return errf(c->e, "%s:%zu:%zu: %s", c->name, line, col, msg);
}

static void advance(struct ctx *c, size_t n)
{
	c->pos += n;
	c->col += n;
}

static void newline(struct ctx *c, size_t n)
{
	c->pos += n;
	c->line++;
	c->col = 1;
}

/* Length of the line end at pos: 1 for LF, 2 for CRLF, 0 for none. */
static size_t eol(const struct ctx *c)
{
	if (c->pos < c->len && c->buf[c->pos] == '\n')
		return 1;
	if (c->pos + 1 < c->len && c->buf[c->pos] == '\r' && c->buf[c->pos + 1] == '\n')
		return 2;
	return 0;
}

static int add_byte(struct ctx *c, struct field *f, char ch)
{
	if (ch == 0)
		return fail(c, c->line, c->col, "NUL byte in the file; save it as plain UTF-8 text");
	if (f->len >= CSV_MAX_FIELD)
		return fail(c, f->line, f->col, "field longer than %d bytes; shorten it", CSV_MAX_FIELD);
	sb_addn(&c->text, &ch, 1);
	f->len++;
	return 0;
}

static int read_quoted(struct ctx *c, struct field *f)
{
	advance(c, 1);
	for (;;) {
		if (c->pos >= c->len)
			return fail(c, f->line, f->col, "quoted field is never closed; add the closing '\"'");
		char ch = c->buf[c->pos];
		if (ch == '"') {
			if (c->pos + 1 < c->len && c->buf[c->pos + 1] == '"') {
				if (add_byte(c, f, '"'))
					return -1;
				advance(c, 2);
				continue;
			}
			advance(c, 1);
			if (c->pos < c->len && c->buf[c->pos] != ',' && !eol(c))
				return fail(c, c->line, c->col, "expected ',' or the end of the line after a closing "
					    "quote; write a quote inside a quoted field as \"\"");
			return 0;
		}
		if (add_byte(c, f, ch))
			return -1;
		if (ch == '\n')
			newline(c, 1);
		else
			advance(c, 1);
	}
}

static int read_plain(struct ctx *c, struct field *f)
{
	while (c->pos < c->len && c->buf[c->pos] != ',' && !eol(c)) {
		char ch = c->buf[c->pos];
		if (ch == '"')
			return fail(c, c->line, c->col, "quote inside an unquoted field; put the whole field in "
				    "quotes and double the quotes inside it");
		if (ch == '\r')
			return fail(c, c->line, c->col, "carriage return without a line feed; end lines with LF "
				    "or CRLF");
		if (add_byte(c, f, ch))
			return -1;
		advance(c, 1);
	}
	return 0;
}

/* Read the next record into c->f. Returns 1, 0 at the end of input, -1 on error. */
static int next_record(struct ctx *c)
{
	size_t n;
	while ((n = eol(c)))
		newline(c, n); /* blank lines */
	if (c->pos >= c->len)
		return 0;
	c->text.len = 0;
	c->nf = 0;
	for (;;) {
		if (c->nf == CSV_MAX_COLUMNS)
			return fail(c, c->line, c->col, "more than %d fields in a row; split the file",
				    CSV_MAX_COLUMNS);
		struct field *f = &c->f[c->nf++];
		*f = (struct field){.off = c->text.len, .line = c->line, .col = c->col};
		int r = c->pos < c->len && c->buf[c->pos] == '"' ? read_quoted(c, f) : read_plain(c, f);
		if (r)
			return -1;
		sb_addn(&c->text, "", 1); /* terminate the field; sb keeps a NUL after it too */
		if (c->pos < c->len && c->buf[c->pos] == ',') {
			advance(c, 1);
			continue;
		}
		if ((n = eol(c)))
			newline(c, n);
		return 1;
	}
}

static const char *fstr(const struct ctx *c, size_t i)
{
	return c->text.s + c->f[i].off;
}

/* Column roles and label keys from the header record. */
struct header {
	enum col role[CSV_MAX_COLUMNS];
	char *key[CSV_MAX_COLUMNS]; /* label keys; NULL for known columns */
	int where[C_LABEL];        /* column of each known role, or -1 */
	size_t n;
	bool exported;             /* the layout of `sysab export --format csv` (see below) */
	int latency, warmup, dropped, source; /* exported: those columns, or -1 */
};

/* The columns of `sysab export --format csv` (report/export.c) that an import of such
 * a file reads, by role; label.KEY columns are labels and every other column is
 * ignored (status, source, times, host, kernel, seq, round, ops, env.KEY). */
static int export_column(const char *s)
{
	static const char *const names[] = {"ops_per_s", "unit", "workload", "copies", "boot_id", "run"};
	for (int k = 0; k < C_LABEL; k++)
		if (!strcmp(s, names[k]))
			return k;
	return -1;
}

static bool is_export_header(const struct ctx *c);

/* Read an exported header: known columns, label.KEY, the rest ignored. */
static int parse_export_header(struct ctx *c, struct header *h)
{
	h->exported = true;
	h->latency = h->warmup = h->dropped = h->source = -1;
	for (size_t i = 0; i < c->nf; i++) {
		const char *s = fstr(c, i);
		int k = export_column(s);
		h->key[i] = NULL;
		h->role[i] = k >= 0 ? (enum col)k : C_IGNORE;
		if (k >= 0 && h->where[k] >= 0)
			return fail(c, c->f[i].line, c->f[i].col, "column '%s' appears twice in the header; keep one", s);
		if (k >= 0)
			h->where[k] = (int)i;
		else if (!strcmp(s, "latency"))
			h->latency = (int)i;
		else if (!strcmp(s, "warmup"))
			h->warmup = (int)i;
		else if (!strcmp(s, "dropped"))
			h->dropped = (int)i;
		else if (!strcmp(s, "source"))
			h->source = (int)i;
		else if (!strncmp(s, "label.", 6)) {
			struct err le;
			if (label_check_key(s + 6, &le))
				return fail(c, c->f[i].line, c->f[i].col, "header column %zu: %s", i + 1, le.msg);
			h->role[i] = C_LABEL;
			h->key[i] = xstrdup(s + 6);
		}
	}
	/* is_export_header() saw ops_per_s; every row also needs its op's name. */
	if (h->where[C_UNIT] < 0)
		return fail(c, c->f[0].line, 1, "the header has ops_per_s and boot_id (the layout of sysab export "
			    "--format csv) but no 'unit' column; add it, or name the columns value,unit,...");
	return 0;
}

static bool is_export_header(const struct ctx *c)
{
	bool value = false, ops = false, boot_id = false;
	for (size_t i = 0; i < c->nf; i++) {
		value |= !strcmp(fstr(c, i), "value");
		ops |= !strcmp(fstr(c, i), "ops_per_s");
		boot_id |= !strcmp(fstr(c, i), "boot_id");
	}
	return !value && ops && boot_id;
}

static int parse_header(struct ctx *c, struct header *h)
{
	h->n = c->nf;
	for (int k = 0; k < C_LABEL; k++)
		h->where[k] = -1;
	if (is_export_header(c))
		return parse_export_header(c, h);
	for (size_t i = 0; i < c->nf; i++) {
		const char *s = fstr(c, i);
		h->role[i] = C_LABEL;
		h->key[i] = NULL;
		for (int k = 0; k < C_LABEL; k++)
			if (!strcmp(s, col_names[k]))
				h->role[i] = (enum col)k;
		if (h->role[i] != C_LABEL) {
			if (h->where[h->role[i]] >= 0)
				return fail(c, c->f[i].line, c->f[i].col, "column '%s' appears twice in the header; "
					    "keep one", s);
			h->where[h->role[i]] = (int)i;
			continue;
		}
		struct err le;
		if (label_check_key(s, &le))
			return fail(c, c->f[i].line, c->f[i].col, "header column %zu: %s", i + 1, le.msg);
		for (size_t j = 0; j < i; j++)
			if (h->key[j] && !strcmp(h->key[j], s))
				return fail(c, c->f[i].line, c->f[i].col, "column '%s' appears twice in the header; "
					    "keep one", s);
		h->key[i] = xstrdup(s);
	}
	for (int k = 0; k < 2; k++)
		if (h->where[k] < 0 && !h->exported)
			return fail(c, c->f[0].line, 1, "the header has no '%s' column; the first line must name "
				    "the columns, e.g. value,unit,pernode,pie", col_names[k]);
	return 0;
}

static void header_free(struct header *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->key[i]);
}

/* Check a given boot or run key in field i; empty means "not given". */
static int check_key(struct ctx *c, size_t i, const char *what)
{
	const char *s = fstr(c, i);
	if (!*s)
		return 0;
	if (c->f[i].len > CSV_MAX_KEY || !text_is_clean(s, false) || s[0] == '@')
		return fail(c, c->f[i].line, c->f[i].col, "%s key must be printable UTF-8 text of at most %d "
			    "bytes that does not start with '@'; change it", what, CSV_MAX_KEY);
	return 0;
}

/* A 0/1 flag column of an exported row (-1: absent, 0). */
static int flag_of(struct ctx *c, int col, const char *what, int *out)
{
	*out = 0;
	if (col < 0)
		return 0;
	const char *s = fstr(c, (size_t)col);
	if (strcmp(s, "0") && strcmp(s, "1"))
		return fail(c, c->f[col].line, c->f[col].col, "%s must be 0 or 1, not '%.20s'", what,
			    text_is_clean(s, false) ? s : "?");
	*out = s[0] == '1';
	return 0;
}

/* Field i holds a number import_number refused with r: the importers' one message. */
static int number_fail(struct ctx *c, size_t i, int r, const char *what)
{
	char msg[200];
	import_number_msg(msg, sizeof msg, r, what, fstr(c, i), c->f[i].len, CSV_MIN_VALUE, CSV_MAX_VALUE);
	return fail(c, c->f[i].line, c->f[i].col, "%s", msg);
}

/* An exported row: ops_per_s as stored, the op name as the unit, the flags as written. */
static int parse_exported_value(struct ctx *c, const struct header *h, struct csv_row *row)
{
	size_t vi = (size_t)h->where[C_VALUE], ui = (size_t)h->where[C_UNIT];
	const char *s = fstr(c, vi), *unit = fstr(c, ui);
	double v;
	int r = import_number(s, c->f[vi].len, CSV_MIN_VALUE, CSV_MAX_VALUE, &v);
	if (r != IMPORT_NUM_OK)
		return number_fail(c, vi, r, "ops_per_s");
	if (!*unit || c->f[ui].len > 64 || !text_is_clean(unit, false))
		return fail(c, c->f[ui].line, c->f[ui].col, "unit must be the op's name, printable, at most 64 bytes");
	if (flag_of(c, h->latency, "latency", &row->latency) || flag_of(c, h->warmup, "warmup", &row->warmup) ||
	    flag_of(c, h->dropped, "dropped", &row->dropped))
		return -1;
	if (h->source >= 0) {
		const char *src = fstr(c, (size_t)h->source);
		if (strcmp(src, "sysab") && strcmp(src, "csv") && strcmp(src, "unixbench"))
			return fail(c, c->f[h->source].line, c->f[h->source].col,
				    "source must be sysab, csv or unixbench, not '%.20s'", text_is_clean(src, false) ? src : "?");
		row->source = pool_str(c->pool, src);
	}
	row->written = v;
	row->value = v;
	row->unit = pool_str(c->pool, unit);
	row->op_unit = true;
	return 0;
}

static int parse_value(struct ctx *c, const struct header *h, struct csv_row *row)
{
	if (h->exported)
		return parse_exported_value(c, h, row);
	size_t vi = (size_t)h->where[C_VALUE], ui = (size_t)h->where[C_UNIT];
	const char *unit = fstr(c, ui);
	size_t u;
	for (u = 0; u < sizeof units / sizeof units[0]; u++)
		if (!strcmp(unit, units[u].name))
			break;
	if (u == sizeof units / sizeof units[0])
		return fail(c, c->f[ui].line, c->f[ui].col, "unknown unit '%.40s'%s; use one of " UNIT_LIST,
			    text_is_clean(unit, false) ? unit : "?", c->f[ui].len > 40 ? "..." : "");
	const char *s = fstr(c, vi);
	double v;
	int r = import_number(s, c->f[vi].len, CSV_MIN_VALUE, CSV_MAX_VALUE, &v);
	if (r != IMPORT_NUM_OK)
		return number_fail(c, vi, r, "value");
	double ops = units[u].latency ? units[u].factor / v : v * units[u].factor;
	if (!(ops >= CSV_MIN_VALUE && ops <= CSV_MAX_VALUE))
		return fail(c, c->f[vi].line, c->f[vi].col, "value %s %s is %g ops/s, out of range (%g to %g); "
			    "check the value and its unit", s, unit, ops, CSV_MIN_VALUE, CSV_MAX_VALUE);
	row->written = v;
	row->value = ops;
	row->unit = pool_str(c->pool, unit);
	return 0;
}

/* The row's non-empty label cells, in column order, as one pooled array of pooled strings
 * (rows with the same labels share it). */
static int row_labels(struct ctx *c, const struct header *h, struct csv_row *row)
{
	struct kv kv[CSV_MAX_COLUMNS];
	size_t n = 0;
	for (size_t i = 0; i < h->n; i++) {
		const char *s = fstr(c, i);
		if (h->role[i] != C_LABEL || !*s)
			continue;
		struct err le;
		if (label_check_value(h->key[i], s, &le))
			return fail(c, c->f[i].line, c->f[i].col, "%s", le.msg);
		kv[n++] = (struct kv){pool_str(c->pool, h->key[i]), pool_str(c->pool, s)};
	}
	if (n)
		row->labels = (struct kvlist){(struct kv *)intern(c->pool, kv, n * sizeof kv[0]), n, n};
	return 0;
}

static int parse_row(struct ctx *c, const struct header *h, struct csv_row *row)
{
	size_t line = c->f[0].line;
	if (c->nf != h->n)
		return fail(c, line, 1, "this row has %zu field%s but the header has %zu; give every row one "
			    "field per column (quote fields that hold commas)", c->nf, c->nf == 1 ? "" : "s", h->n);
	row->line = line;
	row->copies = 1;
	if (parse_value(c, h, row))
		return -1;
	if (h->where[C_WORKLOAD] >= 0) {
		size_t i = (size_t)h->where[C_WORKLOAD];
		if (!import_workload_ok(fstr(c, i)))
			return fail(c, c->f[i].line, c->f[i].col, "workload must be a name like unixbench.pipe or "
				    "index (" IMPORT_WORKLOAD_RULE ")");
		row->workload = pool_str(c->pool, fstr(c, i));
	} else {
		row->workload = pool_str(c->pool, "index");
	}
	if (h->where[C_COPIES] >= 0) {
		size_t i = (size_t)h->where[C_COPIES];
		double v;
		if (import_number(fstr(c, i), c->f[i].len, 1, CSV_MAX_COPIES, &v) || (unsigned)v != v ||
		    !(fstr(c, i)[0] >= '0' && fstr(c, i)[0] <= '9'))
			return fail(c, c->f[i].line, c->f[i].col, "copies must be a whole number from 1 to %d",
				    CSV_MAX_COPIES);
		row->copies = (unsigned)v;
	}
	const char *boot = "", *run = "";
	if (h->where[C_BOOT] >= 0) {
		if (check_key(c, (size_t)h->where[C_BOOT], "boot"))
			return -1;
		boot = fstr(c, (size_t)h->where[C_BOOT]);
	}
	if (h->where[C_RUN] >= 0) {
		if (check_key(c, (size_t)h->where[C_RUN], "run"))
			return -1;
		run = fstr(c, (size_t)h->where[C_RUN]);
	}
	row->run = *run ? pool_str(c->pool, run) : pool_own(c->pool, xasprintf("@%zu", line));
	row->boot = *boot ? pool_str(c->pool, boot)
		    : pool_own(c->pool, *run ? xasprintf("@run:%s", run) : xasprintf("@boot:%zu", line));
	return row_labels(c, h, row);
}

static int cmp_run(const void *a, const void *b)
{
	const struct csv_row *x = *(const struct csv_row *const *)a, *y = *(const struct csv_row *const *)b;
	int r = strcmp(x->run, y->run);
	return r ? r : (x->line > y->line) - (x->line < y->line);
}

/* A run belongs to one boot: rows sharing a run key must share the boot key. */
static int check_runs(struct ctx *c, const struct csv_import *out)
{
	const struct csv_row **v = xcalloc(out->nrow, sizeof *v);
	int r = 0;
	for (size_t i = 0; i < out->nrow; i++)
		v[i] = &out->row[i];
	qsort(v, out->nrow, sizeof *v, cmp_run);
	for (size_t i = 1; i < out->nrow && !r; i++)
		if (!strcmp(v[i]->run, v[i - 1]->run) && strcmp(v[i]->boot, v[i - 1]->boot))
			r = fail(c, v[i]->line, 1, "run '%.80s' is on boot '%.80s' here but on boot '%.80s' at line "
				 "%zu; a run belongs to one boot, so fix the boot or run key", v[i]->run, v[i]->boot,
				 v[i - 1]->boot, v[i - 1]->line);
	free(v);
	return r;
}

int import_csv_parse(const char *name, const char *buf, size_t len, struct csv_import *out, struct err *e)
{
	struct ctx c = {.name = name ? name : "<input>", .buf = buf, .len = buf ? len : 0, .line = 1, .col = 1,
			.e = e};
	struct header h = {.n = 0};
	struct csv_import res = {.pool = xcalloc(1, sizeof *res.pool)};
	size_t cap = 0;
	int r;
	c.pool = res.pool;
	*out = (struct csv_import){0};
	if (c.len >= 3 && !memcmp(c.buf, "\xef\xbb\xbf", 3))
		c.pos = 3;
	if ((r = next_record(&c)) <= 0) {
		if (r == 0)
			fail(&c, c.line, 1, "no header row; the first line must name the columns, e.g. "
			     "value,unit,pernode,pie");
		r = -1;
		goto out;
	}
	if ((r = parse_header(&c, &h)))
		goto out;
	while ((r = next_record(&c)) == 1) {
		res.row = xgrow(res.row, &cap, res.nrow + 1, sizeof *res.row);
		struct csv_row *row = &res.row[res.nrow++];
		*row = (struct csv_row){0};
		if ((r = parse_row(&c, &h, row)))
			goto out;
	}
	if (r < 0)
		goto out;
	if (res.nrow == 0) {
		r = fail(&c, c.line, 1, "no data rows under the header; add one row per value");
		goto out;
	}
	r = check_runs(&c, &res);
out:
	header_free(&h);
	sb_free(&c.text);
	if (r) {
		import_csv_free(&res);
		return -1;
	}
	*out = res;
	return 0;
}

void import_csv_free(struct csv_import *c)
{
	if (!c)
		return;
	free(c->row);
	pool_free(c->pool);
	*c = (struct csv_import){0};
}
