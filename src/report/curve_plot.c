/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_curve_plot: clyde-curve documents drawn by gnuplot, html's
 * chart (curve_html.c) as one picture, from the script clyde-curve's
 * --plot draws too (common/curvechart.c); --script saves it.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "curve.h"
#include "curvechart.h"
#include "plot.h"

int report_curve_plot(const struct report_set *set, const struct report_opts *o,
		      struct report_outs *outs, FILE *err)
{
	const struct curve_result *base = set->docs[0].curve;
	enum curve_stat st = report_curve_stat(base);
	const struct curve_result **rs;
	enum plot_format fmt;
	const char *ext;
	char *script = NULL, *saved = NULL;
	size_t len = 0, slen = 0;
	int status;

	if (o->split || o->over_time) {
		error_on(err, "plot: %s: curves are drawn as one picture",
			 o->split ? "--split" : "--over-time");
		return CLI_EXIT_USAGE;
	}
	if (!(rs = calloc(set->ndocs, sizeof(*rs)))) {
		error_on(err, "plot: out of memory");
		return CLI_EXIT_FAILED;
	}
	for (size_t i = 0; i < set->ndocs; i++)
		rs[i] = set->docs[i].curve;
	/* The format of the name asked for, not of its temporary file. */
	ext = strrchr(outs->f[0].path, '.');
	fmt = ext && !strcasecmp(ext, ".svg") ? PLOT_SVG : PLOT_PNG;
	script = curvechart_script(rs, set->ndocs, st, &base->target, o->title,
				   o->log_y, fmt, outs->f[0].tmp, &len);
	if (script && o->script)
		saved = curvechart_script(rs, set->ndocs, st, &base->target,
					  o->title, o->log_y, fmt,
					  outs->f[0].path, &slen);
	if (!script || (o->script && !saved)) {
		error_on(err, "plot: out of memory");
		status = CLI_EXIT_FAILED;
	} else {
		status = plot_finish(script, len, saved, slen, outs, 1,
				     o->script, err);
	}
	free(script);
	free(saved);
	free(rs);
	return status;
}
