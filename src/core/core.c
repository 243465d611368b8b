/* core.c - errors, allocation, growable strings and lists, clocks. */
#include "core.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int errf(struct err *e, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int err_prefix(struct err *e, const char *fmt, ...)
{
	if (!e)
		return -1;
	char pre[512], old[sizeof e->msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof pre, fmt, ap);
	va_end(ap);
	memcpy(old, e->msg, sizeof old);
	size_t n = strlen(pre);
	if (n > sizeof e->msg - 3)
		n = sizeof e->msg - 3;
	memcpy(e->msg, pre, n);
	memcpy(e->msg + n, ": ", 2);
	size_t room = sizeof e->msg - n - 3;
	size_t ol = strnlen(old, room);
	memcpy(e->msg + n + 2, old, ol);
	e->msg[n + 2 + ol] = 0;
	return -1;
}

static void oom(size_t n)
{
	fprintf(stderr, "sysab: out of memory allocating %zu bytes\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *d = xmalloc(len + 1);
	memcpy(d, s, len);
	d[len] = 0;
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	struct sb b = {0};
	va_start(ap, fmt);
	sb_vaddf(&b, fmt, ap);
	va_end(ap);
	if (!b.s)
		return xstrdup("");
	return b.s;
}

void *xgrow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	size_t c = *cap ? *cap : 8;
	while (c < need)
		c *= 2;
	if (c > SIZE_MAX / size)
		oom(SIZE_MAX);
	*cap = c;
	return xrealloc(p, c * size);
}

void sb_addn(struct sb *b, const char *s, size_t n)
{
	b->s = xgrow(b->s, &b->cap, b->len + n + 1, 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void sb_add(struct sb *b, const char *s)
{
	sb_addn(b, s, strlen(s));
}

void sb_vaddf(struct sb *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return;
	b->s = xgrow(b->s, &b->cap, b->len + (size_t)n + 1, 1);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void sb_addf(struct sb *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(b, fmt, ap);
	va_end(ap);
}

const char *sb_str(const struct sb *b)
{
	return b->s ? b->s : "";
}

void sb_free(struct sb *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

void kv_add(struct kvlist *l, const char *key, const char *value)
{
	l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n].key = xstrdup(key);
	l->v[l->n].value = xstrdup(value);
	l->n++;
}

void kv_addf(struct kvlist *l, const char *key, const char *fmt, ...)
{
	struct sb b = {0};
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&b, fmt, ap);
	va_end(ap);
	kv_add(l, key, sb_str(&b));
	sb_free(&b);
}

const char *kv_get(const struct kvlist *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0)
			return l->v[i].value;
	return NULL;
}

static int kv_cmp(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	if (c)
		return c;
	return x < y ? -1 : x > y; /* keep insertion order for equal keys */
}

void kv_sort(struct kvlist *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof *l->v, kv_cmp);
}

void kv_free(struct kvlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].value);
	}
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

void strv_add(struct strv *l, const char *s)
{
	l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = xstrdup(s);
}

bool strv_has(const struct strv *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return true;
	return false;
}

void strv_free(struct strv *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

uint64_t clock_wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void format_wall(uint64_t wall_ns, char *buf, size_t size)
{
	time_t t = (time_t)(wall_ns / 1000000000u);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
}

const char *prog_name(char *buf, size_t size)
{
	char a0[512] = "";
	FILE *f = fopen("/proc/self/cmdline", "re");
	if (f) {
		size_t n = fread(a0, 1, sizeof a0 - 1, f);
		a0[n] = 0; /* argv[0] ends at its NUL */
		fclose(f);
	}
	snprintf(buf, size, "%s", strchr(a0, '/') && text_is_clean(a0, false) ? a0 : "sysab");
	return buf;
}

void prog_hints(struct sb *out, const char *text)
{
	char prog[512];
	prog_name(prog, sizeof prog);
	const char *p = text, *q;
	while ((q = strstr(p, "`sysab "))) {
		sb_addn(out, p, (size_t)(q - p) + 1);
		sb_add(out, prog);
		p = q + 6; /* from the space after sysab */
	}
	sb_add(out, p);
}

const char *load_level(double load, long ncpu)
{
	double per = load / (double)(ncpu > 0 ? ncpu : 1);
	return per >= 1 ? "high" : per >= 0.5 ? "some" : "low";
}
