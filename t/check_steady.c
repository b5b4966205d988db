/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_steady: the PTS steady-state rule (lib/steady.h) on windows
 * that meet and fail each of its two tests, and its option's parse. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <string.h>

#include "steady.h"
#include "check_main.h"

static struct steady_rule pts(void)
{
	struct steady_rule r;

	steady_rule_default(&r);
	return r;
}

START_TEST(flat_is_steady)
{
	const double y[] = {100, 101, 99, 100, 100};
	struct steady_rule r = pts();
	struct steady_window w;

	ck_assert_int_eq(steady_judge(y, 5, &r, &w), 1);
	ck_assert_double_eq_tol(w.avg, 100, 1e-9);
	ck_assert_double_eq_tol(w.range, 2, 1e-9);
	ck_assert_int_eq(w.range_ok, 1);
	ck_assert_int_eq(w.slope_ok, 1);
}
END_TEST

/* Range: max - min against 20% of the average, the bound itself in. */
START_TEST(range_rule)
{
	/* Average 100, range 20: on the bound; the line through it is flat
	 * (symmetric), so only the range decides. */
	const double on[] = {110, 90, 100, 90, 110};
	/* Average 100, range 22: past it, still flat. */
	const double past[] = {111, 89, 100, 89, 111};
	struct steady_rule r = pts();
	struct steady_window w;

	ck_assert_int_eq(steady_judge(on, 5, &r, &w), 1);
	ck_assert_double_eq_tol(w.slope, 0, 1e-12);
	ck_assert_int_eq(steady_judge(past, 5, &r, &w), 0);
	ck_assert_int_eq(w.range_ok, 0);
	ck_assert_int_eq(w.slope_ok, 1);
	ck_assert_double_eq_tol(w.range, 22, 1e-9);
}
END_TEST

/* Slope: the fitted line's excursion over the window against 10% of the
 * average, with the range within its own bound. */
START_TEST(slope_rule)
{
	/* 96, 98, 100, 102, 104: slope 2 a round, excursion 8 of 100
	 * (8%), range 8: steady. */
	const double meets[] = {96, 98, 100, 102, 104};
	/* 94, 97, 100, 103, 106: slope 3, excursion 12 (12%) though the
	 * range, 12, is within 20%: not steady on the slope alone. */
	const double fails[] = {94, 97, 100, 103, 106};
	/* A falling window is judged the same. */
	const double falls[] = {106, 103, 100, 97, 94};
	struct steady_rule r = pts();
	struct steady_window w;

	ck_assert_int_eq(steady_judge(meets, 5, &r, &w), 1);
	ck_assert_double_eq_tol(w.slope, 2, 1e-9);
	ck_assert_double_eq_tol(w.excursion, 8, 1e-9);
	ck_assert_int_eq(steady_judge(fails, 5, &r, &w), 0);
	ck_assert_int_eq(w.range_ok, 1);
	ck_assert_int_eq(w.slope_ok, 0);
	ck_assert_double_eq_tol(w.excursion, 12, 1e-9);
	ck_assert_int_eq(steady_judge(falls, 5, &r, &w), 0);
	ck_assert_double_eq_tol(w.slope, -3, 1e-9);
	ck_assert_int_eq(w.slope_ok, 0);
}
END_TEST

/* Both fail; and a least-squares slope, not the end points: one high
 * round in the middle moves no line. */
START_TEST(both_and_fit)
{
	const double both[] = {50, 70, 90, 110, 130};
	const double spike[] = {100, 100, 118, 100, 100};
	struct steady_rule r = pts();
	struct steady_window w;

	ck_assert_int_eq(steady_judge(both, 5, &r, &w), 0);
	ck_assert_int_eq(w.range_ok, 0);
	ck_assert_int_eq(w.slope_ok, 0);
	ck_assert_int_eq(steady_judge(spike, 5, &r, &w), 1);
	ck_assert_double_eq_tol(w.slope, 0, 1e-12);
	/* Hand-computed fit of 1, 2, 4, 3, 5: slope 0.9 a round. */
	{
		const double y[] = {1, 2, 4, 3, 5};

		steady_judge(y, 5, &r, &w);
		ck_assert_double_eq_tol(w.slope, 0.9, 1e-12);
		ck_assert_double_eq_tol(w.excursion, 3.6, 1e-12);
	}
	/* Nothing measured is steady; one round of something is not. */
	{
		const double zero[] = {0, 0, 0, 0, 0}, one[] = {0, 0, 5, 0, 0};

		ck_assert_int_eq(steady_judge(zero, 5, &r, &w), 1);
		ck_assert_int_eq(steady_judge(one, 5, &r, &w), 0);
	}
}
END_TEST

/* Other bounds and windows, as --steady=ROUNDS:RANGE:SLOPE gives. */
START_TEST(other_rules)
{
	const double y[] = {96, 98, 100, 102, 104, 100, 100};
	struct steady_rule r;
	struct steady_window w;
	char why[200];

	ck_assert_int_eq(steady_parse("5:20:5", &r, why, sizeof(why)), 0);
	ck_assert_int_eq(steady_judge(y, 5, &r, &w), 0);
	ck_assert_int_eq(w.slope_ok, 0);
	ck_assert_int_eq(steady_parse("3:5:10", &r, why, sizeof(why)), 0);
	ck_assert_uint_eq(r.rounds, 3);
	ck_assert_int_eq(steady_judge(y + 4, 3, &r, &w), 1);
	ck_assert_int_eq(steady_judge(y + 2, 3, &r, &w), 1);
	ck_assert_int_eq(steady_parse("3:1:10", &r, why, sizeof(why)), 0);
	ck_assert_int_eq(steady_judge(y + 2, 3, &r, &w), 0);
	ck_assert_int_eq(w.range_ok, 0);
}
END_TEST

START_TEST(parse)
{
	struct steady_rule r;
	char why[200];
	static const struct {
		const char *in, *why;
	} bad[] = {
	    {"", "expected ROUNDS:RANGE:SLOPE"},
	    {"5:20", "expected ROUNDS:RANGE:SLOPE (as 5:20:10)"},
	    {"5::10", "expected ROUNDS:RANGE:SLOPE"},
	    {"5:20:10:", "expected ROUNDS:RANGE:SLOPE"},
	    {"1:20:10", "ROUNDS '1' is not"},
	    {"101:20:10", "ROUNDS '101' is not"},
	    {"x:20:10", "ROUNDS 'x' is not"},
	    {"5:0:10", "RANGE '0' is not"},
	    {"5:120:10", "RANGE '120' is not"},
	    {"5:100000:100000", "RANGE '100000' is not a percentage above 0 "
				"and at most 100"},
	    {"5:20:-1", "SLOPE '-1' is not"},
	    {"5:20:10:mbps", "expected ROUNDS:RANGE:SLOPE (as 5:20:10)"},
	    {"iops:5:20:10", "expected ROUNDS:RANGE:SLOPE (as 5:20:10)"},
	    {"1:2:3:4:5:6", "at most"},
	};

	ck_assert_int_eq(steady_parse("iops", &r, why, sizeof(why)), 0);
	ck_assert_int_eq(r.on, STEADY_IOPS);
	ck_assert_uint_eq(r.rounds, 5);
	ck_assert_double_eq(r.range_pct, 20);
	ck_assert_double_eq(r.slope_pct, 10);
	ck_assert_int_eq(steady_parse("8:10:2.5:p99", &r, why, sizeof(why)), 0);
	ck_assert_int_eq(r.on, STEADY_P99);
	ck_assert_uint_eq(r.rounds, 8);
	ck_assert_double_eq(r.slope_pct, 2.5);
	ck_assert_int_eq(steady_parse("5:20:10", &r, why, sizeof(why)), 0);
	ck_assert_int_eq(r.on, STEADY_RATE);
	ck_assert_str_eq(steady_on_name(STEADY_BW), "bw");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		ck_assert_msg(steady_parse(bad[i].in, &r, why, sizeof(why)) ==
				  -1,
			      "'%s' was taken", bad[i].in);
		ck_assert_msg(strstr(why, bad[i].why) != NULL,
			      "'%s': '%s' lacks '%s'", bad[i].in, why,
			      bad[i].why);
	}
}
END_TEST

static Suite *steady_suite(void)
{
	Suite *s = suite_create("steady");
	TCase *tc = tcase_create("steady");

	tcase_add_test(tc, flat_is_steady);
	tcase_add_test(tc, range_rule);
	tcase_add_test(tc, slope_rule);
	tcase_add_test(tc, both_and_fit);
	tcase_add_test(tc, other_rules);
	tcase_add_test(tc, parse);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(steady_suite)
