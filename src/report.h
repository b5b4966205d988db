/*
 * report: clyde-report's shared pieces. Every input (CSV lines of any
 * bonnie++ format, clyde JSON documents) becomes a list of rows in input
 * order; the renderers (txt, html, compare, plot) read that list and
 * nothing else.
 */
#ifndef CLYDE_REPORT_H
#define CLYDE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "csv.h"
#include "table.h"

struct report_row {
	struct csv_row row;
	const char *file; /* as named on the command line; "-" for stdin */
	int line;	  /* 1-based line of the CSV line or JSON document */
};

struct report_set {
	struct report_row *rows;
	size_t n, cap;
};

/*
 * A group of rows: one side of a comparison, one bar group of a plot.
 * Rows of one input with the same name are repeats of one setup.
 */
struct report_group {
	const char *name;
	size_t *idx; /* indexes into the set's rows */
	size_t n;
};

struct report_opts {
	enum table_layout layout; /* txt: --format */
	const char *output;	  /* html, plot: -o FILE ("-" stdout) */
	const char *script;	  /* plot: --script FILE */
	const char *title;	  /* html, plot: --title */
	int page;		  /* plot: --page, all charts in one file */
	int csv;		  /* compare: --csv */
	double alpha;		  /* compare: --alpha, 0.05 */
};

/*
 * The most rows all inputs together give. A row takes some 2.6 KiB and a
 * 1.03 line can be 27 bytes, so without a bound a large input of short
 * lines would ask for a hundred times its size in memory.
 */
#define REPORT_ROWS_MAX 200000

/*
 * Append the rows of one input (a whole file's bytes). name is used in
 * messages. With skip_bad a bad line is a warning on err; else the first
 * bad line is reported and -1 returned. More than REPORT_ROWS_MAX rows
 * is an error either way. Returns 0 or -1.
 */
int report_load(struct report_set *set, const char *name, const char *buf,
		size_t len, int skip_bad, FILE *err);

void report_free(struct report_set *set);

/*
 * Group the rows of rows [first, last) by name, in order of first
 * appearance. Returns the number of groups (*groups malloc'd, free with
 * report_groups_free).
 */
size_t report_group(const struct report_set *set, size_t first, size_t last,
		    struct report_group **groups);
void report_groups_free(struct report_group *groups, size_t n);

/*
 * The figure of a cell as a number for comparing and plotting: the
 * exact rate when known (JSON), else the line's rate; NaN for an empty
 * cell or a "+++++" without an exact rate.
 */
double report_rate(const struct csv_cell *c);

/*
 * The labels of a row as the tables show them: "2G::8192:5" (size,
 * chunk, seeks, procs; "2G:64k" in the 1.03 layout) and "4:2000:100/3"
 * (num_files[:max][:min][/dirs][:chunk]).
 */
void report_io_label(const struct csv_row *r, enum table_layout layout,
		     char *buf, size_t len);
void report_file_label(const struct csv_row *r, char *buf, size_t len);

/*
 * The renderers; each returns the exit status: 0, 1 when the output
 * could not be made, 2 for a usage error (after one line on err).
 */
int report_txt(FILE *out, const struct report_set *set,
	       const struct report_opts *o, FILE *err);
int report_html(FILE *out, const struct report_set *set,
		const struct report_opts *o, FILE *err);
/* inputs[i] is the first row of input i; ninputs of them. */
int report_compare(FILE *out, const struct report_set *set,
		   const size_t *inputs, size_t ninputs,
		   const struct report_opts *o, FILE *err);
int report_plot(const struct report_set *set, const struct report_opts *o,
		FILE *err);

#endif
