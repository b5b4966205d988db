/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * curve_result: clyde-curve's result, as the program measures it and as
 * clyde-report reads it back from its document: the settings of the
 * curve, and each curve (one per -x repeat) with its steps in order of
 * the load offered (the maximum first) and its knee. What is printed of
 * it, the same from either: the table of a curve with its knee's line,
 * the CSV lines, and the summary over several curves.
 */
#ifndef CLYDE_CURVE_RESULT_H
#define CLYDE_CURVE_RESULT_H

#include <stdint.h>
#include <stdio.h>

#include "curve.h"
#include "result.h"

/* The most refining steps a curve has, and the most curves. */
#define CURVE_REFINE_MAX  20u
#define CURVE_REPEATS_MAX 100u
/* The most steps of one curve: the maximum, the list, the bisection. */
#define CURVE_RUN_STEPS (1u + CURVE_STEPS_MAX + CURVE_REFINE_MAX)

/* What a step was: the closed loop that finds the maximum, a step of
 * the list, or one the bisection added. */
enum curve_kind { CURVE_STEP_MAX, CURVE_STEP_LIST, CURVE_STEP_REFINE };

struct curve_step {
	enum curve_kind kind;
	unsigned pct;	  /* of the maximum, tenths (the list's, or the
			   * bisection's offered over the maximum); 0 for
			   * the maximum */
	uint64_t offered; /* operations a second offered; 0: closed loop */
	uint64_t seed;
	struct result_test_rec rec; /* its one test (owns its parts) */
	char error[600];	    /* a failed step's message, or "" */
};

struct curve_one {
	uint64_t seed;
	struct curve_step step[CURVE_RUN_STEPS];
	unsigned n;
	int complete; /* every step ran (else stopped or failed) */
	int knee;     /* the knee's step, -1: none (or no target) */
};

struct curve_result {
	char name[RESULT_NAME_MAX];    /* the machine's name (-m) */
	enum result_test test;	       /* ran_read, or ran_mix */
	unsigned pct[CURVE_STEPS_MAX]; /* the list, tenths, rising */
	unsigned nsteps;
	unsigned step_time; /* seconds */
	struct curve_target target;
	unsigned refine;
	struct curve_one *curves; /* malloc'd, n of them */
	unsigned n;
	int complete; /* every curve asked for ran whole */
};

/* Free what r's curves hold; r's settings stay. */
void curve_result_free(struct curve_result *r);

/* A step's achieved operations a second (0 when it did not end well),
 * and its MB/s. */
double curve_achieved(const struct curve_step *s);
double curve_mbps(const struct curve_step *s);

/* The table of curve c on f: a heading, a row per step, the knee's
 * line (none when the maximum failed). */
void curve_print_table(FILE *f, const struct curve_result *r,
		       const struct curve_one *c);

/* The knee's line into buf: "max 41200 IOPS; 33900 IOPS (82% of max)
 * with p99 <= 5 ms", or why there is none. */
void curve_knee_line(const struct curve_result *r, const struct curve_one *c,
		     char *buf, size_t len);

/* Whether a complete curve c of r, with a target, met it nowhere. */
int curve_missed(const struct curve_result *r, const struct curve_one *c);

/* The CSV header, and curve c's lines (k: its number, from 0). */
void curve_csv_header(FILE *f);
void curve_csv_lines(FILE *f, const struct curve_result *r, unsigned k,
		     const struct curve_one *c);

/* The statistic curves are judged by: the target's, else p99. */
enum curve_stat curve_judged(const struct curve_result *r);

/*
 * Of r's curves, step percentage pct (tenths) of kind (CURVE_STEP_MAX:
 * the maximum), where a curve has it and it ended well: the achieved
 * rates into ach[] and statistic st into val[] (ns), at most
 * CURVE_REPEATS_MAX. Returns how many.
 */
unsigned curve_gather(const struct curve_result *r, unsigned pct,
		      enum curve_kind kind, enum curve_stat st, double *ach,
		      double *val);

/* The knees' achieved rates of r's curves that found one. */
unsigned curve_knees(const struct curve_result *r, double *k);

/* What a chart draws of one result: its points (achieved IOPS,
 * statistic ns) in order of load, and its knee's IOPS (NaN: none). The
 * steps of one curve, or each list step's mean over several. */
struct curve_line {
	double x[CURVE_RUN_STEPS], y[CURVE_RUN_STEPS];
	unsigned n;
	double knee;
};
void curve_line_of(const struct curve_result *r, enum curve_stat st,
		   struct curve_line *l);

/* Over r's curves: each step's mean and 95% CI, and the knee's, on f. */
void curve_print_summary(FILE *f, const struct curve_result *r);

#endif
