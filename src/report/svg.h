/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * svg: clyde-report's charts as inline SVG, for the one self-contained
 * html page: no gnuplot, no script, no URL of any kind, so the page can
 * be mailed or archived alone and still shows its charts. svg.c draws
 * the result bars (a small panel per figure, repeats as the mean with a
 * 95% CI whisker, the change and verdict against the first series under
 * the bars), svg_time.c the throughput of --log-interval's intervals,
 * svg_steady.c the rounds of --steady's tests, svg_util.c what they use
 * (escaping, axes, palette, hatching).
 *
 * Elements the tests (and scripts) can find: each bar is
 * <rect class="bar" data-fig="KEY" data-series="I" data-panel="P">
 * (I from 0 in plot_make_series' order; P "rate", "cpu" or "lat"), each
 * "+++++" marker <g class="fast" ...> with the same attributes, each
 * over-time chart <svg class="time" data-fig="KEY" data-row="I">, each
 * steady-state chart <svg class="steady-chart" data-fig="KEY"
 * data-row="I" data-rounds="N"> with a <circle class="steady-round"> per
 * round, its window's <rect class="steady-window">, <line
 * class="steady-avg">, two <line class="steady-band"> and <line
 * class="steady-slope">.
 * The same input always gives the same bytes.
 */
#ifndef CLYDE_REPORT_SVG_H
#define CLYDE_REPORT_SVG_H

#include <stdio.h>

#include "report.h"

/*
 * The result charts of set as one <section> of inline <svg> elements:
 * a legend, a panel per figure's rate, one %CP panel, a panel per
 * figure's worst latency. 0, or -1 on a write error (errno) or no
 * memory. Writes nothing and returns 0 when the set has no rows.
 */
int report_svg_bars(FILE *out, const struct report_set *set, double alpha);

/*
 * Throughput over time of every JSON run that has intervals
 * (--log-interval): one step chart per run and test, rate in MiB/s (or
 * ops/s) against seconds, p99 as dots on a second axis. 0, or -1 on a
 * write error (errno). Writes nothing and returns 0 when no run has
 * intervals.
 */
int report_svg_over_time(FILE *out, const struct report_set *set);

/*
 * The convergence of every JSON run's tests run in rounds (--steady),
 * as SNIA PTS plots it: one chart per run and test, each round's
 * tracked value against its number, the measurement window shaded with
 * its average, the rule's range band about it and its least-squares
 * line. 0, or -1 on a write error (errno). Writes nothing and returns 0
 * when no test ran in rounds.
 */
int report_svg_steady(FILE *out, const struct report_set *set);

/* What svg.c, svg_time.c and svg_steady.c share (svg_util.c). */

/* Okabe and Ito's colour-blind-safe palette, one colour a series. */
#define SVG_COLOURS 8
extern const char *const svg_palette[SVG_COLOURS];

/* Text with XML's special characters escaped (< > & " '), control
 * characters as U+FFFD. */
void svg_esc(FILE *out, const char *s);

/* A linear axis from 0: top = n * step, 3 to 5 steps of a round size
 * (1, 2, 2.5 or 5 times a power of ten) covering max. */
struct svg_axis {
	double top, step;
	int n;
};
void svg_axis_of(double max, struct svg_axis *a);

/* An axis label: v with as many decimals as step needs; thousands
 * separated from 10 000 on. */
void svg_axis_label(char *buf, size_t len, double v, double step);

/* v with "," between thousands, dec decimals. */
void svg_thousands(char *buf, size_t len, double v, int dec);

/*
 * The gridlines and labels of axis a over the plot area at (x, y) of
 * w x h, labels left of it (right: right of it, no gridlines).
 */
void svg_grid(FILE *out, double x, double y, double w, double h,
	      const struct svg_axis *a, int right);

/* A grey outline of w x h at (x, y) (the palette's yellow alone is too
 * faint on white) hatched with diagonal lines of colour, each computed
 * to end at the outline (no clip path, no pattern). */
void svg_hatch(FILE *out, double x, double y, double w, double h,
	       const char *colour);

/* About how wide text of n characters is at 12px, in pixels. */
double svg_text_width(const char *s);

/* out's error: -1 with errno set (EIO when none), else 0. */
int svg_done(FILE *out);

/* Which tests of a row a section charts: nonzero for test t of r. */
typedef int svg_has_fn(const struct run_result *r, enum result_test t);
/* One test's chart of a section. */
typedef void svg_chart_fn(FILE *out, const struct report_row *row, size_t ri,
			  enum result_test t);

/* How many tests of set's rows has takes. */
size_t svg_count(const struct report_set *set, svg_has_fn *has);

/*
 * A section's panels: chart for each test has takes, in the rows' and
 * the registry's order, max at most; then "The first N of ALL tests
 * WHAT." when some were left out, the end of the section, and
 * svg_done's status.
 */
int svg_panels(FILE *out, const struct report_set *set, size_t max,
	       svg_has_fn *has, svg_chart_fn *chart, const char *what);

#endif
