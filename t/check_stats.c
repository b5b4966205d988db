/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_stats: Student t critical values against published tables, and
 * the summary of fixed samples against values worked out by hand. */
#include "config.h"

#include <check.h>
#include <math.h>

#include "stats.h"
#include "check_main.h"

START_TEST(t_critical_values)
{
	/* Two-sided 95% (0.975 quantile), from standard t tables. */
	static const struct {
		unsigned df;
		double t;
	} tab[] = {{1, 12.706},	 {2, 4.303},  {4, 2.776},  {5, 2.571},
		   {9, 2.262},	 {10, 2.228}, {19, 2.093}, {29, 2.045},
		   {30, 2.042},	 {40, 2.021}, {60, 2.000}, {120, 1.980},
		   {1000, 1.962}};

	for (unsigned i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		ck_assert_msg(fabs(stats_t975(tab[i].df) - tab[i].t) < 0.0015,
			      "df %u: %f vs %f", tab[i].df,
			      stats_t975(tab[i].df), tab[i].t);
	/* Falls towards the normal quantile as df grows. */
	for (unsigned df = 1; df < 500; df++)
		ck_assert(stats_t975(df + 1) < stats_t975(df));
	ck_assert(stats_t975(100000) > 1.95996 && stats_t975(100000) < 1.9601);
}
END_TEST

START_TEST(summary_of_fixed_samples)
{
	/* 10, 12, 14: mean 12, sd 2, CI 12 +- 4.302653 * 2 / sqrt(3). */
	const double a[] = {10, 12, 14};
	/* 5 runs: mean 100, squares 68, sd sqrt(68/4) = 4.123106. */
	const double b[] = {95, 105, 100, 97, 103};
	struct stats s;

	stats_compute(a, 3, &s);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_double_eq_tol(s.mean, 12.0, 1e-12);
	ck_assert_double_eq_tol(s.sd, 2.0, 1e-12);
	ck_assert(s.min == 10.0 && s.max == 14.0);
	ck_assert_double_eq_tol(s.ci_low, 12.0 - 4.968275, 1e-5);
	ck_assert_double_eq_tol(s.ci_high, 12.0 + 4.968275, 1e-5);

	stats_compute(b, 5, &s);
	ck_assert_double_eq_tol(s.mean, 100.0, 1e-12);
	ck_assert_double_eq_tol(s.sd, 4.123106, 1e-6);
	/* 2.776445 * 4.123106 / sqrt(5) = 5.119512 */
	ck_assert_double_eq_tol(s.ci_high - s.mean, 5.119512, 1e-5);

	stats_compute(a, 1, &s); /* one run: no spread, no interval */
	ck_assert(s.sd == 0.0 && s.ci_low == 10.0 && s.ci_high == 10.0);
}
END_TEST

/*
 * Reference values below were computed apart from this code: the t
 * density integrated numerically (Simpson's rule over a change of
 * variable to [0, 1), 200000 steps) and the Welch statistics from
 * their textbook formulas, in another language.
 */
START_TEST(t_p_values)
{
	static const struct {
		double t, df, p;
	} tab[] = {{2.0, 10, 0.0733880348},
		   {1.0, 1, 0.5}, /* Cauchy: exactly one half */
		   {3.5, 2.5, 0.0523455470},
		   {0.5, 40, 0.6198147352},
		   {-2.0, 10, 0.0733880348}};

	for (unsigned i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		ck_assert_msg(fabs(stats_t_p2(tab[i].t, tab[i].df) - tab[i].p) <
				  2e-6,
			      "t %g df %g: %.10f vs %.10f", tab[i].t, tab[i].df,
			      stats_t_p2(tab[i].t, tab[i].df), tab[i].p);
	ck_assert_double_eq(stats_t_p2(0.0, 5), 1.0);
	ck_assert_double_eq(stats_t_p2(INFINITY, 5), 0.0);
	ck_assert(isnan(stats_t_p2(1.0, 0)));
}
END_TEST

static void welch_of(const double *a, unsigned na, const double *b, unsigned nb,
		     struct stats_welch *w)
{
	struct stats sa, sb;

	stats_compute(a, na, &sa);
	stats_compute(b, nb, &sb);
	ck_assert_int_eq(stats_welch(&sa, &sb, w), 0);
}

START_TEST(welch_fixed_samples)
{
	/* Block output, three runs a side, about +25%. */
	const double a[] = {134822, 131200, 137900};
	const double b[] = {168000, 171300, 165800};
	/* Overlapping samples of unequal size. */
	const double c[] = {19.0, 21.0, 20.5, 19.8, 20.1};
	const double d[] = {20.2, 19.7, 20.9, 20.0};
	const double e[] = {10, 12, 11, 13, 9, 10};
	const double f[] = {14, 15, 13, 16};
	const double same[] = {7, 7, 7};
	const double other[] = {8, 8};
	struct stats_welch w;
	struct stats s1, s2;

	welch_of(a, 3, b, 3, &w);
	ck_assert_double_eq_tol(w.t, 13.43303104, 1e-6);
	ck_assert_double_eq_tol(w.df, 3.861316764, 1e-6);
	ck_assert_double_eq_tol(w.p, 0.0002200718296, 1e-8);

	welch_of(c, 5, d, 4, &w);
	ck_assert_double_eq_tol(w.t, 0.2841082343, 1e-8);
	ck_assert_double_eq_tol(w.df, 6.884062851, 1e-6);
	ck_assert_double_eq_tol(w.p, 0.7846825765, 2e-6);

	welch_of(e, 6, f, 4, &w);
	ck_assert_double_eq_tol(w.t, 4.157609203, 1e-8);
	ck_assert_double_eq_tol(w.df, 7.205882353, 1e-6);
	ck_assert_double_eq_tol(w.p, 0.003992586587, 1e-7);

	/* No spread on either side: the means alone decide. */
	welch_of(same, 3, other, 2, &w);
	ck_assert(isinf(w.t) && w.t > 0 && w.p == 0.0);
	welch_of(same, 3, same, 3, &w);
	ck_assert(w.t == 0.0 && w.p == 1.0);

	/* One run is not a sample. */
	stats_compute(a, 1, &s1);
	stats_compute(b, 3, &s2);
	ck_assert_int_eq(stats_welch(&s1, &s2, &w), -1);
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("stats");

	tcase_add_test(tc, t_critical_values);
	tcase_add_test(tc, summary_of_fixed_samples);
	tcase_add_test(tc, t_p_values);
	tcase_add_test(tc, welch_fixed_samples);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(stats_suite)
