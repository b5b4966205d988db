/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_clock: marks from an injected clock, %CP truncation and the
 * 0.5 s "+++++" threshold, end to end through the table and CSV. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "csv.h"
#include "result.h"
#include "result_shown.h"
#include "table.h"
#include "check_main.h"

static uint64_t fake_wall, fake_user, fake_sys;

static uint64_t fake_wall_ns(void)
{
	return fake_wall;
}

static void fake_cpu_ns(uint64_t *user, uint64_t *sys)
{
	*user = fake_user;
	*sys = fake_sys;
}

static const struct clk_source fake = {fake_wall_ns, fake_cpu_ns};

START_TEST(marks_use_source)
{
	struct clk_mark a, b;

	clk_set_source(&fake);
	fake_wall = 1000000000ull;
	fake_user = 0;
	fake_sys = 0;
	clk_mark(&a);
	fake_wall += 2500000000ull; /* 2.5 s */
	fake_user += 1000000000ull;
	fake_sys += 250000000ull;
	clk_mark(&b);
	clk_set_source(NULL);
	ck_assert_double_eq_tol(clk_elapsed(&a, &b), 2.5, 1e-12);
	ck_assert_double_eq_tol(clk_cpu(&a, &b), 1.25, 1e-12);
	ck_assert_int_eq(clk_pcp(clk_cpu(&a, &b), clk_elapsed(&a, &b)), 50);
}
END_TEST

START_TEST(system_clock_moves)
{
	struct clk_mark a, b;

	clk_mark(&a);
	for (volatile int i = 0; i < 1000000; i++)
		;
	clk_mark(&b);
	ck_assert(b.wall_ns > a.wall_ns);
	ck_assert(b.user_ns + b.sys_ns >= a.user_ns + a.sys_ns);
}
END_TEST

START_TEST(pcp_truncates)
{
	ck_assert_int_eq(clk_pcp(0.96, 1.0), 96);
	ck_assert_int_eq(clk_pcp(0.999, 1.0), 99);
	ck_assert_int_eq(clk_pcp(0.29, 1.0), 29);
	ck_assert_int_eq(clk_pcp(2.9, 10.0), 29);
	ck_assert_int_eq(clk_pcp(1.5, 1.0), 150); /* several CPUs */
	ck_assert_int_eq(clk_pcp(0.0, 1.0), 0);
	ck_assert_int_eq(clk_pcp(1.0, 0.0), 0);
	ck_assert_int_eq(clk_pcp(7.0, 3.0), 233);
}
END_TEST

START_TEST(too_fast_threshold)
{
	ck_assert(clk_too_fast(0.0));
	ck_assert(clk_too_fast(0.4999999));
	ck_assert(!clk_too_fast(0.5));
	ck_assert(!clk_too_fast(0.5000001));
}
END_TEST

/* A block output timed by the fake clock: 0.49 s gives +++++, 0.5 s a rate. */
static void timed_block_output(double seconds, char **table, char **csv)
{
	struct run_result r;
	struct clk_mark a, b;
	size_t len;
	FILE *out;

	clk_set_source(&fake);
	fake_wall = 5000000000ull;
	fake_user = fake_sys = 0;
	clk_mark(&a);
	fake_wall += (uint64_t)(seconds * 1e9 + 0.5);
	fake_sys += (uint64_t)(seconds * 0.7e9);
	clk_mark(&b);
	clk_set_source(NULL);

	result_init(&r);
	if (result_measure(&r) < 0)
		abort();
	strcpy(r.version, "t");
	strcpy(r.name, "h");
	r.file_size = 64ull << 20;
	r.t[RT_put_block].state = RS_OK;
	r.t[RT_put_block].work = 64ull << 20;
	r.t[RT_put_block].elapsed = clk_elapsed(&a, &b);
	r.t[RT_put_block].cpu = clk_cpu(&a, &b);
	r.t[RT_put_block].max_latency_ns = 1234000;
	out = open_memstream(table, &len);
	table_print(out, &r, TABLE_200);
	fclose(out);
	out = open_memstream(csv, &len);
	csv_write(out, &r, CSV_198);
	fclose(out);
	result_free(&r);
}

START_TEST(plus_rule_end_to_end)
{
	char *table, *csv;

	timed_block_output(0.49, &table, &csv);
	ck_assert_ptr_nonnull(strstr(table, " +++++ +++"));
	ck_assert_ptr_nonnull(strstr(csv, ",,+++++,+++,,"));
	ck_assert_ptr_nonnull(strstr(csv, ",1234us,"));
	free(table);
	free(csv);

	timed_block_output(0.5, &table, &csv);
	/* 64 MiB in 0.5 s = 131072 KiB/s = 128m, 70% CPU. */
	ck_assert_ptr_nonnull(strstr(table, "  128m  70"));
	ck_assert_ptr_nonnull(strstr(csv, ",,131072,70,,"));
	free(table);
	free(csv);
}
END_TEST

static Suite *clock_suite(void)
{
	Suite *s = suite_create("clock");
	TCase *tc = tcase_create("clock");

	tcase_add_test(tc, marks_use_source);
	tcase_add_test(tc, system_clock_moves);
	tcase_add_test(tc, pcp_truncates);
	tcase_add_test(tc, too_fast_threshold);
	tcase_add_test(tc, plus_rule_end_to_end);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(clock_suite)
