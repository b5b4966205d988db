/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csv: see csv.h; the writing side and the map of fields (csv_read.c
 * reads). A line is built as an array of fields and then joined; where
 * each figure goes in each format is the registry's (figures.h), where
 * each label field goes is CSV_LABELS (csv.h), and the checks below make
 * sure that together they fill every field of each format once.
 * Numbers are printed with the C locale's conventions (no grouping, '.'
 * as the decimal point): clyde never calls setlocale with "".
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "units.h"

#define FIELD_LEN 64

static const struct {
	const char *name;
	int at[3]; /* by enum csv_format */
} labels[CL_COUNT] = {
#define LABEL_ENTRY(name, f98, f97, f03)                                       \
	{#name, {[CSV_198] = f98, [CSV_197] = f97, [CSV_103] = f03}},
    CSV_LABELS(LABEL_ENTRY)
#undef LABEL_ENTRY
};

/* The fields of each format: the label fields and the figures' fields. */
#define LABEL_N98(name, f98, f97, f03)	 +((f98) >= 0)
#define LABEL_N97(name, f98, f97, f03)	 +((f97) >= 0)
#define LABEL_N03(name, f98, f97, f03)	 +((f03) >= 0)
#define LABEL_SUM98(name, f98, f97, f03) +FIG_BIT(f98)
#define LABEL_SUM97(name, f98, f97, f03) +FIG_BIT(f97)
#define LABEL_SUM03(name, f98, f97, f03) +FIG_BIT(f03)
enum {
	NFIELDS_198 = 0 CSV_LABELS(LABEL_N98) + FIG_N98,
	NFIELDS_197 = 0 CSV_LABELS(LABEL_N97) + FIG_N97,
	NFIELDS_103 = 0 CSV_LABELS(LABEL_N03) + FIG_N03,
};
_Static_assert(NFIELDS_198 == 50, "a 1.98 line has 50 fields");
_Static_assert(NFIELDS_197 == 48, "a 1.97 line has 48 fields");
_Static_assert(NFIELDS_103 == 27, "a 1.03 line has 27 fields");
_Static_assert(NFIELDS_198 == CSV_FIELDS_MAX && NFIELDS_197 <= CSV_FIELDS_MAX &&
		   NFIELDS_103 <= CSV_FIELDS_MAX,
	       "the 1.98 line is the longest");
/*
 * N fields whose bits add up to N ones are fields 0 to N-1, each once:
 * the highest field is the last, and no two fields are one.
 */
_Static_assert((0ull CSV_LABELS(LABEL_SUM98)) + FIG_SUM98 ==
		   (1ull << NFIELDS_198) - 1,
	       "the 1.98 fields are not 0-49, each once");
_Static_assert((0ull CSV_LABELS(LABEL_SUM97)) + FIG_SUM97 ==
		   (1ull << NFIELDS_197) - 1,
	       "the 1.97 fields are not 0-47, each once");
_Static_assert((0ull CSV_LABELS(LABEL_SUM03)) + FIG_SUM03 ==
		   (1ull << NFIELDS_103) - 1,
	       "the 1.03 fields are not 0-26, each once");

static const int nfields[3] = {
    [CSV_198] = NFIELDS_198, [CSV_197] = NFIELDS_197, [CSV_103] = NFIELDS_103};

int csv_format_parse(const char *s, enum csv_format *out)
{
	if (!strcmp(s, "1.98"))
		*out = CSV_198;
	else if (!strcmp(s, "1.97"))
		*out = CSV_197;
	else if (!strcmp(s, "1.03"))
		*out = CSV_103;
	else
		return -1;
	return 0;
}

int csv_label_at(enum csv_label k, enum csv_format fmt)
{
	return labels[k].at[fmt];
}

const char *csv_label_name(enum csv_label k)
{
	return labels[k].name;
}

int csv_field_count(enum csv_format fmt)
{
	return (unsigned)fmt <= CSV_103 ? nfields[fmt] : 0;
}

int csv_rate_at(enum result_test t, enum csv_format fmt)
{
	const struct figure *f = figure_of(t);

	return fmt == CSV_198	? f->csv198
	       : fmt == CSV_197 ? f->csv197
				: f->csv103;
}

int csv_latency_at(enum result_test t, enum csv_format fmt)
{
	const struct figure *f = figure_of(t);

	return fmt == CSV_198 ? f->lat198 : fmt == CSV_197 ? f->lat197 : -1;
}

void csv_field_name(enum csv_format fmt, int i, char *buf, size_t len)
{
	snprintf(buf, len, "?");
	for (int k = 0; k < CL_COUNT; k++)
		if (labels[k].at[fmt] == i && i >= 0)
			snprintf(buf, len, "%s", labels[k].name);
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		int r = csv_rate_at(t, fmt);

		if (r < 0)
			continue;
		if (i == r)
			snprintf(buf, len, "%s", result_test_name(t));
		else if (i == r + 1)
			snprintf(buf, len, "%s_cpu", result_test_name(t));
		else if (i == csv_latency_at(t, fmt))
			snprintf(buf, len, "%s_latency", result_test_name(t));
	}
}

void csv_write_header(FILE *out, enum csv_format fmt)
{
	char name[FIELD_LEN];

	for (int i = 0; i < csv_field_count(fmt); i++) {
		csv_field_name(fmt, i, name, sizeof(name));
		fprintf(out, "%s%s", i ? "," : "", name);
	}
	fputc('\n', out);
}

/* A rate as bonnie++ writes it. */
static void rate_text(char *buf, size_t len, enum result_kind kind, double rate)
{
	/* Real bonnie++ lines: "758.8" (1.03) but "9124" (2.00a). */
	if ((kind == RK_SEEK || kind == RK_OPS) && rate >= 1000.0)
		snprintf(buf, len, "%.0f", rate);
	else if (kind == RK_SEEK || kind == RK_OPS)
		snprintf(buf, len, "%.1f", rate);
	else
		snprintf(buf, len, "%llu", (unsigned long long)rate);
}

/* Rate, %CP and latency fields of one figure (FIELD_LEN each). */
static void figure_fields(const struct run_result *r, enum result_test t,
			  char *rate, char *cpu, char *lat)
{
	const struct result_test_rec *rec = &r->t[t];
	enum result_kind kind = result_test_kind(t);

	rate[0] = cpu[0] = lat[0] = '\0';
	if (rec->state != RS_OK)
		return;
	units_fmt_latency(lat, FIELD_LEN, rec->max_latency_ns);
	if (result_too_fast(rec)) {
		snprintf(rate, FIELD_LEN, "+++++");
		snprintf(cpu, FIELD_LEN, "+++");
		return;
	}
	rate_text(rate, FIELD_LEN, kind, result_rate(rec, kind));
	snprintf(cpu, FIELD_LEN, "%d", result_pcp(rec));
}

/* Whether one of bonnie++'s file tests ran: then the file labels count. */
static int bonnie_files_run(const struct run_result *r)
{
	for (enum result_test t = 0; t < RT_COUNT; t++)
		if (figure_bonnie(t) && figure_is_file(t) &&
		    r->t[t].state == RS_OK)
			return 1;
	return 0;
}

/* The text of every label field of r in format fmt but the name. */
static void label_fields(const struct run_result *r, enum csv_format fmt,
			 char f[CL_COUNT][FIELD_LEN])
{
	memset(f, 0, sizeof(char[CL_COUNT][FIELD_LEN]));
	snprintf(f[CL_format_version], FIELD_LEN, "%s",
		 fmt == CSV_197 ? "1.97" : "1.98");
	snprintf(f[CL_bonnie_version], FIELD_LEN, "%s", r->version);
	snprintf(f[CL_concurrency], FIELD_LEN, "%u", r->concurrency);
	snprintf(f[CL_seed], FIELD_LEN, "%llu", (unsigned long long)r->seed);
	if (fmt == CSV_103)
		result_size_label(r, 0, f[CL_file_size], FIELD_LEN);
	else
		units_fmt_size(f[CL_file_size], FIELD_LEN, r->file_size);
	if (r->chunk != RESULT_DEF_CHUNK)
		units_fmt_small(f[CL_io_chunk_size], FIELD_LEN, r->chunk);
	snprintf(f[CL_seeks], FIELD_LEN, "%llu", (unsigned long long)r->seeks);
	snprintf(f[CL_seek_proc_count], FIELD_LEN, "%u", r->seek_procs);
	if (!bonnie_files_run(r))
		return;
	if (fmt == CSV_103) {
		result_files_label(r, f[CL_num_files], FIELD_LEN);
		return;
	}
	snprintf(f[CL_num_files], FIELD_LEN, "%llu",
		 (unsigned long long)r->num_files);
	if (r->max_size < 0)
		snprintf(f[CL_max_size], FIELD_LEN, "%lld",
			 (long long)r->max_size);
	else if (r->max_size)
		units_fmt_small(f[CL_max_size], FIELD_LEN,
				(uint64_t)r->max_size);
	if (r->min_size)
		units_fmt_small(f[CL_min_size], FIELD_LEN, r->min_size);
	if (r->num_dirs)
		snprintf(f[CL_num_dirs], FIELD_LEN, "%llu",
			 (unsigned long long)r->num_dirs);
	if (r->file_chunk)
		units_fmt_small(f[CL_file_chunk_size], FIELD_LEN,
				r->file_chunk);
}

void csv_write(FILE *out, const struct run_result *r, enum csv_format fmt)
{
	char lbl[CL_COUNT][FIELD_LEN];
	char fig[RT_COUNT][3][FIELD_LEN];
	const char *f[CSV_FIELDS_MAX] = {NULL};
	int n = csv_field_count(fmt);

	label_fields(r, fmt, lbl);
	for (int k = 0; k < CL_COUNT; k++)
		if (labels[k].at[fmt] >= 0)
			f[labels[k].at[fmt]] = lbl[k];
	/* The name may be long; it is written straight from the result. */
	f[labels[CL_name].at[fmt]] = r->name;
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		int at = csv_rate_at(t, fmt), lat = csv_latency_at(t, fmt);

		if (at < 0)
			continue;
		figure_fields(r, t, fig[t][0], fig[t][1], fig[t][2]);
		f[at] = fig[t][0];
		f[at + 1] = fig[t][1];
		if (lat >= 0)
			f[lat] = fig[t][2];
	}
	for (int i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		if (f[i])
			fputs(f[i], out);
	}
	fputc('\n', out);
}

/* Split text at the first of the characters in seps: head, and the
 * rest after the separator ("" when there is none). */
static void split_at(const char *text, const char *seps, char *head, char *rest)
{
	size_t n = strcspn(text, seps);

	snprintf(head, FIELD_LEN, "%.*s", (int)n, text);
	snprintf(rest, FIELD_LEN, "%s", text[n] ? text + n + 1 : "");
}

/*
 * A 1.03 line's whole labels into 1.98's fields: "1500M:4k" into size
 * and chunk, "16:2000:100/3" into files, max, min and dirs, so that the
 * labels the tables join from them are the same text.
 */
static void split_103(const struct result_text *x,
		      char lbl[CL_COUNT][FIELD_LEN])
{
	char files[FIELD_LEN], dirs[FIELD_LEN], rest[FIELD_LEN];

	split_at(x->size, ":", lbl[CL_file_size], lbl[CL_io_chunk_size]);
	split_at(x->files, "/", files, dirs);
	snprintf(lbl[CL_num_dirs], FIELD_LEN, "%s", dirs);
	split_at(files, ":", lbl[CL_num_files], rest);
	split_at(rest, ":", lbl[CL_max_size], lbl[CL_min_size]);
}

void csv_write_row(FILE *out, const struct run_result *row)
{
	const struct result_text *x = &row->text;
	char lbl[CL_COUNT][FIELD_LEN] = {{0}};
	const char *f[CSV_FIELDS_MAX] = {NULL};
	const char *texts[CL_COUNT] = {
	    [CL_concurrency] = x->concurrency,
	    [CL_seed] = x->seed,
	    [CL_file_size] = x->size,
	    [CL_io_chunk_size] = x->chunk,
	    [CL_seeks] = x->seeks,
	    [CL_seek_proc_count] = x->procs,
	    [CL_num_files] = x->files,
	    [CL_max_size] = x->max_size,
	    [CL_min_size] = x->min_size,
	    [CL_num_dirs] = x->dirs,
	    [CL_file_chunk_size] = x->file_chunk,
	};

	for (int k = 0; k < CL_COUNT; k++)
		if (texts[k])
			snprintf(lbl[k], FIELD_LEN, "%s", texts[k]);
	if (row->fmt == CSV_103)
		split_103(x, lbl);
	snprintf(lbl[CL_format_version], FIELD_LEN, "1.98");
	snprintf(lbl[CL_bonnie_version], FIELD_LEN, "%s", row->version);
	for (int k = 0; k < CL_COUNT; k++)
		if (labels[k].at[CSV_198] >= 0)
			f[labels[k].at[CSV_198]] = lbl[k];
	f[labels[CL_name].at[CSV_198]] = row->name;
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		int at = csv_rate_at(t, CSV_198),
		    lat = csv_latency_at(t, CSV_198);

		if (at < 0)
			continue;
		f[at] = row->c[t].text;
		f[at + 1] = row->c[t].cpu_text;
		if (lat >= 0)
			f[lat] = row->c[t].lat_text;
	}
	for (int i = 0; i < CSV_FIELDS_MAX; i++) {
		if (i)
			fputc(',', out);
		if (f[i])
			fputs(f[i], out);
	}
	fputc('\n', out);
}

void csv_cell_set(struct csv_cell *c, enum result_kind kind,
		  enum csv_cell_state state, double rate, int cpu,
		  uint64_t lat_ns)
{
	memset(c, 0, sizeof(*c));
	c->how = "";
	c->cpu = -1;
	c->state = state;
	if (state == CSV_EMPTY)
		return;
	c->lat_ns = lat_ns;
	units_fmt_latency(c->lat_text, sizeof(c->lat_text), lat_ns);
	if (state == CSV_FAST) {
		snprintf(c->text, sizeof(c->text), "+++++");
		snprintf(c->cpu_text, sizeof(c->cpu_text), "+++");
		return;
	}
	c->rate = rate;
	rate_text(c->text, sizeof(c->text), kind, rate);
	if (cpu >= 0) {
		c->cpu = cpu;
		snprintf(c->cpu_text, sizeof(c->cpu_text), "%d", cpu);
	}
}

void csv_cell_of(const struct run_result *r, enum result_test t,
		 struct csv_cell *c)
{
	const struct result_test_rec *rec = &r->t[t];
	enum result_kind kind = result_test_kind(t);

	if (rec->state != RS_OK) {
		csv_cell_set(c, kind, CSV_EMPTY, 0, -1, 0);
		return;
	}
	csv_cell_set(c, kind, result_too_fast(rec) ? CSV_FAST : CSV_VALUE,
		     result_rate(rec, kind), result_pcp(rec),
		     rec->max_latency_ns);
	c->exact_rate = 1;
	c->rate = result_rate(rec, kind);
	c->bandwidth = c->rate * (double)rec->op_bytes;
	c->how = rec->how;
	if (rec->lat && rec->lat->count) {
		c->has_pct = 1;
		c->p50_ns = hist_percentile(rec->lat, 50);
		c->p90_ns = hist_percentile(rec->lat, 90);
		c->p99_ns = hist_percentile(rec->lat, 99);
		c->p999_ns = hist_percentile(rec->lat, 99.9);
	}
}
