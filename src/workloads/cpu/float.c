/* float.c - cpu.float: a Whetstone-style double-precision pass (arrays, calls, branches, integers, trig, exp/log/sqrt). */
#include "workloads/workload.h"

#include <math.h>
#include <stdlib.h>

/* Written from the published description of the Whetstone benchmark (Curnow
 * and Wichmann, 1976), in double precision. One op is one pass through the
 * modules with their classic loop counts for I = 1:
 *   array elements 12, array as parameter 14 (6 inner steps), conditional
 *   jumps 345, integer arithmetic 210, trigonometric functions 32, procedure
 *   calls 899, array references 616, standard functions (sqrt, exp, log) 93.
 * By the benchmark's definition such a pass is 100,000 Whetstone
 * instructions, so MWIPS = ops/s / 10. UnixBench's whetstone-double (whets.c)
 * weights and times its modules differently, so the two scores differ by the
 * factor docs/WORKLOADS.md gives; the baseline is UnixBench's 55.0 MWIPS (550
 * passes/s), so sysab-index takes it on UnixBench's scale.
 *
 * The constants are read from the state each pass, the procedures are
 * noinline, and each pass checks its integer invariants and that its floating
 * results are finite and in range; passes that do are counted in count[0]. */

#define NOINLINE __attribute__((noinline))

struct whet {
	double t, t1, t2;
	double e1[4];
	volatile double sink;
};

/* Array as parameter: six steps over e. */
static NOINLINE void whet_pa(double *e, double t, double t2)
{
	for (int j = 0; j < 6; j++) {
		e[0] = (e[0] + e[1] + e[2] - e[3]) * t;
		e[1] = (e[0] + e[1] - e[2] + e[3]) * t;
		e[2] = (e[0] - e[1] + e[2] + e[3]) * t;
		e[3] = (-e[0] + e[1] + e[2] + e[3]) / t2;
	}
}

/* Procedure call with scalar arguments. */
static NOINLINE void whet_p3(double x, double y, double *z, double t, double t2)
{
	double a = t * (x + y);
	double b = t * (a + y);
	*z = (a + b) / t2;
}

/* Array references: rotate three elements. */
static NOINLINE void whet_p0(double *e, int j, int k, int l)
{
	e[j] = e[k];
	e[k] = e[l];
	e[l] = e[j];
}

static int whet_pass(struct whet *w)
{
	const double t = w->t, t1 = w->t1, t2 = w->t2;
	double *e = w->e1;
	double sum = 0;
	int ok = 1;

	/* Array elements. */
	e[0] = 1.0, e[1] = e[2] = e[3] = -1.0;
	for (int i = 0; i < 12; i++) {
		e[0] = (e[0] + e[1] + e[2] - e[3]) * t;
		e[1] = (e[0] + e[1] - e[2] + e[3]) * t;
		e[2] = (e[0] - e[1] + e[2] + e[3]) * t;
		e[3] = (-e[0] + e[1] + e[2] + e[3]) * t;
	}
	/* Array as parameter. */
	for (int i = 0; i < 14; i++)
		whet_pa(e, t, t2);
	sum += e[0] + e[1] + e[2] + e[3];

	/* Conditional jumps: j alternates between 0 and 1, ending at 0. */
	int j = 1;
	for (int i = 0; i < 345; i++) {
		j = j == 1 ? 2 : 3;
		j = j > 2 ? 0 : 1;
		j = j < 1 ? 1 : 0;
	}
	ok &= j == 0;

	/* Integer arithmetic: j, k, l come back to 1, 2, 3. */
	int k = 2, l = 3;
	j = 1;
	for (int i = 0; i < 210; i++) {
		j = j * (k - j) * (l - k);
		k = l * k - (l - j) * k;
		l = (l - k) * (k + j);
		e[l - 2] = j + k + l;
		e[k - 2] = j * k * l;
	}
	ok &= j == 1 && k == 2 && l == 3;

	/* Trigonometric functions. */
	double x = 0.5, y = 0.5;
	for (int i = 0; i < 32; i++) {
		x = t * atan(t2 * sin(x) * cos(x) / (cos(x + y) + cos(x - y) - 1.0));
		y = t * atan(t2 * sin(y) * cos(y) / (cos(x + y) + cos(x - y) - 1.0));
	}
	ok &= isfinite(x) && isfinite(y);
	sum += x + y;

	/* Procedure calls. */
	double z = 1.0;
	x = y = 1.0;
	for (int i = 0; i < 899; i++)
		whet_p3(x, y, &z, t, t2);
	ok &= z > 0.9 && z < 1.1;
	sum += z;

	/* Array references: the three elements swap round, {3, 2, 3} after an even count. */
	e[0] = 1.0, e[1] = 2.0, e[2] = 3.0;
	for (int i = 0; i < 616; i++)
		whet_p0(e, 0, 1, 2);
	ok &= e[0] == 3.0 && e[1] == 2.0 && e[2] == 3.0;

	/* Standard functions: x creeps from 0.75 towards 1. */
	x = 0.75;
	for (int i = 0; i < 93; i++)
		x = sqrt(exp(log(x) / t1));
	ok &= x > 0.75 && x < 1.0;
	sum += x;

	w->sink = sum;
	return ok && isfinite(sum);
}

static int float_setup(struct wl_ctx *ctx)
{
	struct whet *w = calloc(1, sizeof *w);
	if (!w)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	w->t = 0.499975;
	w->t1 = 0.50025;
	w->t2 = 2.0;
	ctx->priv = w;
	return 0;
}

static int float_run(struct wl_ctx *ctx, uint64_t n)
{
	struct whet *w = ctx->priv;
	uint64_t good = 0;
	for (uint64_t i = 0; i < n; i++)
		good += (uint64_t)whet_pass(w);
	ctx->count[0] += good;
	return 0;
}

static void float_teardown(struct wl_ctx *ctx)
{
	free(ctx->priv);
}

const struct workload wl_cpu_float = {
	.name = "cpu.float",
	.group = "cpu",
	.summary = "one Whetstone-style double pass (100,000 Whetstone instructions: MWIPS = ops/s / 10)",
	.kernel_path = "none (user-space floating point and libm; the kernel only schedules it)",
	.unit = "pass",
	.unixbench = "whetstone-double",
	.unixbench_units = 0.1, /* MWIPS = passes/s / 10 */
	.baseline = 55.0 / 0.1,
	.flags = WL_INDEX,
	.checks = {WL_CHECK("passes with the expected invariants per op", WL_M_COUNT0, 1, 1)},
	.setup = float_setup,
	.run = float_run,
	.teardown = float_teardown,
};
