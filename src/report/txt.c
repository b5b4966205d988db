/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_txt: the tables as bon_csv2txt prints them. In the 2.00 layout
 * every line's I/O figures come first under one header, then every
 * line's file-test figures under another, each with its Latency line;
 * the output is bon_csv2txt 2.00's byte for byte, except that a
 * "+++++" rate stays "+++++" where bon_csv2txt prints "0k". The 1.03
 * layout prints plain KiB/s, as bonnie++ 1.03 did, and no latencies.
 * Columns and headings come from the registry (figures.h); the figures
 * bonnie++ has no column for, which only clyde's JSON documents carry,
 * follow in a section of their own (table_print_more).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "units.h"

/* The width of the name-and-label cell. */
#define DESC_WIDTH 19

/*
 * The name, cut to leave room for the label, then the label; the label
 * alone when it is 18 characters or more.
 */
static void print_desc(FILE *out, const char *name, const char *label)
{
	size_t ll = strlen(label);

	if (ll < DESC_WIDTH - 1) {
		int room = (int)(DESC_WIDTH - 1 - ll);

		fprintf(out, "%-*.*s %s", room, room, name, label);
	} else {
		fprintf(out, "%*s", DESC_WIDTH, label);
	}
}

/* An I/O rate cell: k/m/g in the 2.00 layout, plain KiB/s in 1.03. */
static void io_rate(char *buf, size_t len, const struct csv_cell *c,
		    enum table_layout layout)
{
	if (c->state != CSV_VALUE || layout == TABLE_103) {
		snprintf(buf, len, "%s", c->text);
		return;
	}
	units_fmt_rate(buf, len, (uint64_t)c->rate);
}

/* Figure t is in the I/O block (files 0) or file block (1). */
static int in_block(enum result_test t, int files)
{
	return figure_bonnie(t) && figure_is_file(t) == files;
}

static void print_cells(FILE *out, const struct csv_row *r, int files,
			enum table_layout layout)
{
	char rate[32];

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		const struct csv_cell *c = &r->c[t];

		if (!in_block(t, files))
			continue;
		if (result_test_kind(t) == RK_IO)
			io_rate(rate, sizeof(rate), c, layout);
		else
			snprintf(rate, sizeof(rate), "%s", c->text);
		fprintf(out, " %5s %3s", rate, c->cpu_text);
	}
	fputc('\n', out);
}

static int any_cell(const struct csv_row *r, int files)
{
	for (enum result_test t = 0; t < RT_COUNT; t++)
		if (in_block(t, files) &&
		    (r->c[t].state != CSV_EMPTY || r->c[t].cpu_text[0]))
			return 1;
	return 0;
}

static void print_latency(FILE *out, const struct csv_row *r, int files)
{
	int any = 0;

	/* A 1.03 line has no latency fields, and so no line. */
	for (enum result_test t = 0; t < RT_COUNT; t++)
		any |= in_block(t, files) && r->c[t].lat_text[0] != '\0';
	if (!any)
		return;
	fprintf(out, "Latency          ");
	for (enum result_test t = 0; t < RT_COUNT; t++)
		if (in_block(t, files))
			fprintf(out, " %9s", r->c[t].lat_text);
	fputc('\n', out);
}

/* The three heading lines of a block, as bon_csv2txt prints them. */
static void heading(FILE *out, int files, enum table_layout layout)
{
	if (files)
		fprintf(out, "%20s", "");
	else
		fputs(layout == TABLE_200 ? "Version     2.00a   "
					  : "Version  1.03       ",
		      out);
	table_heads(out, files);
	fprintf(out, "%20s", "");
	table_subs(out, files);
	if (files)
		fputs(layout == TABLE_200 ? "      files:max:min"
					  : "              files",
		      out);
	else
		fputs(layout == TABLE_200 ? "Name:Size etc      "
					  : "Machine        Size",
		      out);
	table_units(out, files, layout);
}

int report_txt(FILE *out, const struct report_set *set,
	       const struct report_opts *o, FILE *err)
{
	char label[CSV_TEXT_MAX * 5 + 8];
	int more = 0;

	(void)err;
	for (int files = 0; files < 2; files++) {
		int head = 0;

		for (size_t i = 0; i < set->n; i++) {
			const struct csv_row *r = &set->rows[i].row;

			if (!any_cell(r, files))
				continue;
			if (!head++)
				heading(out, files, o->layout);
			if (files)
				report_file_label(r, label, sizeof(label));
			else
				report_io_label(r, o->layout, label,
						sizeof(label));
			print_desc(out, r->name, label);
			print_cells(out, r, files, o->layout);
			if (o->layout == TABLE_200)
				print_latency(out, r, files);
		}
	}
	/* Then what bonnie++ has no column for (clyde JSON only). */
	for (size_t i = 0; i < set->n; i++)
		table_print_more(out, set->rows[i].row.name,
				 set->rows[i].row.c, &more);
	return 0;
}
