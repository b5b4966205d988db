/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_hist: bucket bounds, percentiles within 1% of exact percentiles
 * (sorted arrays) on uniform, log-normal and bimodal data, and merging. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "rng.h"
#include "check_main.h"

#define N 200000

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The exact p-th percentile: the value of rank ceil(p/100 * n). */
static uint64_t exact(const uint64_t *sorted, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);

	return sorted[(rank ? rank : 1) - 1];
}

static double uniform01(struct rng *r)
{
	return (double)(rng_next(r) >> 11) / 9007199254740992.0;
}

static double normal(struct rng *r)
{
	double u = uniform01(r), v = uniform01(r);

	return sqrt(-2.0 * log(u + 1e-300)) * cos(2.0 * M_PI * v);
}

enum dist { UNIFORM, LOGNORMAL, BIMODAL };

static uint64_t draw(struct rng *r, enum dist d)
{
	switch (d) {
	case UNIFORM: /* 1 us .. 10 ms */
		return 1000 + (uint64_t)(uniform01(r) * 9999000.0);
	case LOGNORMAL: /* median 200 us, wide */
		return (uint64_t)(200000.0 * exp(1.2 * normal(r)));
	case BIMODAL: /* 95% around 100 us, 5% around 10 ms: a 100x tail */
	default:
		if (uniform01(r) < 0.95)
			return (uint64_t)(100000.0 * exp(0.2 * normal(r)));
		return (uint64_t)(10000000.0 * exp(0.2 * normal(r)));
	}
}

START_TEST(percentiles_within_one_percent)
{
	static const double ps[] = {1, 10, 50, 90, 95, 99, 99.9, 99.99, 100};
	uint64_t *v = malloc(N * sizeof(*v));
	struct hist h;
	struct rng r;

	rng_seed(&r, 1000 + (uint64_t)_i);
	hist_init(&h);
	for (size_t k = 0; k < N; k++) {
		v[k] = draw(&r, (enum dist)_i);
		hist_add(&h, v[k]);
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	ck_assert_uint_eq(h.count, N);
	ck_assert_uint_eq(h.min_ns, v[0]);
	ck_assert_uint_eq(h.max_ns, v[N - 1]);
	for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		double want = (double)exact(v, N, ps[k]);
		double got = (double)hist_percentile(&h, ps[k]);

		ck_assert_msg(fabs(got - want) <= 0.01 * want,
			      "dist %d p%g: %g vs exact %g", _i, ps[k], got,
			      want);
	}
	free(v);
}
END_TEST

START_TEST(buckets_cover_and_bound)
{
	/* Every value falls in a bucket whose bounds hold it, and a bucket
	 * is at most 1/64 of its lower bound wide. */
	struct rng r;

	rng_seed(&r, 5);
	for (int k = 0; k < 100000; k++) {
		uint64_t ns = rng_next(&r) >> (rng_next(&r) % 64);
		unsigned i = hist_index(ns);

		if (i == HIST_BUCKETS - 1 && ns > hist_high(i))
			continue; /* past the last bucket: clamped */
		ck_assert(hist_low(i) <= ns && ns <= hist_high(i));
		if (ns >= HIST_SUB)
			ck_assert(hist_high(i) - hist_low(i) + 1 <=
				  hist_low(i) / HIST_SUB);
	}
	for (unsigned i = 1; i < HIST_BUCKETS; i++)
		ck_assert_uint_eq(hist_low(i), hist_high(i - 1) + 1);
	ck_assert(hist_high(HIST_BUCKETS - 1) >= 100000000000ull); /* 100 s */
	ck_assert(sizeof(struct hist) <= 9 * 1024);
}
END_TEST

START_TEST(merge_is_union)
{
	struct hist a, b, u;
	struct rng r;

	rng_seed(&r, 9);
	hist_init(&a);
	hist_init(&b);
	hist_init(&u);
	for (int k = 0; k < 50000; k++) {
		uint64_t x = draw(&r, LOGNORMAL), y = draw(&r, BIMODAL);

		hist_add(&a, x);
		hist_add(&b, y);
		hist_add(&u, x);
		hist_add(&u, y);
	}
	hist_merge(&a, &b);
	ck_assert_int_eq(memcmp(&a, &u, sizeof(a)), 0);
	ck_assert_uint_eq(hist_percentile(&a, 99.0), hist_percentile(&u, 99.0));
}
END_TEST

START_TEST(empty_and_small)
{
	struct hist h;

	hist_init(&h);
	ck_assert_uint_eq(hist_percentile(&h, 50), 0);
	ck_assert(hist_mean(&h) == 0.0);
	hist_add(&h, 5);
	hist_add(&h, 7);
	ck_assert_uint_eq(hist_percentile(&h, 50), 5); /* exact below 64 ns */
	ck_assert_uint_eq(hist_percentile(&h, 100), 7);
	ck_assert(hist_mean(&h) == 6.0);
	hist_add(&h, 300000000000ull); /* 300 s: past the last bucket */
	ck_assert_uint_eq(hist_percentile(&h, 100), 300000000000ull);
}
END_TEST

static Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("hist");

	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, percentiles_within_one_percent, UNIFORM,
			    BIMODAL + 1);
	tcase_add_test(tc, buckets_cover_and_bound);
	tcase_add_test(tc, merge_is_union);
	tcase_add_test(tc, empty_and_small);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(hist_suite)
