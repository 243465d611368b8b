/* int.c - cpu.int: a Dhrystone-2-style integer loop (records, strings, calls, branches, integer arithmetic). */
#include "workloads/workload.h"

#include <stdlib.h>
#include <string.h>

/* Written from the published description of Dhrystone 2.1 (Weicker, 1988): one
 * loop performs the same mix of statements — integer assignments and
 * arithmetic, record assignment through pointers, 30-character string
 * assignment and comparison, calls of eight procedures and three functions, and
 * if/while/for/switch branches. It is not the Dhrystone source: names and
 * layout differ, but the statements, the calls and which calls cross a file
 * boundary (below) are Dhrystone's, so a loop is UnixBench's dhry2reg loop and
 * the baseline is its 116700 lps. sysab is built -O2 for any CPU of the
 * architecture; UnixBench -O3 -march=native (docs/WORKLOADS.md gives the effect).
 *
 * After each loop the
 * locals must hold the values Dhrystone's description gives (5, 13, 7 and the
 * second enumerator); loops that do are counted in ctx->count[0], so the
 * compiler cannot drop the work and a miscompiled loop fails the self-check. */

enum kind { K1, K2, K3, K4, K5 };

struct rec {
	struct rec *next;
	enum kind disc;
	enum kind kind;
	int num;
	char text[31];
};

struct dhry {
	struct rec *glob, *other;
	struct rec recs[2];
	int int_glob;
	int bool_glob;
	char ch1, ch2;
	int arr1[50];
	int arr2[50][50];
	char s1[31], s2[31];
};

#define STR_1ST "DHRYSTONE PROGRAM, 1'ST STRING"
#define STR_2ND "DHRYSTONE PROGRAM, 2'ND STRING"
#define STR_3RD "DHRYSTONE PROGRAM, 3'RD STRING"
#define STR_SOME "DHRYSTONE PROGRAM, SOME STRING"

/* Dhrystone is two source files, and UnixBench compiles them separately: the calls
 * from the main loop's file to the procedures of the other file stay calls, while the
 * procedures of the same file (and calls within the other file) may be inlined. This
 * file keeps that shape: the procedures of "the other file" are CROSS (never inlined or
 * specialised, as across a file boundary), the rest are plain static functions the
 * compiler may inline. When every procedure was noinline, a loop cost 1.25-1.6x
 * UnixBench's dhry2reg on the same machine. */
#if defined(__clang__)
#define CROSS __attribute__((noinline))
#else
#define CROSS __attribute__((noipa))
#endif

static CROSS void set_sum(int a, int b, int *out)
{
	int t = a + 2;
	*out = b + t;
}

static int is_third(enum kind k)
{
	return k == K3;
}

static inline enum kind char_kind_in(struct dhry *d, char a, char b)
{
	char x = a;
	char y = x;
	if (y != b)
		return K1;
	d->ch1 = x;
	return K2;
}

/* char_kind as the main loop calls it: across the file boundary */
static CROSS enum kind char_kind(struct dhry *d, char a, char b)
{
	return char_kind_in(d, a, b);
}

static CROSS void pick_kind(struct dhry *d, enum kind in, enum kind *out)
{
	*out = in;
	if (!is_third(in))
		*out = K4;
	switch (in) {
	case K1:
		*out = K1;
		break;
	case K2:
		*out = d->int_glob > 100 ? K1 : K4;
		break;
	case K3:
		*out = K2;
		break;
	case K4:
		break;
	case K5:
		*out = K3;
		break;
	}
}

static void follow(struct dhry *d, struct rec **p)
{
	if (d->glob)
		*p = d->glob->next;
	set_sum(10, d->int_glob, &d->glob->num);
}

static void rec_step(struct dhry *d, struct rec *r)
{
	struct rec *n = r->next;
	*n = *d->glob; /* record assignment */
	r->num = 5;
	n->num = r->num;
	n->next = r->next;
	follow(d, &n->next);
	if (n->disc == K1) {
		n->num = 6;
		pick_kind(d, r->kind, &n->kind);
		n->next = d->glob->next;
		set_sum(n->num, 10, &n->num);
	} else {
		*r = *r->next;
	}
}

static void count_down(struct dhry *d, int *v)
{
	int t = *v + 10;
	enum kind k = K2;
	do {
		if (d->ch1 == 'A') {
			t--;
			*v = t - d->int_glob;
			k = K1;
		}
	} while (k != K1);
}

static CROSS void arrays(struct dhry *d, int a, int b)
{
	int at = a + 5;
	d->arr1[at] = b;
	d->arr1[at + 1] = d->arr1[at];
	d->arr1[at + 30] = at;
	for (int i = at; i <= at + 1; i++)
		d->arr2[at][i] = at;
	d->arr2[at][at - 1] = (int)((unsigned)d->arr2[at][at - 1] + 1u); /* wraps, never overflows */
	d->arr2[at + 20][at] = d->arr1[at];
	d->int_glob = 5;
}

static CROSS int strings_differ(struct dhry *d, const char *a, const char *b)
{
	int at = 2;
	char c = 0;
	while (at <= 2)
		if (char_kind_in(d, a[at], b[at + 1]) == K1) {
			c = 'A';
			at++;
		}
	if (c >= 'W' && c < 'Z')
		at = 7;
	if (c == 'R')
		return 1;
	if (strcmp(a, b) > 0) {
		at += 7;
		d->int_glob = at;
		return 1;
	}
	return 0;
}

static void set_chars(struct dhry *d)
{
	d->ch1 = 'A';
	d->bool_glob = 0;
}

static void merge_bool(struct dhry *d)
{
	int b = d->ch1 == 'A';
	d->bool_glob |= b;
	d->ch2 = 'B';
}

static int int_setup(struct wl_ctx *ctx)
{
	struct dhry *d = calloc(1, sizeof *d);
	if (!d)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	d->other = &d->recs[0];
	d->glob = &d->recs[1];
	d->glob->next = d->other;
	d->glob->disc = K1;
	d->glob->kind = K3;
	d->glob->num = 40;
	strcpy(d->glob->text, STR_SOME);
	strcpy(d->s1, STR_1ST);
	d->arr2[8][7] = 10;
	ctx->priv = d;
	return 0;
}

static int int_run(struct wl_ctx *ctx, uint64_t n)
{
	struct dhry *d = ctx->priv;
	uint64_t good = 0;
	for (uint64_t loop = 1; loop <= n; loop++) {
		int i1, i2, i3 = 0;
		enum kind k;
		set_chars(d);
		merge_bool(d);
		i1 = 2;
		i2 = 3;
		strcpy(d->s2, STR_2ND);
		k = K2;
		d->bool_glob = !strings_differ(d, d->s1, d->s2);
		while (i1 < i2) {
			i3 = 5 * i1 - i2;
			set_sum(i1, i2, &i3);
			i1++;
		}
		arrays(d, i1, i3);
		rec_step(d, d->glob);
		for (char c = 'A'; c <= d->ch2; c++)
			if (k == char_kind(d, c, 'C')) {
				pick_kind(d, K1, &k);
				strcpy(d->s2, STR_3RD);
				i2 = (int)loop;
				d->int_glob = (int)loop;
			}
		i2 = i2 * i1;
		i1 = i2 / i3;
		i2 = 7 * (i2 - i3) - i1;
		count_down(d, &i1);
		good += i1 == 5 && i2 == 13 && i3 == 7 && k == K2;
	}
	ctx->count[0] += good;
	return 0;
}

static void int_teardown(struct wl_ctx *ctx)
{
	free(ctx->priv);
}

const struct workload wl_cpu_int = {
	.name = "cpu.int",
	.group = "cpu",
	.summary = "one Dhrystone-2-style loop: integer arithmetic, record and string assignment and compare, calls, branches",
	.kernel_path = "none (user-space integer code; the kernel only schedules it)",
	.unit = "loop",
	.unixbench = "dhry2reg",
	.baseline = 116700.0,
	.flags = WL_INDEX,
	.checks = {WL_CHECK("loops with Dhrystone's expected results per op", WL_M_COUNT0, 1, 1)},
	.setup = int_setup,
	.run = int_run,
	.teardown = int_teardown,
};
