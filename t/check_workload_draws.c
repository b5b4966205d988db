/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_workload_draws: from fixed seeds, over 10^6 draws, the shares of
 * reads, of each block size, of each zone and of tenths of the file
 * under uniform offsets within 0.2 points of what was asked; the edges
 * of the offsets (one block, zones too small, theta 10); Poisson gaps
 * (mean within 1%, coefficient of variation within 2% of 1) and fixed
 * gaps that add up with no drift. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "rng.h"
#include "workload.h"
#include "check_workload.h"

START_TEST(bs_sectors)
{
	struct wl_spec w = {0};
	char why[128] = "";

	cw_ok(wl_parse_bs, &w, "4k:50,512:25,64k:25");
	ck_assert_uint_eq(wl_bs_max(&w.bs), 65536);
	ck_assert_int_eq(wl_bs_sectors(&w.bs, 512, why, sizeof(why)), 0);
	ck_assert_int_eq(wl_bs_sectors(&w.bs, 4096, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "512 is not whole 4096-byte sectors");
	cw_ok(wl_parse_bs, &w, "4k:50,64k:50");
	ck_assert_int_eq(wl_bs_sectors(&w.bs, 4096, why, sizeof(why)), 0);
	ck_assert_int_eq(wl_bs_sectors(&w.bs, 8192, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "4096 is not whole 8192-byte sectors");
	ck_assert_int_eq(wl_bs_sectors(&w.bs, 0, NULL, 0), -1);
}
END_TEST

/* |got/CW_DRAWS - want/1000| below 0.2 percentage points. */
static void assert_share(uint64_t got, unsigned want, const char *what)
{
	double pts = 100.0 * ((double)got / CW_DRAWS - want / 1000.0);

	ck_assert_msg(fabs(pts) < 0.2, "%s: %.3f%% drawn, %.1f%% asked", what,
		      100.0 * got / CW_DRAWS, want / 10.0);
}

static const unsigned mixes[] = {700, 705, 1, 0, 1000, 500};

START_TEST(mix_shares)
{
	struct rng r;
	uint64_t reads = 0;

	rng_seed(&r, 42 + _i);
	for (unsigned i = 0; i < CW_DRAWS; i++)
		reads += (uint64_t)wl_draw_read(mixes[_i], &r);
	assert_share(reads, mixes[_i], "reads");
	if (mixes[_i] == 0 || mixes[_i] == WL_WHOLE)
		ck_assert_uint_eq(reads, mixes[_i] ? CW_DRAWS : 0);
}
END_TEST

static const char *const splits[] = {
    "8k:70,64k:30", "512:10,4k:33.3,64k:56.6,16m:0.1", "4k", "1m:0.1,2m:99.9"};

START_TEST(bs_shares)
{
	struct wl_spec w = {0};
	uint64_t count[WL_SPLIT_MAX + 1] = {0}, bs;
	struct rng r;
	unsigned i, j;

	cw_ok(wl_parse_bs, &w, splits[_i]);
	rng_seed(&r, 7 + _i);
	for (i = 0; i < CW_DRAWS; i++) {
		bs = wl_draw_bs(&w.bs, &r);
		for (j = 0; j < w.bs.n && w.bs.size[j] != bs; j++)
			;
		count[j]++; /* count[n]: a size not in the split */
	}
	ck_assert_uint_eq(count[w.bs.n], 0);
	for (j = 0; j < w.bs.n; j++)
		assert_share(count[j], w.bs.share[j], splits[_i]);
}
END_TEST

START_TEST(zoned_shares)
{
	struct wl_spec w = {0};
	struct wl_offsets o;
	uint64_t count[4] = {0},
		 first[4] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX},
		 last[4] = {0};
	static const uint64_t start[] = {0, 10000, 30000, 60000, 100000};
	struct rng r;
	char why[128];

	cw_ok(wl_parse_dist, &w, "zoned:60/10,30/20,0/30,10/40");
	ck_assert_int_eq(
	    wl_offsets_init(&o, &w.dist, 100000, 3, why, sizeof(why)), 0);
	rng_seed(&r, 11);
	for (unsigned i = 0; i < CW_DRAWS; i++) {
		uint64_t x = wl_offsets_draw(&o, &r);
		unsigned z = 0;

		if (x >= 100000)
			ck_abort_msg("block %llu", (unsigned long long)x);
		while (x >= start[z + 1])
			z++;
		count[z]++;
		first[z] = x < first[z] ? x : first[z];
		last[z] = x > last[z] ? x : last[z];
	}
	for (unsigned z = 0; z < 4; z++)
		assert_share(count[z], w.dist.zone_io[z], "zone");
	ck_assert_uint_eq(count[2], 0);
	/* Each zone is drawn over all of itself. */
	ck_assert_uint_eq(first[0], 0);
	ck_assert_uint_eq(last[0], 9999);
	ck_assert_uint_eq(first[3], 60000);
	ck_assert_uint_eq(last[3], 99999);
}
END_TEST

START_TEST(uniform_shares)
{
	struct wl_dist d = {0}; /* zeroed: uniform */
	struct wl_offsets o;
	uint64_t count[11] = {0};
	struct rng r;
	char why[128];

	ck_assert_int_eq(wl_offsets_init(&o, &d, 1000, 3, why, sizeof(why)), 0);
	rng_seed(&r, 12);
	for (unsigned i = 0; i < CW_DRAWS; i++) {
		uint64_t x = wl_offsets_draw(&o, &r);

		count[x < 1000 ? x / 100 : 10]++;
	}
	ck_assert_uint_eq(count[10], 0);
	for (unsigned b = 0; b < 10; b++)
		assert_share(count[b], 100, "uniform tenth");
	ck_assert_uint_eq(wl_offsets_place(&o, 123), 123);
}
END_TEST

/* One block, or none; zones too small for their blocks; the edges of
 * theta. */
START_TEST(offsets_edges)
{
	struct wl_spec w = {0};
	struct wl_offsets o;
	struct rng r;
	char why[128] = "";
	uint64_t zero = 0, other = 0;

	cw_ok(wl_parse_dist, &w, "zipf:1.1");
	ck_assert_int_eq(wl_offsets_init(&o, &w.dist, 0, 1, why, sizeof(why)),
			 -1);
	ck_assert_str_eq(why, "no blocks to draw from");
	rng_seed(&r, 5);
	ck_assert_int_eq(wl_offsets_init(&o, &w.dist, 1, 1, why, sizeof(why)),
			 0);
	for (unsigned i = 0; i < 1000; i++)
		other += wl_offsets_draw(&o, &r) != 0;
	ck_assert_uint_eq(other, 0);
	cw_ok(wl_parse_dist, &w, "pareto:0.5");
	ck_assert_int_eq(wl_offsets_init(&o, &w.dist, 1, 1, why, sizeof(why)),
			 0);
	ck_assert_uint_eq(wl_offsets_draw(&o, &r), 0);
	/* theta 10: rank 0 has 1/zeta(10) = 99.90% of the draws. */
	cw_ok(wl_parse_dist, &w, "zipf:10");
	ck_assert_int_eq(
	    wl_offsets_init(&o, &w.dist, 1ull << 50, 1, why, sizeof(why)), 0);
	for (unsigned i = 0; i < 100000; i++)
		zero += wl_offsets_rank(&o, &r) == 0;
	ck_assert_uint_gt(zero, 99800);
	/* 60% of the I/O to 10% of 7 blocks: none whole. */
	cw_ok(wl_parse_dist, &w, "zoned:60/10,40/90");
	ck_assert_int_eq(wl_offsets_init(&o, &w.dist, 7, 1, why, sizeof(why)),
			 -1);
	ck_assert_str_eq(why,
			 "zone 1 (10% of the file) holds none of 7 blocks");
	ck_assert_int_eq(wl_offsets_init(&o, &w.dist, 10, 1, why, sizeof(why)),
			 0);
	cw_ok(wl_parse_dist, &w, "zoned:0.5/0.5,99.5/99.5");
	ck_assert_int_eq(wl_offsets_init(&o, &w.dist, 100, 1, why, sizeof(why)),
			 -1);
	ck_assert_str_eq(why,
			 "zone 1 (0.5% of the file) holds none of 100 blocks");
	/* A zone with no I/O may hold no block. */
	cw_ok(wl_parse_dist, &w, "zoned:0/0.5,100/99.5");
	ck_assert_int_eq(wl_offsets_init(&o, &w.dist, 100, 1, why, sizeof(why)),
			 0);
	for (unsigned i = 0; i < 1000; i++)
		other += wl_offsets_draw(&o, &r) >= 100;
	ck_assert_uint_eq(other, 0);
}
END_TEST

/* Poisson gaps: mean 10^9 / rate within 1%, coefficient of variation
 * within 2% of 1; their sum is the due time, in whole ns. */
static const uint64_t poisson_rates[] = {5000, 3, 1000000};

START_TEST(poisson_gaps)
{
	uint64_t rate = poisson_rates[_i], sum = 0;
	double mean = 1e9 / (double)rate, s1 = 0, s2 = 0, m, sd, cv;
	struct wl_sched s;
	struct rng r;

	wl_sched_init(&s, rate, WL_POISSON);
	rng_seed(&r, 31 + _i);
	for (unsigned i = 0; i < CW_DRAWS; i++) {
		uint64_t g = wl_sched_next(&s, &r);

		sum += g;
		s1 += (double)g;
		s2 += (double)g * (double)g;
	}
	m = s1 / CW_DRAWS;
	sd = sqrt((s2 - s1 * s1 / CW_DRAWS) / (CW_DRAWS - 1));
	cv = sd / m;
	ck_assert_msg(fabs(m / mean - 1) < 0.01, "mean gap %.1f ns, not %.1f",
		      m, mean);
	ck_assert_msg(fabs(cv - 1) < 0.02, "coefficient of variation %.4f", cv);
	ck_assert_uint_eq(sum, s.due);
	ck_assert_uint_eq(s.k, CW_DRAWS);
	ck_assert_uint_eq(s.due, (uint64_t)s.t);
}
END_TEST

/* Fixed gaps: each the period rounded down or up, and k of them add to
 * k * 10^9 / rate less under 1 ns, however many. */
static const uint64_t fixed_rates[] = {5000, 3, 7, 999999937, 1000000000, 1};

START_TEST(fixed_gaps)
{
	uint64_t rate = fixed_rates[_i], sum = 0, lo = 1000000000 / rate;
	uint64_t off = 0;
	struct wl_sched s;
	unsigned __int128 exact;
	struct rng r;

	wl_sched_init(&s, rate, WL_FIXED);
	rng_seed(&r, 1);
	for (unsigned i = 1; i <= CW_DRAWS; i++) {
		uint64_t g = wl_sched_next(&s, &r);

		off += g != lo && g != lo + 1;
		sum += g;
		/* sum * rate <= i * 10^9 < (sum + 1) * rate */
		exact = (unsigned __int128)i * 1000000000u;
		off += (unsigned __int128)sum * rate > exact;
		off += (unsigned __int128)(sum + 1) * rate <= exact;
	}
	ck_assert_uint_eq(off, 0);
	ck_assert_uint_eq(sum, s.due);
}
END_TEST

void workload_draws_tcase(Suite *s)
{
	TCase *d = tcase_create("draws");

	tcase_add_test(d, bs_sectors);
	tcase_add_loop_test(d, mix_shares, 0, sizeof(mixes) / sizeof(mixes[0]));
	tcase_add_loop_test(d, bs_shares, 0,
			    sizeof(splits) / sizeof(splits[0]));
	tcase_add_test(d, zoned_shares);
	tcase_add_test(d, uniform_shares);
	tcase_add_test(d, offsets_edges);
	tcase_add_loop_test(d, poisson_gaps, 0,
			    sizeof(poisson_rates) / sizeof(poisson_rates[0]));
	tcase_add_loop_test(d, fixed_gaps, 0,
			    sizeof(fixed_rates) / sizeof(fixed_rates[0]));
	suite_add_tcase(s, d);
}
