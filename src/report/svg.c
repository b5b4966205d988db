/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_svg_bars: the result bars of the html page as inline SVG. The
 * series are plot's (plot_make_series, plot_label_series: one name in
 * one input, its repeats drawn as the mean with a 95% CI whisker), one
 * colour each, named once in a legend. Each figure's rate is a small
 * panel of its own on a linear axis from 0 with a round top, so a
 * difference of a quarter is a quarter of the bar's height, not the
 * sliver a log axis makes of it; %CP is one panel of every figure, 0 to
 * 100; each figure's worst latency a panel in the unit that suits it.
 * Under the bars, each series after the first says its change against
 * the first in percent and compare's verdict (report_judge), so the
 * charts and the comparison agree.
 *
 * A "+++++" cell (under 0.5 s: not timed) is never drawn as a bar, even
 * when a JSON run knows its exact rate: it is a small hatched outline
 * with a note under the panels. A series with nothing in a panel takes
 * no place in it.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "svg.h"
#include "units.h"

enum svg_metric { SM_RATE, SM_CPU, SM_LAT };

/* What one series has of one figure. */
struct sbar {
	struct stats st; /* st.n 0: no timed figure */
	unsigned nfast;	 /* "+++++" cells among its rows */
};

struct spanel {
	const char *id; /* data-panel */
	enum svg_metric m;
	enum result_test test[RT_COUNT];
	int ntests;
	struct sbar *bar; /* [ntests * nseries] */
	int *slot;	  /* per series: its place, from 1; 0: none here */
	int nslots;
	double scale; /* figures are divided by it */
	const char *unit;
	char title[96];
	int timed; /* any figure but "+++++": the axis has labels */
	struct svg_axis ax;
};

struct sctx {
	FILE *out;
	const struct report_set *set;
	struct plot p;
	double alpha;
	double *x; /* room for the most rows of a series */
	/* The heading of the panels being drawn, written before the
	 * first of them (opened): a metric without any gets none. */
	const char *head;
	int opened;
};

/* Geometry, in pixels. */
#define ML     56 /* left of the plot area: the axis labels */
#define MR     12
#define MT     44  /* above: the title and room for figures over bars */
#define PH     160 /* the plot area's height */
#define LINE   15  /* a line of text under the plot area */
#define FAST_H 14

/* The samples of series s for figure t into x; *nfast its "+++++". */
static unsigned samples(const struct sctx *c, const struct series *s,
			enum result_test t, enum svg_metric m, double scale,
			unsigned *nfast)
{
	unsigned n = 0;

	*nfast = 0;
	for (size_t k = 0; k < s->n; k++) {
		const struct csv_cell *cell = &c->set->rows[s->idx[k]].res.c[t];
		double v = NAN;

		if (m != SM_LAT && cell->state == CSV_FAST)
			(*nfast)++;
		if (m == SM_RATE && cell->state == CSV_VALUE)
			v = report_rate(cell);
		else if (m == SM_CPU && cell->state == CSV_VALUE &&
			 cell->cpu >= 0)
			v = cell->cpu;
		else if (m == SM_LAT && cell->lat_ns)
			v = (double)cell->lat_ns;
		if (!isnan(v))
			c->x[n++] = v / scale;
	}
	return n;
}

static struct sbar *bar_of(const struct sctx *c, const struct spanel *sp, int g,
			   size_t si)
{
	return &sp->bar[(size_t)g * c->p.nseries + si];
}

/* A latency panel's unit: the one its worst figure reads best in. */
static void lat_unit(const struct sctx *c, enum result_test t,
		     struct spanel *sp)
{
	uint64_t worst = 0;

	for (size_t i = 0; i < c->set->n; i++)
		if (c->set->rows[i].res.c[t].lat_ns > worst)
			worst = c->set->rows[i].res.c[t].lat_ns;
	sp->scale = worst >= 1000000000u ? 1e9 : worst >= 1000000u ? 1e6 : 1e3;
	sp->unit = sp->scale == 1e9 ? "s" : sp->scale == 1e6 ? "ms" : "us";
}

/*
 * The panel's bars for tests[0..n): the tests with anything, each
 * series' figures, the places of the series with anything and the
 * axis. 0 when the panel is empty, 1, or -1 without memory.
 */
static int fill_panel(struct sctx *c, struct spanel *sp,
		      const enum result_test *tests, int n)
{
	const size_t ns = c->p.nseries;
	double max = 0;

	sp->bar = calloc((size_t)n * ns, sizeof(*sp->bar));
	sp->slot = calloc(ns, sizeof(*sp->slot));
	if (!sp->bar || !sp->slot)
		return -1;
	for (int k = 0; k < n; k++) {
		int any = 0;

		for (size_t si = 0; si < ns; si++) {
			struct sbar *b = bar_of(c, sp, sp->ntests, si);
			unsigned got = samples(c, &c->p.series[si], tests[k],
					       sp->m, sp->scale, &b->nfast);

			if (got) {
				stats_compute(c->x, got, &b->st);
				if (b->st.ci_high > max)
					max = b->st.ci_high;
				if (b->st.mean > max)
					max = b->st.mean;
			}
			if (got || b->nfast) {
				any = 1;
				sp->slot[si] = 1;
			}
		}
		if (any)
			sp->test[sp->ntests++] = tests[k];
		else
			memset(bar_of(c, sp, sp->ntests, 0), 0,
			       ns * sizeof(*sp->bar));
	}
	for (size_t si = 0; si < ns; si++)
		if (sp->slot[si])
			sp->slot[si] = ++sp->nslots;
	/* No timed figure ("+++++" alone): no scale to show. */
	sp->timed = max > 0;
	if (sp->m == SM_CPU)
		sp->ax = (struct svg_axis){100, 25, 4};
	else
		svg_axis_of(max, &sp->ax);
	return sp->ntests > 0;
}

/* A figure as the bars show it: the table's k/m/g for bytes, else
 * thousands separated; full: with a decimal more, for hover text. */
static void fmt_fig(char *buf, size_t len, const struct spanel *sp,
		    enum result_test t, double v, int full)
{
	if (sp->m == SM_RATE && result_test_kind(t) == RK_IO && !full) {
		char cell[32];
		const char *p = cell;

		units_fmt_rate(cell, sizeof(cell),
			       (uint64_t)llround(v * sp->scale));
		while (*p == ' ')
			p++;
		snprintf(buf, len, "%s", p);
	} else if (sp->m == SM_CPU) {
		snprintf(buf, len, "%.*f", full, v);
	} else if (sp->m == SM_LAT) {
		snprintf(buf, len, "%.*f", (v < 10 ? 2 : v < 100) + full, v);
	} else {
		svg_thousands(buf, len, v, v < 1000 || full);
	}
}

/* The hover text of a bar: series, figure, mean +- CI, n. */
static void bar_title(const struct sctx *c, const struct spanel *sp,
		      enum result_test t, size_t si, const struct sbar *b)
{
	FILE *out = c->out;
	char v[48], h[48];

	fputs("<title>", out);
	svg_esc(out, c->p.series[si].label);
	fprintf(out, ", %s: ", figure_of(t)->title);
	if (b->st.n) {
		fmt_fig(v, sizeof(v), sp, t, b->st.mean, 1);
		fmt_fig(h, sizeof(h), sp, t, b->st.ci_high - b->st.mean, 1);
		fprintf(out, "%s", v);
		if (b->st.n > 1)
			fprintf(out, " &#177; %s", h);
		fprintf(out, " %s%s, n=%u", sp->unit,
			b->st.n > 1 ? " (mean, 95% CI)" : "", b->st.n);
	}
	if (b->nfast)
		fprintf(out, "%s%u of %u +++++ (under 0.5 s, not timed)",
			b->st.n ? "; " : "", b->nfast, b->nfast + b->st.n);
	fputs("</title>", out);
}

static double y_of(const struct spanel *sp, double v)
{
	if (v > sp->ax.top)
		v = sp->ax.top;
	return MT + PH - PH * v / sp->ax.top;
}

/* A small upward triangle over x at y: a figure cut at the top (the
 * mean, or only its CI's top when ci). */
static void cap_mark(FILE *out, double x, double y, double v, int ci)
{
	fprintf(out,
		"<polygon class=\"cap\" points=\"%.1f,%.1f %.1f,%.1f "
		"%.1f,%.1f\" fill=\"#000000\"><title>%s%.0f: drawn up to 100"
		"</title></polygon>\n",
		x - 5, y - 2, x + 5, y - 2, x, y - 10,
		ci ? "95% CI up to " : "", v);
}

/* One bar (or "+++++" marker) of series si in group g at x, w wide. */
static void draw_bar(const struct sctx *c, const struct spanel *sp, int g,
		     size_t si, double x, double w)
{
	FILE *out = c->out;
	const struct sbar *b = bar_of(c, sp, g, si);
	const enum result_test t = sp->test[g];
	const char *col = svg_palette[si % SVG_COLOURS];
	const double base = MT + PH, cx = x + w / 2;
	char fig[48];

	if (!b->st.n) {
		if (!b->nfast)
			return;
		fprintf(out,
			"<g class=\"fast\" data-fig=\"%s\" data-series=\"%zu\" "
			"data-panel=\"%s\">",
			result_test_name(t), si, sp->id);
		bar_title(c, sp, t, si, b);
		fputc('\n', out);
		svg_hatch(out, x, base - FAST_H, w, FAST_H, col);
		if (svg_text_width("+++++") <= w * 1.25 - 2)
			fprintf(out,
				"<text x=\"%.1f\" y=\"%.1f\" "
				"text-anchor=\"middle\">+++++</text>\n",
				cx, base - FAST_H - 4);
		fputs("</g>\n", out);
		return;
	}
	double top = y_of(sp, b->st.mean), hi = b->st.ci_high;
	fprintf(out,
		"<rect class=\"bar\" data-fig=\"%s\" data-series=\"%zu\" "
		"data-panel=\"%s\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
		"height=\"%.2f\" fill=\"%s\">",
		result_test_name(t), si, sp->id, x, top, w, base - top, col);
	bar_title(c, sp, t, si, b);
	fputs("</rect>\n", out);
	if (b->st.n > 1 && b->st.ci_high > b->st.ci_low) {
		/* A CI reaching below 0 stops at the axis. */
		double y0 = y_of(sp, fmax(0, b->st.ci_low)), y1 = y_of(sp, hi);

		fprintf(out,
			"<path class=\"ci\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1f"
			"M%.1f %.1fH%.1f\" stroke=\"#000000\" "
			"fill=\"none\"/>\n",
			cx - w / 4, y0, cx + w / 4, cx, y0, y1, cx - w / 4, y1,
			cx + w / 4);
	}
	if (b->st.mean > sp->ax.top || hi > sp->ax.top) {
		cap_mark(out, cx, MT, b->st.mean > sp->ax.top ? b->st.mean : hi,
			 !(b->st.mean > sp->ax.top));
		return;
	}
	fmt_fig(fig, sizeof(fig), sp, t, b->st.mean, 0);
	/* Over the bar only when it fits its slot (w is 0.8 of it). */
	if (svg_text_width(fig) <= w * 1.25 - 2)
		fprintf(out,
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s"
			"</text>\n",
			cx, y_of(sp, hi > b->st.mean ? hi : b->st.mean) - 4,
			fig);
}

/*
 * The change of series si against the first in group g and the verdict,
 * as one line (or two when narrow) at y under the group centred at cx;
 * the series' colour as a swatch before it. Returns the lines written.
 */
static int draw_verdict(const struct sctx *c, const struct spanel *sp, int g,
			size_t si, double cx, double y, int two)
{
	static const enum cmp_what what[] = {CMP_RATE, CMP_CPU, CMP_LATENCY};
	const struct sbar *a = bar_of(c, sp, g, 0), *b = bar_of(c, sp, g, si);
	struct verdict v;
	char ch[32], line[96];
	const char *word;

	if (!a->st.n || !b->st.n)
		return 0;
	report_judge(&a->st, &b->st, what[sp->m], c->alpha, &v);
	if (a->st.mean != 0)
		snprintf(ch, sizeof(ch), "%+.1f%%",
			 (b->st.mean - a->st.mean) / a->st.mean * 100.0);
	else
		snprintf(ch, sizeof(ch), "%s", "change -");
	word = strcmp(v.word, "-") ? v.word : "untested";
	snprintf(line, sizeof(line), "%s %s", ch, two ? "" : word);
	double w = svg_text_width(line) + 14;
	fprintf(c->out,
		"<g class=\"verdict\" data-fig=\"%s\" data-series=\"%zu\" "
		"data-panel=\"%s\"><rect x=\"%.1f\" y=\"%.1f\" width=\"10\" "
		"height=\"10\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\">%s"
		"</text>",
		result_test_name(sp->test[g]), si, sp->id, cx - w / 2, y - 10,
		svg_palette[si % SVG_COLOURS], cx - w / 2 + 14, y, line);
	if (two)
		fprintf(c->out,
			"<text x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\">%s</text>",
			cx, y + LINE, word);
	fputs("</g>\n", c->out);
	return two ? 2 : 1;
}

/* The x label of a group of the %CP panel: the registry's tick. */
static void group_label(FILE *out, enum result_test t, double cx, double y)
{
	const char *tick = figure_of(t)->tick, *nl = strchr(tick, '\n');

	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", cx,
		y);
	if (nl) {
		fprintf(out,
			"<tspan x=\"%.1f\">%.*s</tspan><tspan x=\"%.1f\" "
			"dy=\"%d\">%s</tspan>",
			cx, (int)(nl - tick), tick, cx, LINE, nl + 1);
	} else {
		fputs(tick, out);
	}
	fputs("</text>\n", out);
}

/* One panel: its own <svg>, the grid, each group's bars and verdicts. */
static void draw_panel(struct sctx *c, const struct spanel *sp)
{
	FILE *out = c->out;
	const size_t ns = c->p.nseries;
	const int grouped = sp->m == SM_CPU;
	const int narrow = sp->nslots > 4;
	const double sw = !narrow
			      ? (grouped ? 24 : 52)
			      : fmax(8, (grouped ? 96.0 : 208.0) / sp->nslots);
	int verdicts = sp->slot[0] && sp->nslots > 1;
	double gw = sp->nslots * sw + (grouped ? 16 : 24), w, h;
	int two = 0, lines = 0;

	if (verdicts)
		gw = fmax(gw, grouped ? 90 : 150);
	two = verdicts && gw < 140;
	/* Room for every series' verdict: the panels of a row line up. */
	lines = (int)(ns - 1) * (two ? 2 : 1);
	w = fmax(ML + gw * sp->ntests + MR, svg_text_width(sp->title) + 16);
	h = MT + PH + (grouped ? 2 * LINE + 6 : 6) + lines * LINE + 8;
	fprintf(out,
		"<svg class=\"panel\" data-panel=\"%s\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\" role=\"img\" "
		"style=\"vertical-align:top\">\n"
		"<text x=\"%.1f\" y=\"16\" font-weight=\"bold\">",
		sp->id, w, h, w, h, 8.0);
	svg_esc(out, sp->title);
	fputs("</text>\n", out);
	if (sp->timed || sp->m == SM_CPU)
		svg_grid(out, ML, MT, gw * sp->ntests, PH, &sp->ax, 0);
	else
		fprintf(out,
			"<line x1=\"%d\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			"stroke=\"#000000\"/>\n",
			ML, MT + PH, ML + gw * sp->ntests, MT + PH);
	for (int g = 0; g < sp->ntests; g++) {
		double gx = ML + g * gw, cx = gx + gw / 2;
		double x0 = cx - sp->nslots * sw / 2, y;

		for (size_t si = 0; si < ns; si++)
			if (sp->slot[si])
				draw_bar(c, sp, g, si,
					 x0 + (sp->slot[si] - 1) * sw +
					     sw * 0.1,
					 sw * 0.8);
		y = MT + PH + LINE;
		if (grouped) {
			group_label(out, sp->test[g], cx, y);
			y += 2 * LINE;
		} else {
			y += 2;
		}
		for (size_t si = 1; verdicts && si < ns; si++)
			if (sp->slot[si])
				y += LINE *
				     draw_verdict(c, sp, g, si, cx, y, two);
	}
	fputs("</svg>\n", out);
}

/* Whether a panel drew a "+++++" marker. */
static int any_fast(const struct sctx *c, const struct spanel *sp)
{
	for (size_t i = 0; i < (size_t)sp->ntests * c->p.nseries; i++)
		if (!sp->bar[i].st.n && sp->bar[i].nfast)
			return 1;
	return 0;
}

/*
 * One panel of metric m over tests[0..n), titled by the figure when
 * single; its unit set first. 1 when it drew a "+++++" marker, 0, or
 * -1 without memory.
 */
static int panel(struct sctx *c, enum svg_metric m, const enum result_test *t,
		 int n)
{
	static const char *const id[] = {"rate", "cpu", "lat"};
	struct spanel sp = {.id = id[m], .m = m, .scale = 1};
	int r;

	if (m == SM_RATE) {
		const enum result_kind k = result_test_kind(t[0]);

		sp.scale = k == RK_IO ? 1024 : 1;
		sp.unit = k == RK_IO	? "MiB/s"
			  : k == RK_OPS ? "ops/s"
					: result_rate_unit(k);
	} else if (m == SM_LAT) {
		lat_unit(c, t[0], &sp);
	} else {
		sp.unit = "%CP";
	}
	if (m == SM_CPU)
		snprintf(sp.title, sizeof(sp.title),
			 "%%CP (CPU time / elapsed time), 0-100");
	else
		snprintf(sp.title, sizeof(sp.title), "%s, %s",
			 figure_of(t[0])->title, sp.unit);
	r = fill_panel(c, &sp, t, n);
	if (r > 0) {
		if (!c->opened)
			fprintf(c->out, "<h3>%s</h3>\n<div class=\"panels\">\n",
				c->head);
		c->opened = 1;
		draw_panel(c, &sp);
		r = any_fast(c, &sp);
	}
	free(sp.bar);
	free(sp.slot);
	return r;
}

/* The series once: a swatch and its label each. */
static void legend(const struct sctx *c)
{
	double w = 0;

	for (size_t i = 0; i < c->p.nseries; i++)
		w = fmax(w, svg_text_width(c->p.series[i].label));
	fprintf(c->out,
		"<svg class=\"legend\" width=\"%.0f\" height=\"%zu\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n",
		w + 40, c->p.nseries * 18 + 4);
	for (size_t i = 0; i < c->p.nseries; i++) {
		fprintf(c->out,
			"<rect x=\"4\" y=\"%zu\" width=\"14\" height=\"14\" "
			"fill=\"%s\"/><text x=\"24\" y=\"%zu\">",
			i * 18 + 3, svg_palette[i % SVG_COLOURS], i * 18 + 15);
		svg_esc(c->out, c->p.series[i].label);
		fputs("</text>\n", c->out);
	}
	fputs("</svg>\n", c->out);
}

/* A heading and the panels of metric m (one per figure, or one of all
 * for %CP), the "+++++" note when one was drawn; nothing when no panel
 * has anything. 0 or -1. */
static int metric_panels(struct sctx *c, enum svg_metric m, const char *head)
{
	enum result_test all[RT_COUNT];
	int fast = 0, r;

	c->head = head;
	c->opened = 0;
	for (enum result_test t = 0; t < RT_COUNT; t++)
		all[t] = t;
	if (m == SM_CPU) {
		fast = panel(c, m, all, RT_COUNT);
	} else {
		for (enum result_test t = 0; t < RT_COUNT && fast >= 0; t++)
			if ((r = panel(c, m, &all[t], 1)) != 0)
				fast = r < 0 ? r : 1;
	}
	if (fast < 0)
		return -1;
	if (c->opened)
		fputs("</div>\n", c->out);
	if (fast)
		fputs("<p class=\"note\">+++++: under 0.5 s, not timed</p>\n",
		      c->out);
	return 0;
}

int report_svg_bars(FILE *out, const struct report_set *set, double alpha)
{
	struct sctx c = {.out = out, .set = set, .alpha = alpha};
	struct report_group **groups = NULL;
	size_t *ngroups = NULL, ninputs = 0, maxn = 1;
	int r = -1;

	if (!set->n)
		return 0;
	c.p.set = set;
	if (plot_make_series(&c.p, &groups, &ngroups, &ninputs) < 0)
		goto out;
	plot_label_series(&c.p);
	for (size_t i = 0; i < c.p.nseries; i++)
		if (c.p.series[i].n > maxn)
			maxn = c.p.series[i].n;
	c.x = malloc(maxn * sizeof(*c.x));
	if (!c.x)
		goto out;
	fputs("<section class=\"charts\">\n<h2>Charts</h2>\n", out);
	legend(&c);
	if (metric_panels(&c, SM_RATE, "Throughput") < 0 ||
	    metric_panels(&c, SM_CPU, "CPU use (%CP)") < 0 ||
	    metric_panels(&c, SM_LAT, "Worst latency") < 0)
		goto out;
	fputs("</section>\n", out);
	r = svg_done(out);
out:
	for (size_t k = 0; k < ninputs; k++)
		if (groups && ngroups && groups[k])
			report_groups_free(groups[k], ngroups[k]);
	free(groups);
	free(ngroups);
	free(c.p.series);
	free(c.x);
	return r;
}

size_t svg_count(const struct report_set *set, svg_has_fn *has)
{
	size_t all = 0;

	for (size_t i = 0; i < set->n; i++)
		for (enum result_test t = 0; t < RT_COUNT; t++)
			all += !!has(&set->rows[i].res, t);
	return all;
}

int svg_panels(FILE *out, const struct report_set *set, size_t max,
	       svg_has_fn *has, svg_chart_fn *chart, const char *what)
{
	size_t all = svg_count(set, has), n = 0;

	fputs("<div class=\"panels\">\n", out);
	for (size_t i = 0; i < set->n && n < max; i++)
		for (enum result_test t = 0; t < RT_COUNT && n < max; t++) {
			if (!has(&set->rows[i].res, t))
				continue;
			chart(out, &set->rows[i], i, t);
			n++;
		}
	fputs("</div>\n", out);
	if (all > n)
		fprintf(out,
			"<p class=\"note\">The first %zu of %zu tests "
			"%s.</p>\n",
			n, all, what);
	fputs("</section>\n", out);
	return svg_done(out);
}
