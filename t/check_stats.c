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
	} tab[] = {{1, 12.706}, {2, 4.303},  {4, 2.776},   {5, 2.571},
		   {9, 2.262},  {10, 2.228}, {19, 2.093},  {29, 2.045},
		   {30, 2.042}, {40, 2.021}, {60, 2.000},  {120, 1.980},
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

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("stats");

	tcase_add_test(tc, t_critical_values);
	tcase_add_test(tc, summary_of_fixed_samples);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(stats_suite)
