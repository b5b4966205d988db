/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csv_read: see csv.h; reading bonnie++'s lines back (csv_parse). Which
 * field holds what comes from csv.c's map of fields (csv_rate_at,
 * csv_label_at, ...).
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

/*
 * bonnie++ never quotes a field (a name with a comma would
 * break its own converters), so a line splits on every comma. Each
 * field is checked against what its writer can produce, so a damaged
 * line is named rather than read as zeros.
 */

/* Up to this many fields are split; more is an error anyway. */
#define SPLIT_MAX (CSV_FIELDS_MAX + 1)

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

/* "field 12 (put_block) '-5' " and what is wrong with it, into why; -1. */
static int bad_field(const struct split *sp, int i, const char *name,
		     const char *what, char *why, size_t whylen)
{
	char show[40];

	return bad(why, whylen, "field %d (%s) '%s' %s", i + 1, name,
		   shown(sp->f[i], sp->len[i], show, sizeof(show)), what);
}

/* Copy a text field into dst[CSV_TEXT_MAX or size]. */
static int text_field(const struct split *sp, int i, const char *name,
		      char *dst, size_t size, char *why, size_t whylen)
{
	if (sp->len[i] >= size)
		return bad(why, whylen,
			   "field %d (%s) is %zu characters long, "
			   "more than %zu",
			   i + 1, name, sp->len[i], size - 1);
	for (size_t k = 0; k < sp->len[i]; k++) {
		unsigned char c = (unsigned char)sp->f[i][k];

		if (c < 0x20 || c == 0x7f)
			return bad_field(sp, i, name,
					 "holds a control character", why,
					 whylen);
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

static int rate_field(const struct split *sp, int i, const char *name,
		      struct csv_cell *c, char *why, size_t whylen)
{
	if (sp->len[i] == 0)
		return 0;
	/* bonnie++ writes exactly five; "+++" is a %CP, not a rate. */
	if (field_is(sp, i, "+++++")) {
		memcpy(c->text, "+++++", 5);
		c->state = CSV_FAST;
		return 0;
	}
	if (number(sp->f[i], sp->len[i], &c->rate) < 0)
		return bad_field(sp, i, name,
				 "is not a rate: expected a non-negative "
				 "number, '+++++' or nothing",
				 why, whylen);
	memcpy(c->text, sp->f[i], sp->len[i]);
	c->state = CSV_VALUE;
	return 0;
}

static int cpu_field(const struct split *sp, int i, const char *name,
		     struct csv_cell *c, char *why, size_t whylen)
{
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
		return bad_field(sp, i, name,
				 "is not a %CP: expected a whole number, '+++' "
				 "or nothing",
				 why, whylen);
	memcpy(c->cpu_text, sp->f[i], sp->len[i]);
	c->cpu = (int)v;
	return 0;
}

static int latency_field(const struct split *sp, int i, const char *name,
			 struct csv_cell *c, char *why, size_t whylen)
{
	static const struct {
		const char *suffix;
		double ns;
	} units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
	const char *f = sp->f[i];
	size_t len = sp->len[i];

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
	return bad_field(sp, i, name,
			 "is not a latency: expected a number with us, ms or "
			 "s, or nothing",
			 why, whylen);
}

/* The three fields of figure t at i (rate; %CP after it) and lat. */
static int figure_cells(const struct split *sp, enum result_test t, int i,
			int lat, struct csv_cell *c, char *why, size_t whylen)
{
	const char *key = result_test_name(t);
	char name[64];

	c->cpu = -1;
	if (rate_field(sp, i, key, c, why, whylen) < 0)
		return -1;
	snprintf(name, sizeof(name), "%s_cpu", key);
	if (cpu_field(sp, i + 1, name, c, why, whylen) < 0)
		return -1;
	snprintf(name, sizeof(name), "%s_latency", key);
	if (lat >= 0 && latency_field(sp, lat, name, c, why, whylen) < 0)
		return -1;
	return 0;
}

/* Field i, the seed, when there: empty, or a whole number (clyde and
 * bonnie++ write no seed below 0). */
static int seed_field(const struct split *sp, int i, char *why, size_t whylen)
{
	for (size_t k = 0; i >= 0 && k < sp->len[i]; k++)
		if (sp->f[i][k] < '0' || sp->f[i][k] > '9')
			return bad_field(sp, i, csv_label_name(CL_seed),
					 "is not a seed: a whole number "
					 "from 0 (no seed is negative)",
					 why, whylen);
	return 0;
}

static int fill_row(const struct split *sp, enum csv_format fmt,
		    struct run_result *row, char *why, size_t whylen)
{
	struct result_text *x = &row->text;
	/* Where each label field goes (format_version is the format). */
	struct {
		enum csv_label label;
		char *dst;
		size_t size;
	} texts[] = {
	    {CL_bonnie_version, row->version, sizeof(row->version)},
	    {CL_name, row->name, sizeof(row->name)},
	    {CL_concurrency, x->concurrency, CSV_TEXT_MAX},
	    {CL_seed, x->seed, CSV_TEXT_MAX},
	    {CL_file_size, x->size, CSV_TEXT_MAX},
	    {CL_io_chunk_size, x->chunk, CSV_TEXT_MAX},
	    {CL_seeks, x->seeks, CSV_TEXT_MAX},
	    {CL_seek_proc_count, x->procs, CSV_TEXT_MAX},
	    {CL_num_files, x->files, CSV_TEXT_MAX},
	    {CL_max_size, x->max_size, CSV_TEXT_MAX},
	    {CL_min_size, x->min_size, CSV_TEXT_MAX},
	    {CL_num_dirs, x->dirs, CSV_TEXT_MAX},
	    {CL_file_chunk_size, x->file_chunk, CSV_TEXT_MAX},
	};

	result_init(row);
	row->fmt = fmt;
	for (unsigned k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
		int i = csv_label_at(texts[k].label, fmt);

		if (i >= 0 &&
		    text_field(sp, i, csv_label_name(texts[k].label),
			       texts[k].dst, texts[k].size, why, whylen) < 0)
			return -1;
	}
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		int i = csv_rate_at(t, fmt);

		row->c[t].cpu = -1;
		if (i >= 0 && figure_cells(sp, t, i, csv_latency_at(t, fmt),
					   &row->c[t], why, whylen) < 0)
			return -1;
	}
	if (seed_field(sp, csv_label_at(CL_seed, fmt), why, whylen) < 0)
		return -1;
	result_per_char_of_line(row);
	return 0;
}

enum csv_line_kind csv_parse(const char *line, size_t len,
			     struct run_result *row, char *why, size_t whylen)
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
