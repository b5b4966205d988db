/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_plot_time: plot --over-time, the rate of each test against
 * time from the intervals clyde --log-interval wrote in a JSON document,
 * with each interval's p99 (and p50) latency on a second axis (y2), so a write
 * cache filling up shows as a step down in the rate and up in the p99.
 * One panel per run and test that has intervals, in a grid on one
 * picture; the rate is a step per interval (MiB/s when its operations
 * have a size, else operations per second), over the span the
 * interval really covered. Like plot's bar charts, the whole script is
 * made first with the data inline, so --script saves one that draws the
 * same picture again.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "plot.h"

/* Panels drawn at most: beyond, the first ones (a note says so). */
#define TIME_PANELS_MAX 24

struct tpanel {
	const struct report_row *row;
	enum result_test test;
};

/* The panels: every run's tests with intervals, in input order. */
static size_t find_panels(const struct report_set *set, struct tpanel *pn,
			  size_t *all)
{
	size_t n = 0;

	*all = 0;
	for (size_t i = 0; i < set->n; i++)
		for (enum result_test t = 0; t < RT_COUNT; t++) {
			if (!set->rows[i].res.t[t].nintervals)
				continue;
			if (n < TIME_PANELS_MAX)
				pn[n++] = (struct tpanel){&set->rows[i], t};
			(*all)++;
		}
	return n;
}

/* Whether the test's intervals count bytes (MiB/s) or operations. */
static int by_bytes(const struct result_test_rec *rec)
{
	for (unsigned k = 0; k < rec->nintervals; k++)
		if (rec->intervals[k].bytes)
			return 1;
	return 0;
}

/* Panel k's data: a line per interval, its start, rate and p99 (ms),
 * then the last one's end again, for gnuplot's steps. */
static void write_block(FILE *f, const struct tpanel *pn, size_t k)
{
	const struct result_test_rec *rec = &pn->row->res.t[pn->test];
	const int bytes = by_bytes(rec);
	double rate = 0, p99, p50;

	fprintf(f,
		"\n# %s, %s: a line per interval: its start (s), %s, p99 "
		"latency (ms, NaN: not known), its middle (s), p50 "
		"(ms).\n$T%zu << EOD\n",
		pn->row->res.name, result_test_name(pn->test),
		bytes ? "MiB/s" : "operations/s", k);
	for (unsigned i = 0; i < rec->nintervals; i++) {
		const struct result_interval *iv = &rec->intervals[i];

		rate = iv->secs > 0 ? (bytes ? (double)iv->bytes / 1048576.0
					     : (double)iv->ops) /
					  iv->secs
				    : 0;
		p99 = iv->p99_ns ? (double)iv->p99_ns / 1e6 : NAN;
		p50 = iv->p50_ns ? (double)iv->p50_ns / 1e6 : NAN;
		fprintf(f, "%.6f %.6g", iv->end - iv->secs, rate);
		plot_gp_num(f, p99);
		fprintf(f, " %.6f", iv->end - iv->secs / 2);
		plot_gp_num(f, p50);
		fputc('\n', f);
	}
	fprintf(f, "%.6f %.6g NaN NaN NaN\nEOD\n",
		rec->intervals[rec->nintervals - 1].end, rate);
}

/* Panel k: the rate as steps on y1, the p99 and p50 as points on y2;
 * titled by the run's name, the test and the input it came from. */
static void write_panel(FILE *f, const struct tpanel *pn, size_t k)
{
	const struct result_test_rec *rec = &pn->row->res.t[pn->test];
	int p99 = 0;
	char name[LABEL_CHARS * 8];

	for (unsigned i = 0; i < rec->nintervals; i++)
		p99 |= rec->intervals[i].p99_ns != 0;
	plot_clean_text(name, sizeof(name), pn->row->res.name, LABEL_CHARS);
	fputs("set title ", f);
	plot_quote(f, name);
	fprintf(f, " . ': ' . '%s' . ' (' . ", figure_of(pn->test)->title);
	/* Which input and run: the same name may come from several. */
	plot_clean_text(name, sizeof(name), pn->row->file, LABEL_CHARS);
	plot_quote(f, name);
	fputs(" . ')'\n", f);
	fprintf(f,
		"set xlabel 'seconds from the start of the test'\n"
		"set ylabel '%s'\nset yrange [0:*]\nset ytics nomirror\n",
		by_bytes(rec) ? "MiB/s" : "operations/s");
	if (p99)
		fputs("set y2label 'latency, ms'\nset y2range [0:*]\n"
		      "set y2tics\n",
		      f);
	else
		fputs("unset y2label\nunset y2tics\n", f);
	/* A write cache's cliff: its two levels dashed, the drop a line. */
	fputs("unset arrow\nunset label\n", f);
	if (by_bytes(rec) && rec->cliff.found) {
		const struct cliff *c = &rec->cliff;
		const double mib = 1048576.0,
			     end = rec->intervals[rec->nintervals - 1].end;

		fprintf(f,
			"set arrow from 0,%.6g to %.6f,%.6g nohead dt 2 lw 1.5 "
			"lc rgb '#009e73' front\n"
			"set arrow from %.6f,%.6g to %.6f,%.6g nohead dt 2 "
			"lw 1.5 lc rgb '#009e73' front\n"
			"set arrow from %.6f, graph 0 to %.6f, graph 1 nohead "
			"lc rgb '#009e73' front\n"
			"set label '%.0f MiB absorbed' at %.6f, graph 0.93 "
			"offset 0.5,0 tc rgb '#009e73' front\n",
			c->burst / mib, c->drop_s, c->burst / mib, c->drop_s,
			c->sustained / mib, end, c->sustained / mib, c->drop_s,
			c->drop_s, c->absorbed / mib, c->drop_s);
	}
	fprintf(f,
		"plot $T%zu using 1:2 with steps lw 2 lc rgb '#1f77b4' "
		"title 'rate' axes x1y1",
		k);
	if (p99)
		fprintf(f,
			", $T%zu using 4:3 with points pt 7 ps 0.6 lc rgb "
			"'#d62728' title 'p99' axes x1y2, $T%zu using 4:5 "
			"with points pt 6 ps 0.6 lc rgb '#2ca02c' title 'p50' "
			"axes x1y2",
			k, k);
	fputc('\n', f);
}

/* The whole script, its picture going to out. NULL without memory. */
static char *make_script(const struct tpanel *pn, size_t n, size_t all, int svg,
			 const char *out, const char *title, size_t *len)
{
	const int cols = n > 1 ? 2 : 1, rows = (int)((n + 1) / 2);
	char *script = NULL;
	FILE *f = open_memstream(&script, len);

	if (!f)
		return NULL;
	fputs("# clyde-report plot --over-time: each test's rate per "
	      "interval (clyde\n# --log-interval), its p99 latency on the "
	      "right axis. Draw it again with:\n# gnuplot THIS-FILE.\n",
	      f);
	if (all > n)
		fprintf(f, "# The first %zu of %zu tests with intervals.\n", n,
			all);
	for (size_t k = 0; k < n; k++)
		write_block(f, &pn[k], k);
	if (svg)
		fprintf(f,
			"\nset terminal svg size %d,%d font 'Sans,10' "
			"noenhanced background '#ffffff'\n",
			cols * 700, rows * 420 + 40);
	else
		fprintf(f,
			"\nif (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) "
			"{ set terminal pngcairo noenhanced size %d,%d } "
			"else { set terminal png noenhanced size %d,%d }\n",
			cols * 700, rows * 420 + 40, cols * 700,
			rows * 420 + 40);
	fputs("set output ", f);
	plot_quote(f, out);
	fputs("\nset grid\nset key below\n", f);
	fprintf(f, "set multiplot layout %d,%d", rows, cols);
	if (title) {
		fputs(" title ", f);
		plot_quote(f, title);
	}
	fputc('\n', f);
	for (size_t k = 0; k < n; k++)
		write_panel(f, &pn[k], k);
	fputs("unset multiplot\nunset output\n", f);
	if (fclose(f) == EOF) {
		free(script);
		return NULL;
	}
	return script;
}

int report_plot_time(const struct report_set *set, const struct report_opts *o,
		     struct report_outs *outs, FILE *err)
{
	struct tpanel pn[TIME_PANELS_MAX];
	size_t all, n = find_panels(set, pn, &all), len, slen = 0;
	const int svg = !strcasecmp(strrchr(outs->f[0].path, '.'), ".svg");
	char title[LABEL_CHARS * 8 + 8];
	char *script = NULL, *saved = NULL;
	const char *t = NULL;
	int status = CLI_EXIT_FAILED;

	if (!n) {
		error_on(
		    err,
		    "plot: --over-time: no test in the input has intervals "
		    "(clyde --log-interval=MS --json writes them)");
		return CLI_EXIT_USAGE;
	}
	if (o->title) {
		plot_clean_text(title, sizeof(title), o->title,
				LABEL_CHARS * 2);
		t = title;
	}
	script = make_script(pn, n, all, svg, outs->f[0].tmp, t, &len);
	if (!script)
		goto nomem;
	if (o->script && outs->n > 1) {
		saved = make_script(pn, n, all, svg, outs->f[0].path, t, &slen);
		if (!saved)
			goto nomem;
	}
	status = plot_finish(script, len, saved, slen, outs, 1, o->script, err);
	goto out;
nomem:
	error_on(err, "plot: out of memory");
out:
	free(script);
	free(saved);
	return status;
}
