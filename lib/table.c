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

#include "stats.h"
#include "table.h"
#include "units.h"

#define LABEL_WIDTH 19

static const char io_head[] =
	"------Sequential Output------ --Sequential Input- --Random-\n";
static const char io_sub[] =
	"                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- "
	"--Seeks--\n";
static const char file_head[] =
	"------Sequential Create------ --------Random Create--------\n";
static const char file_sub[] =
	"-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n";
static const char cells_head[] =
	" /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n";

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

static void print_cells(FILE *out, const struct run_result *r,
			enum result_test first, enum result_test last,
			enum table_layout layout)
{
	char rate[64], cpu[16];

	for (enum result_test t = first; t < last; t++) {
		const struct result_test_rec *rec = &r->t[t];

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

static void print_latency(FILE *out, const struct run_result *r,
			  enum result_test first, enum result_test last)
{
	char cell[32];

	fprintf(out, "Latency          ");
	for (enum result_test t = first; t < last; t++) {
		uint64_t ns = r->t[t].state != RS_OK
				      ? 0
				      : r->t[t].max_latency_ns;

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

	if (result_any_run(r, 0, RT_FIRST_FILE)) {
		result_size_label(r, layout == TABLE_200, label, sizeof(label));
		print_version(out, r);
		fputs(io_head, out);
		fputs(io_sub, out);
		if (layout == TABLE_200)
			fprintf(out, "Name:Size etc       %s", cells_head);
		else
			fprintf(out, "Machine        Size K/sec %%CP K/sec %%CP "
				     "K/sec %%CP K/sec %%CP K/sec %%CP  /sec "
				     "%%CP\n");
		print_name_label(out, r->name, label);
		print_cells(out, r, 0, RT_FIRST_FILE, layout);
		if (layout == TABLE_200)
			print_latency(out, r, 0, RT_FIRST_FILE);
	}
	if (result_any_run(r, RT_FIRST_FILE, RT_COUNT)) {
		const char *files_head;

		if (r->min_size)
			files_head = "files:max:min       ";
		else if (r->max_size)
			files_head = "files:max           ";
		else
			files_head = "              files ";
		if (layout == TABLE_200) {
			print_version(out, r);
			fputs(file_head, out);
			fprintf(out, "%-20.19s%s", r->name, file_sub);
		} else {
			fprintf(out, "%20s%s", "", file_head);
			fprintf(out, "%20s%s", "", file_sub);
		}
		fprintf(out, "%s%s", files_head, cells_head);
		result_files_label(r, label, sizeof(label));
		fprintf(out, "%*s", LABEL_WIDTH, label);
		print_cells(out, r, RT_FIRST_FILE, RT_COUNT, layout);
		if (layout == TABLE_200)
			print_latency(out, r, RT_FIRST_FILE, RT_COUNT);
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
	double *x = malloc(nruns * sizeof(*x));
	struct stats s;

	if (!x)
		return;
	fprintf(out, "Summary of %u runs (95%% CI: confidence interval of the "
		     "mean, Student's t)\n",
		nruns);
	fprintf(out, "%-11s %-7s %3s %11s %11s %11s %11s %11s %11s\n", "test",
		"unit", "n", "mean", "sd", "min", "max", "CI low", "CI high");
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		unsigned n = result_rates_of(nruns, rate, t, x);

		if (!n)
			continue;
		stats_compute(x, n, &s);
		fprintf(out, "%-11s %-7s %3u %11.1f %11.1f %11.1f %11.1f "
			     "%11.1f %11.1f\n",
			result_test_name(t),
			result_rate_unit(result_test_kind(t)), n, s.mean, s.sd,
			s.min, s.max, s.ci_low, s.ci_high);
	}
	free(x);
}
