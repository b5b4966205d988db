/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot_draw: the gnuplot script of report_plot's bar charts, from the
 * figures plot_data.c made (plot.h). Every axis is linear from 0, so a
 * bar's height is its figure and a 20% difference looks like one:
 *   throughput  a small panel per figure (a test's rate), each in the
 *               unit that suits it (KiB/s, MiB/s, GiB/s; seeks/s,
 *               files/s, ops/s), in a grid: per-char and block rates,
 *               a hundred times apart, each fill their own panel
 *   cpu         one panel of every test's %CP, grouped, 0 to 100: %CP
 *               is one process' share, so a figure past 100 (several
 *               processes) stands at 100 with a filled triangle on top,
 *               and a CI reaching past it (the figure under 100, as one
 *               process's can be) ends there with an open one
 *   latency     a small panel per figure, in us, ms or s, with p99 dots
 *               where a JSON input carries percentiles
 * In each panel a series (one result, or the mean of its repeats with an
 * error bar over the 95% CI) has one bar, in its own colour, at the same
 * place in every panel of the chart. A test under 0.5 s ("+++++") has no
 * figure to draw: a hatched marker the height of the panel, labelled,
 * and an entry in the key, never a bar of some height. Figures stand
 * over the bars while there is room. The key of a picture names only
 * the series that have something in it, and the marks drawn; it is laid
 * out by plot_key.c (not by gnuplot's key, which would drop or clip
 * entries that do not fit its guess of their width), so its rows are
 * known and the picture is made tall enough for them. A chart's heading has
 * rows of its own above its panels' titles. The figures are data blocks at the
 * top, so a saved script draws the same pictures again; it holds no date or
 * version.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "plot.h"

/* The pixel sizes of a picture's parts. */
#define PX_WIDTH  PLOT_PX_WIDTH
#define PX_COLS	  4   /* small panels to a row */
#define PX_SMALL  250 /* a row of small panels */
#define PX_CPU	  430 /* the %CP panel */
#define PX_EMPTY  150 /* a chart with nothing to draw: its note */
#define PX_LEFT	  72  /* y tick labels and the y label */
#define PX_RIGHT  18
#define PX_BOTTOM 14 /* a small panel: no x tick labels */
#define PX_XTICS  58 /* the %CP panel's two-line test names */
#define PX_TOP	  30 /* a panel's title */
#define PX_FIGS	  30 /* %CP: upright figures over a bar at 100 */
#define PX_TITLE  34 /* the --title line above all panels */
#define PX_PAD	  8  /* above everything */
#define PX_HEAD	  36 /* a chart's own title on the page: its text */
#define PX_HEADY  16 /* ... centred this far under the band's top */

/* Test t's name as a panel title: its registry title, capitalised. */
static void fig_title(char *buf, size_t len, enum result_test t)
{
	snprintf(buf, len, "%s", figure_of(t)->title);
	if (buf[0] >= 'a' && buf[0] <= 'z')
		buf[0] = (char)(buf[0] - 'a' + 'A');
}

/* One bar's line: place, figure, CI ends, extra, series; # comment. */
static void bar_line(FILE *f, double x, const struct bar *b, size_t s,
		     const char *what)
{
	fprintf(f, "%.6g", x);
	plot_gp_num(f, b->fig);
	plot_gp_num(f, b->lo);
	plot_gp_num(f, b->hi);
	plot_gp_num(f, b->extra);
	fprintf(f, " %zu # %s\n", s + 1, what);
}

/* Chart pi's data: a block per small panel, or %CP's one block. */
static void write_blocks(FILE *f, const struct plot *p, int pi)
{
	const struct panel *pn = &plot_panels[pi];
	const struct pdata *d = &p->pd[pi];
	const int n = d->nslots;
	const double w = n > 1 ? 0.8 / n : 0.5;

	if (pn->metric == M_CPU)
		fprintf(f, "\n# %s, every test: a bar per line.\n$cpu << EOD\n",
			d->title);
	for (int i = 0; i < d->ntests; i++) {
		const struct bar *row = &d->bar[(size_t)i * p->nseries];
		const char *name = result_test_name(d->fig[i].test);

		if (pn->metric != M_CPU)
			fprintf(f, "\n# %s, %s.\n$%s_%s << EOD\n", name,
				d->fig[i].unit, pn->block, name);
		for (size_t s = 0; s < p->nseries; s++) {
			const struct bar *b = &row[s];
			double x = d->slot[s];

			if (isnan(b->fig) &&
			    !(pn->metric != M_LAT && b->extra > 0))
				continue;
			if (pn->metric == M_CPU)
				x = i + (d->slot[s] - (n + 1) / 2.0) * w;
			bar_line(f, x, b, s, name);
		}
		if (pn->metric != M_CPU)
			fputs("EOD\n", f);
	}
	if (pn->metric == M_CPU)
		fputs("EOD\n", f);
}

/* What every picture shares: the data, the names, helpers, style. */
static void write_prelude(FILE *f, const struct plot *p)
{
	fputs("# clyde-report plot: bar charts of benchmark results, for "
	      "gnuplot 5.\n"
	      "# Draw them again with: gnuplot THIS-FILE (file names are as "
	      "given to\n"
	      "# clyde-report, relative to where it ran). The figures are "
	      "the data\n"
	      "# blocks; everything after them is style, free to change.\n"
	      "#\n"
	      "# A panel is a figure (%CP: all tests, grouped); a bar is a "
	      "result. A\n"
	      "# result with repeats (lines of one name in one input) is "
	      "drawn at its\n"
	      "# mean, with an error bar over the 95% confidence interval of "
	      "the mean.\n"
	      "# Every axis is linear from 0.\n"
	      "#\n"
	      "# A bar's line: 1 its place, 2 the figure, 3 and 4 the ends of "
	      "its 95% CI\n"
	      "# (NaN: no repeats), 5 rates and %CP: 1 where a repeat says "
	      "+++++ (under\n"
	      "# 0.5 s, no figure), latency: p99 (NaN: not known), 6 the "
	      "result (key order).\n",
	      f);
	for (int pi = 0; pi < P_COUNT; pi++)
		write_blocks(f, p, pi);
	fprintf(f, "\n# The results, in key order.\nN = %zu\narray name[N]\n",
		p->nseries);
	for (size_t s = 0; s < p->nseries; s++) {
		fprintf(f, "name[%zu] = ", s + 1);
		plot_quote(f, p->series[s].label);
		fputc('\n', f);
	}
	fputs("\n# Each panel sets ymax, its axis' top (%CP: 100, where a "
	      "figure or CI\n# past it is clipped and marked).\n"
	      "clip(v) = v > ymax ? ymax : v\n"
	      "# Under 0.5 s (x > 0): no bar, a low hatched marker (a tenth "
	      "of the\n# axis, so it reads as no height), its label over it.\n"
	      "bar(f, x) = x > 0 ? NaN : clip(f)\n"
	      "mark(x) = x > 0 ? ymax * 0.1 : NaN\nmid(x) = x > 0 ? ymax * "
	      "0.12 : NaN\n"
	      "# Error bars are candlesticks, which leave no gap at the mean "
	      "as\n# yerrorbars do; none without a CI; one reaching below 0 "
	      "ends there.\n# (valid(): a comparison with NaN would drop the "
	      "point.)\n"
	      "ey(x) = valid(3) ? bar(column(2), x) : NaN\n"
	      "elo(v) = v > 0 ? clip(v) : 0\n"
	      "top(x) = x > 0 ? NaN : valid(4) ? clip(column(4)) : "
	      "clip(column(2))\n"
	      "# The triangles at ymax: filled over a figure past it, open "
	      "over a CI\n# past it (its figure under it).\n"
	      "over(x) = x > 0 ? NaN : column(2) > ymax ? ymax : NaN\n"
	      "overci(x) = x > 0 || column(2) > ymax ? NaN : valid(4) && "
	      "column(4) > ymax ? ymax : NaN\n"
	      "num(v) = v < 10 ? sprintf('%.2f', v) : v < 1000 ? "
	      "sprintf('%.1f', v) : sprintf('%.0f', v)\n"
	      "\n# Colours that stay apart for colour-blind readers "
	      "(Okabe-Ito).\n"
	      "set linetype 1 lc rgb '#0072b2'\n"
	      "set linetype 2 lc rgb '#e69f00'\n"
	      "set linetype 3 lc rgb '#009e73'\n"
	      "set linetype 4 lc rgb '#cc79a7'\n"
	      "set linetype 5 lc rgb '#56b4e9'\n"
	      "set linetype 6 lc rgb '#d55e00'\n"
	      "set linetype 7 lc rgb '#f0e442'\n"
	      "set linetype 8 lc rgb '#999999'\n"
	      "set linetype cycle 8\n"
	      "set style fill solid 0.9 border lc rgb '#404040'\n"
	      "set border 3 front\nunset key\n",
	      f);
	if (!p->svg)
		fputs("\n# pngcairo draws smoother text; plain png where this "
		      "gnuplot lacks it.\n"
		      "term = strstrt(GPVAL_TERMINALS, 'pngcairo') > 0 ? "
		      "\"pngcairo font 'Sans,10'\" : 'png'\n",
		      f);
}

/* A panel's place on the picture, as fractions of the screen. */
struct box {
	double l, r, b, t;
};

static void margins(FILE *f, struct box x)
{
	fprintf(f,
		"set lmargin at screen %.4f\nset rmargin at screen %.4f\n"
		"set bmargin at screen %.4f\nset tmargin at screen %.4f\n",
		x.l, x.r, x.b, x.t);
}

/*
 * The plot command of one panel's block: bars, hatched markers, error
 * bars, p99 dots, triangles over a figure or a CI past the axis (over,
 * over_ci), figures (marks: 0 none, 1 level, 2 upright); each only where
 * the panel has one (what says).
 */
static void write_plot(FILE *f, const struct fig *what, int over, int over_ci,
		       enum metric m, const char *blk, int marks)
{
	const int clip = over || over_ci;
	const char *x = m == M_LAT ? "0" : "$5";

	fprintf(f, "plot $%s using 1:(bar($2, %s)):6 with boxes lc variable",
		blk, x);
	if (what->any_fast)
		fprintf(f,
			", \\\n\t$%s using 1:(mark($5)):6 with boxes fs "
			"transparent pattern 4 border lt -1 lc variable, \\\n"
			"\t$%s using 1:(mid($5)):('%s') with labels rotate by "
			"90 left font ',8'",
			blk, blk, m == M_CPU ? "+++ <0.5 s" : "+++++ <0.5 s");
	if (what->any_ci)
		fprintf(f,
			", \\\n\t$%s using 1:(ey(%s)):(elo($3)):(clip($4)):"
			"(ey(%s)) with candlesticks whiskerbars 0.5 lt -1",
			blk, x, x);
	if (what->any_p99)
		fprintf(f,
			", \\\n\t$%s using 1:(clip($5)) with points pt 7 ps "
			"0.8 lc rgb '#000000'",
			blk);
	if (over)
		fprintf(f,
			", \\\n\t$%s using 1:(over($5)) with points pt 9 ps "
			"1.2 lc rgb '#000000'",
			blk);
	if (over_ci)
		fprintf(f,
			", \\\n\t$%s using 1:(overci($5)) with points pt 8 ps "
			"1.2 lc rgb '#000000'",
			blk);
	if (marks && what->any_fig)
		fprintf(f,
			", \\\n\t$%s using 1:(top(%s)):(%s) with labels %s "
			"offset 0, %s font ',8'",
			blk, x, m == M_CPU ? "sprintf('%.3g', $2)" : "num($2)",
			marks == 1 ? "center" : "rotate by 90 left",
			clip ? "1.2" : "0.7");
	/* The page's heading of a chart is drawn once, with its first. */
	fputs("\nunset label 2\n", f);
}

/* Figure k's small panel of chart pi (rates or latency). */
static void write_small(FILE *f, const struct plot *p, int pi, int k,
			struct box at)
{
	const struct pdata *d = &p->pd[pi];
	const struct fig *fg = &d->fig[k];
	const char *name = result_test_name(fg->test);
	char title[64], blk[64];
	int n = d->nslots;

	fig_title(title, sizeof(title), fg->test);
	snprintf(blk, sizeof(blk), "%s_%s", plot_panels[pi].block, name);
	fprintf(f, "\n# %s\n", title);
	margins(f, at);
	fprintf(f, "set title '%s' font ',11' offset 0, 0\nset ylabel '%s'\n",
		title, fg->unit);
	fprintf(f, "ymax = %.6g\nset yrange [0:ymax]\n", fg->ytop);
	/* Only markers: no figure, so no scale to read one from. */
	fputs(fg->any_fig ? "set ytics nomirror\nset format y '%g'\n"
			  : "unset ytics\n",
	      f);
	fprintf(f,
		"set grid ytics lt 1 lw 1 lc rgb '#dddddd'\nunset xtics\n"
		"set xrange [0.4:%d.6]\nset boxwidth 0.7 absolute\n",
		n);
	write_plot(f, fg, 0, 0, plot_panels[pi].metric, blk,
		   n <= FIGURES_MAX	  ? 1
		   : n <= 3 * FIGURES_MAX ? 2
					  : 0);
}

/* Tick i, figure t's label as a gnuplot string ("\n" breaks it). */
static void tick(FILE *f, int i, enum result_test t)
{
	fputs(i ? ", \"" : "\"", f);
	for (const char *c = figure_of(t)->tick; *c; c++)
		if (*c == '\n')
			fputs("\\n", f);
		else
			fputc(*c, f);
	fprintf(f, "\" %d", i);
}

/* The %CP panel: every test a group, a bar per series, 0 to 100. */
static void write_cpu(FILE *f, const struct plot *p, struct box at)
{
	const struct pdata *d = &p->pd[P_CPU];
	int n = d->nslots;
	struct fig all = {0};

	fprintf(f, "\n# %s\n", d->title);
	margins(f, at);
	fputs("set title ", f);
	plot_quote(f, d->title);
	fprintf(f,
		" font ',11' offset 0, %d\nset ylabel '%%CP, one process "
		"(capped at %d)'\nymax = %d\nset yrange [0:%d]\nset ytics "
		"nomirror\n"
		"set format y '%%g'\nset grid ytics lt 1 lw 1 lc rgb "
		"'#dddddd'\n",
		/* Above the upright figures over bars at 100. */
		n <= FIGURES_MAX ? 2 : 0, CPU_CAP, CPU_CAP, CPU_CAP);
	fprintf(f, "set xrange [-0.5:%d.5]\nset xtics nomirror scale 0 (",
		d->ntests - 1);
	for (int i = 0; i < d->ntests; i++)
		tick(f, i, d->fig[i].test);
	fprintf(f, ")\nset boxwidth %.6g absolute\n", n > 1 ? 0.8 / n : 0.5);
	for (int i = 0; i < d->ntests; i++) {
		all.any_fig |= d->fig[i].any_fig;
		all.any_fast |= d->fig[i].any_fast;
		all.any_ci |= d->fig[i].any_ci;
	}
	write_plot(f, &all, d->any_over, d->any_over_ci, M_CPU, "cpu",
		   n <= FIGURES_MAX ? 2 : 0);
}

/* A chart with no bar: a note where its panels would be. */
static void write_empty(FILE *f, const struct plot *p, int pi, struct box at)
{
	int all103 = 1;

	for (size_t i = 0; i < p->set->n; i++)
		all103 &= p->set->rows[i].res.fmt == CSV_103;
	fprintf(f, "\n# %s: nothing to draw\n", p->pd[pi].title);
	margins(f, at);
	/* The heading over the chart names it, but for %CP's. */
	fputs("set title ", f);
	plot_quote(f, pi == P_CPU ? p->pd[pi].title : "");
	fprintf(f,
		" font ',11' offset 0, 0\nunset ylabel\nset xrange [0:1]\n"
		"set yrange [0:1]\nunset xtics\nunset ytics\nunset grid\n"
		"unset border\nset label 1 'No %s figures in these "
		"results%s' at graph 0.5, 0.5 center\nplot NaN\nunset label "
		"1\nunset label 2\nset border 3 front\n",
		pi == P_LAT   ? "latency"
		: pi == P_CPU ? "%CP"
			      : "rate",
		pi == P_LAT && all103 ? " (bonnie++ 1.03 lines carry none)"
				      : "");
}

/* A chart's height in pixels. */
static int chart_px(const struct plot *p, int pi)
{
	const struct pdata *d = &p->pd[pi];

	if (plot_panel_empty(p, pi))
		return PX_EMPTY;
	return pi == P_CPU ? PX_CPU
			   : (d->ntests + PX_COLS - 1) / PX_COLS * PX_SMALL;
}

/* Chart pi's panels in the band from y1 down, hpx pixels of height. */
static void write_section(FILE *f, const struct plot *p, int pi, double y1,
			  int height)
{
	const struct pdata *d = &p->pd[pi];
	const double sx = 1.0 / PX_WIDTH, sy = 1.0 / height;
	const int cols = d->ntests < PX_COLS ? d->ntests : PX_COLS;

	if (plot_panel_empty(p, pi)) {
		write_empty(f, p, pi,
			    (struct box){PX_LEFT * sx, 1 - PX_RIGHT * sx,
					 y1 - (PX_EMPTY - 10) * sy,
					 y1 - PX_TOP * sy});
		return;
	}
	if (pi == P_CPU) {
		write_cpu(f, p,
			  (struct box){PX_LEFT * sx, 1 - PX_RIGHT * sx,
				       y1 - (PX_CPU - PX_XTICS) * sy,
				       y1 - (PX_TOP + PX_FIGS) * sy});
		return;
	}
	for (int k = 0; k < d->ntests; k++) {
		double x0 = (double)(k % cols) / cols;
		double top = y1 - (double)(k / cols) * PX_SMALL * sy;

		write_small(f, p, pi, k,
			    (struct box){x0 + PX_LEFT * sx,
					 x0 + 1.0 / cols - PX_RIGHT * sx,
					 top - (PX_SMALL - PX_BOTTOM) * sy,
					 top - PX_TOP * sy});
	}
}

/*
 * One picture of charts [first, last] stacked, the --title above, the
 * key below; a heading over each chart of small panels.
 */
static void write_picture(FILE *f, const struct plot *p, int first, int last,
			  const char *out, const char *title)
{
	int px[P_COUNT], height;
	/* A heading over the small panels of each chart (%CP has its own
	 * panel title), and the same room on the page over %CP. */
	const int heads = last > first || first != P_CPU;
	struct plot_key k;
	double y;

	plot_key_of(p, first, last, &k);
	height = PX_PAD + (title ? PX_TITLE : 0);
	for (int pi = first; pi <= last; pi++)
		height += (px[pi] = chart_px(p, pi)) + heads * PX_HEAD;
	height += k.px;
	fprintf(f, "\n# ---- %s\n", out);
	if (p->svg)
		fprintf(f,
			"set terminal svg size %d,%d font 'Sans,10' "
			"noenhanced background '#ffffff'\n",
			PX_WIDTH, height);
	else
		fprintf(f, "set terminal @term noenhanced size %d,%d\n",
			PX_WIDTH, height);
	fputs("set output ", f);
	plot_quote(f, out);
	fputs("\nset multiplot", f);
	if (title) {
		fputs(" title ", f);
		plot_quote(f, title);
		fputs(" font ',14'", f);
	}
	fputc('\n', f);
	y = 1.0 - (PX_PAD + (title ? PX_TITLE : 0)) / (double)height;
	for (int pi = first; pi <= last; pi++) {
		if (heads && pi != P_CPU) {
			/* The small panels' chart: its name over the grid,
			 * clear of their titles under it. */
			fputs("set label 2 ", f);
			plot_quote(f, p->pd[pi].title);
			fprintf(f, " at screen 0.01, %.4f left font ',13'\n",
				y - (double)PX_HEADY / height);
		}
		y -= (double)heads * PX_HEAD / height;
		write_section(f, p, pi, y, height);
		y -= (double)px[pi] / height;
	}
	plot_key_write(f, p, first, last, &k, height);
	fputs("unset multiplot\nunset output\n", f);
}

char *plot_script(const struct plot *p, int split, const char *const *names,
		  const char *title, size_t *len)
{
	char *script = NULL;
	FILE *f = open_memstream(&script, len);

	if (!f)
		return NULL;
	write_prelude(f, p);
	if (split)
		for (int pi = 0; pi < P_COUNT; pi++)
			write_picture(f, p, pi, pi, names[pi], title);
	else
		write_picture(f, p, 0, P_COUNT - 1, names[0], title);
	if (fclose(f) == EOF) {
		free(script);
		return NULL;
	}
	return script;
}
