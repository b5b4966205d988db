/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chart: clyde-sweep's --plot. Two panels of grouped bars (write with
 * fsync, read with the cache evicted), one group per mode and block
 * size, one bar per stage; the data inline as datablocks, the script fed
 * to gnuplot on a pipe (gnuplot.h). Everything drawn comes from the
 * result (what ran), nothing from the options.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clock.h"
#include "gnuplot.h"
#include "sweep_prog.h"
#include "units.h"

/* One datablock: a row per mode and block size, a column per stage. */
static void plot_block(FILE *f, const char *name, const struct sweep_result *r,
		       int op)
{
	fprintf(f, "$%s << EOD\n", name);
	for (int m = 0; m < SWEEP_MODES; m++)
		for (unsigned b = 0; b < r->nbs; b++) {
			char bs[32];

			sweep_fmt_bs(bs, sizeof(bs), r->bs[b]);
			fprintf(f, "\"%s %s\"", sweep_mode_name(m), bs);
			for (unsigned s = 0; s < r->nstages; s++) {
				const struct sweep_cell *c =
				    &r->stage[s].cell[m][b][op];

				if (c->done)
					fprintf(f, " %.2f", sweep_mb_s(c));
				else
					fputs(" ?", f);
			}
			fputc('\n', f);
		}
	fputs("EOD\n", f);
}

int chart_draw(const struct sweep_result *r, const char *plot,
	       enum plot_format fmt, const char *out,
	       const volatile sig_atomic_t *stop)
{
	char *script = NULL, why[512], size[32];
	size_t len = 0;
	FILE *f = open_memstream(&script, &len);
	unsigned fast = 0;
	int rc;

	if (!f)
		return cli_error(PROG, "--plot '%s': %s", plot,
				 strerror(errno));
	for (unsigned s = 0; s < r->nstages; s++)
		for (int m = 0; m < SWEEP_MODES; m++)
			for (unsigned b = 0; b < r->nbs; b++)
				for (int op = 0; op < SWEEP_OPS; op++) {
					const struct sweep_cell *c =
					    &r->stage[s].cell[m][b][op];

					fast +=
					    c->done && clk_too_fast(c->seconds);
				}
	units_fmt_size(size, sizeof(size), r->size);
	plot_begin(f, out, fmt, 1100, 850);
	plot_block(f, "w", r, SWEEP_WRITE);
	plot_block(f, "r", r, SWEEP_READ);
	fputs("set datafile missing '?'\n"
	      "set style data histograms\n"
	      "set style histogram clustered gap 1\n"
	      "set style fill solid 0.85 border -1\n"
	      "set ylabel 'MB/s (10^6 bytes/s)'\n"
	      "set yrange [0:*]\nset grid ytics\n"
	      "set key outside right top\nset xtics nomirror\n",
	      f);
	fputs("set multiplot layout 2,1 title ", f);
	{
		char title[sizeof(r->target) + 128];

		snprintf(title, sizeof(title), "clyde-sweep: %s, %s per cell%s",
			 r->target, size,
			 fast ? " (some cells under 0.5 s: see the table)"
			      : "");
		plot_quote(f, title);
	}
	fputc('\n', f);
	for (int op = 0; op < SWEEP_OPS; op++) {
		fprintf(f, "set title '%s'\nplot",
			op == SWEEP_WRITE ? "write (fsync included)"
					  : "read (cache evicted first)");
		for (unsigned s = 0; s < r->nstages; s++) {
			fprintf(f, "%s $%c using %u%s title ", s ? "," : "",
				op == SWEEP_WRITE ? 'w' : 'r', s + 2,
				s ? "" : ":xtic(1)");
			plot_quote(f, r->stage[s].label);
		}
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
	if (fclose(f) != 0) {
		free(script);
		return cli_error(PROG, "--plot '%s': %s", plot,
				 strerror(errno));
	}
	rc = plot_run(script, len, why, sizeof(why));
	free(script);
	if (rc && !*stop)
		return cli_error(PROG, "--plot '%s': %s", plot, why);
	return 0;
}
