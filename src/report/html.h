/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html: the parts of clyde-report's page (report_html) shared by its
 * files: html.c the page and its notes, html_table.c bon_csv2html's
 * table with repeats collapsed, html_io.c the Random I/O section,
 * html_cmp.c the compare section and the settings that differ between
 * sides.
 */
#ifndef CLYDE_REPORT_HTML_H
#define CLYDE_REPORT_HTML_H

#include <stdio.h>

#include "report.h"
#include "svg.h"

/* What the parts of a page read: the set, the options and the sides
 * (report_sides; one side for a set of one name). */
struct html_page {
	const struct report_set *set;
	const struct report_opts *o;
	struct report_group *sides;
	size_t nsides;
};

/* What a cell's shade is taken from: the rate, %CP, the latency. */
enum html_col { HC_RATE, HC_CPU, HC_LAT, HC_COUNT };

/* A cell as the page shows it (html_mean.c). */
struct hcell {
	struct csv_cell c;	   /* state, rate, lat_ns and the texts shown */
	double cpu;		   /* %CP (a mean for repeats); -1 when none */
	char title[HC_COUNT][128]; /* the exact figures; "" for none */
};

/* A cell of one row, figure t. */
void html_cell_one(struct hcell *h, const struct csv_cell *c,
		   enum result_test t);
/* The cell of side g's means of figure t; x: set->n doubles. */
void html_cell_mean(struct hcell *h, const struct report_set *set,
		    const struct report_group *g, enum result_test t,
		    double *x);

/* The latency of c as its cell shows it; its percentiles under it
 * when it has them. */
void html_lat_pcts(FILE *out, const struct csv_cell *c);

/* Text with the five characters that mean something in HTML escaped,
 * control characters replaced: the charts' escape (svg_util.c), as
 * inline SVG is HTML. */
static inline void html_esc(FILE *out, const char *s)
{
	svg_esc(out, s);
}

/* A page's head, its style sheet and its title as <h1> (html.c). */
void html_head(FILE *out, const char *title);

/* Each returns 0 or -ENOMEM, having written what it could. */

/* The Random I/O section (html_io.c): each run's random-I/O figures'
 * response and service times, reads and writes, and schedule; nothing
 * when no run has them. */
void html_io(FILE *out, const struct report_set *set);

/* The table: a row per side (mean +- 95% CI of its repeats, the runs
 * in a <details> under it) and its legend. */
int html_table(FILE *out, const struct html_page *p);

/* With two sides or more: each side against the first, compare's
 * figures and verdicts (report_fig_of). */
int html_compare(FILE *out, const struct html_page *p);

/* The JSON settings whose values differ between the sides; nothing
 * when they agree or no side is from JSON, a line when one is. */
int html_settings(FILE *out, const struct html_page *p);

#endif
