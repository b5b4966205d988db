/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_svg_over_time: the html page's throughput over time, as inline
 * SVG: for every JSON run and test with --log-interval's intervals, a
 * step chart of the rate per interval (MiB/s when its operations have a
 * size, else operations per second) over the span each interval really
 * covered, against seconds from the test's start, with each interval's
 * p99 latency as a dot on a second axis, so a write cache filling up
 * shows as a step down in the rate and up in the dots. The same reading
 * of the intervals as plot --over-time (plot_time.c), without gnuplot.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "svg.h"

/* Charts drawn at most: beyond, the first ones (a note says so). */
#define TIME_CHARTS_MAX 48

#define TW  560 /* a chart's width */
#define TML 64	/* left of the plot area: the rate axis */
#define TMR 72	/* right of it: the p99 axis */
#define TMT 30	/* above: the title */
#define TPH 180 /* the plot area's height */
#define TMB 44	/* below: the seconds axis and its name */

#define RATE_COLOUR  "#0072B2"
#define P99_COLOUR   "#D55E00"
#define CLIFF_COLOUR "#009E73"

/* Whether the test's intervals count bytes (MiB/s) or operations. */
static int by_bytes(const struct result_test_rec *rec)
{
	for (unsigned k = 0; k < rec->nintervals; k++)
		if (rec->intervals[k].bytes)
			return 1;
	return 0;
}

/* Interval k's rate: MiB/s or operations/s; 0 for a span of 0. */
static double rate_of(const struct result_interval *iv, int bytes)
{
	if (!(iv->secs > 0))
		return 0;
	return (bytes ? (double)iv->bytes / 1048576.0 : (double)iv->ops) /
	       iv->secs;
}

/* The seconds axis along the bottom: gridlines and labels. */
static void x_axis(FILE *out, const struct svg_axis *a, double pw)
{
	char label[48];

	for (int i = 0; i <= a->n; i++) {
		double x = TML + pw * i / a->n;

		if (i)
			fprintf(out,
				"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
				"y2=\"%d\" stroke=\"#eeeeee\"/>\n",
				x, TMT, x, TMT + TPH);
		svg_axis_label(label, sizeof(label), a->step * i, a->step);
		fprintf(out,
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s"
			"</text>\n",
			x, TMT + TPH + 16, label);
	}
	fprintf(out,
		"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">seconds "
		"from the start of the test</text>\n",
		TML + pw / 2, TMT + TPH + 36);
}

/* An axis' name, turned to run along it, at x. */
static void y_name(FILE *out, double x, const char *name)
{
	fprintf(out,
		"<text transform=\"translate(%.1f %d) rotate(-90)\" "
		"text-anchor=\"middle\">%s</text>\n",
		x, TMT + TPH / 2, name);
}

/* The rate as steps: each interval flat over its own span. */
static void rate_path(FILE *out, const struct result_test_rec *rec, int bytes,
		      double pw, const struct svg_axis *xa,
		      const struct svg_axis *ya)
{
	fputs("<path class=\"rate\" fill=\"none\" stroke=\"" RATE_COLOUR
	      "\" stroke-width=\"2\" d=\"",
	      out);
	for (unsigned k = 0; k < rec->nintervals; k++) {
		const struct result_interval *iv = &rec->intervals[k];
		double x0 = TML + pw * (iv->end - iv->secs) / xa->top;
		double x1 = TML + pw * iv->end / xa->top;
		double y = TMT + TPH - TPH * rate_of(iv, bytes) / ya->top;

		fprintf(out, "%s%.1f %.1fH%.1f", k ? "L" : "M", x0, y, x1);
	}
	fputs("\"/>\n", out);
}

/* The p99 of each interval that has one, a dot at its middle. */
static void p99_dots(FILE *out, const struct result_test_rec *rec, double scale,
		     const char *unit, double pw, const struct svg_axis *xa,
		     const struct svg_axis *y2)
{
	for (unsigned k = 0; k < rec->nintervals; k++) {
		const struct result_interval *iv = &rec->intervals[k];
		double v = (double)iv->p99_ns / scale;

		if (!iv->p99_ns)
			continue;
		fprintf(out,
			"<circle class=\"p99\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
			"fill=\"" P99_COLOUR "\"><title>%.3f s: p99 %.3f %s"
			"</title></circle>\n",
			TML + pw * (iv->end - iv->secs / 2) / xa->top,
			TMT + TPH - TPH * (v > y2->top ? y2->top : v) / y2->top,
			iv->end - iv->secs / 2, v, unit);
	}
}

/*
 * The intervals as drawn: at most DRAW_MAX, consecutive ones merged in
 * equal groups beyond (their bytes, operations and seconds summed, the
 * highest p99 kept), so a long test logged at clyde's 10 ms stays a
 * chart of a few hundred steps. In rec's place: a copy that draws the
 * same (intervals malloc'd, or rec's own when none are merged).
 */
#define DRAW_MAX 500u

static struct result_test_rec drawn_of(const struct result_test_rec *rec)
{
	struct result_test_rec d = *rec;
	unsigned g = (rec->nintervals + DRAW_MAX - 1) / DRAW_MAX, n = 0;
	struct result_interval *v;

	if (g <= 1 || !(v = calloc(DRAW_MAX, sizeof(*v))))
		return d;
	for (unsigned k = 0; k < rec->nintervals; k++) {
		const struct result_interval *iv = &rec->intervals[k];
		struct result_interval *m = &v[k / g];

		m->bytes += iv->bytes;
		m->ops += iv->ops;
		m->secs += iv->secs;
		m->end = iv->end;
		m->p99_ns = iv->p99_ns > m->p99_ns ? iv->p99_ns : m->p99_ns;
		n = k / g + 1;
	}
	d.intervals = v;
	d.nintervals = n;
	return d;
}

/* The cliff's two levels over their spans and the drop between them
 * (bytes only: its levels are bytes a second), each with its figures
 * as a title. */
static void cliff_marks(FILE *out, const struct cliff *c, double xmax,
			double pw, const struct svg_axis *xa,
			const struct svg_axis *ya)
{
	const double mib = 1048576.0;
	double xd = TML + pw * c->drop_s / xa->top,
	       yb = TMT + TPH - TPH * (c->burst / mib) / ya->top,
	       ys = TMT + TPH - TPH * (c->sustained / mib) / ya->top;

	fprintf(out,
		"<g class=\"cliff\"><title>the cache's cliff at %.2f s: burst "
		"%.1f MiB/s, sustained %.1f MiB/s, %.1f MiB absorbed</title>\n",
		c->drop_s, c->burst / mib, c->sustained / mib,
		c->absorbed / mib);
	fprintf(out,
		"<line class=\"cliff-level\" x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" "
		"y2=\"%.1f\" stroke=\"" CLIFF_COLOUR "\" stroke-width=\"1.5\" "
		"stroke-dasharray=\"6 3\"/>\n",
		TML, yb, xd, yb);
	fprintf(out,
		"<line class=\"cliff-level\" x1=\"%.1f\" y1=\"%.1f\" "
		"x2=\"%.1f\" y2=\"%.1f\" stroke=\"" CLIFF_COLOUR "\" "
		"stroke-width=\"1.5\" stroke-dasharray=\"6 3\"/>\n",
		xd, ys, TML + pw * xmax / xa->top, ys);
	fprintf(out,
		"<line class=\"cliff-drop\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
		"y2=\"%d\" stroke=\"" CLIFF_COLOUR "\" stroke-width=\"1\"/>\n"
		"<text x=\"%.1f\" y=\"%d\" fill=\"" CLIFF_COLOUR "\">%.0f MiB "
		"absorbed</text>\n</g>\n",
		xd, TMT, xd, TMT + TPH, xd + 4, TMT + 12, c->absorbed / mib);
}

/* One chart: run row's test t. */
static void chart(FILE *out, const struct report_row *row, size_t ri,
		  enum result_test t)
{
	const struct result_test_rec drawn = drawn_of(&row->res.t[t]),
				     *rec = &drawn;
	const int bytes = by_bytes(rec);
	const double pw = TW - TML - TMR;
	double rmax = 0, xmax = 0, scale;
	uint64_t pmax = 0;
	struct svg_axis xa, ya, y2;
	char name[LABEL_CHARS * 8], file[LABEL_CHARS * 8], label[32];
	const char *unit;

	for (unsigned k = 0; k < rec->nintervals; k++) {
		const struct result_interval *iv = &rec->intervals[k];
		double r = rate_of(iv, bytes);

		rmax = r > rmax ? r : rmax;
		xmax = iv->end > xmax ? iv->end : xmax;
		pmax = iv->p99_ns > pmax ? iv->p99_ns : pmax;
	}
	scale = pmax >= 1000000000u ? 1e9 : pmax >= 1000000u ? 1e6 : 1e3;
	unit = scale == 1e9 ? "s" : scale == 1e6 ? "ms" : "us";
	svg_axis_of(xmax, &xa);
	svg_axis_of(rmax, &ya);
	svg_axis_of((double)pmax / scale, &y2);
	fprintf(out,
		"<svg class=\"time\" data-fig=\"%s\" data-row=\"%zu\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n"
		"<text x=\"8\" y=\"18\" font-weight=\"bold\">",
		result_test_name(t), ri, TW, TMT + TPH + TMB, TW,
		TMT + TPH + TMB);
	plot_clean_text(name, sizeof(name), row->res.name, LABEL_CHARS);
	/* The input's base name, as the page's other headings name it: the
	 * page holds no path. */
	plot_clean_text(file, sizeof(file),
			strrchr(row->file, '/') ? strrchr(row->file, '/') + 1
						: row->file,
			LABEL_CHARS);
	svg_esc(out, name);
	fprintf(out, ": %s (", figure_of(t)->title);
	svg_esc(out, file);
	fprintf(out, ", line %d)</text>\n", row->line);
	svg_grid(out, TML, TMT, pw, TPH, &ya, 0);
	x_axis(out, &xa, pw);
	y_name(out, 16, bytes ? "MiB/s" : "operations/s");
	rate_path(out, rec, bytes, pw, &xa, &ya);
	if (pmax) {
		svg_grid(out, TML, TMT, pw, TPH, &y2, 1);
		snprintf(label, sizeof(label), "p99 latency, %s", unit);
		y_name(out, TW - 12, label);
		p99_dots(out, rec, scale, unit, pw, &xa, &y2);
	}
	if (bytes && rec->cliff.found)
		cliff_marks(out, &rec->cliff, xmax, pw, &xa, &ya);
	fputs("</svg>\n", out);
	if (rec->intervals != row->res.t[t].intervals)
		free(rec->intervals);
}

/* A test with intervals. */
static int has_intervals(const struct run_result *r, enum result_test t)
{
	return r->t[t].nintervals > 0;
}

/* The same, with a cliff found. */
static int has_cliff(const struct run_result *r, enum result_test t)
{
	return r->t[t].nintervals > 0 && r->t[t].cliff.found;
}

int report_svg_over_time(FILE *out, const struct report_set *set)
{
	size_t cliffs = svg_count(set, has_cliff);

	if (!svg_count(set, has_intervals))
		return 0;
	fprintf(
	    out,
	    "<section class=\"over-time\">\n<h2>Throughput over time</h2>\n"
	    "<svg class=\"legend\" width=\"%d\" height=\"22\" "
	    "font-family=\"sans-serif\" font-size=\"12\">\n"
	    "<line x1=\"4\" y1=\"11\" x2=\"24\" y2=\"11\" stroke=\"" RATE_COLOUR
	    "\" stroke-width=\"2\"/><text x=\"30\" y=\"15\">rate per "
	    "interval</text>\n<circle cx=\"170\" cy=\"11\" r=\"3\" "
	    "fill=\"" P99_COLOUR
	    "\"/><text x=\"180\" y=\"15\">its p99 latency (right "
	    "axis)</text>\n",
	    cliffs ? 640 : 360);
	if (cliffs)
		fputs("<line x1=\"364\" y1=\"11\" x2=\"384\" y2=\"11\" "
		      "stroke=\"" CLIFF_COLOUR "\" stroke-width=\"1.5\" "
		      "stroke-dasharray=\"6 3\"/><text x=\"390\" y=\"15\">a "
		      "write cache's burst and sustained rates</text>\n",
		      out);
	fputs("</svg>\n", out);
	return svg_panels(out, set, TIME_CHARTS_MAX, has_intervals, chart,
			  "with intervals");
}
