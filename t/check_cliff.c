/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_cliff: the write-cache cliff in a test's intervals
 * (lib/cliff.h): two levels and the drop found, where they are; noise,
 * a slide, a rise and too few intervals found as nothing, and why. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <string.h>

#include "cliff.h"
#include "result.h"
#include "rng.h"
#include "check_main.h"

#define MB 1e6

/* n intervals of secs each, rate(i) bytes a second, as clyde logs them. */
static void series(struct result_interval *v, unsigned n, double secs,
		   double (*rate)(unsigned i, void *arg), void *arg)
{
	memset(v, 0, n * sizeof(*v));
	for (unsigned i = 0; i < n; i++) {
		v[i].secs = secs;
		v[i].end = (i + 1) * secs;
		v[i].bytes = (uint64_t)(rate(i, arg) * secs + 0.5);
	}
}

/* A cache of a given size taking writes at the burst rate, then the
 * sustained rate, each interval's rate off its level by noise of cv (a
 * share of it) from rng: the cache fills when its size is written,
 * whatever the noise made of the burst. */
struct cache {
	double burst, sustained, size, secs, cv;
	struct rng *rng;
	double written; /* so far, by the generator */
	double stall;	/* the share of intervals that stall, at a tenth */
};

static double gauss(struct rng *r)
{
	double u = ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0,
	       w = ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * w);
}

static double noisy(double level, const struct cache *c)
{
	return c->rng && c->cv > 0 ? level * fmax(0, 1 + c->cv * gauss(c->rng))
				   : level;
}

static double cache_rate(unsigned i, void *arg)
{
	struct cache *c = arg;
	double b = noisy(c->burst, c), s = noisy(c->sustained, c), room, bytes;

	if (c->stall > 0 &&
	    (double)(rng_next(c->rng) >> 11) / 9007199254740992.0 < c->stall) {
		b /= 10;
		s /= 10;
	}
	if (i == 0)
		c->written = 0;
	room = c->size - c->written;
	if (room <= 0)
		bytes = s * c->secs;
	else if (b * c->secs <= room)
		bytes = b * c->secs;
	else /* it fills in this interval */
		bytes = room + s * (c->secs - room / b);
	c->written += bytes;
	return bytes / c->secs;
}

START_TEST(clean_cliff)
{
	/* 500 MB/s for 1.03 s (515 MB), then 20 MB/s: the drop falls 30% into
	 * the 11th 0.1 s interval. */
	struct cache c = {.burst = 500 * MB,
			  .sustained = 20 * MB,
			  .size = 515 * MB,
			  .secs = 0.1};
	struct result_interval v[50];
	struct cliff f;

	series(v, 50, 0.1, cache_rate, &c);
	ck_assert_int_eq(cliff_find(v, 50, &f), 1);
	ck_assert_double_eq_tol(f.burst, 500 * MB, 1);
	ck_assert_double_eq_tol(f.sustained, 20 * MB, 1);
	ck_assert_double_eq_tol(f.drop_s, 1.03, 1e-6);
	ck_assert_double_eq_tol(f.absorbed, 515 * MB, 100);
	ck_assert_uint_eq(f.n_burst, 10);
	ck_assert_uint_eq(f.n_sustained, 39);
	ck_assert_str_eq(f.why, "");
}
END_TEST

/* With 10% noise on each interval, the levels and the absorbed bytes
 * stay within a few percent, over many seeds. */
START_TEST(noisy_cliff)
{
	struct rng r;
	struct result_interval v[200];
	struct cliff f;
	double worst = 0;

	rng_seed(&r, 42);
	for (int s = 0; s < 200; s++) {
		struct cache c = {.burst = 800 * MB,
				  .sustained = 20 * MB,
				  .size = 96 * 1048576.0,
				  .secs = 0.02,
				  .cv = 0.1,
				  .rng = &r};

		series(v, 200, 0.02, cache_rate, &c);
		ck_assert_int_eq(cliff_find(v, 200, &f), 1);
		ck_assert_double_eq_tol(f.sustained, 20 * MB, 0.6 * MB);
		ck_assert_double_eq_tol(f.burst, 800 * MB, 120 * MB);
		worst = fmax(worst, fabs(f.absorbed / c.size - 1));
	}
	ck_assert_msg(worst < 0.05, "absorbed off by %.1f%%", 100 * worst);
}
END_TEST

/* A busy machine: one interval in twenty stalls (a tenth of its rate),
 * the burst ragged (30%); the cliff is found where it is all the same. */
START_TEST(stalled_cliff)
{
	struct rng r;
	struct result_interval v[400];
	struct cliff f;
	double worst = 0;

	rng_seed(&r, 11);
	for (int s = 0; s < 200; s++) {
		struct cache c = {.burst = 200 * MB,
				  .sustained = 20 * MB,
				  .size = 96 * 1048576.0,
				  .secs = 0.01,
				  .cv = 0.3,
				  .rng = &r,
				  .stall = 0.05};

		series(v, 400, 0.01, cache_rate, &c);
		ck_assert_msg(cliff_find(v, 400, &f) == 1, "seed %d: %s", s,
			      f.why);
		worst = fmax(worst, fabs(f.absorbed / c.size - 1));
	}
	ck_assert_msg(worst < 0.05, "absorbed off by %.1f%%", 100 * worst);
}
END_TEST

struct flat {
	double level, cv, slide; /* slide: the share lost by the end */
	unsigned n;
	struct rng *rng;
};

static double flat_rate(unsigned i, void *arg)
{
	const struct flat *f = arg;
	double level = f->level * (1 - f->slide * i / (f->n - 1));

	return f->cv > 0 ? level * fmax(0, 1 + f->cv * gauss(f->rng)) : level;
}

/* No cliff in noise: of 4000 flat series of 10% and 30% noise, 7 to 100
 * intervals long, at most one in a thousand seen as a cliff (the rule's
 * design: in 20000 series of each it found 2 and 4), each saying why. */
START_TEST(noise_is_no_cliff)
{
	struct rng r;
	struct result_interval v[100];
	struct cliff f;
	unsigned found = 0;

	rng_seed(&r, 7);
	for (int s = 0; s < 4000; s++) {
		struct flat fl = {200 * MB, s % 2 ? 0.3 : 0.1, 0, 100, &r};
		unsigned n = 7 + (unsigned)(s % 94);

		fl.n = n;
		series(v, n, 0.1, flat_rate, &fl);
		if (cliff_find(v, n, &f))
			found++;
		else
			ck_assert(f.why[0] != '\0');
	}
	ck_assert_msg(found <= 4, "%u of 4000 flat series had a cliff", found);
}
END_TEST

/* A rate that slides by half over the test is not a cliff, and says so. */
START_TEST(slide_is_no_cliff)
{
	struct rng r;
	struct result_interval v[60];
	struct cliff f;

	rng_seed(&r, 3);
	for (int s = 0; s < 200; s++) {
		struct flat fl = {100 * MB, 0.02, 0.5, 60, &r};

		series(v, 60, 1, flat_rate, &fl);
		ck_assert_int_eq(cliff_find(v, 60, &f), 0);
		ck_assert_msg(strstr(f.why, "slides") != NULL, "%s", f.why);
	}
}
END_TEST

/* A rise (a slow start) is no drop. */
START_TEST(rise_is_no_cliff)
{
	struct cache c = {.burst = 20 * MB,
			  .sustained = 500 * MB,
			  .size = 40 * MB,
			  .secs = 0.1};
	struct result_interval v[40];
	struct cliff f;

	series(v, 40, 0.1, cache_rate, &c);
	ck_assert_int_eq(cliff_find(v, 40, &f), 0);
	ck_assert_msg(strstr(f.why, "no drop") != NULL, "%s", f.why);
}
END_TEST

/* Too few intervals; the cut last one gives no rate of its own. */
START_TEST(few_and_short)
{
	struct cache c = {.burst = 500 * MB,
			  .sustained = 20 * MB,
			  .size = 150 * MB,
			  .secs = 0.1};
	struct result_interval v[12];
	struct cliff f;

	series(v, 6, 0.1, cache_rate, &c);
	ck_assert_int_eq(cliff_find(v, 6, &f), 0);
	ck_assert_msg(strstr(f.why, "too few intervals to tell a drop from "
				    "noise: 6, where 7 are needed") != NULL,
		      "%s", f.why);
	ck_assert_int_eq(cliff_find(v, 0, &f), 0);
	/* Twelve, the last cut to 1 ms holding a burst of 1 MB (as a rate,
	 * 1000 MB/s): left out, the cliff is the same. */
	series(v, 12, 0.1, cache_rate, &c);
	v[11].secs = 0.001;
	v[11].end = v[10].end + 0.001;
	v[11].bytes = 1000000;
	ck_assert_int_eq(cliff_find(v, 12, &f), 1);
	ck_assert_uint_eq(f.intervals, 11);
	ck_assert_double_eq_tol(f.absorbed, 150 * MB, 100);
	ck_assert_double_eq_tol(f.drop_s, 0.3, 1e-6);
}
END_TEST

/* A drop smaller than a fifth is not a cliff (it is within steady
 * state's band), however clean. */
START_TEST(small_drop)
{
	struct cache c = {.burst = 100 * MB,
			  .sustained = 85 * MB,
			  .size = 300 * MB,
			  .secs = 0.1};
	struct result_interval v[60];
	struct cliff f;

	series(v, 60, 0.1, cache_rate, &c);
	ck_assert_int_eq(cliff_find(v, 60, &f), 0);
	ck_assert_msg(strstr(f.why, "85%") != NULL, "%s", f.why);
}
END_TEST

/* A flat cap whose first intervals came fast: blkio's throttle lets a
 * slice's writes (100 of 8 KiB) through at once after a stall, so one
 * of the first three 0.1 s intervals of a flat 8.192 MB/s took 4.5 ms
 * (as t/077 saw under CI's load), and the three hold 4 KiB more than
 * the rest. Bytes over time, the first three run at 1.4 times the rest;
 * a typical interval's rate is the same each side, and that is no
 * cliff. */
START_TEST(fast_start_is_no_cliff)
{
	struct flat fl = {8.192 * MB, 0, 0, 31, NULL};
	struct result_interval v[31];
	struct cliff f;

	for (unsigned at = 0; at < 3; at++) {
		series(v, 31, 0.1, flat_rate, &fl);
		for (unsigned i = 0; i < 3; i++)
			v[i].bytes = 823296; /* 0.5% more */
		v[at].secs = 0.0045;
		for (unsigned i = at; i < 31; i++)
			v[i].end -= 0.1 - 0.0045;
		ck_assert_int_eq(cliff_find(v, 31, &f), 0);
		ck_assert_msg(strstr(f.why, "typical interval") != NULL,
			      "slow interval at %u: %s", at, f.why);
	}
}
END_TEST

static Suite *cliff_suite(void)
{
	Suite *s = suite_create("cliff");
	TCase *tc = tcase_create("cliff");

	tcase_add_test(tc, clean_cliff);
	tcase_add_test(tc, noisy_cliff);
	tcase_add_test(tc, stalled_cliff);
	tcase_add_test(tc, noise_is_no_cliff);
	tcase_add_test(tc, slide_is_no_cliff);
	tcase_add_test(tc, rise_is_no_cliff);
	tcase_add_test(tc, few_and_short);
	tcase_add_test(tc, small_drop);
	tcase_add_test(tc, fast_start_is_no_cliff);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(cliff_suite)
