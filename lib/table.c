/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * table: see table.h. Layout facts (from real bonnie++ 1.03e and 2.00a
 * output): a 20-column label area, then six cells of " %5s %3s" per
 * block; the 2.00 layout prints rates with k/m/g suffixes and adds a
 * Latency line of six " %9s" cells after 17 columns of label.
 */
#include "config.h"

#include <string.h>

#include <stdlib.h>

#include "csv.h"
#include "stats.h"
#include "table.h"
#include "units.h"

#define LABEL_WIDTH 19

/* The width of a cell of the tables: " %5s %3s". */
#define CELL_WIDTH 9

/* Figure t is in bonnie++'s I/O block (files 0) or file block (1). */
static int in_block(enum result_test t, int files)
{
	return figure_bonnie(t) && figure_is_file(t) == files;
}

/* text centred in dashes, width wide; odd padding puts the extra dash
 * on the left (left_extra) or the right, as bonnie++'s headings do. */
static void dashed(FILE *out, const char *text, int width, int left_extra)
{
	int pad = width - (int)strlen(text), left;

	if (pad < 0)
		pad = 0;
	left = left_extra ? (pad + 1) / 2 : pad / 2;
	for (int i = 0; i < left; i++)
		fputc('-', out);
	fputs(text, out);
	for (int i = left; i < pad; i++)
		fputc('-', out);
}

void table_heads(FILE *out, int files)
{
	int first = 1;

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		const char *head = figure_of(t)->head;
		int n = 1;

		if (!in_block(t, files))
			continue;
		/* Neighbours with the same heading share it. */
		while (t + 1 < RT_COUNT && in_block(t + 1, files) &&
		       !strcmp(figure_of(t + 1)->head, head))
			n++, t++;
		fputs(first ? "" : " ", out);
		dashed(out, head, (CELL_WIDTH + 1) * n - 1, 1);
		first = 0;
	}
	fputc('\n', out);
}

void table_subs(FILE *out, int files)
{
	int first = 1;

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		if (!in_block(t, files))
			continue;
		fputs(first ? "" : " ", out);
		dashed(out, figure_of(t)->cell, CELL_WIDTH, 0);
		first = 0;
	}
	fputc('\n', out);
}

void table_units(FILE *out, int files, enum table_layout layout)
{
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		int kib = layout == TABLE_103 && result_test_kind(t) == RK_IO;

		if (in_block(t, files))
			fprintf(out, " %5s %%CP", kib ? "K/sec" : "/sec");
	}
	fputc('\n', out);
}

int table_block_any(const struct csv_cell *c, int files)
{
	for (enum result_test t = 0; t < RT_COUNT; t++)
		if (in_block(t, files) &&
		    (c[t].state != CSV_EMPTY || c[t].cpu_text[0]))
			return 1;
	return 0;
}

int table_layout_parse(const char *s, enum table_layout *out)
{
	if (!strcmp(s, "2.00") || !strcmp(s, "2"))
		*out = TABLE_200;
	else if (!strcmp(s, "1.03"))
		*out = TABLE_103;
	else
		return -1;
	return 0;
}

/* The rate part of one cell, into buf (5 characters or more). */
static void rate_cell(char *buf, size_t len, const struct csv_cell *c,
		      enum result_test t, enum table_layout layout,
		      const struct table_style *st)
{
	enum result_kind kind = result_test_kind(t);

	if (c->state != CSV_VALUE)
		snprintf(buf, len, "%s", c->text);
	else if (kind == RK_IO && layout == TABLE_200)
		units_fmt_rate(buf, len, (uint64_t)c->rate);
	else if (kind == RK_SEEK && layout == TABLE_103 && st->seek_tenths)
		snprintf(buf, len, "%.1f", c->rate);
	else
		snprintf(buf, len, "%s", c->text);
}

/* The columns left of the cells: bonnie++'s 19, or st's wider ones. */
static int label_width(const struct table_style *st)
{
	return st->label_width > LABEL_WIDTH ? st->label_width : LABEL_WIDTH;
}

/*
 * "name" left and "label" right in width columns. In bonnie++'s 19 the
 * name is cut to make room (bonnie++ 2.00a and bon_csv2txt do the same),
 * and left out when the label alone fills the space; a style that widens
 * the columns (table_print_rows) keeps it whole.
 */
static void print_name_label(FILE *out, const char *name, const char *label,
			     int width)
{
	int room = width - 1 - (int)strlen(label);

	if (room <= 0) {
		fprintf(out, "%*s", width, label);
		return;
	}
	fprintf(out, "%-*.*s %s", room, room, name, label);
}

void table_block_head(FILE *out, int files, enum table_layout layout,
		      const struct table_style *st)
{
	int extra = label_width(st) - LABEL_WIDTH;

	if (files)
		fprintf(out, "%-*s", 20 + extra, st->files_version);
	else
		fprintf(out, "%s%*s", st->io_version, extra, "");
	table_heads(out, files);
	fprintf(out, "%-*s", 20 + extra, files ? st->files_sub : "");
	table_subs(out, files);
	if (files) /* over labels aligned right */
		fprintf(out, "%*s%s", extra, "", st->files_units);
	else
		fprintf(out, "%-*s", LABEL_WIDTH + extra,
			layout == TABLE_200 ? "Name:Size etc"
					    : "Machine        Size");
	table_units(out, files, layout);
}

void table_block_row(FILE *out, const struct table_row *row, int files,
		     enum table_layout layout, const struct table_style *st)
{
	int width = label_width(st);
	char rate[64];
	int any = 0;

	if (files && !st->files_name)
		fprintf(out, "%*s", width, row->label);
	else
		print_name_label(out, row->name, row->label, width);
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		if (!in_block(t, files))
			continue;
		rate_cell(rate, sizeof(rate), &row->c[t], t, layout, st);
		fprintf(out, " %5s %3s", rate, row->c[t].cpu_text);
		any |= row->c[t].lat_text[0] != '\0';
	}
	fputc('\n', out);
	/* A 1.03 line has no latency fields, and so no line. */
	if (layout != TABLE_200 || (!any && !st->always_latency))
		return;
	fprintf(out, "Latency%*s", 10 + width - LABEL_WIDTH, "");
	for (enum result_test t = 0; t < RT_COUNT; t++)
		if (in_block(t, files))
			fprintf(out, " %9s", row->c[t].lat_text);
	fputc('\n', out);
}

/* "Version  1.03       " and "Version 2.00a       ", as bonnie++. */
static void version_text(char *buf, size_t len, const struct run_result *r)
{
	char v[RESULT_VERSION_MAX + 8];

	snprintf(v, sizeof(v), "%5s", r->version);
	snprintf(buf, len, "Version %-12s", v);
}

/* Whether any of the n rows has a cell in the block. */
static int rows_any(struct csv_cell (*c)[RT_COUNT], size_t n, int files)
{
	for (size_t i = 0; i < n; i++)
		if (table_block_any(c[i], files))
			return 1;
	return 0;
}

/* The columns rows i of the block (files) need for the name and label
 * together, or the label and the name alone (a file block under the
 * name). */
static int rows_width(const struct run_result *const *r, size_t n,
		      enum table_layout layout, int files)
{
	char label[128];
	int width = 0, w;

	for (size_t i = 0; i < n; i++) {
		if (files)
			result_files_label(r[i], label, sizeof(label));
		else
			result_size_label(r[i], layout == TABLE_200, label,
					  sizeof(label));
		w = (int)strlen(label);
		if (!files || n > 1)
			w += 1 + (int)strlen(r[i]->name);
		else if (layout == TABLE_200 && (int)strlen(r[i]->name) > w)
			w = (int)strlen(r[i]->name);
		if (w > width)
			width = w;
	}
	return width;
}

/* Whether a size label of the n rows has more than the size. */
static int rows_size_fields(const struct run_result *const *r, size_t n,
			    enum table_layout layout)
{
	char label[128];

	for (size_t i = 0; i < n; i++) {
		result_size_label(r[i], layout == TABLE_200, label,
				  sizeof(label));
		if (strchr(label, ':'))
			return 1;
	}
	return 0;
}

void table_print_rows(FILE *out, const struct run_result *const *r, size_t n,
		      enum table_layout layout, int *legend)
{
	char label[128], version[RESULT_VERSION_MAX + 24];
	char units[LABEL_WIDTH + 1];
	struct csv_cell(*c)[RT_COUNT] = calloc(n ? n : 1, sizeof(*c));
	struct table_style st = {
	    .io_version = version, .always_latency = 1, .seek_tenths = 1};
	int head = 0, io, files, w;

	if (!c || !n) {
		free(c);
		return;
	}
	for (size_t i = 0; i < n; i++)
		for (enum result_test t = 0; t < RT_COUNT; t++)
			csv_cell_of(r[i], t, &c[i][t]);
	version_text(version, sizeof(version), r[0]);
	io = rows_any(c, n, 0);
	files = rows_any(c, n, 1);
	/* Wide enough for every name whole: a long label does not cut it. */
	if (io)
		st.label_width = rows_width(r, n, layout, 0);
	if (files && (w = rows_width(r, n, layout, 1)) > st.label_width)
		st.label_width = w;
	if (io) {
		table_block_head(out, 0, layout, &st);
		for (size_t i = 0; i < n; i++) {
			struct table_row row = {r[i]->name, label, c[i]};

			result_size_label(r[i], layout == TABLE_200, label,
					  sizeof(label));
			table_block_row(out, &row, 0, layout, &st);
		}
	}
	if (files) {
		snprintf(units, sizeof(units), "%-*s", LABEL_WIDTH,
			 r[0]->min_size	  ? "files:max:min"
			 : r[0]->max_size ? "files:max"
					  : "              files");
		/* 2.00 names the version and the machine above the block;
		 * several rows name theirs in the row, as bon_csv2txt. */
		st.files_version = layout == TABLE_200 ? version : "";
		st.files_sub = layout == TABLE_200 && n == 1 ? r[0]->name : "";
		st.files_name = n > 1;
		st.files_units = units;
		table_block_head(out, 1, layout, &st);
		for (size_t i = 0; i < n; i++) {
			struct table_row row = {r[i]->name, label, c[i]};

			result_files_label(r[i], label, sizeof(label));
			table_block_row(out, &row, 1, layout, &st);
		}
	}
	if (io && legend && !*legend && rows_size_fields(r, n, layout)) {
		fputs(layout == TABLE_200
			  ? "Size label: size:chunk:concurrency:seeks:seek "
			    "procs (empty: the default)\n"
			  : "Size label: size:chunk (empty: the default)\n",
		      out);
		*legend = 1;
	}
	for (size_t i = 0; i < n; i++)
		table_print_more(out, r[i]->name, c[i], &head);
	head = 0;
	for (size_t i = 0; i < n; i++)
		table_print_io(out, r[i]->name, r[i], c[i], &head);
	head = 0;
	for (size_t i = 0; i < n; i++)
		table_print_cliff(out, r[i]->name, r[i], &head);
	free(c);
}

void table_print_more(FILE *out, const char *name, const struct csv_cell *c,
		      int *head)
{
	char bw[32];

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		if (figure_bonnie(t) || c[t].state == CSV_EMPTY)
			continue;
		if (!*head) {
			fprintf(out, "%-*s %-16s %10s %-7s %3s %9s %10s  %s\n",
				LABEL_WIDTH, "More figures", "test", "rate",
				"unit", "%CP", "Latency", "KiB/s", "settings");
			*head = 1;
		}
		/* KiB/s: the bandwidth of operations of one size. */
		if (c[t].bandwidth > 0)
			snprintf(bw, sizeof(bw), "%.0f", c[t].bandwidth / 1024);
		else
			bw[0] = '\0';
		fprintf(out, "%-*.*s %-16s %10s %-7s %3s %9s %10s%s%s\n",
			LABEL_WIDTH, LABEL_WIDTH, name, result_test_name(t),
			c[t].text, result_rate_unit(result_test_kind(t)),
			c[t].cpu_text, c[t].lat_text, bw,
			c[t].how[0] ? "  " : "", c[t].how);
	}
}

void table_latency_row(FILE *out, const char *label, const struct hist *h)
{
	static const double ps[] = {50, 90, 99, 99.9};
	char cell[32];

	fprintf(out, "%-13s", label);
	units_fmt_latency(cell, sizeof(cell), h->min_ns ? h->min_ns : 1);
	fprintf(out, " %9s", cell);
	units_fmt_latency(cell, sizeof(cell),
			  (uint64_t)hist_mean(h) ? (uint64_t)hist_mean(h) : 1);
	fprintf(out, " %9s", cell);
	for (unsigned k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		uint64_t v = hist_percentile(h, ps[k]);

		units_fmt_latency(cell, sizeof(cell), v ? v : 1);
		fprintf(out, " %9s", cell);
	}
	units_fmt_latency(cell, sizeof(cell), h->max_ns ? h->max_ns : 1);
	fprintf(out, " %9s %10llu\n", cell, (unsigned long long)h->count);
}

void table_print_latency(FILE *out, const struct run_result *r)
{
	int header = 0;

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		const struct hist *h = r->t[t].lat;

		if (r->t[t].state != RS_OK || !h || h->count == 0)
			continue;
		if (!header) {
			fprintf(out,
				"Latency       %9s %9s %9s %9s %9s %9s %9s "
				"%10s\n",
				"min", "mean", "p50", "p90", "p99", "p99.9",
				"max", "ops");
			header = 1;
		}
		table_latency_row(out, result_test_name(t), h);
		/* A random-I/O figure's service times and kinds under it. */
		table_latency_io_rows(out, &r->t[t]);
	}
}

void table_print_summary(FILE *out, unsigned nruns,
			 const double (*rate)[RT_COUNT])
{
	struct stats s;

	fprintf(out,
		"Summary of %u runs (95%% CI: confidence interval of the "
		"mean, Student's t)\n",
		nruns);
	fprintf(out, "%-11s %-7s %3s %11s %11s %11s %11s %11s %11s\n", "test",
		"unit", "n", "mean", "sd", "min", "max", "CI low", "CI high");
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		unsigned n = result_summary(nruns, rate, t, &s);

		if (!n)
			continue;
		fprintf(out,
			"%-11s %-7s %3u %11.1f %11.1f %11.1f %11.1f "
			"%11.1f %11.1f\n",
			result_test_name(t),
			result_rate_unit(result_test_kind(t)), n, s.mean, s.sd,
			s.min, s.max, s.ci_low, s.ci_high);
	}
}

void table_print_spans(FILE *out, const struct run_result *r)
{
	int header = 0;

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		const struct result_test_rec *rec = &r->t[t];
		enum result_kind k = result_test_kind(t);
		const struct result_spans *sp = &rec->spans;
		struct result_test_rec first = {.work = sp->first_work,
						.elapsed = sp->first_elapsed};
		struct result_test_rec last = {.work = sp->last_work,
					       .elapsed = sp->last_elapsed};

		if (rec->state != RS_OK || !sp->on)
			continue;
		if (!header) {
			fprintf(out, "%-13s %14s %9s %14s %9s  %s\n", "Workers",
				"first finished", "after", "last finished",
				"after", "unit");
			header = 1;
		}
		fprintf(out, "%-13s %14.0f %8.2fs %14.0f %8.2fs  %s%s\n",
			result_test_name(t), result_rate(&first, k),
			sp->first_elapsed, result_rate(&last, k),
			sp->last_elapsed, result_rate_unit(k),
			sp->first_exact ? "" : " (first: in part by time)");
	}
}
