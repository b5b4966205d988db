/* SPDX-License-Identifier: GPL-2.0-or-later */
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

/* s as a gnuplot string expression, each '\n' in it a new line (for
 * titles of several lines): its lines as plot_quote quotes them, joined
 * by "\n". Nothing of s is ever inside double quotes, where gnuplot
 * would run a command in backquotes. */
void plot_quote_lines(FILE *f, const char *s);

/* The terminal and output lines of a script: width x height pixels. */
void plot_begin(FILE *script, const char *path, enum plot_format fmt,
		unsigned width, unsigned height);

/*
 * Run gnuplot (with --default-settings) on script[len], fed through a
 * pipe; its output is discarded. Returns 0, or -1 with why[] holding
 * "gnuplot failed: " and its reason (the error line gnuplot printed,
 * with the system error after it, or how it ended when it said
 * nothing), or the failing call. The script should have gnuplot write
 * to temporary names (outfile.h: of.tmp), renamed once it succeeded.
 */
int plot_run(const char *script, size_t len, char *why, size_t whylen);

/*
 * For a signal handler, before removing the temporary files gnuplot
 * writes: kills a gnuplot that plot_run() started and still waits for,
 * and reaps it, so it cannot write or make a file afterwards.
 * Async-signal-safe (kill and waitpid).
 */
void plot_signal_cleanup(void);

#endif
