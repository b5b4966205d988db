/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * curve: what clyde-curve decides, kept pure so it can be tested alone:
 * its step list (--steps, percentages of the maximum a closed loop
 * reached), its latency target (--target=STAT:TIME) and a step's value
 * of it, and the knee: the highest load whose value is within the
 * target, bracketed by the steps (the last within before the first
 * beyond) and narrowed by bisection of the offered rate between them.
 */
#ifndef CLYDE_CURVE_H
#define CLYDE_CURVE_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"

/* The most steps a list takes, and the highest percentage of the
 * maximum a step may offer. */
#define CURVE_STEPS_MAX 64u
#define CURVE_PCT_MAX	200.0
/* The default list: the saturation step last. */
#define CURVE_STEPS_DEFAULT "10,20,30,40,50,60,70,80,90,95,100,110"

/* What a target bounds: a percentile of the response times, their
 * mean, or the worst. */
enum curve_stat {
	CURVE_P50,
	CURVE_P90,
	CURVE_P99,
	CURVE_P999,
	CURVE_MEAN,
	CURVE_MAX,
};

struct curve_target {
	int on; /* 0: no target, the curve alone */
	enum curve_stat stat;
	uint64_t ns; /* the bound */
};

/*
 * --steps: comma-separated percentages (0.1 to CURVE_PCT_MAX, at most
 * one decimal), each above the one before, at most CURVE_STEPS_MAX.
 * Into pct[] (tenths of a percent) and *n; 0, or -1 with why.
 */
int curve_parse_steps(const char *s, unsigned *pct, unsigned *n, char *why,
		      size_t len);

/* Tenths of a percent as a step names them: "30", "47.5". */
void curve_pct_text(unsigned tenths, char *buf, size_t len);

/*
 * --target: STAT:TIME, STAT one of p50, p90, p99, p99.9, mean, max and
 * TIME a positive number with its unit (ns, us, ms, s): "p99:5ms". 0,
 * or -1 with why.
 */
int curve_parse_target(const char *s, struct curve_target *t, char *why,
		       size_t len);

/* "p99", "p99.9", "mean" ... */
const char *curve_stat_name(enum curve_stat s);

/* "p99 <= 5 ms": the target as the knee's line says it. */
void curve_target_text(const struct curve_target *t, char *buf, size_t len);

/* A step's value of stat, from its response times (rec->lat; the worst
 * from max_latency_ns); 0 when none was recorded. */
uint64_t curve_stat_of(const struct result_test_rec *rec, enum curve_stat s);

/* A step as the knee's search sees it, in the order of offered rate. */
struct curve_point {
	double offered;	 /* operations a second */
	double achieved; /* operations a second */
	uint64_t value;	 /* the target's statistic, ns */
};

/*
 * The bracket of the knee among n points sorted by offered rate: *lo
 * the last point within the target before the first beyond it (*hi,
 * n when none is beyond). Returns 0, or -1 when no point before the
 * first beyond is within (no step meets the target).
 */
int curve_bracket(const struct curve_point *p, unsigned n,
		  const struct curve_target *t, unsigned *lo, unsigned *hi);

/* Whether a point is within the target. */
static inline int curve_within(const struct curve_point *p,
			       const struct curve_target *t)
{
	return p->value <= t->ns;
}

#endif
