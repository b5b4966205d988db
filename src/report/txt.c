/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_txt: the tables as bon_csv2txt prints them. In the 2.00 layout
 * every line's I/O figures come first under one header, then every
 * line's file-test figures under another, each with its Latency line;
 * the output is bon_csv2txt 2.00's byte for byte, except that a
 * "+++++" rate stays "+++++" where bon_csv2txt prints "0k". The 1.03
 * layout prints plain KiB/s, as bonnie++ 1.03 did, and no latencies.
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

static void print_cells(FILE *out, const struct csv_row *r,
			enum result_test first, enum result_test last,
			enum table_layout layout)
{
	char rate[32];

	for (enum result_test t = first; t < last; t++) {
		const struct csv_cell *c = &r->c[t];

		if (result_test_kind(t) == RK_IO)
			io_rate(rate, sizeof(rate), c, layout);
		else
			snprintf(rate, sizeof(rate), "%s", c->text);
		fprintf(out, " %5s %3s", rate, c->cpu_text);
	}
	fputc('\n', out);
}

static int any_cell(const struct csv_row *r, enum result_test first,
		    enum result_test last)
{
	for (enum result_test t = first; t < last; t++)
		if (r->c[t].state != CSV_EMPTY || r->c[t].cpu_text[0])
			return 1;
	return 0;
}

static void print_latency(FILE *out, const struct csv_row *r,
			  enum result_test first, enum result_test last)
{
	int any = 0;

	/* A 1.03 line has no latency fields, and so no line. */
	for (enum result_test t = first; t < last; t++)
		any |= r->c[t].lat_text[0] != '\0';
	if (!any)
		return;
	fprintf(out, "Latency          ");
	for (enum result_test t = first; t < last; t++)
		fprintf(out, " %9s", r->c[t].lat_text);
	fputc('\n', out);
}

static const char io_head_200[] =
    "Version     2.00a   ------Sequential Output------ --Sequential Input- "
    "--Random-\n"
    "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- "
    "--Seeks--\n"
    "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  "
    "/sec %CP\n";
static const char io_head_103[] =
    "Version  1.03       ------Sequential Output------ --Sequential Input- "
    "--Random-\n"
    "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- "
    "--Seeks--\n"
    "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  "
    "/sec %CP\n";
static const char file_head_200[] =
    "                    ------Sequential Create------ --------Random "
    "Create--------\n"
    "                    -Create-- --Read--- -Delete-- -Create-- --Read--- "
    "-Delete--\n"
    "      files:max:min  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  "
    "/sec %CP\n";
static const char file_head_103[] =
    "                    ------Sequential Create------ --------Random "
    "Create--------\n"
    "                    -Create-- --Read--- -Delete-- -Create-- --Read--- "
    "-Delete--\n"
    "              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  "
    "/sec %CP\n";

int report_txt(FILE *out, const struct report_set *set,
	       const struct report_opts *o, FILE *err)
{
	int head = 0;
	char label[CSV_TEXT_MAX * 5 + 8];

	(void)err;
	for (size_t i = 0; i < set->n; i++) {
		const struct csv_row *r = &set->rows[i].row;

		if (!any_cell(r, 0, RT_FIRST_FILE))
			continue;
		if (!head++)
			fputs(o->layout == TABLE_200 ? io_head_200
						     : io_head_103,
			      out);
		report_io_label(r, o->layout, label, sizeof(label));
		print_desc(out, r->name, label);
		print_cells(out, r, 0, RT_FIRST_FILE, o->layout);
		if (o->layout == TABLE_200)
			print_latency(out, r, 0, RT_FIRST_FILE);
	}
	head = 0;
	for (size_t i = 0; i < set->n; i++) {
		const struct csv_row *r = &set->rows[i].row;

		if (!any_cell(r, RT_FIRST_FILE, RT_COUNT))
			continue;
		if (!head++)
			fputs(o->layout == TABLE_200 ? file_head_200
						     : file_head_103,
			      out);
		report_file_label(r, label, sizeof(label));
		print_desc(out, r->name, label);
		print_cells(out, r, RT_FIRST_FILE, RT_COUNT, o->layout);
		if (o->layout == TABLE_200)
			print_latency(out, r, RT_FIRST_FILE, RT_COUNT);
	}
	return 0;
}
