/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_curve: clyde-curve's step lists, targets, a step's statistic
 * and the bracket of the knee (lib/curve.h). */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "curve.h"
#include "hist.h"
#include "check_main.h"

START_TEST(steps_parse)
{
	unsigned pct[CURVE_STEPS_MAX + 1], n = 0;
	char why[200];

	ck_assert_int_eq(
	    curve_parse_steps(CURVE_STEPS_DEFAULT, pct, &n, why, sizeof(why)),
	    0);
	ck_assert_uint_eq(n, 12);
	ck_assert_uint_eq(pct[0], 100);
	ck_assert_uint_eq(pct[9], 950);
	ck_assert_uint_eq(pct[11], 1100);
	ck_assert_int_eq(
	    curve_parse_steps("0.5,47.5,200", pct, &n, why, sizeof(why)), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(pct[0], 5);
	ck_assert_uint_eq(pct[1], 475);
	ck_assert_uint_eq(pct[2], 2000);
}
END_TEST

START_TEST(steps_refused)
{
	static const struct {
		const char *in, *why;
	} bad[] = {
	    {"20,10", "must rise: 10 after 20"},
	    {"10,10", "must rise"},
	    {"10,200.1", "'200.1' is not a percentage"},
	    {"250", "'250' is not a percentage"},
	    {"0", "'0' is not"},
	    {"10,,20", "'' is not"},
	    {"10,", "'' is not"},
	    {"1.25", "'1.25' is not"},
	    {"x", "'x' is not"},
	    {"-5", "'-5' is not"},
	    {"", "'' is not"},
	};
	unsigned pct[CURVE_STEPS_MAX + 1], n;
	char why[200], many[CURVE_STEPS_MAX * 4 + 16] = "";

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		ck_assert_int_eq(
		    curve_parse_steps(bad[i].in, pct, &n, why, sizeof(why)),
		    -1);
		ck_assert_msg(strstr(why, bad[i].why), "'%s': %s", bad[i].in,
			      why);
	}
	for (unsigned i = 1; i <= CURVE_STEPS_MAX + 1; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many),
			 "%s%u", i > 1 ? "," : "", i);
	ck_assert_int_eq(curve_parse_steps(many, pct, &n, why, sizeof(why)),
			 -1);
	ck_assert_ptr_nonnull(strstr(why, "at most 64 steps"));
}
END_TEST

START_TEST(target_parse)
{
	static const struct {
		const char *in;
		enum curve_stat stat;
		uint64_t ns;
		const char *text;
	} good[] = {
	    {"p99:5ms", CURVE_P99, 5000000, "p99 <= 5 ms"},
	    {"p50:250us", CURVE_P50, 250000, "p50 <= 250 us"},
	    {"p90:1.5ms", CURVE_P90, 1500000, "p90 <= 1.5 ms"},
	    {"p99.9:2s", CURVE_P999, 2000000000, "p99.9 <= 2 s"},
	    {"mean:800ns", CURVE_MEAN, 800, "mean <= 800 ns"},
	    {"max:10ms", CURVE_MAX, 10000000, "max <= 10 ms"},
	};
	static const struct {
		const char *in, *why;
	} bad[] = {
	    {"p99", "needs a time"},
	    {"p99:", "needs a time"},
	    {"p98:5ms", "STAT one of"},
	    {"p99:5", "needs its unit"},
	    {"p99:ms", "needs its unit"},
	    {"p99:5xs", "needs its unit"},
	    {"p99:0ms", "from 1 ns"},
	    {"p99:2h", "needs its unit"},
	    {"p99:3601s", "to an hour"},
	    {":5ms", "STAT one of"},
	    {"p99:-1ms", "from 1 ns to an hour"},
	    {"p99:NaNms", "the time 'NaN' is not a number"},
	    {"p99:1e309s", "from 1 ns to an hour"},
	    {"p99:1e-400s", "from 1 ns to an hour"},
	};
	struct curve_target t;
	char why[200], text[64];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		memset(&t, 0, sizeof(t));
		ck_assert_int_eq(
		    curve_parse_target(good[i].in, &t, why, sizeof(why)), 0);
		ck_assert(t.on);
		ck_assert_int_eq(t.stat, good[i].stat);
		ck_assert_uint_eq(t.ns, good[i].ns);
		curve_target_text(&t, text, sizeof(text));
		ck_assert_str_eq(text, good[i].text);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		ck_assert_int_eq(
		    curve_parse_target(bad[i].in, &t, why, sizeof(why)), -1);
		ck_assert_msg(strstr(why, bad[i].why), "'%s': %s", bad[i].in,
			      why);
	}
}
END_TEST

/* A step's statistic is its response times': percentiles and mean from
 * the histogram, the worst from the record. */
START_TEST(stat_of_a_step)
{
	struct hist h;
	struct result_test_rec rec = {.max_latency_ns = 7000000};

	hist_init(&h);
	for (int i = 0; i < 1000; i++)
		hist_add(&h, 100000); /* 100 us */
	for (int i = 0; i < 10; i++)
		hist_add(&h, 5000000); /* 5 ms: the top 1% */
	rec.lat = &h;
	ck_assert_uint_eq(curve_stat_of(&rec, CURVE_MAX), 7000000);
	ck_assert_uint_le(curve_stat_of(&rec, CURVE_P50), 110000);
	ck_assert_uint_ge(curve_stat_of(&rec, CURVE_P50), 90000);
	ck_assert_uint_le(curve_stat_of(&rec, CURVE_P99), 110000);
	ck_assert_uint_ge(curve_stat_of(&rec, CURVE_P999), 4500000);
	ck_assert_uint_eq(curve_stat_of(&rec, CURVE_MEAN),
			  (1000 * 100000ull + 10 * 5000000ull) / 1010 + 1);
	rec.lat = NULL;
	ck_assert_uint_eq(curve_stat_of(&rec, CURVE_P99), 0);
}
END_TEST

START_TEST(knee_bracket)
{
	struct curve_target t = {.on = 1, .stat = CURVE_P99, .ns = 1000};
	struct curve_point p[] = {
	    {100, 100, 200},  {200, 200, 400}, {300, 300, 900},
	    {400, 390, 1500}, {500, 420, 800}, {600, 430, 5000},
	};
	unsigned lo = 99, hi = 99;

	/* The first beyond ends the search: a later step back within (a
	 * noisy one) does not move the knee past it. */
	ck_assert_int_eq(curve_bracket(p, 6, &t, &lo, &hi), 0);
	ck_assert_uint_eq(lo, 2);
	ck_assert_uint_eq(hi, 3);
	/* All within: the last step, nothing beyond. */
	t.ns = 10000;
	ck_assert_int_eq(curve_bracket(p, 6, &t, &lo, &hi), 0);
	ck_assert_uint_eq(lo, 5);
	ck_assert_uint_eq(hi, 6);
	/* The lightest beyond: none met. */
	t.ns = 100;
	ck_assert_int_eq(curve_bracket(p, 6, &t, &lo, &hi), -1);
	ck_assert_uint_eq(hi, 0);
	/* On the bound is within. */
	t.ns = 200;
	ck_assert_int_eq(curve_bracket(p, 6, &t, &lo, &hi), 0);
	ck_assert_uint_eq(lo, 0);
	ck_assert_uint_eq(hi, 1);
}
END_TEST

static Suite *curve_suite(void)
{
	Suite *s = suite_create("curve");
	TCase *tc = tcase_create("curve");

	tcase_add_test(tc, steps_parse);
	tcase_add_test(tc, steps_refused);
	tcase_add_test(tc, target_parse);
	tcase_add_test(tc, stat_of_a_step);
	tcase_add_test(tc, knee_bracket);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(curve_suite)
