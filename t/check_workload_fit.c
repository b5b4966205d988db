/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_workload_fit: zipf and pareto ranks, 10^6 from each of fixed
 * seeds, against their exact distributions by a chi-square test: kept
 * at p > 0.001, and the same draws refused under a wrong parameter. The
 * placement of ranks: a bijection, the same for a seed, and the hottest
 * block where rank 0 lands. */
#include "config.h"

#include <check.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "workload.h"
#include "check_workload.h"

/*
 * The chi-square test of ranks: the ranks cut into buckets (0..32 one
 * by one, then at powers of two and at every 64th of n), neighbours
 * merged until each expects at least 10 draws; the critical value and
 * p from GSL's chi-square distribution.
 */
#define MAX_BUCKETS  256
#define MIN_EXPECTED 10.0

struct fit {
	unsigned nb;
	uint64_t edge[MAX_BUCKETS + 1]; /* bucket b: [edge[b], edge[b+1]) */
	uint64_t count[MAX_BUCKETS];
};

/* What the test is given: the share of ranks below k, under a model. */
typedef double (*cdf_fn)(uint64_t k, uint64_t n, double param);

/* sum k^-theta, k = 1..m: directly to 2^16 (a table kept for the
 * last theta), then the Euler-Maclaurin sum of the rest (its next term,
 * under 10^-20 here, left out). */
#define ZETA_DIRECT 65536u

static double zeta_part(uint64_t m, double theta)
{
	static double sums[ZETA_DIRECT + 1], sums_theta = -1;
	double sum, a = ZETA_DIRECT, b = (double)m, in;

	if (theta != sums_theta) {
		for (unsigned k = 1; k <= ZETA_DIRECT; k++)
			sums[k] = sums[k - 1] + pow(k, -theta);
		sums_theta = theta;
	}
	sum = sums[m < ZETA_DIRECT ? m : ZETA_DIRECT];
	if (m <= ZETA_DIRECT)
		return sum;
	in = theta == 1.0
		 ? log(b / a)
		 : (pow(b, 1 - theta) - pow(a, 1 - theta)) / (1 - theta);
	return sum + in + (pow(b, -theta) - pow(a, -theta)) / 2 +
	       -theta * (pow(b, -theta - 1) - pow(a, -theta - 1)) / 12;
}

static double zipf_cdf(uint64_t k, uint64_t n, double theta)
{
	return k >= n ? 1.0 : zeta_part(k, theta) / zeta_part(n, theta);
}

static double pareto_cdf(uint64_t k, uint64_t n, double h)
{
	return pow((double)k / (double)n, log(1 - h) / log(h));
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void fit_buckets(struct fit *f, uint64_t n, cdf_fn cdf, double param)
{
	uint64_t e[2 * MAX_BUCKETS + 1];
	unsigned ne = 0, i, j;

	for (uint64_t k = 0; k < n; k = k < 32 ? k + 1 : k * 2)
		e[ne++] = k;
	for (j = 1; j < 64; j++)
		e[ne++] = n / 64 * j;
	qsort(e, ne, sizeof(e[0]), by_value);
	for (i = j = 1; i < ne; i++) /* e[0] is 0: keep the distinct */
		if (e[i] != e[j - 1])
			e[j++] = e[i];
	ne = j;
	e[ne] = n;
	memset(f, 0, sizeof(*f));
	f->edge[0] = 0;
	for (i = 1; i <= ne; i++) {
		double p = cdf(e[i], n, param) - cdf(f->edge[f->nb], n, param);

		if (p * CW_DRAWS >= MIN_EXPECTED || i == ne)
			f->edge[++f->nb] = e[i];
	}
	/* A short last bucket joins the one before it. */
	if (f->nb > 1 && (1.0 - cdf(f->edge[f->nb - 1], n, param)) * CW_DRAWS <
			     MIN_EXPECTED) {
		f->nb--;
		f->edge[f->nb] = n;
	}
}

static void fit_count(struct fit *f, uint64_t rank)
{
	unsigned lo = 0, hi = f->nb - 1;

	while (lo < hi) {
		unsigned mid = (lo + hi + 1) / 2;

		if (f->edge[mid] <= rank)
			lo = mid;
		else
			hi = mid - 1;
	}
	f->count[lo]++;
}

/* Chi-square of the counts against a model. */
static double fit_chi2(const struct fit *f, uint64_t n, cdf_fn cdf,
		       double param)
{
	double chi2 = 0;

	for (unsigned b = 0; b < f->nb; b++) {
		double e = CW_DRAWS * (cdf(f->edge[b + 1], n, param) -
				       cdf(f->edge[b], n, param));
		double d = (double)f->count[b] - e;

		chi2 += d * d / e;
	}
	return chi2;
}

static const struct {
	const char *dist;
	uint64_t n;
	double param, wrong; /* what was drawn; a model to reject */
	uint64_t seed;
} fits[] = {
    {"zipf:1.1", 100000, 1.1, 1.3, 1},
    {"zipf:1.1", 100000, 1.1, 1.3, 2},
    {"zipf:1.1", 100000, 1.1, 1.3, 3},
    {"zipf:1.1", 100000, 1.1, 1.12, 4},
    {"zipf:1.1", 1ull << 40, 1.1, 1.3, 5},
    {"zipf:1", 100000, 1.0, 1.02, 6},
    {"zipf:0.5", 1000003, 0.5, 0.52, 7},
    {"zipf:2.5", 1ull << 40, 2.5, 2.6, 8},
    {"pareto:0.2", 100000, 0.2, 0.22, 1},
    {"pareto:0.2", 100000, 0.2, 0.22, 2},
    {"pareto:0.2", 100000, 0.2, 0.22, 3},
    {"pareto:0.2", 1ull << 40, 0.2, 0.21, 5},
    {"pareto:0.7", 100000, 0.7, 0.68, 6},
};

START_TEST(rank_fit)
{
	struct wl_spec w = {0};
	struct wl_offsets o;
	cdf_fn cdf;
	struct fit f;
	struct rng r;
	double chi2, bad, crit;
	uint64_t out = 0;
	char why[128];

	cw_ok(wl_parse_dist, &w, fits[_i].dist);
	cdf = w.dist.kind == WL_ZIPF ? zipf_cdf : pareto_cdf;
	ck_assert_int_eq(
	    wl_offsets_init(&o, &w.dist, fits[_i].n, 99, why, sizeof(why)), 0);
	fit_buckets(&f, fits[_i].n, cdf, fits[_i].param);
	ck_assert_uint_ge(f.nb, 20);
	rng_seed(&r, fits[_i].seed);
	for (unsigned i = 0; i < CW_DRAWS; i++) {
		uint64_t k = wl_offsets_rank(&o, &r);

		if (k < fits[_i].n)
			fit_count(&f, k);
		else
			out++;
	}
	ck_assert_uint_eq(out, 0);
	chi2 = fit_chi2(&f, fits[_i].n, cdf, fits[_i].param);
	crit = gsl_cdf_chisq_Qinv(0.001, f.nb - 1);
	ck_assert_msg(chi2 < crit,
		      "%s over %llu, seed %llu: chi2 %.1f, df %u, p %.2g "
		      "(critical %.1f)",
		      fits[_i].dist, (unsigned long long)fits[_i].n,
		      (unsigned long long)fits[_i].seed, chi2, f.nb - 1,
		      gsl_cdf_chisq_Q(chi2, f.nb - 1), crit);
	/* The same draws under a wrong parameter: refused. */
	bad = fit_chi2(&f, fits[_i].n, cdf, fits[_i].wrong);
	ck_assert_msg(bad > crit, "%s against %g: chi2 %.1f not above %.1f",
		      fits[_i].dist, fits[_i].wrong, bad, crit);
}
END_TEST

/* The same seed draws the same blocks; a rank lands where place says,
 * a bijection; the hottest block is where rank 0 lands, not block 0. */
START_TEST(placement)
{
	static const char *const dists[] = {"zipf:1.1", "pareto:0.2"};
	struct wl_spec w = {0};
	struct wl_offsets o, o2, o3;
	struct rng a, b, c;
	uint64_t n = 1000, hits[1000] = {0}, hot = 0, moved = 0, differ = 0;
	unsigned char seen[1000] = {0};
	char why[128];

	cw_ok(wl_parse_dist, &w, dists[_i]);
	ck_assert_int_eq(wl_offsets_init(&o, &w.dist, n, 7, why, sizeof(why)),
			 0);
	ck_assert_int_eq(wl_offsets_init(&o2, &w.dist, n, 7, why, sizeof(why)),
			 0);
	ck_assert_int_eq(wl_offsets_init(&o3, &w.dist, n, 8, why, sizeof(why)),
			 0);
	for (uint64_t k = 0; k < n; k++) {
		uint64_t p = wl_offsets_place(&o, k);

		if (p >= n || seen[p])
			ck_abort_msg("rank %llu lands on %llu",
				     (unsigned long long)k,
				     (unsigned long long)p);
		seen[p] = 1;
		moved += p != k;
		differ += p != wl_offsets_place(&o2, k);
	}
	ck_assert_uint_eq(differ, 0);
	ck_assert_uint_gt(moved, n / 2);
	ck_assert_uint_ne(wl_offsets_place(&o, 0), wl_offsets_place(&o3, 0));
	rng_seed(&a, 1);
	rng_seed(&b, 1);
	rng_seed(&c, 1);
	for (unsigned i = 0; i < 100000; i++) {
		uint64_t x = wl_offsets_draw(&o, &a);

		differ += x != wl_offsets_draw(&o2, &b);
		differ += x != wl_offsets_place(&o, wl_offsets_rank(&o, &c));
		hits[x]++;
	}
	ck_assert_uint_eq(differ, 0);
	for (uint64_t k = 1; k < n; k++)
		if (hits[k] > hits[hot])
			hot = k;
	ck_assert_uint_eq(hot, wl_offsets_place(&o, 0));
	ck_assert_uint_ne(hot, 0);
}
END_TEST

void workload_fit_tcase(Suite *s)
{
	TCase *f = tcase_create("fit");

	tcase_add_loop_test(f, rank_fit, 0, sizeof(fits) / sizeof(fits[0]));
	tcase_add_loop_test(f, placement, 0, 2);
	suite_add_tcase(s, f);
}
