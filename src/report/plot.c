/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_plot: bar charts of any set of results, drawn by gnuplot: the
 * rates (a small panel per figure), %CP (one panel) and the worst
 * latency (a panel per figure), all on linear axes from 0; a series is
 * one name in one input, so repeats (lines of one name in one input, the
 * runs of one JSON document) make one bar at their mean with an error
 * bar over its 95% confidence interval. plot_data.c makes the figures,
 * plot_draw.c the script (see there for what is drawn and why).
 *
 * The pictures: by default one, -o FILE itself, every chart on one page
 * (--page says so, as it did when the default was one file per chart);
 * --split, one file per chart, FILE-throughput, FILE-cpu and
 * FILE-latency, and no FILE. The whole script is made first, the
 * figures inline as data blocks, so --script saves a file that draws
 * the same pictures again; it holds no date or version. This file names
 * the files, runs gnuplot and checks what it drew (plot_finish, shared
 * with plot_time.c).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gnuplot.h"
#include "plot.h"

/* --split's files: out-SUFFIX.png, one per chart, in chart order. */
static const char *const suffixes[P_COUNT] = {"throughput", "cpu", "latency"};

void plot_gp_num(FILE *f, double v)
{
	if (isnan(v))
		fputs(" NaN", f);
	else
		fprintf(f, " %.6g", v);
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
		error_on(err,
			 "plot: %s: the picture must be a .png or .svg file",
			 output);
		return CLI_EXIT_USAGE;
	}
	if (has_control(output) || (o->script && has_control(o->script))) {
		error_on(err, "plot: a file name with control characters");
		return CLI_EXIT_USAGE;
	}
	if (!o->split)
		names[(*n)++] = strdup(output);
	else
		for (int k = 0; k < P_COUNT; k++)
			names[(*n)++] = chart_name(
			    output, (size_t)(dot - output), suffixes[k]);
	if (o->script)
		names[(*n)++] = strdup(o->script);
	for (int k = 0; k < *n; k++) {
		if (!names[k]) {
			error_on(err, "plot: out of memory");
			goto fail;
		}
		if (o->script && k < *n - 1 &&
		    (!strcmp(o->script, names[k]) ||
		     outfile_same(o->script, names[k]))) {
			error_on(err, "plot: %s: both the script and a picture",
				 o->script);
			goto fail;
		}
	}
	/* Before any file is made: without gnuplot there is nothing to do. */
	gnuplot = plot_find_gnuplot();
	if (!gnuplot) {
		error_on(err, "plot: gnuplot not found; install it (Debian: "
			      "apt-get install gnuplot-nox)");
		goto fail;
	}
	free(gnuplot);
	return 0;
fail:
	for (int k = 0; k < *n; k++)
		free(names[k]);
	*n = 0;
	return CLI_EXIT_USAGE;
}

int plot_finish(const char *script, size_t len, const char *saved, size_t slen,
		struct report_outs *outs, int npics, const char *script_name,
		FILE *err)
{
	char why[600];

	if (saved) {
		FILE *f = outfile_stream(&outs->f[npics]);

		errno = 0;
		if (!f || fwrite(saved, 1, slen, f) != slen) {
			error_on(err, "plot: %s: %s", script_name,
				 strerror(errno ? errno : EIO));
			return CLI_EXIT_FAILED;
		}
	}
	if (plot_run(script, len, why, sizeof(why)) < 0) {
		error_on(err, "plot: %s", why);
		return CLI_EXIT_FAILED;
	}
	for (int k = 0; k < npics; k++) {
		struct stat st;

		if (stat(outs->f[k].tmp, &st) < 0 || st.st_size == 0) {
			error_on(err, "plot: %s: gnuplot left it empty",
				 outs->f[k].path);
			return CLI_EXIT_FAILED;
		}
	}
	return 0;
}

int report_plot(const struct report_set *set, const struct report_opts *o,
		struct report_outs *outs, FILE *err)
{
	const char *output = o->output ? o->output : "clyde-report.png";
	struct plot p = {.set = set};
	struct report_group **groups = NULL;
	size_t *ngroups = NULL, ninputs = 0, len = 0, slen = 0;
	const int npics = o->split ? P_COUNT : 1;
	const char *finals[P_COUNT], *tmps[P_COUNT];
	char *script = NULL, *saved = NULL;
	char title[LABEL_CHARS * 8 + 8];
	const char *t = NULL;
	int status = CLI_EXIT_FAILED;

	if (o->over_time)
		return report_plot_time(set, o, outs, err);
	if (outs->n != npics + (o->script ? 1 : 0))
		goto nomem; /* not the files report_plot_files named */
	for (int k = 0; k < npics; k++) {
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
		plot_clean_text(title, sizeof(title), o->title,
				LABEL_CHARS * 2);
		t = title;
	}
	script = plot_script(&p, o->split, tmps, t, &len);
	if (o->script && script)
		saved = plot_script(&p, o->split, finals, t, &slen);
	if (!script || (o->script && !saved))
		goto nomem;
	status =
	    plot_finish(script, len, saved, slen, outs, npics, o->script, err);
	goto out;
nomem:
	error_on(err, "plot: out of memory");
	status = CLI_EXIT_FAILED;
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
