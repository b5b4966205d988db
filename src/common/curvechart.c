/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * curvechart: see curvechart.h.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curvechart.h"
#include "gnuplot.h"

/* Okabe and Ito's colour-blind-safe colours, as the page's. */
static const char *const palette[] = {"#0072B2", "#E69F00", "#009E73",
				      "#CC79A7", "#56B4E9", "#D55E00"};

char *curvechart_script(const struct curve_result *const *rs, size_t n,
			enum curve_stat st, const struct curve_target *target,
			const char *title, int log_y, enum plot_format fmt,
			const char *path, size_t *len)
{
	struct curve_line *lines = calloc(n ? n : 1, sizeof(*lines));
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	double hi = 0, div;

	if (!f || !lines) {
		if (f)
			fclose(f);
		free(buf);
		free(lines);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		curve_line_of(rs[i], st, &lines[i]);
	for (size_t i = 0; i < n; i++)
		for (unsigned k = 0; k < lines[i].n; k++)
			hi = fmax(hi, lines[i].y[k]);
	if (target->on && !log_y && hi > 5.0 * target->ns)
		hi = 5.0 * target->ns;
	if (target->on)
		hi = fmax(hi, 1.2 * target->ns);
	div = hi >= 2e6 ? 1e6 : 1e3;
	plot_begin(f, path, fmt, 1000, 600);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "$C%zu << EOD\n", i);
		for (unsigned k = 0; k < lines[i].n; k++)
			fprintf(f, "%.6g %.6g\n", lines[i].x[k],
				lines[i].y[k] / div);
		fputs("EOD\n", f);
	}
	fputs("set title ", f);
	plot_quote(f, title ? title : "latency against load");
	fprintf(f,
		"\nset xlabel 'achieved IOPS'\nset ylabel '%s response "
		"time (%s)'\nset grid\nset key top left\nset xrange [0:*]\n",
		curve_stat_name(st), div == 1e6 ? "ms" : "us");
	if (log_y)
		fputs("set logscale y\n", f);
	else
		fprintf(f, "set yrange [0:%.6g]\n", hi / div * 1.05);
	if (target->on) {
		char t[64];

		curve_target_text(target, t, sizeof(t));
		fprintf(
		    f,
		    "set arrow from graph 0, first %.6g to graph 1, first "
		    "%.6g nohead dt 2 lw 2 lc rgb '#D55E00'\n"
		    "set label 'target: %s' at graph 0.99, first %.6g right "
		    "offset 0, 0.7 tc rgb '#D55E00'\n",
		    target->ns / div, target->ns / div, t, target->ns / div);
	}
	fputs("plot ", f);
	for (size_t i = 0; i < n; i++) {
		const char *c =
		    palette[i % (sizeof(palette) / sizeof(*palette))];

		fprintf(f,
			"%s$C%zu using 1:2 with linespoints lw 2 pt 7 lc rgb "
			"'%s' title ",
			i ? ", " : "", i, c);
		plot_quote(f, rs[i]->name);
		if (isfinite(lines[i].knee) && target->on) {
			fprintf(f,
				", '+' using (%.6g):(%.6g) every ::0::0 with "
				"points pt 13 ps 2.5 lc rgb '%s' title ",
				lines[i].knee, target->ns / div, c);
			fprintf(f, "'knee %.0f IOPS'", lines[i].knee);
		}
	}
	fputs("\n", f);
	free(lines);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
