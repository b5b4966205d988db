/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * curve: clyde-report's renderers of clyde-curve documents, given alone
 * (no other input beside them): compare (curve.c), html (curve_html.c)
 * and plot (curve_plot.c); txt and json are docs.c's, as for the other
 * programs' documents. Each document is one side, the first the
 * baseline; its curves (-x N) are the repeats each figure is judged
 * with.
 */
#ifndef CLYDE_REPORT_CURVE_H
#define CLYDE_REPORT_CURVE_H

#include <stdio.h>

#include "curve_result.h"
#include "report.h"

/* Whether the set is curve documents alone (then 1), none (0), or
 * curve documents beside other inputs (-1). */
int report_curves_alone(const struct report_set *set);

/* One row of a comparison: the maximum's IOPS, a step's statistic
 * (at each side's share of its own maximum), or the knee's IOPS. */
struct curve_cmp_row {
	char name[24]; /* "max", "50% p99", "knee" */
	int rate;      /* IOPS (higher is faster), else the statistic in us */
	struct stats a, b;
	double ach_a, ach_b; /* a step's mean achieved IOPS */
	double change;	     /* percent, NaN when none */
	struct verdict v;
};

/* The rows of other against base (at most max): the maximum, each step
 * of base's list that other has too (the statistic of base's target,
 * then p99 when that is another), the knee when both have one. Returns
 * how many. */
size_t report_curve_rows(const struct curve_result *base,
			 const struct curve_result *other, double alpha,
			 struct curve_cmp_row *rows, size_t max);

/* What a reader of other against base must know: targets that differ,
 * steps of base's list that other did not run. 1 with it said in buf,
 * else 0. */
int report_curve_note(const struct curve_result *base,
		      const struct curve_result *other, char *buf, size_t len);

/* The statistic compared: base's target's, else p99. */
enum curve_stat report_curve_stat(const struct curve_result *base);

/* compare of the set's curve documents (one line on err and
 * CLI_EXIT_USAGE for a single one). */
int report_curve_compare(FILE *out, const struct report_set *set,
			 const struct report_opts *o, FILE *err);

/* html: one page, the chart of every document's curve and the
 * comparison under it. */
int report_curve_html(FILE *out, const struct report_set *set,
		      const struct report_opts *o, FILE *err);

/* plot: the same chart drawn by gnuplot into outs (one picture). */
int report_curve_plot(const struct report_set *set, const struct report_opts *o,
		      struct report_outs *outs, FILE *err);

#endif
