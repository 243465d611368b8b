/* test_pressure.c - run --icache-pressure: sizes from sysfs text, the sweep plan, and a pressured batch of single timed ops. */
#include "unit.h"
#include "core/core.h"
#include "core/tmp.h"
#include "workloads/pressure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

UNIT_TMPDIR_FIXTURE

static void sizes_as_sysfs_and_users_write_them(void **state)
{
	(void)state;
	assert_int_equal(wl_size_parse("32K\n"), 32 << 10);
	assert_int_equal(wl_size_parse("266240K"), 266240ul << 10);
	assert_int_equal(wl_size_parse("8M"), 8 << 20);
	assert_int_equal(wl_size_parse("8MiB"), 8 << 20);
	assert_int_equal(wl_size_parse("1G"), 1ul << 30);
	assert_int_equal(wl_size_parse("4096"), 4096);
	assert_int_equal(wl_size_parse("64"), 64);
	assert_int_equal(wl_size_parse(""), 0);
	assert_int_equal(wl_size_parse("l2"), 0);
	assert_int_equal(wl_size_parse("8X"), 0);
	assert_int_equal(wl_size_parse("-1M"), 0);
	assert_int_equal(wl_size_parse("99999999999999999999M"), 0);
}

static void put(const char *index, const char *file, const char *text)
{
	char *d = xasprintf("%s/%s", dir, index);
	mkdir(d, 0700);
	char *p = xasprintf("%s/%s", d, file);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(p);
	free(d);
}

static void cache(const char *index, const char *level, const char *type, const char *size, const char *line)
{
	put(index, "level", level);
	put(index, "type", type);
	put(index, "size", size);
	if (line)
		put(index, "coherency_line_size", line);
}

/* A sysfs cache directory as Linux writes it: the L1 instruction cache sizes the code
 * sweep (twice it), the largest unified cache the llc data sweep (twice it). */
static void plan_from_sysfs_caches(void **state)
{
	(void)state;
	cache("index0", "1\n", "Data\n", "48K\n", "64\n");
	cache("index1", "1\n", "Instruction\n", "32K\n", "64\n");
	cache("index2", "2\n", "Unified\n", "2048K\n", "64\n");
	cache("index3", "3\n", "Unified\n", "32768K\n", "128\n");
	struct wl_cache c[16];
	size_t n = wl_caches_read(dir, c, 16);
	assert_int_equal(n, 4);
	assert_int_equal(c[1].level, 1);
	assert_int_equal(c[1].type, 'i');
	assert_int_equal(c[3].type, 'u');
	assert_int_equal(c[3].bytes, 32ul << 20);
	struct wl_pressure p;
	char why[256];
	assert_int_equal(wl_pressure_plan("l1", c, n, &p, why, sizeof why), 0);
	assert_int_equal(p.code_bytes, 64 << 10);
	assert_int_equal(p.data_bytes, 0);
	assert_string_equal(p.source, "sysfs");
	assert_string_equal(p.spec, "l1");
	assert_int_equal(wl_pressure_plan("llc", c, n, &p, why, sizeof why), 0);
	assert_int_equal(p.code_bytes, 64 << 10);
	assert_int_equal(p.data_bytes, 64ul << 20);
	assert_int_equal(p.line, 128);
	assert_int_equal(wl_pressure_plan("3M", c, n, &p, why, sizeof why), 0);
	assert_int_equal(p.data_bytes, 3 << 20);
}

/* No sysfs caches (a container, an emulator): the documented defaults, said so. Sizes
 * are rounded up to whole chunks and clamped. */
static void plan_defaults_and_limits(void **state)
{
	(void)state;
	struct wl_pressure p;
	char why[256];
	assert_int_equal(wl_caches_read(dir, (struct wl_cache[1]){0}, 1), 0);
	assert_int_equal(wl_pressure_plan("llc", NULL, 0, &p, why, sizeof why), 0);
	assert_int_equal(p.code_bytes, 2 * PRESSURE_L1I_DEFAULT);
	assert_int_equal(p.data_bytes, 2 * PRESSURE_LLC_DEFAULT);
	assert_int_equal(p.line, PRESSURE_LINE_DEFAULT);
	assert_string_equal(p.source, "default");
	struct wl_cache odd[] = {{1, 'i', 20 << 10, 64}, {3, 'u', 3ul << 30, 64}};
	assert_int_equal(wl_pressure_plan("llc", odd, 2, &p, why, sizeof why), 0);
	assert_int_equal(p.code_bytes, 48 << 10); /* 40 KiB rounded up to 16 KiB chunks */
	assert_int_equal(p.data_bytes, PRESSURE_DATA_MAX);
	struct wl_cache huge_l1[] = {{1, 'i', 4ul << 20, 64}};
	assert_int_equal(wl_pressure_plan("l1", huge_l1, 1, &p, why, sizeof why), 0);
	assert_int_equal(p.code_bytes, PRESSURE_CODE_MAX);
}

static void plan_refuses_what_is_not_a_level(void **state)
{
	(void)state;
	struct wl_pressure p;
	char why[256];
	assert_int_equal(wl_pressure_plan("l2", NULL, 0, &p, why, sizeof why), -1);
	assert_non_null(strstr(why, "--icache-pressure l2: give l1, llc or a size"));
	assert_int_equal(wl_pressure_plan("0", NULL, 0, &p, why, sizeof why), -1);
	/* a SIZE above the 1 GiB the sweep holds is refused, never capped silently (issue 52, item 10) */
	assert_int_equal(wl_pressure_plan("1G", NULL, 0, &p, why, sizeof why), 0);
	assert_int_equal(p.data_bytes, PRESSURE_DATA_MAX);
	assert_int_equal(wl_pressure_plan("1025M", NULL, 0, &p, why, sizeof why), -1);
	assert_non_null(strstr(why, "--icache-pressure 1025M: a data sweep is at most 1024 MiB (1G)"));
	assert_int_equal(wl_pressure_plan("64G", NULL, 0, &p, why, sizeof why), -1);
}

/* Only workloads whose op is one kernel entry take it. */
static void which_workloads_take_it(void **state)
{
	(void)state;
	const char *yes[] = {"kernel.syscall.null", "kernel.fault.anon", "kernel.trap.break", "kernel.signal.catch"};
	const char *no[] = {"harness.null", "host.ref", "kernel.vdso.clock", "kernel.proc.fork", "kernel.ctx.pipe",
			    "kernel.fault.threads", "unixbench.pipe"};
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
		assert_non_null(wl_find(yes[i]));
		assert_true(wl_pressure_takes(wl_find(yes[i])));
	}
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
		assert_non_null(wl_find(no[i]));
		assert_false(wl_pressure_takes(wl_find(no[i])));
	}
}

/* A workload that records how it was called. */
struct calls {
	uint64_t prepared, ran, finished, biggest, swept_before;
	struct wl_sweep *sweep;
};

static int fake_prepare(struct wl_ctx *ctx, uint64_t n)
{
	struct calls *c = ctx->priv;
	c->prepared += n;
	return 0;
}

static int fake_run(struct wl_ctx *ctx, uint64_t n)
{
	struct calls *c = ctx->priv;
	c->ran += n;
	if (n > c->biggest)
		c->biggest = n;
	if (c->sweep && c->sweep->sweeps == c->ran) /* one complete sweep before each op */
		c->swept_before++;
	ctx->count[0] += n;
	return 0;
}

static int fake_finish(struct wl_ctx *ctx, uint64_t n)
{
	struct calls *c = ctx->priv;
	c->finished += n;
	return 0;
}

/* Under pressure a batch of n is n single ops, each prepared, swept before, timed alone
 * and finished; what is timed is within the batch's whole length. */
static void pressured_batch_times_single_ops(void **state)
{
	(void)state;
	struct workload w = {.name = "test.pressure", .prepare = fake_prepare, .run = fake_run, .finish = fake_finish};
	struct wl_pressure p;
	char why[256];
	assert_int_equal(wl_pressure_plan("64K", NULL, 0, &p, why, sizeof why), 0);
	struct wl_sweep s;
	assert_int_equal(wl_sweep_open(&s, &p, why, sizeof why), 0);
	struct calls c = {.sweep = &s};
	struct wl_ctx ctx = {.priv = &c, .sweep = &s, .page_size = 4096};
	struct wl_usage total = {0};
	uint64_t count[2] = {0, 0}, t0, t1;
	assert_int_equal(wl_batch(&w, &ctx, 37, NULL, NULL, &t0, &t1, true, &total, count), 0);
	assert_int_equal(c.ran, 37);
	assert_int_equal(c.biggest, 1);
	assert_int_equal(c.prepared, 37);
	assert_int_equal(c.finished, 37);
	assert_int_equal(c.swept_before, 37);
	assert_int_equal(s.sweeps, 37);
	assert_int_equal(s.partial, 0);
	assert_int_equal(count[0], 37);
	assert_true(t1 >= t0);
	assert_true(t1 - t0 <= s.wall_ns);
	assert_int_equal(total.run_ns, t1 - t0);
	wl_sweep_close(&s);
	wl_sweep_close(&s); /* a second close is a no-op */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes_as_sysfs_and_users_write_them),
		cmocka_unit_test_setup_teardown(plan_from_sysfs_caches, setup, teardown),
		cmocka_unit_test_setup_teardown(plan_defaults_and_limits, setup, teardown),
		cmocka_unit_test(plan_refuses_what_is_not_a_level),
		cmocka_unit_test(which_workloads_take_it),
		cmocka_unit_test(pressured_batch_times_single_ops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
