/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_plot: grouped bar charts of any set of results, drawn by
 * gnuplot. The groups along the x axis are the tests; the bars in a
 * group are the results, one per name in each input, so repeats (lines
 * of one name in one input, the runs of one JSON document) make one bar
 * at their mean with an error bar over its 95% confidence interval.
 *
 * Three charts, one file each or all on one page (--page):
 *   throughput  the I/O tests in MiB/s beside seeks/s and files/s, two
 *               panels because the units differ; both on log scales,
 *               since putc and get_block differ by three orders of
 *               magnitude and a linear axis would hide the smaller bar
 *               (each bar carries its figure, so nothing is lost)
 *   cpu         %CP of every test, linear
 *   latency     the worst latency of every test, log scale, in ms or
 *               us; dots for p99 where a JSON input carries percentiles
 * The whole script is made first, the figures inline as data blocks,
 * so --script saves a file that draws the same pictures again and can
 * be restyled; it holds no date or version, so it can be compared.
 * plot_data.c makes the figures (plot.h); this file writes the script,
 * names the files and runs gnuplot.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gnuplot.h"
#include "plot.h"

#define PROG "clyde-report: plot"

/* A picture: panels [first, first + n) side by side, cols to a row. */
struct chart {
	const char *suffix; /* out-SUFFIX.png; NULL for the page */
	int first, n, cols;
	int width, height; /* pixels */
};

static const struct chart charts[] = {
    {"throughput", P_IO, 2, 2, 1400, 620},
    {"cpu", P_CPU, 1, 1, 1200, 560},
    {"latency", P_LAT, 1, 1, 1200, 560},
};
static const struct chart page = {NULL, P_IO, P_COUNT, 2, 1600, 1100};

#define NCHARTS (sizeof(charts) / sizeof(charts[0]))

void plot_gp_num(FILE *f, double v)
{
	if (isnan(v))
		fputs(" NaN", f);
	else
		fprintf(f, " %.6g", v);
}

static void write_block(FILE *f, const struct plot *p, int pi)
{
	const struct panel *pn = &plot_panels[pi];
	const struct pdata *d = &p->pd[pi];

	fprintf(f,
		"\n# %s: %s.\n"
		"# A line per test: its place on the x axis, then four columns "
		"per\n# result (in key order): the figure, the low and high "
		"ends of its 95%%\n# CI (NaN: no repeats), and %s.\n",
		d->title, d->ylabel,
		pn->metric == M_LAT ? "p99 (NaN: not known)"
				    : "1 where the line says +++++");
	fprintf(f, "$%s << EOD\n", pn->block);
	for (int i = 0; i < d->ntests; i++) {
		const struct bar *row = &d->bar[(size_t)i * p->nseries];

		fprintf(f, "%d", i);
		for (size_t s = 0; s < p->nseries; s++) {
			plot_gp_num(f, row[s].fig);
			plot_gp_num(f, row[s].lo);
			plot_gp_num(f, row[s].hi);
			plot_gp_num(f, row[s].extra);
		}
		fprintf(f, " # %s\n", result_test_name(d->test[i]));
	}
	fputs("EOD\n", f);
}

/* The part every chart shares: the names, the helpers, the style. */
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
	      "# A group of bars is a test; a bar is a result. A result with "
	      "repeats\n"
	      "# (lines of one name in one input) is drawn at its mean, with "
	      "an error\n"
	      "# bar over the 95% confidence interval of the mean.\n",
	      f);
	for (int pi = 0; pi < P_COUNT; pi++)
		write_block(f, p, pi);
	fprintf(f, "\n# The results, in key order.\nN = %zu\narray name[N]\n",
		p->nseries);
	for (size_t s = 0; s < p->nseries; s++) {
		fprintf(f, "name[%zu] = ", s + 1);
		plot_quote(f, p->series[s].label);
		fputc('\n', f);
	}
	fputs("\n# Result j's bar in a group: its place (each panel sets n "
	      "places,\n# slot[j] and the width w), figure, CI ends and "
	      "extra column.\n"
	      "x(j) = column(1) + (slot[j] - (n + 1) / 2.0) * w\n"
	      "fig(j) = column(4 * j - 2)\n"
	      "hi(j) = column(4 * j)\n"
	      "extra(j) = column(4 * j + 1)\n"
	      "# Error bars are candlesticks, which leave no gap at the "
	      "mean as\n# yerrorbars do; none without a CI; one reaching "
	      "below the axis\n# ends there.\n"
	      "ey(j) = valid(4 * j - 1) ? fig(j) : NaN\n"
	      "lo(j) = column(4 * j - 1) > ybot ? column(4 * j - 1) : ybot\n"
	      "top(j) = valid(4 * j) ? hi(j) : fig(j)\n"
	      "num(v) = v < 10 ? sprintf('%.2f', v) : v < 100 ? "
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
	      "set style fill solid 0.9 border lc rgb '#404040'\n",
	      f);
	if (!p->svg)
		fputs("\n# pngcairo draws smoother text; plain png where this "
		      "gnuplot lacks it.\n"
		      "term = strstrt(GPVAL_TERMINALS, 'pngcairo') > 0 ? "
		      "\"pngcairo font 'Sans,10'\" : 'png'\n",
		      f);
}

/* The pixel sizes of the parts around a panel's plot area. */
#define PX_LEFT	  80 /* y tick labels and the y label */
#define PX_RIGHT  25
#define PX_BOTTOM 58 /* two-line x tick labels */
#define PX_TOP	  34 /* the panel's title */
#define PX_TITLE  34 /* the --title line above all panels */
#define PX_KEYROW 19
#define PX_CHAR	  8 /* a generous width of a character of the key */

/* Rows of a key across width pixels: entries of at most chars each. */
static int key_rows(int entries, size_t chars, int width)
{
	int per = (int)(chars + 6) * PX_CHAR, cols = (width - 60) / per;

	if (cols < 1)
		cols = 1;
	return (entries + cols - 1) / cols;
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

static void write_panel(FILE *f, const struct plot *p, int pi, double l,
			double r, double b, double t)
{
	const struct panel *pn = &plot_panels[pi];
	const struct pdata *d = &p->pd[pi];
	/* Thin bars have no room for their figure or a "+++++". */
	int marks = d->nslots <= FIGURES_MAX;

	fprintf(f, "\n# %s\n", d->title);
	fprintf(f,
		"set lmargin at screen %.4f\nset rmargin at screen %.4f\n"
		"set bmargin at screen %.4f\nset tmargin at screen %.4f\n",
		l, r, b, t);
	fputs("set border 3 front\nset title ", f);
	plot_quote(f, d->title);
	fputs(" font ',12'\nset ylabel ", f);
	plot_quote(f, d->ylabel);
	/* The scale first: a log axis refuses a range from 0. */
	if (d->log)
		fputs("\nset logscale y\nset format y '%.10g'\n", f);
	else
		fputs("\nunset logscale y\nset format y '%g'\n", f);
	/* ymark: just above the bottom, where a label is not clipped. */
	fprintf(f, "ybot = %.6g\nymark = %.6g\nset yrange [ybot:%.6g]\n",
		d->ybot, d->log ? d->ybot * 1.05 : d->ybot, d->ytop);
	fputs("set ytics nomirror\nset grid ytics lt 1 lw 1 lc rgb "
	      "'#dddddd'\n",
	      f);
	fprintf(f, "set xrange [-0.5:%d.5]\nset xtics nomirror scale 0 (",
		d->ntests ? d->ntests - 1 : 0);
	for (int i = 0; i < d->ntests; i++)
		tick(f, i, d->test[i]);
	fprintf(f, ")\nn = %d\narray slot[N] = [", d->nslots);
	for (size_t s = 0; s < p->nseries; s++)
		fprintf(f, "%s%d", s ? ", " : "", d->slot[s]);
	fputs("]\nw = n > 1 ? 0.8 / n : 0.5\nset boxwidth w absolute\n"
	      "unset key\n",
	      f);
	if (plot_panel_empty(p, pi)) {
		int all103 = 1;

		for (size_t i = 0; i < p->set->n; i++)
			all103 &= p->set->rows[i].res.fmt == CSV_103;
		fprintf(f,
			"set label 1 'No %s figures in these results%s' at "
			"graph 0.5, 0.5 center\n"
			"unset xtics\nunset ytics\nunset grid\n"
			"plot NaN notitle\nunset label 1\n",
			pn->metric == M_LAT   ? "latency"
			: pn->metric == M_CPU ? "%CP"
					      : "rate",
			pn->metric == M_LAT && all103
			    ? " (bonnie++ 1.03 lines carry none)"
			    : "");
		return;
	}
	if (!marks && d->any_fast)
		fprintf(f,
			"set label 1 'no bar: %s, under 0.5 s' at graph 1, 1 "
			"right offset 0, 1 font ',9'\n",
			pn->metric == M_CPU ? "+++" : "+++++");
	fprintf(
	    f,
	    "plot for [j=1:N] $%s using (x(j)):(fig(j)) with boxes lt j "
	    "notitle, \\\n"
	    "\tfor [j=1:N] $%s using (x(j)):(ey(j)):(lo(j)):(hi(j)):(ey(j)) "
	    "notitle with candlesticks whiskerbars 0.5 lt -1",
	    pn->block, pn->block);
	if (pn->metric == M_LAT && d->any_p99)
		fprintf(f,
			", \\\n\tfor [j=1:N] $%s using (x(j)):(extra(j)) "
			"notitle with points pt 7 ps 0.7 lc rgb '#000000'",
			pn->block);
	if (marks)
		fprintf(f,
			", \\\n\tfor [j=1:N] $%s using (x(j)):(top(j)):(%s) "
			"notitle with labels rotate by 90 left offset 0, 0.4 "
			"font ',8'",
			pn->block,
			pn->metric == M_CPU ? "sprintf('%.3g', fig(j))"
					    : "num(fig(j))");
	if (marks && pn->metric != M_LAT && d->any_fast)
		fprintf(f,
			", \\\n\tfor [j=1:N] $%s using "
			"(x(j)):(ymark):(extra(j) > 0 ? '%s' : '') notitle "
			"with labels rotate by 90 left offset 0, 0.4 font "
			"',8'",
			pn->block, pn->metric == M_CPU ? "+++" : "+++++");
	fputc('\n', f);
	if (!marks && d->any_fast)
		fputs("unset label 1\n", f);
}

/*
 * The key, shared by a picture's panels: a plot of its own across the
 * bottom, so gnuplot lays it out in rows over the whole width (top is
 * the height key_rows reserved for it).
 */
static void write_key(FILE *f, double top, int any_ci, int any_p99)
{
	fprintf(f,
		"\n# The key: the results' colours, for every panel\n"
		"set lmargin at screen 0.01\nset rmargin at screen 0.99\n"
		"set bmargin at screen 0\nset tmargin at screen %.4f\n"
		"unset title\nunset ylabel\nunset logscale y\nunset border\n"
		"unset xtics\nunset ytics\nunset grid\n"
		"set xrange [0:1]\nset yrange [0:1]\n"
		"set key inside center top horizontal Left reverse "
		"samplen 2 width 1\n"
		"plot for [j=1:N] NaN with boxes lt j title name[j]",
		top);
	if (any_ci)
		fputs(", \\\n\tkeyentry with yerrorbars lt -1 ps 0 title "
		      "'95% CI of the mean'",
		      f);
	if (any_p99)
		fputs(", \\\n\tkeyentry with points pt 7 ps 0.7 lc rgb "
		      "'#000000' title 'p99 latency'",
		      f);
	fputc('\n', f);
}

/*
 * One picture: its panels in a grid, the --title above, the key below.
 * The key's rows add to the height, so the panels keep their size.
 */
static void write_chart(FILE *f, const struct plot *p, const struct chart *c,
			const char *out, const char *title)
{
	int rows = (c->n + c->cols - 1) / c->cols, any_ci = 0, any_p99 = 0;
	int entries = (int)p->nseries, krows, keypx, height;
	size_t maxlab = 0;
	double top, keyh, cellw, cellh;

	for (int pi = c->first; pi < c->first + c->n; pi++) {
		any_ci |= p->pd[pi].any_ci;
		any_p99 |= p->pd[pi].any_p99;
	}
	entries += any_ci + any_p99;
	for (size_t s = 0; s < p->nseries; s++)
		if (strlen(p->series[s].label) > maxlab)
			maxlab = strlen(p->series[s].label);
	if (maxlab < 20)
		maxlab = 20;
	krows = key_rows(entries, maxlab, c->width);
	keypx = krows * PX_KEYROW + 12;
	height = c->height + keypx;
	keyh = (double)keypx / height;
	top = 1.0 - (title ? (double)PX_TITLE / height : 0);
	cellw = 1.0 / c->cols;
	cellh = (top - keyh) / rows;

	fprintf(f, "\n# ---- %s\n", out);
	if (p->svg)
		fprintf(f,
			"set terminal svg size %d,%d font 'Sans,10' "
			"noenhanced background '#ffffff'\n",
			c->width, height);
	else
		fprintf(f, "set terminal @term noenhanced size %d,%d\n",
			c->width, height);
	fputs("set output ", f);
	plot_quote(f, out);
	fputs("\nset multiplot", f);
	if (title) {
		fputs(" title ", f);
		plot_quote(f, title);
		fputs(" font ',14'", f);
	}
	fputc('\n', f);
	for (int k = 0; k < c->n; k++) {
		int pi = c->first + k, row = k / c->cols, col = k % c->cols;
		double x0 = col * cellw, y1 = top - row * cellh;

		write_panel(f, p, pi, x0 + (double)PX_LEFT / c->width,
			    x0 + cellw - (double)PX_RIGHT / c->width,
			    y1 - cellh + (double)PX_BOTTOM / height,
			    y1 - (double)PX_TOP / height);
	}
	write_key(f, keyh, any_ci, any_p99);
	fputs("unset multiplot\nunset output\n", f);
}

/* "out.png" -> "out-throughput.png"; ext is the extension's offset. */
static char *chart_name(const char *output, size_t ext, const char *suffix)
{
	size_t len = strlen(output) + strlen(suffix) + 2;
	char *s = malloc(len);

	if (s)
		snprintf(s, len, "%.*s-%s%s", (int)ext, output, suffix,
			 output + ext);
	return s;
}

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

int report_plot_files(const struct report_opts *o, char **names, int *n,
		      FILE *err)
{
	const char *output = o->output ? o->output : "clyde-report.png";
	const char *dot = strrchr(output, '.'), *slash = strrchr(output, '/');
	char *gnuplot;

	*n = 0;
	if (!dot || (slash && slash > dot) ||
	    (strcasecmp(dot, ".png") && strcasecmp(dot, ".svg"))) {
		fprintf(err,
			"%s: %s: the picture must be a .png or .svg file\n",
			PROG, output);
		return 2;
	}
	if (has_control(output) || (o->script && has_control(o->script))) {
		fprintf(err, "%s: a file name with control characters\n", PROG);
		return 2;
	}
	if (o->page || o->over_time)
		names[(*n)++] = strdup(output);
	else
		for (size_t k = 0; k < NCHARTS; k++)
			names[(*n)++] = chart_name(
			    output, (size_t)(dot - output), charts[k].suffix);
	if (o->script)
		names[(*n)++] = strdup(o->script);
	for (int k = 0; k < *n; k++) {
		if (!names[k]) {
			fprintf(err, "%s: out of memory\n", PROG);
			goto fail;
		}
		if (o->script && k < *n - 1 &&
		    (!strcmp(o->script, names[k]) ||
		     outfile_same(o->script, names[k]))) {
			fprintf(err, "%s: %s: both the script and a picture\n",
				PROG, o->script);
			goto fail;
		}
	}
	/* Before any file is made: without gnuplot there is nothing to do. */
	gnuplot = plot_find_gnuplot();
	if (!gnuplot) {
		fprintf(err,
			"%s: gnuplot not found; install it (Debian: "
			"apt-get install gnuplot-nox)\n",
			PROG);
		goto fail;
	}
	free(gnuplot);
	return 0;
fail:
	for (int k = 0; k < *n; k++)
		free(names[k]);
	*n = 0;
	return 2;
}

/*
 * The whole script, its pictures going to names[k] (one per chart, or
 * the page's): the final names for --script, the temporary ones for the
 * gnuplot that draws them now. NULL when out of memory.
 */
static char *make_script(const struct plot *p, const struct report_opts *o,
			 const char *const *names, const char *title,
			 size_t *len)
{
	char *script = NULL;
	FILE *f = open_memstream(&script, len);

	if (!f)
		return NULL;
	write_prelude(f, p);
	if (o->page)
		write_chart(f, p, &page, names[0], title);
	else
		for (size_t k = 0; k < NCHARTS; k++)
			write_chart(f, p, &charts[k], names[k], title);
	if (fclose(f) == EOF) {
		free(script);
		return NULL;
	}
	return script;
}

int report_plot(const struct report_set *set, const struct report_opts *o,
		struct report_outs *outs, FILE *err)
{
	const char *output = o->output ? o->output : "clyde-report.png";
	struct plot p = {.set = set};
	struct report_group **groups = NULL;
	size_t *ngroups = NULL, ninputs = 0, len = 0, slen = 0;
	size_t npics = o->page ? 1 : NCHARTS;
	const char *finals[NCHARTS], *tmps[NCHARTS];
	char *script = NULL, *saved = NULL;
	char title[LABEL_CHARS * 8 + 8];
	char why[600];
	const char *t = NULL;
	int status = 1;
	FILE *f;

	if (o->over_time)
		return report_plot_time(set, o, outs, err);
	if ((size_t)outs->n != npics + (o->script ? 1 : 0))
		goto nomem; /* not the files report_plot_files named */
	for (size_t k = 0; k < npics; k++) {
		finals[k] = outs->f[k].path;
		tmps[k] = outs->f[k].tmp;
	}
	p.svg = !strcasecmp(strrchr(output, '.'), ".svg");
	if (plot_make_series(&p, &groups, &ngroups, &ninputs) < 0)
		goto nomem;
	plot_label_series(&p);
	for (int pi = 0; pi < P_COUNT; pi++)
		if (plot_compute_panel(&p, pi) < 0)
			goto nomem;
	if (o->title) {
		plot_clean_text(title, sizeof(title), o->title, LABEL_CHARS * 2);
		t = title;
	}
	script = make_script(&p, o, tmps, t, &len);
	if (!script)
		goto nomem;
	if (o->script) {
		saved = make_script(&p, o, finals, t, &slen);
		f = saved ? outfile_stream(&outs->f[npics]) : NULL;
		if (!saved)
			goto nomem;
		if (!f || fwrite(saved, 1, slen, f) != slen) {
			fprintf(err, "%s: %s: %s\n", PROG, o->script,
				strerror(errno ? errno : EIO));
			goto out;
		}
	}
	if (plot_run(script, len, why, sizeof(why)) < 0) {
		fprintf(err, "%s: %s\n", PROG, why);
		goto out;
	}
	for (size_t k = 0; k < npics; k++) {
		struct stat st;

		if (stat(tmps[k], &st) < 0 || st.st_size == 0) {
			fprintf(err, "%s: %s: gnuplot left it empty\n", PROG,
				finals[k]);
			goto out;
		}
	}
	status = 0;
	goto out;
nomem:
	fprintf(err, "%s: out of memory\n", PROG);
	status = 1;
out:
	for (int pi = 0; pi < P_COUNT; pi++) {
		free(p.pd[pi].bar);
		free(p.pd[pi].slot);
	}
	for (size_t k = 0; k < ninputs; k++)
		if (groups && groups[k])
			report_groups_free(groups[k], ngroups[k]);
	free(groups);
	free(ngroups);
	free(p.series);
	free(script);
	free(saved);
	return status;
}
