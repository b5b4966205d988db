/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csv: see csv.h. Each line is built as an array of fields and then
 * joined, so the three formats differ only in which fields they take.
 * Numbers are printed with the C locale's conventions (no grouping, '.'
 * as the decimal point): clyde never calls setlocale with "".
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "units.h"

#define FIELD_LEN   64
#define NFIELDS_198 50

/* Field names of the 1.98 format, in order. */
static const char *const names_198[NFIELDS_198] = {"format_version",
						   "bonnie_version",
						   "name",
						   "concurrency",
						   "seed",
						   "file_size",
						   "io_chunk_size",
						   "seeks",
						   "seek_proc_count",
						   "putc",
						   "putc_cpu",
						   "put_block",
						   "put_block_cpu",
						   "rewrite",
						   "rewrite_cpu",
						   "getc",
						   "getc_cpu",
						   "get_block",
						   "get_block_cpu",
						   "seeks",
						   "seeks_cpu",
						   "num_files",
						   "max_size",
						   "min_size",
						   "num_dirs",
						   "file_chunk_size",
						   "seq_create",
						   "seq_create_cpu",
						   "seq_stat",
						   "seq_stat_cpu",
						   "seq_del",
						   "seq_del_cpu",
						   "ran_create",
						   "ran_create_cpu",
						   "ran_stat",
						   "ran_stat_cpu",
						   "ran_del",
						   "ran_del_cpu",
						   "putc_latency",
						   "put_block_latency",
						   "rewrite_latency",
						   "getc_latency",
						   "get_block_latency",
						   "seeks_latency",
						   "seq_create_latency",
						   "seq_stat_latency",
						   "seq_del_latency",
						   "ran_create_latency",
						   "ran_stat_latency",
						   "ran_del_latency"};

/*
 * Which 1.98 fields each format keeps, in its order. 1.03 has no
 * version, concurrency, seed, chunk, seek or file-size-detail fields and
 * no latencies; its file_size and num_files carry the labels instead.
 */
static const int map_197[] = {0,  1,  2,  3,  4,  5,  6,  9,  10, 11, 12, 13,
			      14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
			      26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37,
			      38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49};
static const int map_103[] = {2,  5,  9,  10, 11, 12, 13, 14, 15,
			      16, 17, 18, 19, 20, 21, 26, 27, 28,
			      29, 30, 31, 32, 33, 34, 35, 36, 37};

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

static const int *format_map(enum csv_format fmt, int *n)
{
	static int map_198[NFIELDS_198];

	switch (fmt) {
	case CSV_197:
		*n = (int)(sizeof(map_197) / sizeof(map_197[0]));
		return map_197;
	case CSV_103:
		*n = (int)(sizeof(map_103) / sizeof(map_103[0]));
		return map_103;
	case CSV_198:
	default:
		for (int i = 0; i < NFIELDS_198; i++)
			map_198[i] = i;
		*n = NFIELDS_198;
		return map_198;
	}
}

int csv_field_count(enum csv_format fmt)
{
	int n;

	format_map(fmt, &n);
	return n;
}

void csv_write_header(FILE *out, enum csv_format fmt)
{
	int n;
	const int *map = format_map(fmt, &n);

	for (int i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? "," : "", names_198[map[i]]);
	fputc('\n', out);
}

/* Rate and %CP fields of one test. */
static void test_fields(const struct run_result *r, enum result_test t,
			char *rate, char *cpu)
{
	const struct result_test_rec *rec = &r->t[t];
	enum result_kind kind = result_test_kind(t);

	if (rec->state != RS_OK)
		return;
	if (result_too_fast(rec)) {
		snprintf(rate, FIELD_LEN, "+++++");
		snprintf(cpu, FIELD_LEN, "+++");
		return;
	}
	/* Real bonnie++ lines: "758.8" (1.03) but "9124" (2.00a). */
	if (kind == RK_SEEK && result_rate(rec, kind) >= 1000.0)
		snprintf(rate, FIELD_LEN, "%.0f", result_rate(rec, kind));
	else if (kind == RK_SEEK)
		snprintf(rate, FIELD_LEN, "%.1f", result_rate(rec, kind));
	else
		snprintf(rate, FIELD_LEN, "%llu",
			 (unsigned long long)result_rate(rec, kind));
	snprintf(cpu, FIELD_LEN, "%d", result_pcp(rec));
}

void csv_write(FILE *out, const struct run_result *r, enum csv_format fmt)
{
	char f[NFIELDS_198][FIELD_LEN];
	int n;
	const int *map = format_map(fmt, &n);
	int file_tests = result_any_run(r, RT_FIRST_FILE, RT_COUNT);

	memset(f, 0, sizeof(f));
	snprintf(f[0], FIELD_LEN, "%s", fmt == CSV_197 ? "1.97" : "1.98");
	snprintf(f[1], FIELD_LEN, "%s", r->version);
	snprintf(f[3], FIELD_LEN, "%u", r->concurrency);
	snprintf(f[4], FIELD_LEN, "%llu", (unsigned long long)r->seed);
	if (fmt == CSV_103)
		result_size_label(r, 0, f[5], FIELD_LEN);
	else
		units_fmt_size(f[5], FIELD_LEN, r->file_size);
	if (r->chunk != RESULT_DEF_CHUNK)
		units_fmt_small(f[6], FIELD_LEN, r->chunk);
	snprintf(f[7], FIELD_LEN, "%llu", (unsigned long long)r->seeks);
	snprintf(f[8], FIELD_LEN, "%u", r->seek_procs);
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		int base = t < RT_FIRST_FILE
			       ? 9 + 2 * (int)t
			       : 26 + 2 * (int)(t - RT_FIRST_FILE);

		test_fields(r, t, f[base], f[base + 1]);
		if (r->t[t].state == RS_OK)
			units_fmt_latency(f[38 + t], FIELD_LEN,
					  r->t[t].max_latency_ns);
	}
	if (file_tests) {
		if (fmt == CSV_103) {
			result_files_label(r, f[21], FIELD_LEN);
		} else {
			snprintf(f[21], FIELD_LEN, "%llu",
				 (unsigned long long)r->num_files);
			if (r->max_size < 0)
				snprintf(f[22], FIELD_LEN, "%lld",
					 (long long)r->max_size);
			else if (r->max_size)
				units_fmt_small(f[22], FIELD_LEN,
						(uint64_t)r->max_size);
			if (r->min_size)
				units_fmt_small(f[23], FIELD_LEN, r->min_size);
			if (r->num_dirs)
				snprintf(f[24], FIELD_LEN, "%llu",
					 (unsigned long long)r->num_dirs);
			if (r->file_chunk)
				units_fmt_small(f[25], FIELD_LEN,
						r->file_chunk);
		}
	}
	/* The name may be long; it is written straight from the result. */
	for (int i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		if (map[i] == 2)
			fputs(r->name, out);
		else
			fputs(f[map[i]], out);
	}
	fputc('\n', out);
}

/*
 * Reading. bonnie++ never quotes a field (a name with a comma would
 * break its own converters), so a line splits on every comma. Each
 * field is checked against what its writer can produce, so a damaged
 * line is named rather than read as zeros.
 */

const char *csv_field_name(int i)
{
	return i >= 0 && i < NFIELDS_198 ? names_198[i] : "?";
}

/* Up to this many fields are split; more is an error anyway. */
#define SPLIT_MAX (NFIELDS_198 + 1)

struct split {
	int n; /* fields found (may exceed SPLIT_MAX) */
	const char *f[SPLIT_MAX];
	size_t len[SPLIT_MAX];
};

static void split_line(const char *s, size_t len, struct split *sp)
{
	size_t start = 0;

	sp->n = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != ',')
			continue;
		if (sp->n < SPLIT_MAX) {
			sp->f[sp->n] = s + start;
			sp->len[sp->n] = i - start;
		}
		sp->n++;
		start = i + 1;
	}
}

static int field_is(const struct split *sp, int i, const char *word)
{
	return sp->len[i] == strlen(word) &&
	       !memcmp(sp->f[i], word, sp->len[i]);
}

static int bad(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int bad(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

/* A field for a message: cut short and with unprintable bytes as '?'. */
static const char *shown(const char *f, size_t len, char *buf, size_t size)
{
	size_t n = len < size - 4 ? len : size - 4, i;

	for (i = 0; i < n; i++)
		buf[i] = f[i] >= 0x20 && f[i] < 0x7f ? f[i] : '?';
	if (n < len)
		memcpy(buf + i, "...", 3), i += 3;
	buf[i] = '\0';
	return buf;
}

/* Copy a text field into dst[CSV_TEXT_MAX or size]. */
static int text_field(const struct split *sp, int i, int field, char *dst,
		      size_t size, char *why, size_t whylen)
{
	char show[40];

	if (sp->len[i] >= size)
		return bad(why, whylen,
			   "field %d (%s) is %zu characters long, "
			   "more than %zu",
			   i + 1, csv_field_name(field), sp->len[i], size - 1);
	for (size_t k = 0; k < sp->len[i]; k++) {
		unsigned char c = (unsigned char)sp->f[i][k];

		if (c < 0x20 || c == 0x7f)
			return bad(
			    why, whylen,
			    "field %d (%s) '%s' holds a "
			    "control character",
			    i + 1, csv_field_name(field),
			    shown(sp->f[i], sp->len[i], show, sizeof(show)));
	}
	memcpy(dst, sp->f[i], sp->len[i]);
	dst[sp->len[i]] = '\0';
	return 0;
}

/*
 * A non-negative decimal: digits with at most one '.', at most 18
 * significant characters, so it converts exactly enough and no
 * "1e999" or "nan" gets in.
 */
static int number(const char *f, size_t len, double *out)
{
	char buf[24];
	int dots = 0, digits = 0;

	if (len == 0 || len > 18)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (f[i] == '.')
			dots++;
		else if (f[i] >= '0' && f[i] <= '9')
			digits++;
		else
			return -1;
	}
	if (dots > 1 || !digits)
		return -1;
	memcpy(buf, f, len);
	buf[len] = '\0';
	*out = strtod(buf, NULL);
	return 0;
}

static int rate_field(const struct split *sp, int i, int field,
		      struct csv_cell *c, char *why, size_t whylen)
{
	char show[40];

	if (sp->len[i] == 0)
		return 0;
	/* bonnie++ writes exactly five; "+++" is a %CP, not a rate. */
	if (field_is(sp, i, "+++++")) {
		memcpy(c->text, "+++++", 5);
		c->state = CSV_FAST;
		return 0;
	}
	if (number(sp->f[i], sp->len[i], &c->rate) < 0)
		return bad(why, whylen,
			   "field %d (%s) '%s' is not a rate: "
			   "expected a non-negative number, '+++++' or nothing",
			   i + 1, csv_field_name(field),
			   shown(sp->f[i], sp->len[i], show, sizeof(show)));
	memcpy(c->text, sp->f[i], sp->len[i]);
	c->state = CSV_VALUE;
	return 0;
}

static int cpu_field(const struct split *sp, int i, int field,
		     struct csv_cell *c, char *why, size_t whylen)
{
	char show[40];
	double v;

	c->cpu = -1;
	if (sp->len[i] == 0)
		return 0;
	if (field_is(sp, i, "+++")) {
		memcpy(c->cpu_text, "+++", 3);
		return 0;
	}
	/* bonnie++ truncates %CP to a whole number; it may pass 100. */
	if (number(sp->f[i], sp->len[i], &v) < 0 || v > 100000 ||
	    memchr(sp->f[i], '.', sp->len[i]))
		return bad(why, whylen,
			   "field %d (%s) '%s' is not a %%CP: "
			   "expected a whole number, '+++' or nothing",
			   i + 1, csv_field_name(field),
			   shown(sp->f[i], sp->len[i], show, sizeof(show)));
	memcpy(c->cpu_text, sp->f[i], sp->len[i]);
	c->cpu = (int)v;
	return 0;
}

static int latency_field(const struct split *sp, int i, int field,
			 struct csv_cell *c, char *why, size_t whylen)
{
	static const struct {
		const char *suffix;
		double ns;
	} units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
	const char *f = sp->f[i];
	size_t len = sp->len[i];
	char show[40];

	if (len == 0)
		return 0;
	for (unsigned k = 0; k < sizeof(units) / sizeof(units[0]); k++) {
		size_t sl = strlen(units[k].suffix);
		double v;

		if (len <= sl || memcmp(f + len - sl, units[k].suffix, sl))
			continue;
		/* "5ms" also ends in "s": the number part must be clean. */
		if (number(f, len - sl, &v) < 0)
			continue;
		if (v * units[k].ns > 1e18)
			break;
		c->lat_ns = (uint64_t)(v * units[k].ns);
		memcpy(c->lat_text, f, len); /* number() took <= 18 */
		return 0;
	}
	return bad(why, whylen,
		   "field %d (%s) '%s' is not a latency: "
		   "expected a number with us, ms or s, or nothing",
		   i + 1, csv_field_name(field),
		   shown(f, len, show, sizeof(show)));
}

/* 1.98 field numbers of the rate fields of test t. */
static int rate_index(enum result_test t)
{
	return t < RT_FIRST_FILE ? 9 + 2 * (int)t
				 : 26 + 2 * (int)(t - RT_FIRST_FILE);
}

static int fill_row(const struct split *sp, enum csv_format fmt,
		    struct csv_row *row, char *why, size_t whylen)
{
	int n;
	const int *map = format_map(fmt, &n);
	/* Where each 1.98 field sits in this line, -1 when absent. */
	int at[NFIELDS_198];
	struct {
		int field;
		char *dst;
		size_t size;
	} texts[] = {
	    {1, row->version, sizeof(row->version)},
	    {2, row->name, sizeof(row->name)},
	    {3, row->concurrency, CSV_TEXT_MAX},
	    {4, row->seed, CSV_TEXT_MAX},
	    {5, row->size, CSV_TEXT_MAX},
	    {6, row->chunk, CSV_TEXT_MAX},
	    {7, row->seeks, CSV_TEXT_MAX},
	    {8, row->procs, CSV_TEXT_MAX},
	    {21, row->files, CSV_TEXT_MAX},
	    {22, row->max_size, CSV_TEXT_MAX},
	    {23, row->min_size, CSV_TEXT_MAX},
	    {24, row->dirs, CSV_TEXT_MAX},
	    {25, row->file_chunk, CSV_TEXT_MAX},
	};

	memset(row, 0, sizeof(*row));
	row->fmt = fmt;
	for (int i = 0; i < NFIELDS_198; i++)
		at[i] = -1;
	for (int i = 0; i < n; i++)
		at[map[i]] = i;
	for (unsigned k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
		int i = at[texts[k].field];

		if (i >= 0 && text_field(sp, i, texts[k].field, texts[k].dst,
					 texts[k].size, why, whylen) < 0)
			return -1;
	}
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		struct csv_cell *c = &row->c[t];
		int r = rate_index(t);

		c->cpu = -1;
		if (rate_field(sp, at[r], r, c, why, whylen) < 0 ||
		    cpu_field(sp, at[r + 1], r + 1, c, why, whylen) < 0)
			return -1;
		if (at[38 + t] >= 0 &&
		    latency_field(sp, at[38 + t], 38 + t, c, why, whylen) < 0)
			return -1;
	}
	return 0;
}

enum csv_line_kind csv_parse(const char *line, size_t len, struct csv_row *row,
			     char *why, size_t whylen)
{
	struct split sp, *s = &sp;
	const char *nul;
	enum csv_format fmt;
	size_t i;

	if (len && line[len - 1] == '\n')
		len--;
	if (len && line[len - 1] == '\r')
		len--;
	nul = memchr(line, '\0', len);
	if (nul)
		return bad(why, whylen, "a NUL byte at column %zu",
			   (size_t)(nul - line) + 1),
		       CSV_LINE_BAD;
	for (i = 0; i < len && (line[i] == ' ' || line[i] == '\t'); i++)
		;
	if (i == len)
		return CSV_LINE_BLANK;
	if (line[i] == '#')
		return CSV_LINE_COMMENT;
	split_line(line, len, s);
	/*
	 * A header names its fields; "name" alone could be a 1.03 line of a
	 * machine called so, hence the second field too.
	 */
	if (field_is(s, 0, "format_version") ||
	    (field_is(s, 0, "name") && s->n > 1 && field_is(s, 1, "file_size")))
		return CSV_LINE_HEADER;
	/* A spreadsheet's empty row: no result, and no line says so. */
	for (i = 0; i < len && line[i] == ','; i++)
		;
	if (i == len)
		return bad(why, whylen,
			   "all %d fields are empty: not a result line", s->n),
		       CSV_LINE_BAD;
	if (field_is(s, 0, "1.98") || field_is(s, 0, "1.97")) {
		fmt = field_is(s, 0, "1.98") ? CSV_198 : CSV_197;
		if (s->n != csv_field_count(fmt))
			return bad(why, whylen,
				   "a format %s line has %d "
				   "fields, not %d",
				   fmt == CSV_198 ? "1.98" : "1.97", s->n,
				   csv_field_count(fmt)),
			       CSV_LINE_BAD;
	} else if (s->n == csv_field_count(CSV_103)) {
		fmt = CSV_103;
	} else {
		char show[40];

		return bad(why, whylen,
			   "field 1 is '%s' and the line has %d "
			   "fields: not a bonnie++ 1.98 (50 fields), 1.97 "
			   "(48) or 1.03 (27) line",
			   shown(s->f[0], s->len[0], show, sizeof(show)), s->n),
		       CSV_LINE_BAD;
	}
	if (fill_row(s, fmt, row, why, whylen) < 0)
		return CSV_LINE_BAD;
	return CSV_LINE_ROW;
}

void csv_row_of(const struct run_result *r, struct csv_row *row)
{
	char *buf = NULL, why[200];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	memset(row, 0, sizeof(*row));
	if (!f)
		return;
	csv_write(f, r, CSV_198);
	fclose(f);
	if (csv_parse(buf, len, row, why, sizeof(why)) != CSV_LINE_ROW)
		memset(row, 0, sizeof(*row));
	free(buf);
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		const struct result_test_rec *rec = &r->t[t];
		struct csv_cell *c = &row->c[t];

		if (rec->state != RS_OK)
			continue;
		c->exact_rate = 1;
		c->rate = result_rate(rec, result_test_kind(t));
		if (rec->lat.count) {
			c->has_pct = 1;
			c->p50_ns = hist_percentile(&rec->lat, 50);
			c->p90_ns = hist_percentile(&rec->lat, 90);
			c->p99_ns = hist_percentile(&rec->lat, 99);
			c->p999_ns = hist_percentile(&rec->lat, 99.9);
		}
	}
}
