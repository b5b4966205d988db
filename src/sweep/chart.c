/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chart: clyde-sweep's --plot (and --plot-script). Four panels of
 * grouped bars: write MB/s (fsync included), read MB/s (cache evicted
 * first), and each one's %CP; one group per mode and block size, one bar
 * per stage, its value written on it where the bars are few enough to
 * hold one. Axes are linear from 0, %CP from 0 to 100 (a bar over 100
 * stops at the top, its label keeps the value). A cell under 0.5 s, which
 * the table prints as "+++++", is not a measurement to compare: it is
 * drawn as a short hatched marker labelled "+++++", never as a bar of
 * its height. The title says what was measured: the target, its model
 * and size where known, the date of the run and the size of a cell.
 *
 * Everything drawn comes from the result (what ran, and what a JSON
 * document holds), nothing from the options, so a chart drawn again
 * from the document is this one. The data go inline as datablocks and
 * the script is fed to gnuplot on a pipe (gnuplot.h); --plot-script
 * saves the same script, drawing to --plot's own name.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clock.h"
#include "gnuplot.h"
#include "outfile.h"
#include "sweep_prog.h"
#include "units.h"

/* The most bars that still get their value written on them. */
#define VALUE_BARS 48
/* A marker's height: this share of the MB/s axis, or %CP points. */
#define MARK_SHARE 0.06
#define MARK_CP	   6.0

/* A panel: an operation, and MB/s or %CP. */
struct panel {
	int op;
	int cp;
};

static const struct panel panels[] = {
    {SWEEP_WRITE, 0}, {SWEEP_READ, 0}, {SWEEP_WRITE, 1}, {SWEEP_READ, 1}};
#define NPANELS (sizeof(panels) / sizeof(panels[0]))

/* --plot's picture and --plot-script's script, under temporary names. */
static struct outfile plot_of = {.fd = -1, .slot = -1};
static struct outfile script_of = {.fd = -1, .slot = -1};

static int too_fast(const struct sweep_cell *c)
{
	return c->done && clk_too_fast(c->seconds);
}

/* The bar's height: MB/s, or %CP stopped at 100. */
static double height(const struct sweep_cell *c, int cp)
{
	int p = sweep_pcp(c);

	return cp ? (p > 100 ? 100.0 : (double)p) : sweep_mb_s(c);
}

/* Where stage s's bar of group g stands. */
static double bar_x(const struct sweep_result *r, unsigned g, unsigned s)
{
	double w = 0.8 / r->nstages;

	return (double)g + ((double)s - (r->nstages - 1) / 2.0) * w;
}

/* The top of panel p's axis: room above the highest timed bar. */
static double panel_top(const struct sweep_result *r, const struct panel *p)
{
	double top = 0;

	if (p->cp)
		return 100.0;
	for (unsigned s = 0; s < r->nstages; s++)
		for (int m = 0; m < SWEEP_MODES; m++)
			for (unsigned b = 0; b < r->nbs; b++) {
				const struct sweep_cell *c =
				    &r->stage[s].cell[m][b][p->op];

				if (c->done && !too_fast(c) &&
				    height(c, 0) > top)
					top = height(c, 0);
			}
	return top > 0 ? top * 1.22 : 1.0;
}

/*
 * Panel i's datablocks: $P<i>_S<s> stage s's timed bars (x, height,
 * value shown), $P<i>_FAST the markers of cells under 0.5 s (x, the
 * marker's height). Which of them hold rows goes to have[] (a bit per
 * stage) and *fast.
 */
static void panel_data(FILE *f, const struct sweep_result *r, unsigned i,
		       double mark, unsigned *have, int *fast)
{
	const struct panel *p = &panels[i];

	*have = 0;
	*fast = 0;
	for (unsigned s = 0; s < r->nstages; s++) {
		fprintf(f, "$P%u_S%u << EOD\n", i, s);
		for (int m = 0; m < SWEEP_MODES; m++)
			for (unsigned b = 0; b < r->nbs; b++) {
				const struct sweep_cell *c =
				    &r->stage[s].cell[m][b][p->op];
				double v = p->cp ? (double)sweep_pcp(c)
						 : sweep_mb_s(c);

				if (!c->done || too_fast(c))
					continue;
				fprintf(f, "%.4f %.2f \"%.*f\"\n",
					bar_x(r, m * r->nbs + b, s),
					height(c, p->cp),
					v < 100 && !p->cp ? 1 : 0, v);
				*have |= 1u << s;
			}
		fputs("EOD\n", f);
	}
	fprintf(f, "$P%u_FAST << EOD\n", i);
	for (unsigned s = 0; s < r->nstages; s++)
		for (int m = 0; m < SWEEP_MODES; m++)
			for (unsigned b = 0; b < r->nbs; b++)
				if (too_fast(&r->stage[s].cell[m][b][p->op])) {
					fprintf(f, "%.4f %.4f\n",
						bar_x(r, m * r->nbs + b, s),
						mark);
					*fast = 1;
				}
	fputs("EOD\n", f);
}

/* Panel i's title, axis and plot command. */
static void panel_plot(FILE *f, const struct sweep_result *r, unsigned i,
		       double top, double mark)
{
	const struct panel *p = &panels[i];
	const char *sep = "";
	unsigned have;
	int fast, values = r->nstages * r->nbs * SWEEP_MODES <= VALUE_BARS;

	panel_data(f, r, i, mark, &have, &fast);
	fprintf(f, "set title '%s %s'\n",
		p->op == SWEEP_WRITE ? "write" : "read",
		p->cp ? "%CP (CPU time over wall time, capped at 100)"
		: p->op == SWEEP_WRITE ? "MB/s (fsync included)"
				       : "MB/s (cache evicted first)");
	fprintf(f, "set ylabel '%s'\nset yrange [0:%.4f]\n",
		p->cp ? "%CP" : "MB/s (10^6 bytes/s)", top);
	if (!have && !fast) {
		/* Nothing ran: an empty frame keeps the layout. */
		fputs("plot 1/0 notitle\n", f);
		return;
	}
	fputs("plot", f);
	for (unsigned s = 0; s < r->nstages; s++) {
		if (!(have >> s & 1))
			continue;
		fprintf(f,
			"%s $P%u_S%u using 1:2 with boxes fs solid 0.85 "
			"border -1 lc %u title ",
			sep, i, s, s + 1);
		plot_quote(f, r->stage[s].label);
		if (values)
			fprintf(f,
				", $P%u_S%u using 1:2:3 with labels rotate "
				"left offset 0,0.4 font ',8' notitle",
				i, s);
		sep = ",";
	}
	if (fast)
		fprintf(f,
			"%s $P%u_FAST using 1:2 with boxes fs pattern 4 "
			"border -1 lc rgb '#505050' title "
			"'+++++: under 0.5 s, not timed', $P%u_FAST using "
			"1:2:('+++++') with labels rotate left offset 0,0.4 "
			"font ',8' notitle",
			sep, i, i);
	fputc('\n', f);
}

/* The title: target, model and size where known, date, cell size. */
static void title(FILE *f, const struct sweep_result *r, unsigned fast)
{
	char t[sizeof(r->target) + 512], size[32], dev[32] = "", when[32];

	units_fmt_size(size, sizeof(size), r->size);
	if (r->dev_size)
		units_fmt_size(dev, sizeof(dev), r->dev_size);
	if (r->start_time[0])
		snprintf(when, sizeof(when), "%.10s %.8s UTC", r->start_time,
			 r->start_time + 11);
	else
		snprintf(when, sizeof(when), "date not recorded");
	snprintf(t, sizeof(t),
		 "clyde-sweep: %s%s%s%s%s%s\nrun %s, %s per cell%s", r->target,
		 r->model[0] || dev[0] ? " (" : "", r->model,
		 r->model[0] && dev[0] ? ", " : "", dev,
		 r->model[0] || dev[0] ? ")" : "", when, size,
		 fast ? "; hatched +++++: under 0.5 s, not timed" : "");
	fputs("set multiplot layout 4,1 title ", f);
	plot_quote_lines(f, t);
	fputc('\n', f);
}

/* The whole script, drawing to out; malloc'd into *script, 0 or -errno. */
static int script_make(const struct sweep_result *r, enum plot_format fmt,
		       const char *out, char **script, size_t *len)
{
	FILE *f = open_memstream(script, len);
	unsigned fast = 0, ngroups = SWEEP_MODES * r->nbs;

	if (!f)
		return -errno;
	for (unsigned s = 0; s < r->nstages; s++)
		for (int m = 0; m < SWEEP_MODES; m++)
			for (unsigned b = 0; b < r->nbs; b++)
				for (int op = 0; op < SWEEP_OPS; op++)
					fast += too_fast(
					    &r->stage[s].cell[m][b][op]);
	plot_begin(f, out, fmt, 1100, 1500);
	fprintf(f,
		"set style fill solid 0.85 border -1\n"
		"set boxwidth %.4f absolute\n"
		"set xrange [-0.6:%.1f]\nset grid ytics\n"
		"set key outside right top\nset xtics nomirror\nset xtics (",
		0.8 / r->nstages * 0.9, ngroups - 0.4);
	for (unsigned g = 0; g < ngroups; g++) {
		char bs[32];

		sweep_fmt_bs(bs, sizeof(bs), r->bs[g % r->nbs]);
		fprintf(f, "%s'%s %s' %u", g ? ", " : "",
			sweep_mode_name((enum sweep_mode)(g / r->nbs)), bs, g);
	}
	fputs(")\n", f);
	title(f, r, fast);
	for (unsigned i = 0; i < NPANELS; i++) {
		double top = panel_top(r, &panels[i]);

		panel_plot(f, r, i, top,
			   panels[i].cp ? MARK_CP : top * MARK_SHARE);
	}
	fputs("unset multiplot\n", f);
	if (fclose(f) != 0) {
		free(*script);
		*script = NULL;
		return -EIO;
	}
	return 0;
}

int chart_open(const struct sweep_opts *o)
{
	char why[PATH_MAX + 128];

	/* Made before the first cell, so a path that cannot be written
	 * costs nothing. */
	if (o->plot && outfile_open(&plot_of, o->plot, why, sizeof(why)))
		return error("--plot %s", why);
	if (o->plot_script &&
	    outfile_open(&script_of, o->plot_script, why, sizeof(why)))
		return error("--plot-script %s", why);
	return 0;
}

void chart_abort(void)
{
	outfile_abort(&plot_of);
	outfile_abort(&script_of);
}

/* The script that draws to --plot's own name, written (not yet
 * renamed). 0 or -1 after a line. */
static int save_script(const struct sweep_opts *o, const struct sweep_result *r)
{
	char *script = NULL;
	size_t len = 0;
	FILE *f = outfile_stream(&script_of);
	int e =
	    f ? script_make(r, o->plot_fmt, o->plot, &script, &len) : -errno;

	if (!e && (fwrite(script, 1, len, f) != len || fflush(f) != 0))
		e = errno ? -errno : -EIO;
	free(script);
	if (e)
		return error("--plot-script '%s': %s", o->plot_script,
			     strerror(-e));
	return 0;
}

int chart_finish(const struct sweep_opts *o, const struct sweep_result *r,
		 const volatile sig_atomic_t *stop)
{
	char *script = NULL, why[512];
	size_t len = 0;
	int rc = script_make(r, o->plot_fmt, plot_of.tmp, &script, &len);

	if (rc) {
		chart_abort();
		return error("--plot '%s': %s", o->plot, strerror(-rc));
	}
	/* gnuplot starts with the stop signals as they were; meanwhile
	 * the handler takes them here too. */
	cli_stops_mask(SIG_UNBLOCK);
	rc = plot_run(script, len, why, sizeof(why));
	cli_stops_mask(SIG_BLOCK);
	free(script);
	if (rc || *stop) {
		chart_abort();
		if (!*stop)
			error("--plot '%s': %s", o->plot, why);
		return -1;
	}
	if (o->plot_script && save_script(o, r)) {
		chart_abort();
		return -1;
	}
	rc = outfile_commit(&plot_of);
	if (rc) {
		chart_abort();
		return error("--plot '%s': %s", o->plot, strerror(-rc));
	}
	rc = o->plot_script ? outfile_commit(&script_of) : 0;
	if (rc)
		return error("--plot-script '%s': %s", o->plot_script,
			     strerror(-rc));
	return 0;
}
