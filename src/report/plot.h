/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot: what report_plot's parts share. plot_data.c makes the figures
 * of every panel from the rows (series, bars, units, axes); plot_draw.c
 * writes them as one gnuplot script; plot.c names the files and runs it
 * (plot_finish, which plot_time.c's --over-time shares).
 */
#ifndef CLYDE_REPORT_PLOT_H
#define CLYDE_REPORT_PLOT_H

#include <stddef.h>

#include "report.h"

/* Key labels longer than this many characters are cut ("..."). */
#define LABEL_CHARS 48
/*
 * With more bars to a panel (or a group of %CP) they are too thin to
 * carry their figure across: up to FIGURES_MAX it stands level above
 * the bar, up to 3 * FIGURES_MAX it is turned upright, beyond none.
 */
#define FIGURES_MAX 4

enum metric { M_RATE, M_CPU, M_LAT };

/* What each chart shows: its block names, title, the figures' kinds. */
struct panel {
	const char *block; /* the data blocks' prefix, without the '$' */
	const char *title;
	unsigned kinds; /* the figures it shows: bits 1 << RK_x */
	enum metric metric;
};

/*
 * The three charts: the rates (a small panel per figure, each in its
 * own unit), %CP (one panel, the tests grouped), the worst latency (a
 * small panel per figure).
 */
enum { P_RATE, P_CPU, P_LAT, P_COUNT };

#define K_ALL                                                                  \
	((1u << RK_IO) | (1u << RK_SEEK) | (1u << RK_FILE) | (1u << RK_OPS))

extern const struct panel plot_panels[P_COUNT];

/* %CP is drawn as one process's share: a figure over it stands at it. */
#define CPU_CAP 100

/* One bar colour each: one result, or the repeats of one setup. */
struct series {
	char label[LABEL_CHARS * 8 + 64];
	const size_t *idx;
	size_t n;
};

/* What one bar shows, in its panel's unit; NaN where it has nothing. */
struct bar {
	double fig, lo, hi;
	double extra; /* rates, %CP: 1 for "+++++" (no figure); latency: p99 */
};

/* One figure's small panel (of a chart of rates or latencies). */
struct fig {
	enum result_test test;
	const char *unit; /* "MiB/s", "files/s", "ms"... */
	double ytop;	  /* the axis' top; 0..ytop, linear */
	/* What it draws (gnuplot 5.4 crashes on a labels plot with no
	 * point to draw, so the script draws no plot of nothing): */
	int any_fig;  /* any bar with a figure (not only "+++++") */
	int any_fast; /* any "+++++" marker */
	int any_ci;   /* any error bar */
	int any_p99;  /* any p99 dot */
};

/* A chart's figures: the tests that have any, and a bar per series. */
struct pdata {
	struct fig fig[RT_COUNT];
	int ntests;
	struct bar *bar; /* [ntests * nseries] */
	int *slot;	 /* per series: its place in a panel or group,
			  * 1-based; 0 when it has nothing in this chart,
			  * so it leaves no gap and is not in the key */
	int nslots;
	int any_ci, any_p99, any_fast;
	/* %CP past CPU_CAP: a figure (several processes at once), or only
	 * the top of its CI (the figure itself under it); each is capped
	 * and marked, with a triangle of its own. */
	int any_over, any_over_ci;
	const char *title;
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
/* Chart pi's figures, bars, units and axes; -1 when out of memory. */
int plot_compute_panel(struct plot *p, int pi);
/* Whether chart pi has no bar at all. */
int plot_panel_empty(const struct plot *p, int pi);

/* A figure for a gnuplot data block: " NaN" as gnuplot reads it (not
 * known), else " %.6g". */
void plot_gp_num(FILE *f, double v);

/* A picture's width in pixels (plot_draw.c, plot_key.c). */
#define PLOT_PX_WIDTH 1400

/*
 * The key under a picture of charts [first, last] (plot_key.c): the
 * series drawn there, then the marks drawn (none without a series), in
 * columns of rows across the picture, each column as wide as the
 * longest entry.
 */
#define PLOT_KEY_MARKS 5
struct plot_key {
	const char *mark[PLOT_KEY_MARKS]; /* a mark's text; NULL when not
					     drawn */
	int entries, rows, cols;
	double step; /* pixels from a column to the next */
	int px;	     /* its height */
};

/* Lay out the key of charts [first, last] of p. */
void plot_key_of(const struct plot *p, int first, int last, struct plot_key *k);

/* Write key k, laid out by plot_key_of, in the band of its height at the
 * bottom of a picture of height pixels. */
void plot_key_write(FILE *f, const struct plot *p, int first, int last,
		    const struct plot_key *k, int height);

/*
 * The whole bar-chart script (plot_draw.c), its pictures going to
 * names[]: one, the page, or with split one per chart. NULL when out of
 * memory.
 */
char *plot_script(const struct plot *p, int split, const char *const *names,
		  const char *title, size_t *len);

/*
 * The end both kinds of plot share: saved (slen bytes, NULL for none)
 * written to outs->f[npics], the script run by gnuplot, and each of the
 * first npics outputs checked to be there and not empty. 0 or CLI_EXIT_FAILED.
 */
int plot_finish(const char *script, size_t len, const char *saved, size_t slen,
		struct report_outs *outs, int npics, const char *script_name,
		FILE *err);

#endif
