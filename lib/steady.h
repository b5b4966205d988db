/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * steady: the steady-state rule of the SNIA Solid State Storage
 * Performance Test Specification (PTS). A test runs in rounds; it is
 * steady once the last ROUNDS rounds (the measurement window) meet both
 * of the rule's tests on the quantity tracked (a rate, or a latency):
 *
 *   range: max(y) - min(y) over the window is at most RANGE percent of
 *          the window's average;
 *   slope: the excursion of the window's least-squares line, the
 *          line's value at the last round less its value at the first
 *          (|slope| * (ROUNDS - 1), rounds one apart), is at most SLOPE
 *          percent of the average.
 *
 * PTS's own numbers, ROUNDS 5, RANGE 20 and SLOPE 10, are the default
 * (the specification's definitions, "Steady State" and "Measurement
 * Window"; fio's ss= option applies the same two tests, one at a
 * time).
 */
#ifndef CLYDE_STEADY_H
#define CLYDE_STEADY_H

#include <stddef.h>
#include <stdint.h>

/* What a round measures. */
enum steady_on { STEADY_RATE = 0, STEADY_IOPS, STEADY_BW, STEADY_P99 };

struct steady_rule {
	unsigned rounds;	     /* the window, >= 2 */
	double range_pct, slope_pct; /* of the window's average */
	enum steady_on on;	     /* STEADY_RATE: the figure's own rate */
};

#define STEADY_ROUNDS_DEFAULT 5u
#define STEADY_RANGE_DEFAULT  20.0
#define STEADY_SLOPE_DEFAULT  10.0
#define STEADY_ROUNDS_MAX     100u

/* The window's verdict, as the rule computes it. */
struct steady_window {
	double avg, min, max;
	double range;	  /* max - min */
	double slope;	  /* of the least-squares line, per round */
	double excursion; /* |slope| * (rounds - 1) */
	int range_ok, slope_ok;
};

/* PTS's rule, measuring the figure's rate. */
void steady_rule_default(struct steady_rule *r);

/*
 * [ROUNDS:RANGE:SLOPE][:QUANTITY] or QUANTITY alone (iops, bw, p99),
 * what the parts left out keep of the default. 0, or -1 with why (a
 * sentence naming the bad part).
 */
int steady_parse(const char *s, struct steady_rule *r, char *why, size_t len);

/* The name of what a rule measures: "rate", "iops", "bw", "p99". */
const char *steady_on_name(enum steady_on on);

/*
 * Judge the window y[0..n) (n >= 2, the last rounds in order): fills w;
 * returns 1 when both tests hold, 0 otherwise. An average of 0 (nothing
 * measured) is steady only when every round is 0.
 */
int steady_judge(const double *y, unsigned n, const struct steady_rule *r,
		 struct steady_window *w);

/* One round of a test run under the rule: its length, what it did, and
 * the quantity the rule tracks (steady_value). */
struct steady_round {
	double seconds;
	uint64_t ops, bytes;
	uint64_t p99_ns; /* its operations' 99th percentile; 0: none kept */
	double value;
};

/*
 * A test run under the rule (--steady): its rounds in order, each
 * round_s long but the test's last, cut short and not kept; the window
 * the last rule.rounds of them once there are that many (first: the
 * index of its first round); steady: the window met the rule, and the
 * test ended there, else it ran until max_s. seconds: the whole test.
 */
struct steady_run {
	struct steady_rule rule;
	double round_s, max_s, seconds;
	int steady;
	unsigned nrounds, first;
	struct steady_round *rounds; /* malloc'd: steady_run_free */
	struct steady_window window; /* nrounds >= rule.rounds */
};

/* The quantity rule r tracks, of a round: operations or bytes a second,
 * or its p99 in ns. */
double steady_value(const struct steady_round *rd, enum steady_on on);

/* A copy of *s (NULL without memory), and the freeing of one. */
struct steady_run *steady_run_dup(const struct steady_run *s);
void steady_run_free(struct steady_run *s);

/* The settings column's words on s: "steady r14 (140 s)" or "NOT steady
 * after 600 s". */
void steady_run_text(const struct steady_run *s, char *buf, size_t len);

#endif
