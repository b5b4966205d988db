/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csv: see csv.h. A line is built as an array of fields and then joined;
 * where each figure goes in each format is the registry's (figures.h),
 * where each label field goes is CSV_LABELS below, and the checks after
 * it make sure that together they fill every field of each format once.
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

/*
 * The fields that hold no figure: X(name, 1.98, 1.97, 1.03), the 0-based
 * field of each format or -1. 1.03 has no version, concurrency, seed,
 * chunk, seek or file-size-detail fields; its file_size and num_files
 * carry the whole labels instead.
 */
#define CSV_LABELS(X)                                                          \
	X(format_version, 0, 0, -1)                                            \
	X(bonnie_version, 1, 1, -1)                                            \
	X(name, 2, 2, 0)                                                       \
	X(concurrency, 3, 3, -1)                                               \
	X(seed, 4, 4, -1)                                                      \
	X(file_size, 5, 5, 1)                                                  \
	X(io_chunk_size, 6, 6, -1)                                             \
	X(seeks, 7, -1, -1)                                                    \
	X(seek_proc_count, 8, -1, -1)                                          \
	X(num_files, 21, 19, 14)                                               \
	X(max_size, 22, 20, -1)                                                \
	X(min_size, 23, 21, -1)                                                \
	X(num_dirs, 24, 22, -1)                                                \
	X(file_chunk_size, 25, 23, -1)

enum csv_label {
#define LABEL_ENUM(name, f98, f97, f03) CL_##name,
	CSV_LABELS(LABEL_ENUM)
#undef LABEL_ENUM
	CL_COUNT
};

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
#define LABEL_N98(name, f98, f97, f03) +((f98) >= 0)
#define LABEL_N97(name, f98, f97, f03) +((f97) >= 0)
#define LABEL_N03(name, f98, f97, f03) +((f03) >= 0)
#define LABEL_SUM98(name, f98, f97, f03) +FIG_BIT(f98)
#define LABEL_SUM97(name, f98, f97, f03) +FIG_BIT(f97)
#define LABEL_SUM03(name, f98, f97, f03) +FIG_BIT(f03)
enum {
	NFIELDS_198 = 0 CSV_LABELS(LABEL_N98) + FIG_N98,
	NFIELDS_197 = 0 CSV_LABELS(LABEL_N97) + FIG_N97,
	NFIELDS_103 = 0 CSV_LABELS(LABEL_N03) + FIG_N03,
	NFIELDS_MAX = NFIELDS_198,
};
_Static_assert(NFIELDS_198 == 50, "a 1.98 line has 50 fields");
_Static_assert(NFIELDS_197 == 48, "a 1.97 line has 48 fields");
_Static_assert(NFIELDS_103 == 27, "a 1.03 line has 27 fields");
_Static_assert(NFIELDS_198 >= NFIELDS_197 && NFIELDS_198 >= NFIELDS_103,
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

int csv_field_count(enum csv_format fmt)
{
	return (unsigned)fmt <= CSV_103 ? nfields[fmt] : 0;
}

/* The rate and latency fields of figure t in fmt; -1 when it has none. */
static int rate_at(enum result_test t, enum csv_format fmt)
{
	const struct figure *f = figure_of(t);

	return fmt == CSV_198	? f->csv198
	       : fmt == CSV_197 ? f->csv197
				: f->csv103;
}

static int latency_at(enum result_test t, enum csv_format fmt)
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
		int r = rate_at(t, fmt);

		if (r < 0)
			continue;
		if (i == r)
			snprintf(buf, len, "%s", result_test_name(t));
		else if (i == r + 1)
			snprintf(buf, len, "%s_cpu", result_test_name(t));
		else if (i == latency_at(t, fmt))
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
	if (kind == RK_SEEK && rate >= 1000.0)
		snprintf(buf, len, "%.0f", rate);
	else if (kind == RK_SEEK)
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
	const char *f[NFIELDS_MAX] = {NULL};
	int n = csv_field_count(fmt);

	label_fields(r, fmt, lbl);
	for (int k = 0; k < CL_COUNT; k++)
		if (labels[k].at[fmt] >= 0)
			f[labels[k].at[fmt]] = lbl[k];
	/* The name may be long; it is written straight from the result. */
	f[labels[CL_name].at[fmt]] = r->name;
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		int at = rate_at(t, fmt), lat = latency_at(t, fmt);

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

void csv_cell_set(struct csv_cell *c, enum result_kind kind,
		  enum csv_cell_state state, double rate, int cpu,
		  uint64_t lat_ns)
{
	memset(c, 0, sizeof(*c));
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
	if (rec->lat.count) {
		c->has_pct = 1;
		c->p50_ns = hist_percentile(&rec->lat, 50);
		c->p90_ns = hist_percentile(&rec->lat, 90);
		c->p99_ns = hist_percentile(&rec->lat, 99);
		c->p999_ns = hist_percentile(&rec->lat, 99.9);
	}
}

/*
 * Reading. bonnie++ never quotes a field (a name with a comma would
 * break its own converters), so a line splits on every comma. Each
 * field is checked against what its writer can produce, so a damaged
 * line is named rather than read as zeros.
 */

/* Up to this many fields are split; more is an error anyway. */
#define SPLIT_MAX (NFIELDS_MAX + 1)

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
static int text_field(const struct split *sp, int i, const char *name,
		      char *dst, size_t size, char *why, size_t whylen)
{
	char show[40];

	if (sp->len[i] >= size)
		return bad(why, whylen,
			   "field %d (%s) is %zu characters long, "
			   "more than %zu",
			   i + 1, name, sp->len[i], size - 1);
	for (size_t k = 0; k < sp->len[i]; k++) {
		unsigned char c = (unsigned char)sp->f[i][k];

		if (c < 0x20 || c == 0x7f)
			return bad(
			    why, whylen,
			    "field %d (%s) '%s' holds a "
			    "control character",
			    i + 1, name,
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

static int rate_field(const struct split *sp, int i, const char *name,
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
			   i + 1, name,
			   shown(sp->f[i], sp->len[i], show, sizeof(show)));
	memcpy(c->text, sp->f[i], sp->len[i]);
	c->state = CSV_VALUE;
	return 0;
}

static int cpu_field(const struct split *sp, int i, const char *name,
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
			   i + 1, name,
			   shown(sp->f[i], sp->len[i], show, sizeof(show)));
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
		   i + 1, name,
		   shown(f, len, show, sizeof(show)));
}

/* The three fields of figure t at i (rate; %CP after it) and lat. */
static int figure_cells(const struct split *sp, enum result_test t, int i,
			int lat, struct csv_cell *c, char *why, size_t whylen)
{
	const char *key = result_test_name(t);
	char name[FIELD_LEN];

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

static int fill_row(const struct split *sp, enum csv_format fmt,
		    struct csv_row *row, char *why, size_t whylen)
{
	/* Where each label field goes (format_version is the format). */
	struct {
		enum csv_label label;
		char *dst;
		size_t size;
	} texts[] = {
	    {CL_bonnie_version, row->version, sizeof(row->version)},
	    {CL_name, row->name, sizeof(row->name)},
	    {CL_concurrency, row->concurrency, CSV_TEXT_MAX},
	    {CL_seed, row->seed, CSV_TEXT_MAX},
	    {CL_file_size, row->size, CSV_TEXT_MAX},
	    {CL_io_chunk_size, row->chunk, CSV_TEXT_MAX},
	    {CL_seeks, row->seeks, CSV_TEXT_MAX},
	    {CL_seek_proc_count, row->procs, CSV_TEXT_MAX},
	    {CL_num_files, row->files, CSV_TEXT_MAX},
	    {CL_max_size, row->max_size, CSV_TEXT_MAX},
	    {CL_min_size, row->min_size, CSV_TEXT_MAX},
	    {CL_num_dirs, row->dirs, CSV_TEXT_MAX},
	    {CL_file_chunk_size, row->file_chunk, CSV_TEXT_MAX},
	};

	memset(row, 0, sizeof(*row));
	row->fmt = fmt;
	for (unsigned k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
		int i = labels[texts[k].label].at[fmt];

		if (i >= 0 && text_field(sp, i, labels[texts[k].label].name,
					 texts[k].dst, texts[k].size, why,
					 whylen) < 0)
			return -1;
	}
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		int i = rate_at(t, fmt);

		row->c[t].cpu = -1;
		if (i >= 0 && figure_cells(sp, t, i, latency_at(t, fmt),
					   &row->c[t], why, whylen) < 0)
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
		struct csv_cell *c = &row->c[t], of;

		if (r->t[t].state != RS_OK && figure_bonnie(t))
			continue;
		csv_cell_of(r, t, &of);
		/* What no line holds comes straight from the result; the
		 * line's cells get the exact rate and the percentiles. */
		if (!figure_bonnie(t)) {
			*c = of;
			continue;
		}
		c->exact_rate = of.exact_rate;
		c->rate = of.rate;
		c->has_pct = of.has_pct;
		c->p50_ns = of.p50_ns;
		c->p90_ns = of.p90_ns;
		c->p99_ns = of.p99_ns;
		c->p999_ns = of.p999_ns;
	}
}
