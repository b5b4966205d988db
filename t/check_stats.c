/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_stats: Student t critical values against published tables, and
 * the summary of fixed samples against values worked out by hand;
 * quantiles and p-values far out against arbitrary-precision ones. */
#include "config.h"

#include <check.h>
#include <gsl/gsl_errno.h>
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

/*
 * Past the tables: quantiles for many degrees of freedom and p-values
 * far out in the tails, against the regularised incomplete beta of
 * mpmath at 40 digits (and the normal distribution for df = infinity).
 * The t quantile is the root of p(t) = 0.05 there.
 */
START_TEST(t_exact_far_out)
{
	static const struct {
		unsigned df;
		double t;
	} q[] = {{3, 3.1824463052837096},
		 {31, 2.0395134463964085},
		 {100, 1.9839715185235523},
		 {1000, 1.9623390808264085},
		 {4294967295u, 1.9599639850923917}};
	static const struct {
		double t, df, p;
	} tab[] = {{10, 31, 3.2047954918308863e-11},
		   {12, 45, 1.2764935245667625e-15},
		   {40, 10, 2.2808577430857546e-12},
		   {5, 1e6, 5.7339978708907416e-7},
		   {6, 1e9, 1.9731759644984919e-9},
		   {200, 2.5, 2.5430954381379972e-6},
		   {-1000, 5, 1.8980131131979715e-14},
		   {2, INFINITY, 0.045500263896358414}};

	for (unsigned i = 0; i < sizeof(q) / sizeof(q[0]); i++)
		ck_assert_msg(fabs(stats_t975(q[i].df) / q[i].t - 1) < 1e-12,
			      "df %u: %.17g vs %.17g", q[i].df,
			      stats_t975(q[i].df), q[i].t);
	for (unsigned i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		double p = stats_t_p2(tab[i].t, tab[i].df);

		ck_assert_msg(fabs(p / tab[i].p - 1) < 1e-8,
			      "t %g df %g: %.17g vs %.17g", tab[i].t, tab[i].df,
			      p, tab[i].p);
	}
	/* Beyond what a double holds of the tail, and huge df. */
	ck_assert_double_eq(stats_t_p2(1e300, 3), 0.0);
	ck_assert_double_eq(stats_t_p2(1e100, 1e300), 0.0);
	ck_assert(stats_t_p2(1e-300, 3) == 1.0);
	ck_assert(fabs(stats_t_p2(2, 1e300) / 0.045500263896358414 - 1) <
		  1e-12);
}
END_TEST

/* What no distribution answers: NaN, never a GSL abort. */
START_TEST(t_bad_input)
{
	ck_assert(isnan(stats_t_p2(NAN, 5)));
	ck_assert(isnan(stats_t_p2(2.0, NAN)));
	ck_assert(isnan(stats_t_p2(2.0, -3)));
	ck_assert(isnan(stats_t_p2(INFINITY, 0)));
	ck_assert(isnan(stats_t_p2(NAN, INFINITY)));
	ck_assert_double_eq(stats_t_p2(-INFINITY, 5), 0.0);
	ck_assert(isinf(stats_t975(0)));
	/* GSL's error handler is off once stats has reached GSL: an
	 * error returns instead of aborting the program. */
	ck_assert(stats_t_p2(2.0, 10) > 0.07);
	gsl_error("provoked by check_stats", __FILE__, __LINE__, GSL_EDOM);
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
	tcase_add_test(tc, t_exact_far_out);
	tcase_add_test(tc, t_bad_input);
	tcase_add_test(tc, welch_fixed_samples);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(stats_suite)
