/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * table: the human-readable tables, in bonnie++ 2.00's layout (the
 * default) or 1.03's, from a run_result. Byte-for-byte what bonnie++
 * prints, except that file-test rates are the real ones and that clyde's
 * own table never cuts a name (see table_print_rows). Cells and
 * headings follow the registry of figures (figures.h); figures bonnie++
 * has no column for get a section of their own after its table.
 */
#ifndef CLYDE_TABLE_H
#define CLYDE_TABLE_H

#include <stdio.h>

#include "result.h"

enum table_layout { TABLE_200, TABLE_103 };

/*
 * n results as rows of bonnie++'s table (r[0] gives the version and
 * units): the I/O block and, when file tests ran, the file block, one
 * head per block and a row each; then, when a figure bonnie++ has no
 * column for has a value, the lines of table_print_more, and a random-I/O
 * figure's own parts (table_print_io). Where bonnie++ cuts a name to
 * make room for its label ("buffe 512M:::163056"), the columns left of
 * the cells widen instead, for every line of both blocks, so that each
 * name is whole. With legend non-NULL and *legend 0, a size label with
 * more than the size ("512M:::163056") is explained in a line under the
 * blocks ("Size label: size:chunk:concurrency:seeks:seek procs ..."),
 * and *legend set; NULL: no such line.
 */
void table_print_rows(FILE *out, const struct run_result *const *r, size_t n,
		      enum table_layout layout, int *legend);

/*
 * bonnie++'s column headings of the I/O block (files 0) or the file
 * block (files 1), from the registry, each a line: the groups
 * ("------Sequential Output------ ..."), the columns ("-Per Chr- ...")
 * and the units (" /sec %CP ..."; "K/sec" for I/O in the 1.03 layout).
 * The caller prints the 20 (19 before units) columns to their left.
 */
void table_heads(FILE *out, int files);
void table_subs(FILE *out, int files);
void table_units(FILE *out, int files, enum table_layout layout);

/*
 * One renderer of bonnie++'s blocks, for clyde's own table (table_print_rows)
 * and clyde-report txt (bon_csv2txt's layout): a heading, then a row per
 * result. A row is its cells as a line holds them (csv_cell: state,
 * numbers and each field's text), its name and its label for the block.
 * What differs between the two is the style.
 */
struct csv_cell;
struct table_row {
	const char *name;
	const char *label;	  /* the size label (I/O) or files label */
	const struct csv_cell *c; /* RT_COUNT cells */
};

struct table_style {
	const char *io_version;	   /* the 20 columns left of the I/O heads */
	const char *files_version; /* left of the file heads (padded to 20) */
	const char *files_sub;	   /* left of the file columns (padded) */
	const char *files_units;   /* the 19 columns left of the file units */
	int files_name;		   /* file rows start with the name */
	int always_latency;	   /* 2.00: a Latency line even when empty */
	int seek_tenths;	   /* 1.03: seeks/s always with one decimal,
				    * as bonnie++ 1.03 printed them */
	int label_width; /* the columns left of the cells when more than
			  * bonnie++'s 19, every line of the block widened
			  * alike; 0: 19, a name cut to make room for its
			  * label, as bonnie++ and bon_csv2txt do */
};

/* Whether the row has a cell in the I/O block (files 0) or file block. */
int table_block_any(const struct csv_cell *c, int files);
void table_block_head(FILE *out, int files, enum table_layout layout,
		      const struct table_style *st);
/* The row's cells and, in the 2.00 layout, its Latency line. */
void table_block_row(FILE *out, const struct table_row *row, int files,
		     enum table_layout layout, const struct table_style *st);

/*
 * The figures bonnie++ has no column for, a line each that has a value
 * in c[RT_COUNT] (name, test, rate as the CSV field would be, unit, %CP,
 * worst latency), under a heading printed first when *head is 0 (it is
 * set then). Nothing when no such figure has a value.
 */
void table_print_more(FILE *out, const char *name, const struct csv_cell *c,
		      int *head);

/*
 * The latency distribution of every test that ran and recorded one:
 * min, mean, p50, p90, p99, p99.9, max and the operation count.
 */
void table_print_latency(FILE *out, const struct run_result *r);

/* One row of that table: label in 13 columns, then h's figures. */
void table_latency_row(FILE *out, const char *label, const struct hist *h);

/* Under a random-I/O figure's row of that table (table_io.c): its
 * service times ("  service") and, when it did both, its reads and
 * writes ("  read", "  write"), each when recorded. */
void table_latency_io_rows(FILE *out, const struct result_test_rec *rec);

/*
 * A random-I/O figure's own parts (table_io.c), a section of its own
 * under a heading printed first when *head is 0 (it is set then): per
 * test that has them, its response times (p50, p99, p99.9 and max of
 * its cell in c[RT_COUNT], r's shown part) and service times, its reads' and
 * writes' IOPS and times when it did both, and an offered rate's schedule.
 * Nothing for tests without them.
 */
void table_print_io(FILE *out, const char *name, const struct run_result *r,
		    const struct csv_cell *c, int *head);

/*
 * The write-cache cliff (table_cliff.c) of each figure of r that looked
 * for one, a section of its own under a heading printed first when *head
 * is 0 (it is set then): burst and sustained MiB/s, the MiB absorbed and
 * when the rate fell, or "no cliff:" and why.
 */
void table_print_cliff(FILE *out, const char *name, const struct run_result *r,
		       int *head);

/* Where table_io_walk sends a random-I/O figure's parts: a row of a
 * part's IOPS (negative: none) and p50, p99, p99.9 and max (0: not
 * known), and an offered rate's schedule. */
struct table_io_sink {
	void (*row)(void *arg, enum result_test t, const char *part,
		    double iops, const uint64_t v[4]);
	void (*sched)(void *arg, enum result_test t,
		      const struct result_sched *s);
};

/* The parts table_print_io prints, in its order, to k (each format
 * draws them its own way). */
void table_io_walk(const struct run_result *r, const struct csv_cell *c,
		   const struct table_io_sink *k, void *arg);

/* A schedule after its rate: "poisson: 4000 due, 2000 issued (50.0%
 * never), 1998 late (99.9% of issued)". */
void table_io_sched_text(char *buf, size_t len, const struct result_sched *s);

/*
 * With several workers (-c N, several -d): each test's rate when the
 * first worker ended (the work of all by then) and when the last did,
 * each with its time from the first start; nothing without them.
 */
void table_print_spans(FILE *out, const struct run_result *r);

/*
 * Repeat statistics: for each test, over the runs where it ran (rate[i]
 * is the rate of run i, NaN when it did not run): mean, standard
 * deviation, min, max and the 95% confidence interval of the mean.
 */
void table_print_summary(FILE *out, unsigned nruns,
			 const double (*rate)[RT_COUNT]);

/* Parse "2.00" / "1.03" (as --format takes them); -1 when unknown. */
int table_layout_parse(const char *s, enum table_layout *out);

#endif
