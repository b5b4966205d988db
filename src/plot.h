/*
 * plot: charts drawn by gnuplot, for clyde-zcav (throughput by
 * position), clyde-sweep (the dd matrix as grouped bars) and
 * clyde-report plot. The caller
 * writes a gnuplot script (data inline, as datablocks) and plot_run
 * feeds it to gnuplot on a pipe, so no temporary file is left anywhere.
 * The output format follows the file name: .png or .svg.
 */
#ifndef CLYDE_PLOT_H
#define CLYDE_PLOT_H

#include <stddef.h>
#include <stdio.h>

enum plot_format { PLOT_PNG, PLOT_SVG };

/* What to tell a user without gnuplot. */
#define PLOT_INSTALL_HINT                                                      \
	"gnuplot not found; install gnuplot (Debian: apt-get install "         \
	"gnuplot-nox)"

/*
 * Check a --plot value before any work: a name ending in .png or .svg
 * (either case), and gnuplot on PATH. Returns 0, or -1 with why[] set.
 */
int plot_prepare(const char *path, enum plot_format *fmt, char *why,
		 size_t whylen);

/* The path of gnuplot on PATH (malloc'd), or NULL when it is not there. */
char *plot_find_gnuplot(void);

/* s as a gnuplot single-quoted string (a quote doubled). */
void plot_quote(FILE *f, const char *s);

/* The terminal and output lines of a script: width x height pixels. */
void plot_begin(FILE *script, const char *path, enum plot_format fmt,
		unsigned width, unsigned height);

/*
 * Run gnuplot (with --default-settings) on script[len], fed through a
 * pipe; its output is discarded. Returns 0, or -1 with why[] holding
 * gnuplot's first error line or the failing call.
 */
int plot_run(const char *script, size_t len, char *why, size_t whylen);

#endif
