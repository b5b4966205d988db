/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_interval: --log-interval's log (src/clyde/interval.c) on made-up
 * times: the grid, each interval's own counts and percentiles, the last
 * partial one, nothing for a test that counted no operation, and a
 * full log that still adds up. */
#include "config.h"

#include <check.h>
#include <stdint.h>

#include "interval.h"
#include "phase.h"
#include "check_main.h"

/* --log-interval's grid on made-up times: an interval closes at the
 * first operation at or after its due time, with its own counts and
 * percentiles; an earlier turn (another watcher's) closes nothing. */
START_TEST(intervals_on_the_grid)
{
	struct ilog *l = ilog_new(10, -1); /* 10 ms */
	struct phase_out out = {.record = 1, .tick_ns = UINT64_MAX};
	const uint64_t ms = 1000000;
	uint64_t t = 1000 * ms;

	ck_assert_ptr_nonnull(l);
	hist_init(&out.lat);
	ilog_begin(l, &out, 4096, t);
	ck_assert_ptr_eq(out.ilat, &l->h);
	ck_assert_uint_eq(l->next_ns, t + 10 * ms);
	/* 9 operations of 1 ms, then an early turn: still one interval. */
	for (int i = 0; i < 9; i++)
		phase_op_took(&out, ms);
	ck_assert_uint_eq(ilog_tick(l, &out, t + 5 * ms), t + 10 * ms);
	ck_assert_uint_eq(l->n, 0);
	/* One of 25 ms ends at 34 ms: due since 10, the next due at 40. */
	phase_op_took(&out, 25 * ms);
	ck_assert_uint_eq(ilog_tick(l, &out, t + 34 * ms), t + 40 * ms);
	ck_assert_uint_eq(l->n, 1);
	ck_assert_uint_eq(l->v[0].ops, 10);
	ck_assert_uint_eq(l->v[0].bytes, 10 * 4096);
	ck_assert(l->v[0].secs > 0.0339 && l->v[0].secs < 0.0341);
	ck_assert(l->v[0].p50_ns > 990000 && l->v[0].p50_ns < 1010000);
	ck_assert_uint_eq(l->v[0].max_ns, 25 * ms);
	/* Two more, then the end: a partial interval, bytes cut to the
	 * work (the last operation short of a chunk). */
	phase_op_took(&out, 2 * ms);
	phase_op_took(&out, 3 * ms);
	out.work = 11 * 4096 + 100;
	ilog_end(l, &out, t + 37 * ms, 1);
	ck_assert_ptr_null(out.ilat);
	ck_assert_uint_eq(l->n, 2);
	ck_assert_uint_eq(l->v[1].ops, 2);
	ck_assert_uint_eq(l->v[1].bytes, 4096 + 100);
	ck_assert(l->v[1].end > 0.0369 && l->v[1].end < 0.0371);
	ck_assert_uint_eq(l->v[1].max_ns, 3 * ms);
	/* The test's histogram has every operation. */
	ck_assert_uint_eq(out.lat.count, 12);
	/* A test that counted no operation (the seeks) logs nothing. */
	out = (struct phase_out){.tick_ns = UINT64_MAX};
	ilog_begin(l, &out, 0, t);
	ilog_end(l, &out, t + 50 * ms, 0);
	ck_assert_uint_eq(l->n, 0);
	ilog_free(l);
}
END_TEST

/* Past ILOG_MAX intervals the last one takes the rest: the log still
 * adds up to every operation and the whole time. */
START_TEST(full_log_adds_up)
{
	struct ilog *l = ilog_new(10, -1);
	struct phase_out out = {.tick_ns = UINT64_MAX};
	const uint64_t ms = 1000000;
	uint64_t ops = 0, t = 0;
	double secs = 0;

	ck_assert_ptr_nonnull(l);
	ilog_begin(l, &out, 512, 0);
	for (unsigned k = 0; k < ILOG_MAX + 20; k++) {
		phase_op_took(&out, 1000);
		t += 10 * ms;
		ilog_tick(l, &out, t);
	}
	out.work = out.ops * 512;
	ilog_end(l, &out, t + 5 * ms, 1);
	ck_assert_uint_eq(l->n, ILOG_MAX);
	for (unsigned k = 0; k < l->n; k++) {
		ops += l->v[k].ops;
		secs += l->v[k].secs;
	}
	ck_assert_uint_eq(ops, ILOG_MAX + 20);
	ck_assert_uint_eq(l->v[l->n - 1].ops, 21);
	ck_assert_uint_eq(l->v[l->n - 1].bytes, 21 * 512);
	ck_assert_uint_eq(l->v[l->n - 1].p99_ns, 0);
	ck_assert(secs > l->v[l->n - 1].end - 1e-6 &&
		  secs < l->v[l->n - 1].end + 1e-6);
	ck_assert_uint_eq(l->v[l->n - 2].p99_ns > 0, 1);
	ilog_free(l);
}
END_TEST

static Suite *interval_suite(void)
{
	Suite *s = suite_create("interval");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, intervals_on_the_grid);
	tcase_add_test(tc, full_log_adds_up);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(interval_suite)
