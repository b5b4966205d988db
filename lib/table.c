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

/* Whether a figure of the block ran. */
static int block_run(const struct run_result *r, int files)
{
	for (enum result_test t = 0; t < RT_COUNT; t++)
		if (in_block(t, files) && r->t[t].state == RS_OK)
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
static void rate_cell(char *buf, size_t len, const struct run_result *r,
		      enum result_test t, enum table_layout layout)
{
	const struct result_test_rec *rec = &r->t[t];
	enum result_kind kind = result_test_kind(t);
	double rate;

	if (rec->state != RS_OK) {
		snprintf(buf, len, "%5s", "");
		return;
	}
	if (result_too_fast(rec)) {
		snprintf(buf, len, "+++++");
		return;
	}
	rate = result_rate(rec, kind);
	switch (kind) {
	case RK_SEEK:
		if (layout == TABLE_200 && rate >= 1000.0)
			snprintf(buf, len, "%5.0f", rate);
		else
			snprintf(buf, len, "%5.1f", rate);
		break;
	case RK_IO:
		/* 1.03 prints plain KiB/s, as it does files/s. */
		if (layout == TABLE_200)
			units_fmt_rate(buf, len, (uint64_t)rate);
		else
			snprintf(buf, len, "%5llu", (unsigned long long)rate);
		break;
	case RK_FILE:
	default:
		snprintf(buf, len, "%5llu", (unsigned long long)rate);
		break;
	}
}

static void print_cells(FILE *out, const struct run_result *r, int files,
			enum table_layout layout)
{
	char rate[64], cpu[16];

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		const struct result_test_rec *rec = &r->t[t];

		if (!in_block(t, files))
			continue;
		rate_cell(rate, sizeof(rate), r, t, layout);
		if (rec->state != RS_OK)
			cpu[0] = '\0';
		else if (result_too_fast(rec))
			snprintf(cpu, sizeof(cpu), "+++");
		else
			snprintf(cpu, sizeof(cpu), "%d", result_pcp(rec));
		fprintf(out, " %s %3s", rate, cpu);
	}
	fputc('\n', out);
}

static void print_latency(FILE *out, const struct run_result *r, int files)
{
	char cell[32];

	fprintf(out, "Latency          ");
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		uint64_t ns = r->t[t].state != RS_OK
				      ? 0
				      : r->t[t].max_latency_ns;

		if (!in_block(t, files))
			continue;
		units_fmt_latency(cell, sizeof(cell), ns);
		fprintf(out, " %9s", cell);
	}
	fputc('\n', out);
}

/*
 * "name" left and "label" right in LABEL_WIDTH columns; the name is cut
 * to make room (bonnie++ 2.00a does the same), and left out when the
 * label alone fills the space.
 */
static void print_name_label(FILE *out, const char *name, const char *label)
{
	int room = LABEL_WIDTH - 1 - (int)strlen(label);

	if (room <= 0) {
		fprintf(out, "%*s", LABEL_WIDTH, label);
		return;
	}
	fprintf(out, "%-*.*s %s", room, room, name, label);
}

/* "Version  1.03       " and "Version 2.00a       ", as bonnie++. */
static void print_version(FILE *out, const struct run_result *r)
{
	char v[RESULT_VERSION_MAX + 8];

	snprintf(v, sizeof(v), "%5s", r->version);
	fprintf(out, "Version %-12s", v);
}

void table_print(FILE *out, const struct run_result *r,
		 enum table_layout layout)
{
	char label[128];
	struct csv_cell c[RT_COUNT];
	int head = 0;

	if (block_run(r, 0)) {
		result_size_label(r, layout == TABLE_200, label, sizeof(label));
		print_version(out, r);
		table_heads(out, 0);
		fprintf(out, "%*s", LABEL_WIDTH + 1, "");
		table_subs(out, 0);
		fprintf(out, "%-*s", LABEL_WIDTH,
			layout == TABLE_200 ? "Name:Size etc"
					    : "Machine        Size");
		table_units(out, 0, layout);
		print_name_label(out, r->name, label);
		print_cells(out, r, 0, layout);
		if (layout == TABLE_200)
			print_latency(out, r, 0);
	}
	if (block_run(r, 1)) {
		const char *files_head;

		if (r->min_size)
			files_head = "files:max:min";
		else if (r->max_size)
			files_head = "files:max";
		else
			files_head = "              files";
		if (layout == TABLE_200) {
			print_version(out, r);
			table_heads(out, 1);
			fprintf(out, "%-20.19s", r->name);
		} else {
			fprintf(out, "%20s", "");
			table_heads(out, 1);
			fprintf(out, "%20s", "");
		}
		table_subs(out, 1);
		fprintf(out, "%-*s", LABEL_WIDTH, files_head);
		table_units(out, 1, layout);
		result_files_label(r, label, sizeof(label));
		fprintf(out, "%*s", LABEL_WIDTH, label);
		print_cells(out, r, 1, layout);
		if (layout == TABLE_200)
			print_latency(out, r, 1);
	}
	for (enum result_test t = 0; t < RT_COUNT; t++)
		csv_cell_of(r, t, &c[t]);
	table_print_more(out, r->name, c, &head);
}

void table_print_more(FILE *out, const char *name, const struct csv_cell *c,
		      int *head)
{
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		if (figure_bonnie(t) || c[t].state == CSV_EMPTY)
			continue;
		if (!*head) {
			fprintf(out, "%-*s %-16s %10s %-7s %3s %9s\n",
				LABEL_WIDTH, "More figures", "test", "rate",
				"unit", "%CP", "Latency");
			*head = 1;
		}
		fprintf(out, "%-*.*s %-16s %10s %-7s %3s %9s\n", LABEL_WIDTH,
			LABEL_WIDTH, name, result_test_name(t), c[t].text,
			result_rate_unit(result_test_kind(t)), c[t].cpu_text,
			c[t].lat_text);
	}
}

void table_print_latency(FILE *out, const struct run_result *r)
{
	static const double ps[] = {50, 90, 99, 99.9};
	char cell[32];
	int header = 0;

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		const struct hist *h = &r->t[t].lat;

		if (r->t[t].state != RS_OK || h->count == 0)
			continue;
		if (!header) {
			fprintf(out, "Latency       %9s %9s %9s %9s %9s %9s %9s "
				     "%10s\n",
				"min", "mean", "p50", "p90", "p99", "p99.9",
				"max", "ops");
			header = 1;
		}
		fprintf(out, "%-13s", result_test_name(t));
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
		fprintf(out, " %9s %10llu\n", cell,
			(unsigned long long)h->count);
	}
}

void table_print_summary(FILE *out, unsigned nruns,
			 const double (*rate)[RT_COUNT])
{
	struct stats s;

	fprintf(out, "Summary of %u runs (95%% CI: confidence interval of the "
		     "mean, Student's t)\n",
		nruns);
	fprintf(out, "%-11s %-7s %3s %11s %11s %11s %11s %11s %11s\n", "test",
		"unit", "n", "mean", "sd", "min", "max", "CI low", "CI high");
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		unsigned n = result_summary(nruns, rate, t, &s);

		if (!n)
			continue;
		fprintf(out, "%-11s %-7s %3u %11.1f %11.1f %11.1f %11.1f "
			     "%11.1f %11.1f\n",
			result_test_name(t),
			result_rate_unit(result_test_kind(t)), n, s.mean, s.sd,
			s.min, s.max, s.ci_low, s.ci_high);
	}
}
