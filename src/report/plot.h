/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot: what report_plot's two halves share. plot_data.c makes the
 * figures of every panel from the rows (series, bars, axes); plot.c
 * writes them as one gnuplot script and runs it.
 */
#ifndef CLYDE_REPORT_PLOT_H
#define CLYDE_REPORT_PLOT_H

#include <stddef.h>

#include "report.h"

/* Key labels longer than this many characters are cut ("..."). */
#define LABEL_CHARS 48
/* With more bars to a group they are too thin to carry their figure. */
#define FIGURES_MAX 4

enum metric { M_RATE, M_CPU, M_LAT };

struct panel {
	const char *block; /* the data block's name, without the '$' */
	const char *title;
	unsigned kinds; /* the figures it shows: bits 1 << RK_x */
	enum metric metric;
};

enum { P_IO, P_OPS, P_CPU, P_LAT, P_COUNT };

/* Figures in bytes (drawn in MiB/s), and in operations or files. */
#define K_IO  (1u << RK_IO)
#define K_OPS ((1u << RK_SEEK) | (1u << RK_FILE) | (1u << RK_OPS))

/* The four panels: throughput of bytes, of operations, %CP, latency. */
extern const struct panel plot_panels[P_COUNT];

/* One bar colour each: one result, or the repeats of one setup. */
struct series {
	char label[LABEL_CHARS * 8 + 64];
	const size_t *idx;
	size_t n;
};

/* What one bar shows; NaN where it has nothing. */
struct bar {
	double fig, lo, hi;
	double extra; /* rates, %CP: 1 for "+++++"; latency: p99 */
};

/* A panel's figures: the tests that have any, and a bar per result. */
struct pdata {
	enum result_test test[RT_COUNT];
	int ntests;
	struct bar *bar; /* [ntests * nseries] */
	int *slot;	 /* per result: its place in a group, 1-based; 0 when
			  * it has nothing here, so it leaves no gap */
	int nslots;
	double ybot, ytop;
	int log, any_ci, any_p99, any_fast;
	const char *title, *ylabel;
};

/* Everything the script is made from. */
struct plot {
	const struct report_set *set;
	struct series *series;
	size_t nseries;
	struct pdata pd[P_COUNT];
	int svg;
};

/*
 * Text shown in a picture into dst[len]: valid UTF-8 kept, other bytes
 * '?', control characters ' ', cut to max characters with "...".
 */
void plot_clean_text(char *dst, size_t len, const char *src, size_t max);
/*
 * The series: the groups of each input in order (groups, ngroups and
 * ninputs for the caller to free with report_groups_free); -1 when out
 * of memory.
 */
int plot_make_series(struct plot *p, struct report_group ***groups,
		     size_t **ngroups, size_t *ninputs);
/* Each series' key label. */
void plot_label_series(struct plot *p);
/* Panel pi's figures, bars and axis; -1 when out of memory. */
int plot_compute_panel(struct plot *p, int pi);
/* Whether panel pi has no bar at all. */
int plot_panel_empty(const struct plot *p, int pi);

/* A figure for a gnuplot data block: " NaN" as gnuplot reads it (not
 * known), else " %.6g". */
void plot_gp_num(FILE *f, double v);

#endif
