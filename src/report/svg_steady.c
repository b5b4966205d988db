/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_svg_steady: the html page's steady-state convergence charts,
 * as inline SVG, as SNIA PTS draws them: for every JSON run and test
 * that clyde ran in rounds (--steady), the quantity its rule tracks
 * (operations/s for rate and iops, MiB/s for bw, the p99 latency in us,
 * ms or s) of each round against the round's number, the points joined
 * by a line; the measurement window (the last ROUNDS rounds) shaded; its
 * average, the rule's range band about it (the average +- RANGE/2
 * percent, dashed) and its least-squares line drawn over it, so a reader
 * sees why the rule held or did not. Each chart's title names the run,
 * the test and clyde's words ("steady r6 (6 s)", "NOT steady after
 * 8 s"); the line under it the window's range and excursion against the
 * rule's limits.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "plot.h"
#include "steady.h"
#include "svg.h"

/* Charts drawn at most: beyond, the first ones (a note says so). */
#define STEADY_CHARTS_MAX 48

#define SW  560 /* a chart's width */
#define SML 72	/* left of the plot area: the value axis */
#define SMR 16	/* right of it */
#define SMT 48	/* above: the title and the window's figures */
#define SPH 180 /* the plot area's height */
#define SMB 44	/* below: the rounds axis and its name */

#define ROUND_COLOUR  "#0072B2"
#define WINDOW_COLOUR "#56B4E9"
#define AVG_COLOUR    "#009E73"
#define SLOPE_COLOUR  "#D55E00"

/* How a run's values are shown: divided by scale, in unit, with dec
 * decimals. */
struct shown {
	double scale;
	const char *unit, *axis;
	int dec;
};

static struct shown shown_of(const struct steady_run *s)
{
	struct shown h = {1, "operations/s", "operations/s", 0};
	double max = 0;

	if (s->rule.on == STEADY_BW) {
		h.scale = 1048576.0;
		h.unit = h.axis = "MiB/s";
		h.dec = 1;
	} else if (s->rule.on == STEADY_P99) {
		for (unsigned k = 0; k < s->nrounds; k++)
			max =
			    s->rounds[k].value > max ? s->rounds[k].value : max;
		h.scale = max >= 1e9 ? 1e9 : max >= 1e6 ? 1e6 : 1e3;
		h.unit = h.scale == 1e9 ? "s" : h.scale == 1e6 ? "ms" : "us";
		h.axis = h.scale == 1e9	  ? "p99 latency, s"
			 : h.scale == 1e6 ? "p99 latency, ms"
					  : "p99 latency, us";
		h.dec = 3;
	}
	return h;
}

/* Whether run s has its window: as many rounds as the rule's. */
static int has_window(const struct steady_run *s)
{
	return s->rule.rounds >= 2 && s->nrounds >= s->rule.rounds &&
	       s->first + s->rule.rounds <= s->nrounds;
}

/* The plot's x of round k (1-based; halves are the rounds' edges). */
static double x_of(double k, unsigned n)
{
	return SML + (SW - SML - SMR) * (k - 0.5) / n;
}

/* The plot's y of v (shown units), kept within the plot area. */
static double y_of(double v, const struct svg_axis *a)
{
	v = v < 0 ? 0 : v > a->top ? a->top : v;
	return SMT + SPH - SPH * v / a->top;
}

/* The rounds axis along the bottom: round 1 and every step-th round,
 * step 1, 2 or 5 times a power of ten, ten labels at most. */
static void x_axis(FILE *out, unsigned n)
{
	unsigned step = 1;

	for (unsigned mag = 1; n / step > 10; mag *= 10)
		step = n / mag <= 20   ? 2 * mag
		       : n / mag <= 50 ? 5 * mag
				       : 10 * mag;
	for (unsigned k = 1; k <= n; k++) {
		if (k != 1 && k % step)
			continue;
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			"stroke=\"#000000\"/>\n<text x=\"%.1f\" y=\"%d\" "
			"text-anchor=\"middle\">%u</text>\n",
			x_of(k, n), SMT + SPH, x_of(k, n), SMT + SPH + 4,
			x_of(k, n), SMT + SPH + 16, k);
	}
	fprintf(out,
		"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">round"
		"</text>\n",
		SML + (SW - SML - SMR) / 2.0, SMT + SPH + 36);
}

/* v of h's unit, as a title shows it. */
static void value_text(char *buf, size_t len, double v, const struct shown *h)
{
	size_t o;

	svg_thousands(buf, len, v / h->scale, h->dec);
	o = strlen(buf);
	snprintf(buf + o, len - o, " %s", h->unit);
}

/* The line under the title: the window's range and excursion as
 * percentages of its average, each against the rule's limit. */
static void window_line(FILE *out, const struct steady_run *s)
{
	const struct steady_window *w = &s->window;

	fputs("<text x=\"8\" y=\"36\">", out);
	if (!has_window(s))
		fprintf(out, "%u rounds, fewer than the window's %u",
			s->nrounds, s->rule.rounds);
	else if (!(w->avg > 0))
		fprintf(out, "rounds %u-%u: an average of 0", s->first + 1,
			s->first + s->rule.rounds);
	else
		fprintf(out,
			"rounds %u-%u: range %.1f%% (%s %g%%), excursion "
			"%.1f%% (%s %g%%) of %s",
			s->first + 1, s->first + s->rule.rounds,
			100 * w->range / w->avg,
			w->range_ok ? "\xe2\x89\xa4" : ">", s->rule.range_pct,
			100 * w->excursion / w->avg,
			w->slope_ok ? "\xe2\x89\xa4" : ">", s->rule.slope_pct,
			"the average");
	fputs("</text>\n", out);
}

/* The window: its band, its average, the rule's range about it and its
 * least-squares line, each with its figures as a title. */
static void window_marks(FILE *out, const struct steady_run *s,
			 const struct shown *h, const struct svg_axis *a)
{
	const struct steady_window *w = &s->window;
	const unsigned n = s->nrounds, r = s->rule.rounds;
	const double x0 = x_of(s->first + 0.5, n),
		     x1 = x_of(s->first + r + 0.5, n),
		     half = s->rule.range_pct / 200.0, mid = (r - 1) / 2.0;
	char t[64], u[64];

	value_text(t, sizeof(t), w->avg, h);
	fprintf(
	    out,
	    "<line class=\"steady-avg\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
	    "y2=\"%.1f\" stroke=\"" AVG_COLOUR "\" stroke-width=\"1.5\">"
	    "<title>the window's average: %s</title></line>\n",
	    x0, y_of(w->avg / h->scale, a), x1, y_of(w->avg / h->scale, a), t);
	for (int side = 1; side >= -1; side -= 2) {
		double v = w->avg * (1 + side * half);

		value_text(t, sizeof(t), v, h);
		fprintf(
		    out,
		    "<line class=\"steady-band\" x1=\"%.1f\" y1=\"%.1f\" "
		    "x2=\"%.1f\" y2=\"%.1f\" stroke=\"" AVG_COLOUR "\" "
		    "stroke-width=\"1\" stroke-dasharray=\"6 3\"><title>the "
		    "average %s %g%%: %s</title></line>\n",
		    x0, y_of(v / h->scale, a), x1, y_of(v / h->scale, a),
		    side > 0 ? "+" : "-", s->rule.range_pct / 2, t);
	}
	value_text(t, sizeof(t), w->avg - w->slope * mid, h);
	value_text(u, sizeof(u), w->avg + w->slope * mid, h);
	fprintf(out,
		"<line class=\"steady-slope\" x1=\"%.1f\" y1=\"%.1f\" "
		"x2=\"%.1f\" y2=\"%.1f\" stroke=\"" SLOPE_COLOUR "\" "
		"stroke-width=\"2\"><title>the least-squares line: %s to %s"
		"</title></line>\n",
		x_of(s->first + 1, n),
		y_of((w->avg - w->slope * mid) / h->scale, a),
		x_of(s->first + r, n),
		y_of((w->avg + w->slope * mid) / h->scale, a), t, u);
}

/* One chart: run row's test t. */
static void chart(FILE *out, const struct report_row *row, size_t ri,
		  enum result_test t)
{
	const struct steady_run *s = row->res.t[t].steady;
	const struct shown h = shown_of(s);
	const int win = has_window(s);
	char name[LABEL_CHARS * 8], file[LABEL_CHARS * 8], words[64], v[64];
	double max = 0;
	struct svg_axis a;

	for (unsigned k = 0; k < s->nrounds; k++)
		max = s->rounds[k].value > max ? s->rounds[k].value : max;
	if (win) {
		const double mid = (s->rule.rounds - 1) / 2.0,
			     ends[] = {
				 s->window.avg *
				     (1 + s->rule.range_pct / 200.0),
				 s->window.avg + s->window.slope * mid,
				 s->window.avg - s->window.slope * mid,
			     };

		for (size_t k = 0; k < sizeof(ends) / sizeof(ends[0]); k++)
			max = ends[k] > max ? ends[k] : max;
	}
	svg_axis_of(max / h.scale, &a);
	fprintf(out,
		"<svg class=\"steady-chart\" data-fig=\"%s\" data-row=\"%zu\" "
		"data-rounds=\"%u\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
		"font-size=\"12\" role=\"img\">\n"
		"<text class=\"steady-title\" x=\"8\" y=\"18\" "
		"font-weight=\"bold\">",
		result_test_name(t), ri, s->nrounds, SW, SMT + SPH + SMB, SW,
		SMT + SPH + SMB);
	plot_clean_text(name, sizeof(name), row->res.name, LABEL_CHARS);
	/* The input's base name, as the over-time charts name it. */
	plot_clean_text(file, sizeof(file),
			strrchr(row->file, '/') ? strrchr(row->file, '/') + 1
						: row->file,
			LABEL_CHARS);
	steady_run_text(s, words, sizeof(words));
	svg_esc(out, name);
	fprintf(out, ": %s (", figure_of(t)->title);
	svg_esc(out, file);
	fprintf(out, ", line %d): %s</text>\n", row->line, words);
	window_line(out, s);
	if (win)
		fprintf(out,
			"<rect class=\"steady-window\" x=\"%.1f\" y=\"%d\" "
			"width=\"%.1f\" height=\"%d\" fill=\"" WINDOW_COLOUR
			"\" fill-opacity=\"0.25\"><title>the measurement "
			"window: rounds %u to %u</title></rect>\n",
			x_of(s->first + 0.5, s->nrounds), SMT,
			x_of(s->first + s->rule.rounds + 0.5, s->nrounds) -
			    x_of(s->first + 0.5, s->nrounds),
			SPH, s->first + 1, s->first + s->rule.rounds);
	svg_grid(out, SML, SMT, SW - SML - SMR, SPH, &a, 0);
	x_axis(out, s->nrounds);
	fprintf(out,
		"<text transform=\"translate(16 %d) rotate(-90)\" "
		"text-anchor=\"middle\">%s</text>\n",
		SMT + SPH / 2, h.axis);
	if (win)
		window_marks(out, s, &h, &a);
	fputs("<path class=\"steady-line\" fill=\"none\" stroke=\"" ROUND_COLOUR
	      "\" stroke-width=\"1.5\" d=\"",
	      out);
	for (unsigned k = 0; k < s->nrounds; k++)
		fprintf(out, "%s%.1f %.1f", k ? "L" : "M",
			x_of(k + 1, s->nrounds),
			y_of(s->rounds[k].value / h.scale, &a));
	fputs("\"/>\n", out);
	for (unsigned k = 0; k < s->nrounds; k++) {
		value_text(v, sizeof(v), s->rounds[k].value, &h);
		fprintf(
		    out,
		    "<circle class=\"steady-round\" cx=\"%.1f\" cy=\"%.1f\" "
		    "r=\"%d\" fill=\"" ROUND_COLOUR "\"><title>round %u: %s"
		    "</title></circle>\n",
		    x_of(k + 1, s->nrounds),
		    y_of(s->rounds[k].value / h.scale, &a),
		    s->nrounds > 60 ? 2 : 3, k + 1, v);
	}
	fputs("</svg>\n", out);
}

/* The legend, its entries one after another. */
static void legend(FILE *out)
{
	static const char *const text[] = {
	    "each round",
	    "the measurement window",
	    "its average",
	    "\xc2\xb1 half the rule's range",
	    "its least-squares line",
	};
	double x[sizeof(text) / sizeof(text[0]) + 1];

	x[0] = 4;
	for (size_t k = 0; k < sizeof(text) / sizeof(text[0]); k++)
		x[k + 1] = x[k] + 26 + svg_text_width(text[k]) + 20;
	fprintf(out,
		"<svg class=\"legend\" width=\"%.0f\" height=\"22\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n",
		x[sizeof(text) / sizeof(text[0])]);
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"11\" x2=\"%.1f\" y2=\"11\" "
		"stroke=\"" ROUND_COLOUR "\" stroke-width=\"1.5\"/><circle "
		"cx=\"%.1f\" cy=\"11\" r=\"3\" fill=\"" ROUND_COLOUR "\"/>\n",
		x[0], x[0] + 20, x[0] + 10);
	fprintf(out,
		"<rect x=\"%.1f\" y=\"3\" width=\"20\" height=\"16\" "
		"fill=\"" WINDOW_COLOUR "\" fill-opacity=\"0.25\"/>\n",
		x[1]);
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"11\" x2=\"%.1f\" y2=\"11\" "
		"stroke=\"" AVG_COLOUR "\" stroke-width=\"1.5\"/>\n",
		x[2], x[2] + 20);
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"11\" x2=\"%.1f\" y2=\"11\" "
		"stroke=\"" AVG_COLOUR "\" stroke-width=\"1\" "
		"stroke-dasharray=\"6 3\"/>\n",
		x[3], x[3] + 20);
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"11\" x2=\"%.1f\" y2=\"11\" "
		"stroke=\"" SLOPE_COLOUR "\" stroke-width=\"2\"/>\n",
		x[4], x[4] + 20);
	for (size_t k = 0; k < sizeof(text) / sizeof(text[0]); k++)
		fprintf(out, "<text x=\"%.1f\" y=\"15\">%s</text>\n", x[k] + 26,
			text[k]);
	fputs("</svg>\n", out);
}

/* A test run in rounds. */
static int in_rounds(const struct run_result *r, enum result_test t)
{
	return r->t[t].steady && r->t[t].steady->nrounds;
}

int report_svg_steady(FILE *out, const struct report_set *set)
{
	if (!svg_count(set, in_rounds))
		return 0;
	fputs("<section class=\"steady\">\n<h2>Steady state</h2>\n"
	      "<p class=\"note\">Each test clyde ran in rounds "
	      "(--steady) until the last rounds, the measurement window, "
	      "met SNIA PTS's steady-state rule: their range at most RANGE "
	      "percent of their average, the excursion of their "
	      "least-squares line at most SLOPE percent of it. Its figure "
	      "in the tables is the window's.</p>\n",
	      out);
	legend(out);
	return svg_panels(out, set, STEADY_CHARTS_MAX, in_rounds, chart,
			  "run in rounds");
}
