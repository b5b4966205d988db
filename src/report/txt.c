/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_txt: the tables as bon_csv2txt prints them. In the 2.00 layout
 * every line's I/O figures come first under one header, then every
 * line's file-test figures under another, each with its Latency line;
 * the output is bon_csv2txt 2.00's byte for byte, except that a
 * "+++++" rate stays "+++++" where bon_csv2txt prints "0k". The 1.03
 * layout prints plain KiB/s, as bonnie++ 1.03 did, and no latencies.
 * The blocks are drawn by lib/table.c's renderer, the one clyde's own
 * table uses, in bon_csv2txt's style; the cells print the fields as the
 * line wrote them. Columns and headings come from the registry
 * (figures.h); the figures
 * bonnie++ has no column for, which only clyde's JSON documents carry,
 * follow in a section of their own (table_print_more), a random-I/O
 * figure's service times, reads and writes and schedule in another
 * (table_print_io), and a run
 * holding another program's figure then has its ratio line (ratio.c,
 * extfig.h's against). With --latency, each run that holds latency histograms
 * (a clyde JSON document's) then gets clyde -v's latency listing, under its
 * name.
 */
#include "config.h"

#include "curve.h"
#include "report.h"

/* bon_csv2txt's headings: a fixed version, no name above the files. */
static const struct table_style styles[2] = {
    [TABLE_200] = {.io_version = "Version     2.00a   ",
		   .files_version = "",
		   .files_sub = "",
		   .files_units = "      files:max:min",
		   .files_name = 1},
    [TABLE_103] = {.io_version = "Version  1.03       ",
		   .files_version = "",
		   .files_sub = "",
		   .files_units = "              files",
		   .files_name = 1},
};

/* Whether r holds a histogram of a test that ran. */
static int has_hist(const struct run_result *r)
{
	for (enum result_test t = 0; t < RT_COUNT; t++)
		if (r->t[t].state == RS_OK && r->t[t].lat && r->t[t].lat->count)
			return 1;
	return 0;
}

/* --latency: "name (file, run k)" and clyde -v's listing, per run. */
static void print_latency(FILE *out, const struct report_set *set, FILE *err)
{
	size_t shown = 0, k = 0;

	for (size_t i = 0; i < set->n; i++) {
		const struct report_row *row = &set->rows[i];

		k = i && row->file == set->rows[i - 1].file ? k + 1 : 0;
		if (!has_hist(&row->res))
			continue;
		fprintf(out, "\n%s (%s, run %zu)\n", row->res.name, row->file,
			k + 1);
		shown++;
		table_print_latency(out, &row->res);
	}
	/* Curve documents print their percentiles in their tables. */
	if (!shown && report_curves_alone(set) != 1)
		warning_on(err, "warning: --latency: no input holds "
				"latency histograms (clyde JSON documents do)");
}

/* The tables of rows [first, last). */
static void txt_rows(FILE *out, const struct report_set *set, size_t first,
		     size_t last, const struct report_opts *o)
{
	const struct table_style *st = &styles[o->layout];
	char label[CSV_TEXT_MAX * 5 + 8];
	int more = 0;

	for (int files = 0; files < 2; files++) {
		int head = 0;

		for (size_t i = first; i < last; i++) {
			const struct run_result *r = &set->rows[i].res;
			struct table_row row = {r->name, label, r->c};

			if (!table_block_any(r->c, files))
				continue;
			if (!head++)
				table_block_head(out, files, o->layout, st);
			if (files)
				report_file_label(r, label, sizeof(label));
			else
				report_io_label(r, o->layout, label,
						sizeof(label));
			table_block_row(out, &row, files, o->layout, st);
		}
	}
	/* Then what bonnie++ has no column for (clyde JSON only). */
	for (size_t i = first; i < last; i++)
		table_print_more(out, set->rows[i].res.name, set->rows[i].res.c,
				 &more);
	/* A random-I/O figure's service times, kinds and schedule. */
	more = 0;
	for (size_t i = first; i < last; i++)
		table_print_io(out, set->rows[i].res.name, &set->rows[i].res,
			       set->rows[i].res.c, &more);
	/* The write-cache cliff of the figures that write. */
	more = 0;
	for (size_t i = first; i < last; i++)
		table_print_cliff(out, set->rows[i].res.name, &set->rows[i].res,
				  &more);
	/* Another program's figures against what they are measured
	 * against, under the name in the More figures rows' 19 columns. */
	for (size_t i = first; i < last; i++) {
		char ratio[200];

		for (enum result_test t = 0; t < RT_COUNT; t++)
			if (report_ratio(set, &i, 1, t, ratio, sizeof(ratio)))
				fprintf(out, "%-19.19s %s\n",
					set->rows[i].res.name, ratio);
	}
}

/*
 * In input order: the rows between two clyde-zcav or clyde-sweep
 * documents as one set of tables, each document as its program printed
 * it.
 */
int report_txt(FILE *out, const struct report_set *set,
	       const struct report_opts *o, FILE *err)
{
	size_t first = 0;

	for (size_t d = 0; d <= set->ndocs; d++) {
		size_t last = d < set->ndocs ? set->docs[d].at : set->n;

		txt_rows(out, set, first, last, o);
		first = last;
		if (d < set->ndocs)
			report_doc_txt(out, &set->docs[d]);
	}
	if (o->latency)
		print_latency(out, set, err);
	return 0;
}
