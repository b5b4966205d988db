/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_csvparse: reading result lines back. The real bonnie++ lines of
 * FORMATS.md give their figures cell by cell; header, comment and blank
 * lines are told apart; what clyde writes reads back as what it wrote;
 * and a table of damaged lines is each refused with one phrase naming
 * the field (its place in the line and its 1.98 name) and the value.
 * A row of any format writes back as a 1.98 line (csv_write_row) whose
 * labels join to the same text. json_read_rows gets the same treatment for
 * clyde's JSON documents.
 *
 * Decisions these cases pin down:
 * - a line with a version field and every other field empty is a result
 *   with nothing run (each field alone is valid); a line of nothing but
 *   commas is a spreadsheet's empty row and refused;
 * - "+++++" is a name or a label like any other text; as a rate it must
 *   be exactly "+++++" and as a %CP exactly "+++", as bonnie++ writes;
 * - a lone "\r" is the blank line of a CRLF file;
 * - "name,..." is a header only when field 2 is "file_size", so a 1.03
 *   line of a machine called "name" stays a result.
 */
#include "config.h"

#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "json.h"
#include "fixture.h"
#include "result_shown.h"
#include "check_main.h"

#define WHY_SIZE 400

static const char line_198[] =
    "1.98,2.00a,vm,1,1795989744,2G,,8192,5,604,96,449755,71,821393,62,571,"
    "96,2527078,98,9124,55,16,,,,,28379,84,+++++,+++,+++++,+++,23869,97,"
    "+++++,+++,+++++,+++,49052us,8094us,4469us,41210us,4806us,19655us,"
    "4453us,51836us,2357us,4282us,105us,2501us";

/* The same run in format 1.97: fields 7 and 8 (seeks, procs) removed. */
static const char line_197[] =
    "1.97,2.00a,vm,1,1795989744,2G,,604,96,449755,71,821393,62,571,"
    "96,2527078,98,9124,55,16,,,,,28379,84,+++++,+++,+++++,+++,23869,97,"
    "+++++,+++,+++++,+++,49052us,8094us,4469us,41210us,4806us,19655us,"
    "4453us,51836us,2357us,4282us,105us,2501us";

static const char line_103[] =
    "convm004,16G,51346,98,134822,56,69414,17,58651,97,251779,23,758.8,1,"
    "512,20048,91,259694,99,5846,18,18707,84,338671,99,2935,9";

struct parsed {
	enum csv_line_kind kind;
	struct run_result row;
	char why[WHY_SIZE];
};

/* Parse len bytes (strlen when len is 0) from a copy of exactly that
 * size, so a read past the line's end is not hidden by a terminator. */
static void parse(const char *s, size_t len, struct parsed *p)
{
	char *copy;

	if (!len)
		len = strlen(s);
	copy = malloc(len ? len : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, s, len);
	memset(p->why, 'Z', sizeof(p->why));
	p->why[sizeof(p->why) - 1] = '\0';
	p->kind = csv_parse(copy, len, &p->row, p->why, sizeof(p->why));
	free(copy);
}

/* line with field i (0-based) replaced by value; caller frees. */
static char *with_field(const char *line, int i, const char *value)
{
	const char *start = line, *end;
	char *out;
	size_t n;

	for (int k = 0; k < i; k++) {
		start = strchr(start, ',');
		ck_assert_ptr_nonnull(start);
		start++;
	}
	end = strchr(start, ',');
	if (!end)
		end = start + strlen(start);
	n = (size_t)(start - line) + strlen(value) + strlen(end) + 1;
	out = malloc(n);
	ck_assert_ptr_nonnull(out);
	snprintf(out, n, "%.*s%s%s", (int)(start - line), line, value, end);
	return out;
}

/* n copies of field joined by commas, after head (may be NULL). */
static char *repeat(const char *head, const char *field, int n)
{
	size_t fl = strlen(field), hl = head ? strlen(head) + 1 : 0;
	char *out = malloc(hl + (size_t)n * (fl + 1) + 1), *p = out;

	ck_assert_ptr_nonnull(out);
	if (head)
		p += sprintf(p, "%s,", head);
	for (int k = 0; k < n; k++)
		p += sprintf(p, "%s%s", k ? "," : "", field);
	*p = '\0';
	return out;
}

static void assert_cell(const struct csv_cell *c, enum csv_cell_state state,
			double rate, int cpu, uint64_t lat_ns, const char *text,
			const char *cpu_text, const char *lat_text)
{
	ck_assert_int_eq(c->state, state);
	if (state == CSV_VALUE)
		ck_assert_double_eq_tol(c->rate, rate, 1e-9);
	ck_assert_int_eq(c->cpu, cpu);
	ck_assert_uint_eq(c->lat_ns, lat_ns);
	ck_assert_str_eq(c->text, text);
	ck_assert_str_eq(c->cpu_text, cpu_text);
	ck_assert_str_eq(c->lat_text, lat_text);
	ck_assert_int_eq(c->exact_rate, 0);
	ck_assert_int_eq(c->has_pct, 0);
}

/* The figures the 2.00a VM run has in both the 1.98 and 1.97 lines. */
static void assert_vm(const struct run_result *r)
{
	ck_assert_str_eq(r->version, "2.00a");
	ck_assert_str_eq(r->name, "vm");
	ck_assert_str_eq(r->text.concurrency, "1");
	ck_assert_str_eq(r->text.seed, "1795989744");
	ck_assert_str_eq(r->text.size, "2G");
	ck_assert_str_eq(r->text.chunk, "");
	ck_assert_str_eq(r->text.files, "16");
	ck_assert_str_eq(r->text.max_size, "");
	ck_assert_str_eq(r->text.min_size, "");
	ck_assert_str_eq(r->text.dirs, "");
	ck_assert_str_eq(r->text.file_chunk, "");
	assert_cell(&r->c[RT_putc], CSV_VALUE, 604, 96, 49052000, "604", "96",
		    "49052us");
	assert_cell(&r->c[RT_put_block], CSV_VALUE, 449755, 71, 8094000,
		    "449755", "71", "8094us");
	assert_cell(&r->c[RT_get_block], CSV_VALUE, 2527078, 98, 4806000,
		    "2527078", "98", "4806us");
	assert_cell(&r->c[RT_seeks], CSV_VALUE, 9124, 55, 19655000, "9124",
		    "55", "19655us");
	assert_cell(&r->c[RT_seq_create], CSV_VALUE, 28379, 84, 4453000,
		    "28379", "84", "4453us");
	assert_cell(&r->c[RT_seq_stat], CSV_FAST, 0, -1, 51836000, "+++++",
		    "+++", "51836us");
	assert_cell(&r->c[RT_ran_stat], CSV_FAST, 0, -1, 105000, "+++++", "+++",
		    "105us");
	assert_cell(&r->c[RT_ran_del], CSV_FAST, 0, -1, 2501000, "+++++", "+++",
		    "2501us");
}

START_TEST(real_198)
{
	struct parsed p;

	parse(line_198, 0, &p);
	ck_assert_int_eq(p.kind, CSV_LINE_ROW);
	ck_assert_int_eq(p.row.fmt, CSV_198);
	assert_vm(&p.row);
	ck_assert_str_eq(p.row.text.seeks, "8192");
	ck_assert_str_eq(p.row.text.procs, "5");
}
END_TEST

START_TEST(real_197)
{
	struct parsed p;

	parse(line_197, 0, &p);
	ck_assert_int_eq(p.kind, CSV_LINE_ROW);
	ck_assert_int_eq(p.row.fmt, CSV_197);
	assert_vm(&p.row);
	/* 1.97 has no seeks or procs fields. */
	ck_assert_str_eq(p.row.text.seeks, "");
	ck_assert_str_eq(p.row.text.procs, "");
}
END_TEST

START_TEST(real_103)
{
	struct parsed p;
	const struct run_result *r = &p.row;

	parse(line_103, 0, &p);
	ck_assert_int_eq(p.kind, CSV_LINE_ROW);
	ck_assert_int_eq(r->fmt, CSV_103);
	ck_assert_str_eq(r->version, "");
	ck_assert_str_eq(r->name, "convm004");
	ck_assert_str_eq(r->text.size, "16G");
	ck_assert_str_eq(r->text.files, "512");
	ck_assert_str_eq(r->text.concurrency, "");
	ck_assert_str_eq(r->text.seeks, "");
	/* No latency fields in 1.03. */
	assert_cell(&r->c[RT_putc], CSV_VALUE, 51346, 98, 0, "51346", "98", "");
	assert_cell(&r->c[RT_get_block], CSV_VALUE, 251779, 23, 0, "251779",
		    "23", "");
	assert_cell(&r->c[RT_seeks], CSV_VALUE, 758.8, 1, 0, "758.8", "1", "");
	assert_cell(&r->c[RT_seq_stat], CSV_VALUE, 259694, 99, 0, "259694",
		    "99", "");
	assert_cell(&r->c[RT_ran_del], CSV_VALUE, 2935, 9, 0, "2935", "9", "");
}
END_TEST

/* A row as a 1.98 line (csv_write_row), its fields as written. */
static char *row_line(const char *line)
{
	struct parsed p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	parse(line, 0, &p);
	ck_assert_int_eq(p.kind, CSV_LINE_ROW);
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	csv_write_row(f, &p.row);
	fclose(f);
	return buf;
}

/*
 * A 1.98 line comes out as it went in; a 1.97 line with empty seek
 * fields; a 1.03 line with its whole labels split into their fields, so
 * the labels joined from them are the same text.
 */
START_TEST(row_as_198)
{
	char *s = row_line(line_198);
	struct parsed p;
	char size[200], files[200];

	ck_assert_int_eq(strncmp(s, line_198, strlen(line_198)), 0);
	ck_assert_str_eq(s + strlen(line_198), "\n");
	free(s);
	s = row_line(line_197);
	ck_assert_int_eq(
	    strncmp(s, "1.98,2.00a,vm,1,1795989744,2G,,,,604,96,", 40), 0);
	free(s);
	s = row_line("box,1500M:4k,1,2,3,4,5,6,7,8,9,10,11.5,12,"
		     "16:2000:100/3,13,14,15,16,17,18,19,20,21,22,23,24");
	ck_assert_str_eq(s, "1.98,,box,,,1500M,4k,,,1,2,3,4,5,6,7,8,9,10,"
			    "11.5,12,16,2000,100,3,,13,14,15,16,17,18,19,20,"
			    "21,22,23,24,,,,,,,,,,,,\n");
	parse(s, 0, &p);
	ck_assert_int_eq(p.kind, CSV_LINE_ROW);
	{
		const struct run_result *r = &p.row;
		const char *f[4] = {r->text.size, r->text.chunk, r->text.seeks,
				    r->text.procs};

		result_join_size(size, sizeof(size), f, 4);
		result_join_files(files, sizeof(files), r->text.files,
				  r->text.max_size, r->text.min_size,
				  r->text.dirs, r->text.file_chunk);
	}
	ck_assert_str_eq(size, "1500M:4k");
	ck_assert_str_eq(files, "16:2000:100/3");
	free(s);
}
END_TEST

/* A line reads the same with "\n", "\r\n" or no end at all. */
START_TEST(line_ends)
{
	const char *lines[] = {line_198, line_197, line_103};

	for (unsigned k = 0; k < 3; k++) {
		const char *ends[] = {"\n", "\r\n"};
		struct parsed bare, p;

		parse(lines[k], 0, &bare);
		ck_assert_int_eq(bare.kind, CSV_LINE_ROW);
		for (unsigned e = 0; e < 2; e++) {
			char buf[400];

			snprintf(buf, sizeof(buf), "%s%s", lines[k], ends[e]);
			parse(buf, 0, &p);
			ck_assert_int_eq(p.kind, CSV_LINE_ROW);
			ck_assert_int_eq(
			    memcmp(&p.row, &bare.row, sizeof(p.row)), 0);
		}
	}
}
END_TEST

static const struct {
	const char *line;
	enum csv_line_kind kind;
} kinds[] = {
    {"format_version,bonnie_version,name,concurrency,seed,file_size\n",
     CSV_LINE_HEADER},
    {"name,file_size,putc,putc_cpu,put_block,put_block_cpu,rewrite\r\n",
     CSV_LINE_HEADER},
    {"# clyde 0.1, run on vm\n", CSV_LINE_COMMENT},
    {"  \t# indented, still a comment\r\n", CSV_LINE_COMMENT},
    {"#", CSV_LINE_COMMENT},
    {"", CSV_LINE_BLANK},
    {"\n", CSV_LINE_BLANK},
    {"\r\n", CSV_LINE_BLANK},
    {"\r", CSV_LINE_BLANK},
    {" \t  \n", CSV_LINE_BLANK},
    /* A 1.03 line of a machine called "name" is a result. */
    {"name,16G,51346,98,134822,56,69414,17,58651,97,251779,23,758.8,1,"
     "512,20048,91,259694,99,5846,18,18707,84,338671,99,2935,9\n",
     CSV_LINE_ROW},
};

START_TEST(line_kinds)
{
	struct parsed p;

	parse(kinds[_i].line, 0, &p);
	ck_assert_msg(p.kind == kinds[_i].kind, "'%s': kind %d, expected %d",
		      kinds[_i].line, p.kind, kinds[_i].kind);
}
END_TEST

/* Each field empty is valid; a version and nothing else is a result of
 * a run that ran nothing. */
START_TEST(nothing_run)
{
	struct parsed p;
	char *l = repeat("1.98", "", 49);

	parse(l, 0, &p);
	ck_assert_int_eq(p.kind, CSV_LINE_ROW);
	ck_assert_int_eq(p.row.fmt, CSV_198);
	ck_assert_str_eq(p.row.name, "");
	for (int t = 0; t < RT_COUNT; t++) {
		ck_assert_int_eq(p.row.c[t].state, CSV_EMPTY);
		ck_assert_int_eq(p.row.c[t].cpu, -1);
		ck_assert_uint_eq(p.row.c[t].lat_ns, 0);
		ck_assert_str_eq(p.row.c[t].text, "");
	}
	free(l);
}
END_TEST

/* "+++++" is text in the text fields and a fast test in the figures. */
START_TEST(plus_as_text)
{
	struct parsed p;
	char *l = with_field(line_198, 2, "+++++"), *m;

	m = with_field(l, 5, "+++++");
	free(l);
	l = with_field(m, 21, "+++++");
	free(m);
	parse(l, 0, &p);
	ck_assert_int_eq(p.kind, CSV_LINE_ROW);
	ck_assert_str_eq(p.row.name, "+++++");
	ck_assert_str_eq(p.row.text.size, "+++++");
	ck_assert_str_eq(p.row.text.files, "+++++");
	ck_assert_int_eq(p.row.c[RT_seq_stat].state, CSV_FAST);
	free(l);
}
END_TEST

/* The longest text each field holds, and figures at their limits. */
START_TEST(limits)
{
	struct parsed p;
	char name[256], size[64], *l, *m;

	memset(name, 'n', 255);
	name[255] = '\0';
	memset(size, '9', 63);
	size[63] = '\0';
	l = with_field(line_198, 2, name);
	m = with_field(l, 5, size);
	free(l);
	parse(m, 0, &p);
	ck_assert_int_eq(p.kind, CSV_LINE_ROW);
	ck_assert_uint_eq(strlen(p.row.name), 255);
	ck_assert_uint_eq(strlen(p.row.text.size), 63);
	free(m);

	/* 18 digits, %CP past 100, every latency unit. */
	l = with_field(line_198, 11, "999999999999999999");
	m = with_field(l, 12, "250");
	free(l);
	l = with_field(m, 38, "5ns");
	free(m);
	m = with_field(l, 39, "1.5ms");
	free(l);
	l = with_field(m, 40, "2s");
	free(m);
	parse(l, 0, &p);
	ck_assert_int_eq(p.kind, CSV_LINE_ROW);
	ck_assert_double_eq(p.row.c[RT_put_block].rate, 999999999999999999.0);
	ck_assert_int_eq(p.row.c[RT_put_block].cpu, 250);
	ck_assert_uint_eq(p.row.c[RT_putc].lat_ns, 5);
	ck_assert_uint_eq(p.row.c[RT_put_block].lat_ns, 1500000);
	ck_assert_uint_eq(p.row.c[RT_rewrite].lat_ns, 2000000000u);
	ck_assert_str_eq(p.row.c[RT_put_block].lat_text, "1.5ms");
	free(l);
}
END_TEST

/* What clyde writes reads back as csv_shown says it does. */
static void assert_same_row(const struct run_result *a,
			    const struct run_result *b, int exact)
{
	ck_assert_str_eq(a->version, b->version);
	ck_assert_str_eq(a->name, b->name);
	ck_assert_str_eq(a->text.concurrency, b->text.concurrency);
	ck_assert_str_eq(a->text.seed, b->text.seed);
	ck_assert_str_eq(a->text.size, b->text.size);
	ck_assert_str_eq(a->text.chunk, b->text.chunk);
	ck_assert_str_eq(a->text.files, b->text.files);
	ck_assert_str_eq(a->text.max_size, b->text.max_size);
	ck_assert_str_eq(a->text.min_size, b->text.min_size);
	ck_assert_str_eq(a->text.dirs, b->text.dirs);
	ck_assert_str_eq(a->text.file_chunk, b->text.file_chunk);
	for (int t = 0; t < RT_COUNT; t++) {
		const struct csv_cell *x = &a->c[t], *y = &b->c[t];

		ck_assert_int_eq(x->state, y->state);
		ck_assert_int_eq(x->cpu, y->cpu);
		ck_assert_uint_eq(x->lat_ns, y->lat_ns);
		ck_assert_str_eq(x->text, y->text);
		ck_assert_str_eq(x->cpu_text, y->cpu_text);
		ck_assert_str_eq(x->lat_text, y->lat_text);
		if (exact && x->state == CSV_VALUE)
			ck_assert_double_eq_tol(x->rate, y->rate, 1e-6);
	}
}

START_TEST(round_trip)
{
	struct run_result r;
	struct run_result of;
	struct parsed p, q;
	char *buf = NULL;

	fx_vm200(&r);
	r.chunk = 4096;
	r.num_dirs = 3;
	r.max_size = 2000;
	r.min_size = 100;
	of = r;
	ck_assert_int_eq(csv_shown(&of), 0);
	FX_CAPTURE(buf, csv_write(out, &r, CSV_198));
	parse(buf, 0, &p);
	free(buf);
	ck_assert_int_eq(p.kind, CSV_LINE_ROW);
	assert_same_row(&p.row, &of, 1);
	ck_assert_str_eq(p.row.text.chunk, "4k");
	ck_assert_str_eq(p.row.text.dirs, "3");
	ck_assert_str_eq(p.row.text.max_size, "2000");
	/* csv_shown adds the exact rate of every test that ran. */
	for (int t = 0; t < RT_COUNT; t++) {
		if (r.t[t].state != RS_OK)
			continue;
		ck_assert_int_eq(of.c[t].exact_rate, 1);
		ck_assert_double_eq_tol(
		    of.c[t].rate, result_rate(&r.t[t], result_test_kind(t)),
		    1e-9);
	}
	/* The 1.97 line carries the same figures. */
	FX_CAPTURE(buf, csv_write(out, &r, CSV_197));
	parse(buf, 0, &q);
	free(buf);
	ck_assert_int_eq(q.kind, CSV_LINE_ROW);
	ck_assert_int_eq(q.row.fmt, CSV_197);
	assert_same_row(&q.row, &p.row, 1);

	/* And the 1.03 line its figures, without latencies. */
	result_free(&r);
	fx_convm103(&r);
	FX_CAPTURE(buf, csv_write(out, &r, CSV_103));
	parse(buf, 0, &q);
	free(buf);
	ck_assert_int_eq(q.kind, CSV_LINE_ROW);
	of = r;
	ck_assert_int_eq(csv_shown(&of), 0);
	ck_assert_str_eq(q.row.name, of.name);
	for (int t = 0; t < RT_COUNT; t++) {
		ck_assert_str_eq(q.row.c[t].text, of.c[t].text);
		ck_assert_str_eq(q.row.c[t].cpu_text, of.c[t].cpu_text);
		ck_assert_str_eq(q.row.c[t].lat_text, "");
	}
	result_free(&r);
}
END_TEST

/*
 * Damaged lines. base is the real line a field of which is replaced
 * (field is 0-based), or NULL for a whole line in value (vlen bytes
 * when it holds a NUL). Each is refused, and why holds every want.
 */
static const struct nasty {
	const char *what;
	const char *base;
	int field;
	const char *value;
	size_t vlen;
	const char *want[3];
} nasty[] = {
    {"negative rate",
     line_198,
     11,
     "-5",
     0,
     {"field 12 (put_block) '-5' is not a rate"}},
    {"minus zero", line_198, 9, "-0", 0, {"field 10 (putc) '-0'"}},
    {"exponent", line_198, 13, "1e5", 0, {"field 14 (rewrite) '1e5'"}},
    {"nan", line_198, 15, "nan", 0, {"field 16 (getc) 'nan'"}},
    {"inf", line_198, 17, "inf", 0, {"field 18 (get_block) 'inf'"}},
    {"leading space", line_198, 26, " 12", 0, {"field 27 (seq_create) ' 12'"}},
    {"trailing space", line_198, 32, "12 ", 0, {"field 33 (ran_create) '12 '"}},
    {"hex", line_198, 32, "0x10", 0, {"field 33 (ran_create) '0x10'"}},
    {"two dots", line_198, 19, "1.2.3", 0, {"field 20 (seeks) '1.2.3'"}},
    {"a lone dot", line_198, 19, ".", 0, {"field 20 (seeks) '.'"}},
    {"20-digit rate",
     line_198,
     11,
     "12345678901234567890",
     0,
     {"field 12 (put_block) '12345678901234567890'", "not a rate"}},
    {"19-digit rate",
     line_198,
     11,
     "1234567890123456789",
     0,
     {"field 12 (put_block)", "not a rate"}},
    {"fractional %CP",
     line_198,
     10,
     "12.5",
     0,
     {"field 11 (putc_cpu) '12.5' is not a %CP"}},
    {"negative %CP",
     line_198,
     12,
     "-1",
     0,
     {"field 13 (put_block_cpu) '-1' is not a %CP"}},
    {"20-digit %CP",
     line_198,
     12,
     "12345678901234567890",
     0,
     {"field 13 (put_block_cpu) '12345678901234567890'"}},
    {"%CP past 100000",
     line_198,
     12,
     "100001",
     0,
     {"field 13 (put_block_cpu) '100001'"}},
    {"latency 12xs",
     line_198,
     38,
     "12xs",
     0,
     {"field 39 (putc_latency) '12xs' is not a latency"}},
    {"latency us",
     line_198,
     39,
     "us",
     0,
     {"field 40 (put_block_latency) 'us'"}},
    {"latency -5us",
     line_198,
     40,
     "-5us",
     0,
     {"field 41 (rewrite_latency) '-5us'"}},
    {"latency without unit",
     line_198,
     41,
     "41210",
     0,
     {"field 42 (getc_latency) '41210'"}},
    {"latency 5 us",
     line_198,
     42,
     "5 us",
     0,
     {"field 43 (get_block_latency) '5 us'"}},
    {"latency 20 digits",
     line_198,
     43,
     "12345678901234567890us",
     0,
     {"field 44 (seeks_latency) '12345678901234567890us'"}},
    {"latency past 1e18 ns",
     line_198,
     44,
     "999999999999999999s",
     0,
     {"field 45 (seq_create_latency)"}},
    {"+++ as a rate", line_198, 9, "+++", 0, {"field 10 (putc) '+++'"}},
    {"six + as a rate", line_198, 9, "++++++", 0, {"field 10 (putc) '++++++'"}},
    {"+++++ as a %CP",
     line_198,
     10,
     "+++++",
     0,
     {"field 11 (putc_cpu) '+++++' is not a %CP"}},
    {"+++++ as a latency",
     line_198,
     38,
     "+++++",
     0,
     {"field 39 (putc_latency) '+++++' is not a latency"}},
    /* The same field has another place in 1.97 and 1.03 lines. */
    {"1.97 negative rate", line_197, 9, "-5", 0, {"field 10 (put_block) '-5'"}},
    {"1.03 negative rate", line_103, 4, "-5", 0, {"field 5 (put_block) '-5'"}},
    {"1.03 seeks 1.2.3",
     line_103,
     12,
     "1.2.3",
     0,
     {"field 13 (seeks) '1.2.3'"}},
    {"control character in the name",
     line_198,
     2,
     "v\tm",
     0,
     {"field 3 (name) 'v?m' holds a control character"}},
    {"escape in the name",
     line_198,
     2,
     "\033[31mvm",
     0,
     {"field 3 (name) '?[31mvm'"}},
    {"DEL in the size",
     line_198,
     5,
     "2G\177",
     0,
     {"field 6 (file_size) '2G?'"}},
    {"300-character name",
     line_198,
     2,
     "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
     "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
     "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
     "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
     "nnnnnnnnnnnnnnnnnnnnnnnnnnnn",
     0,
     {"field 3 (name) is 300 characters long, more than 255"}},
    {"64-character size",
     line_198,
     5,
     "1234567890123456789012345678901234567890123456789012345678901234",
     0,
     {"field 6 (file_size) is 64 characters long, more than 63"}},
    {"32-character version",
     line_198,
     1,
     "2.00a-2.00a-2.00a-2.00a-2.00a-xx",
     0,
     {"field 2 (bonnie_version) is 32 characters long, more than 31"}},
    {"1.98 with 49 fields",
     NULL,
     0,
     "1.98,2.00a,vm,1,1795989744,2G,,8192,5,604,96,449755,71,821393,62,571,"
     "96,2527078,98,9124,55,16,,,,,28379,84,+++++,+++,+++++,+++,23869,97,"
     "+++++,+++,+++++,+++,49052us,8094us,4469us,41210us,4806us,19655us,"
     "4453us,51836us,2357us,4282us,105us",
     0,
     {"a format 1.98 line has 49 fields, not 50"}},
    {"1.98 with 51 fields",
     NULL,
     0,
     "1.98,2.00a,vm,1,1795989744,2G,,8192,5,604,96,449755,71,821393,62,571,"
     "96,2527078,98,9124,55,16,,,,,28379,84,+++++,+++,+++++,+++,23869,97,"
     "+++++,+++,+++++,+++,49052us,8094us,4469us,41210us,4806us,19655us,"
     "4453us,51836us,2357us,4282us,105us,2501us,1us",
     0,
     {"a format 1.98 line has 51 fields, not 50"}},
    {"1.97 with 50 fields",
     line_198,
     0,
     "1.97",
     0,
     {"a format 1.97 line has 50 fields, not 48"}},
    {"1.98 with 48 fields",
     line_197,
     0,
     "1.98",
     0,
     {"a format 1.98 line has 48 fields, not 50"}},
    {"27 fields of garbage",
     NULL,
     0,
     "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,!",
     0,
     {"field 3 (putc) 'c' is not a rate"}},
    {"unknown version",
     line_198,
     0,
     "2.00",
     0,
     {"field 1 is '2.00' and the line has 50 fields", "1.98 (50 fields)"}},
    {"a word",
     NULL,
     0,
     "hello",
     0,
     {"field 1 is 'hello' and the line has 1 fields"}},
    {"NUL in the name",
     NULL,
     0,
     "1.98,2.00a,v\0m,1",
     16,
     {"a NUL byte at column 13"}},
    {"NUL first", NULL, 0, "\0", 1, {"a NUL byte at column 1"}},
    {"only commas, 50 fields",
     NULL,
     0,
     ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,",
     0,
     {"all 50 fields are empty"}},
    {"only commas, 27 fields",
     NULL,
     0,
     ",,,,,,,,,,,,,,,,,,,,,,,,,,",
     0,
     {"all 27 fields are empty"}},
    {"one comma", NULL, 0, ",\r\n", 0, {"all 2 fields are empty"}},
    {"1.98 and 48 empty fields",
     NULL,
     0,
     "1.98,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,",
     0,
     {"a format 1.98 line has 49 fields, not 50"}},
    {"a stray CR inside",
     line_198,
     5,
     "2G\r",
     0,
     {"field 6 (file_size) '2G?' holds a control character"}},
    {"CR before a field's end",
     line_198,
     49,
     "2501us\r\r",
     0,
     {"field 50 (ran_del_latency)", "not a latency"}},
    {"+++++ everywhere, 27 fields",
     NULL,
     0,
     "+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,"
     "+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,"
     "+++++,+++++,+++++,+++++,+++++",
     0,
     {"field 4 (putc_cpu) '+++++' is not a %CP"}},
    {"+++++ everywhere, 50 fields",
     NULL,
     0,
     "+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,"
     "+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,"
     "+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,"
     "+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,"
     "+++++,+++++,+++++,+++++,+++++,+++++",
     0,
     {"field 1 is '+++++' and the line has 50 fields"}},
    {"+++++ everywhere after 1.98",
     NULL,
     0,
     "1.98,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,"
     "+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,"
     "+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,"
     "+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,+++++,"
     "+++++,+++++,+++++,+++++,+++++,+++++",
     0,
     {"field 11 (putc_cpu) '+++++' is not a %CP"}},
};

static void check_nasty(const struct nasty *n, const char *line, size_t len)
{
	struct parsed p;

	parse(line, len, &p);
	ck_assert_msg(p.kind == CSV_LINE_BAD, "%s: kind %d, not refused",
		      n->what, p.kind);
	ck_assert_msg(p.why[0] != 'Z' && p.why[0], "%s: no why", n->what);
	/* One printable line, whatever bytes the input had. */
	for (const char *c = p.why; *c; c++)
		ck_assert_msg(*c >= 0x20 && *c < 0x7f,
			      "%s: why has byte %d: %s", n->what, *c, p.why);
	for (int k = 0; k < 3 && n->want[k]; k++)
		ck_assert_msg(strstr(p.why, n->want[k]),
			      "%s: why '%s' lacks '%s'", n->what, p.why,
			      n->want[k]);
}

START_TEST(nasty_lines)
{
	const struct nasty *n = &nasty[_i];

	if (n->base) {
		char *l = with_field(n->base, n->field, n->value);

		check_nasty(n, l, 0);
		free(l);
	} else {
		check_nasty(n, n->value, n->vlen);
	}
}
END_TEST

/* Lines too big for a table entry. */
START_TEST(ten_thousand_fields)
{
	static const struct nasty n198 = {
	    "1.98 and 9999 empty fields",
	    NULL,
	    0,
	    NULL,
	    0,
	    {"a format 1.98 line has 10000 fields, not 50"}};
	static const struct nasty nnum = {
	    "10000 numbers",
	    NULL,
	    0,
	    NULL,
	    0,
	    {"field 1 is '12345' and the line has 10000 fields"}};
	char *l = repeat("1.98", "", 9999);

	check_nasty(&n198, l, 0);
	free(l);
	l = repeat(NULL, "12345", 10000);
	check_nasty(&nnum, l, 0);
	free(l);
}
END_TEST

START_TEST(long_field_shown_short)
{
	static const struct nasty n = {
	    "a 5000-character rate",	  NULL, 0, NULL, 0,
	    {"field 10 (putc) '", "...'"}};
	char *big = malloc(5001), *l;
	struct parsed p;

	memset(big, '7', 5000);
	big[5000] = '\0';
	l = with_field(line_198, 9, big);
	check_nasty(&n, l, 0);
	parse(l, 0, &p);
	ck_assert_uint_lt(strlen(p.why), 200);
	free(l);
	free(big);
}
END_TEST

/* json_read_rows */

struct jread {
	int n, line;
	struct run_result *rows;
	char why[WHY_SIZE];
};

static void jread(const char *doc, size_t len, struct jread *j)
{
	char *copy;

	if (!len)
		len = strlen(doc);
	copy = malloc(len ? len : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, doc, len);
	j->why[0] = '\0';
	j->n = json_read_rows(copy, len, &j->rows, NULL, NULL, j->why,
			      sizeof(j->why), &j->line);
	free(copy);
}

/* The rows jread read, and their records. */
static void jread_free(struct jread *j)
{
	for (int i = 0; i < j->n; i++)
		result_free(&j->rows[i]);
	free(j->rows);
}

/* A document of the given runs (a JSON array text). */
static char *doc_of(const char *runs)
{
	size_t n = strlen(runs) + 64;
	char *d = malloc(n);

	ck_assert_ptr_nonnull(d);
	snprintf(d, n, "{\"schema_version\": 1,\n \"runs\": %s}\n", runs);
	return d;
}

START_TEST(json_valid)
{
	struct run_result r;
	json_t *doc = json_object(), *runs = json_array();
	struct jread j;
	char *text;
	double fast;

	fx_vm200(&r);
	fast = result_rate(&r.t[RT_seq_stat], RK_FILE);
	json_array_append_new(runs, json_run(&r));
	result_free(&r);
	fx_convm103(&r);
	json_array_append_new(runs, json_run(&r));
	json_object_set_new(doc, "schema_version",
			    json_integer(JSON_SCHEMA_VERSION));
	json_object_set_new(doc, "runs", runs);
	text = json_dumps(doc, JSON_INDENT(1));
	json_decref(doc);
	jread(text, 0, &j);
	free(text);
	ck_assert_msg(j.n == 2, "n %d: %s", j.n, j.why);
	ck_assert_str_eq(j.rows[0].name, "vm");
	ck_assert_str_eq(j.rows[1].name, "convm004");
	ck_assert_int_eq(j.rows[0].fmt, CSV_198);
	/* The exact rate of a "+++++" cell comes from the JSON. */
	ck_assert_int_eq(j.rows[0].c[RT_seq_stat].state, CSV_FAST);
	ck_assert_int_eq(j.rows[0].c[RT_seq_stat].exact_rate, 1);
	ck_assert_double_gt(fast, 0);
	ck_assert_double_eq_tol(j.rows[0].c[RT_seq_stat].rate, fast, 1e-6);
	ck_assert_double_eq_tol(j.rows[1].c[RT_seeks].rate, 732.5, 1e-9);
	ck_assert_str_eq(j.rows[1].c[RT_seeks].text, "732.5");
	jread_free(&j);
	result_free(&r);
}
END_TEST

START_TEST(json_percentiles)
{
	struct jread j;
	char *d = doc_of(
	    "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
	    " \"tests\": {\"putc\": {\"rate\": 51346.7, \"latency\": "
	    "{\"count\": 10, \"p50_ns\": 5, \"p90_ns\": 9, \"p99_ns\": 20, "
	    "\"p99_9_ns\": 31}},"
	    " \"seeks\": {\"rate\": 12.5}}}]");

	jread(d, 0, &j);
	free(d);
	ck_assert_msg(j.n == 1, "n %d: %s", j.n, j.why);
	ck_assert_double_eq_tol(j.rows[0].c[RT_putc].rate, 51346.7, 1e-9);
	ck_assert_int_eq(j.rows[0].c[RT_putc].has_pct, 1);
	ck_assert_uint_eq(j.rows[0].c[RT_putc].p50_ns, 5);
	ck_assert_uint_eq(j.rows[0].c[RT_putc].p999_ns, 31);
	/* A test the line says did not run takes nothing from tests. */
	ck_assert_int_eq(j.rows[0].c[RT_seeks].state, CSV_EMPTY);
	ck_assert_int_eq(j.rows[0].c[RT_seeks].exact_rate, 0);
	jread_free(&j);
}
END_TEST

START_TEST(json_no_runs_is_empty)
{
	struct jread j;
	char *d = doc_of("[]");

	jread(d, 0, &j);
	free(d);
	ck_assert_int_eq(j.n, 0);
	jread_free(&j);
}
END_TEST

static const struct {
	const char *what, *doc;
	int doc_is_runs; /* doc is the runs array only */
	const char *want[2];
	int line; /* 0: not checked */
} json_bad[] = {
    {"not JSON", "1.98,2.00a,vm", 0, {"not a JSON document"}, 1},
    {"cut short", "{\"runs\": [", 0, {"not a JSON document"}, 0},
    {"error on line 3", "{\n\"runs\":\n [,]}", 0, {"not a JSON document"}, 3},
    {"an empty document", "", 0, {"not a JSON document"}, 0},
    {"only white space", " \n\t\n", 0, {"not a JSON document"}, 0},
    {"two documents",
     "{\"runs\": []} {\"runs\": []}",
     0,
     {"not a JSON document"},
     0},
    {"NUL escaped in a string",
     "{\"runs\": [{\"csv\": \"a\\u0000b\"}]}",
     0,
     {"not a JSON document"},
     0},
    {"without runs", "{\"schema_version\": 1}", 0, {"without a runs array"}, 0},
    {"runs not an array",
     "{\"runs\": {\"csv\": \"x\"}}",
     0,
     {"without a runs array"},
     0},
    {"an array document", "[{\"runs\": []}]", 0, {"without a runs array"}, 0},
    {"a number document", "42", 0, {"not a JSON document"}, 0},
    {"a run that is a number", "[5]", 1, {"runs[0] has no csv line"}, 0},
    {"csv a number", "[{\"csv\": 5}]", 1, {"runs[0] has no csv line"}, 0},
    {"csv null", "[{\"csv\": null}]", 1, {"runs[0] has no csv line"}, 0},
    {"csv an array",
     "[{\"csv\": [\"1.98\"]}]",
     1,
     {"runs[0] has no csv line"},
     0},
    {"csv a header line",
     "[{\"csv\": \"name,file_size,putc,putc_cpu\"}]",
     1,
     {"runs[0].csv is not a result line"},
     0},
    {"csv empty",
     "[{\"csv\": \"\"}]",
     1,
     {"runs[0].csv is not a result line"},
     0},
    {"csv a bad field in the second run",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\"},"
     " {\"csv\": \"convm004,16G,-5,98,,,,,,,,,,,,,,,,,,,,,,,\"}]",
     1,
     {"runs[1].csv: field 3 (putc) '-5' is not a rate"},
     0},
    {"csv with a newline inside",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,\\n,,,,\"}]",
     1,
     {"runs[0].csv: "},
     0},
    {"rate out of range",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"rate\": 1e300}}}]",
     1,
     {"runs[0].tests.putc.rate 1e300 is not a rate"},
     0},
    {"negative rate",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"rate\": -3}}}]",
     1,
     {"runs[0].tests.putc.rate -3 is not a rate"},
     0},
    {"no schema_version", "{\"runs\": []}", 0, {"no schema_version"}, 0},
    {"schema_version 2",
     "{\"schema_version\": 2, \"runs\": []}",
     0,
     {"schema_version 2: clyde-report reads version 1"},
     0},
    {"schema_version a string",
     "{\"schema_version\": \"1\", \"runs\": []}",
     0,
     {"schema_version \"1\": clyde-report reads version 1"},
     0},
    {"schema_version a real",
     "{\"schema_version\": 1.0, \"runs\": []}",
     0,
     {"schema_version 1.0: "},
     0},
    {"schema_version null",
     "{\"schema_version\": null, \"runs\": []}",
     0,
     {"schema_version null: "},
     0},
    {"another program",
     "{\"schema_version\": 1, \"program\": \"fio\", \"runs\": []}",
     0,
     {"program \"fio\": not a clyde result document"},
     0},
    {"p99 'x'",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"latency\": {\"count\": 5, \"p50_ns\": 1, "
     "\"p90_ns\": 2, \"p99_ns\": \"x\", \"p99_9_ns\": 4}}}}]",
     1,
     {"runs[0].tests.putc.latency.p99_ns \"x\" is not a latency"},
     0},
    {"p99 -5",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"latency\": {\"count\": 5, \"p50_ns\": 1, "
     "\"p90_ns\": 2, \"p99_ns\": -5, \"p99_9_ns\": 4}}}}]",
     1,
     {"runs[0].tests.putc.latency.p99_ns -5 is not a latency"},
     0},
    {"p99 1e300",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"latency\": {\"count\": 5, \"p50_ns\": 1, "
     "\"p90_ns\": 2, \"p99_ns\": 1e300, \"p99_9_ns\": 4}}}}]",
     1,
     {"runs[0].tests.putc.latency.p99_ns 1e300 is not a latency"},
     0},
    {"p99 null",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"latency\": {\"count\": 5, \"p50_ns\": 1, "
     "\"p90_ns\": 2, \"p99_ns\": null, \"p99_9_ns\": 4}}}}]",
     1,
     {"runs[0].tests.putc.latency.p99_ns null is not a latency"},
     0},
    {"p99 []",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"latency\": {\"count\": 5, \"p50_ns\": 1, "
     "\"p90_ns\": 2, \"p99_ns\": [], \"p99_9_ns\": 4}}}}]",
     1,
     {"runs[0].tests.putc.latency.p99_ns [] is not a latency"},
     0},
    {"p99 2.5",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"latency\": {\"count\": 5, \"p50_ns\": 1, "
     "\"p90_ns\": 2, \"p99_ns\": 2.5, \"p99_9_ns\": 4}}}}]",
     1,
     {"runs[0].tests.putc.latency.p99_ns 2.5 is not a latency"},
     0},
    {"p99 1000000000000000001",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"latency\": {\"count\": 5, \"p50_ns\": 1, "
     "\"p90_ns\": 2, \"p99_ns\": 1000000000000000001, \"p99_9_ns\": 4}}}}]",
     1,
     {"runs[0].tests.putc.latency.p99_ns 1000000000000000001 is not a latency"},
     0},
    {"a percentile missing",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"latency\": {\"count\": 5, \"p50_ns\": 1, "
     "\"p90_ns\": 2, \"p99_9_ns\": 4}}}}]",
     1,
     {"runs[0].tests.putc.latency has no p99_ns"},
     0},
    {"a negative count",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"latency\": {\"count\": -1}}}}]",
     1,
     {"runs[0].tests.putc.latency.count -1 is not a count"},
     0},
    {"no count",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"latency\": {\"p50_ns\": 1}}}}]",
     1,
     {"runs[0].tests.putc.latency has no count"},
     0},
    {"latency a number",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"latency\": 5}}}]",
     1,
     {"runs[0].tests.putc.latency 5 is not an object"},
     0},
    {"cpu a real",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"cpu_percent\": 1.5}}}]",
     1,
     {"runs[0].tests.putc.cpu_percent 1.5 is not a %CP"},
     0},
    {"cpu too high",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"cpu_percent\": 2147483648}}}]",
     1,
     {"runs[0].tests.putc.cpu_percent 2147483648 is not a %CP"},
     0},
    {"worst latency a string",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"max_latency_ns\": \"1ms\"}}}]",
     1,
     {"runs[0].tests.putc.max_latency_ns \"1ms\" is not a latency"},
     0},
    {"an unknown status",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"status\": \"done\"}}}]",
     1,
     {"runs[0].tests.putc.status \"done\" is not a status"},
     0},
    {"rate a string",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": {\"rate\": \"fast\"}}}]",
     1,
     {"runs[0].tests.putc.rate \"fast\" is not a rate"},
     0},
    {"a test an array",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"putc\": []}}]",
     1,
     {"runs[0].tests.putc [] is not an object"},
     0},
    {"tests an array",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": []}]",
     1,
     {"runs[0].tests [] is not an object"},
     0},
    {"a pg_scan rate below 0",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"pg_scan\": {\"status\": \"ok\", \"rate\": -1}}}]",
     1,
     {"runs[0].tests.pg_scan.rate -1 is not a rate"},
     0},
    {"another program",
     "{\"schema_version\": 1, \"program\": \"clyde-pgscan \", \"runs\": []}",
     0,
     {"program \"clyde-pgscan \": not a clyde result document"},
     0},
    {"settings.pgscan a string",
     "{\"schema_version\": 1, \"program\": \"clyde-pgscan\", "
     "\"settings\": {\"pgscan\": \"15\"}, \"runs\": [{\"csv\": "
     "\"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\"}]}",
     0,
     {"settings.pgscan \"15\" is not an object"},
     0},
    {"settings.pgscan.relation_bytes a real",
     "{\"schema_version\": 1, \"program\": \"clyde-pgscan\", "
     "\"settings\": {\"pgscan\": {\"relation_bytes\": 1.5}}, "
     "\"runs\": [{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\"}]}",
     0,
     {"settings.pgscan.relation_bytes 1.5 is not a relation size"},
     0},
    {"settings.pgscan.relation empty",
     "{\"schema_version\": 1, \"program\": \"clyde-pgscan\", "
     "\"settings\": {\"pgscan\": {\"relation\": \"\"}}, "
     "\"runs\": [{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\"}]}",
     0,
     {"settings.pgscan.relation \"\" is not a name"},
     0},
    {"a test that did not run is checked too",
     "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
     " \"tests\": {\"seeks\": {\"rate\": null}}}]",
     1,
     {"runs[0].tests.seeks.rate null is not a rate"},
     0},
};

/* A clyde-pgscan document: its scan is pg_scan's cell, with no latency;
 * settings.pgscan's known keys are checked, the others left alone. */
START_TEST(json_pgscan)
{
	struct jread j;

	jread("{\"schema_version\": 1, \"program\": \"clyde-pgscan\", "
	      "\"settings\": {\"pgscan\": {\"server_version\": \"15.20\", "
	      "\"relation\": \"pgbench_accounts\", \"relation_bytes\": "
	      "671744000, \"scale\": 50, \"parallel_workers\": 0, \"evict\": "
	      "\"drop_caches\", \"resident_after_evict\": 0.02, \"new\": []}}, "
	      "\"runs\": [{\"csv\": "
	      "\"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\", \"tests\": "
	      "{\"pg_scan\": {\"status\": \"ok\", \"work\": 671744000, "
	      "\"unit\": \"bytes\", \"elapsed\": 3.124391, \"user\": 2.667, "
	      "\"sys\": 0.3637, \"rate\": 209960, \"rate_unit\": \"KiB/s\", "
	      "\"cpu_percent\": 97}}}]}",
	      0, &j);
	ck_assert_msg(j.n == 1, "%s", j.why);
	ck_assert_int_eq(j.rows[0].c[RT_pg_scan].state, CSV_VALUE);
	ck_assert_str_eq(j.rows[0].c[RT_pg_scan].text, "209960");
	ck_assert_str_eq(j.rows[0].c[RT_pg_scan].cpu_text, "97");
	ck_assert_str_eq(j.rows[0].c[RT_pg_scan].lat_text, "");
	ck_assert_int_eq(j.rows[0].t[RT_pg_scan].state, RS_OK);
	ck_assert_uint_eq(j.rows[0].t[RT_pg_scan].work, 671744000);
	jread_free(&j);
}
END_TEST

START_TEST(json_refused)
{
	struct jread j;
	char *d = json_bad[_i].doc_is_runs ? doc_of(json_bad[_i].doc) : NULL;

	jread(d ? d : json_bad[_i].doc, 0, &j);
	free(d);
	ck_assert_msg(j.n == -1, "%s: n %d", json_bad[_i].what, j.n);
	ck_assert_ptr_null(j.rows);
	for (int k = 0; k < 2 && json_bad[_i].want[k]; k++)
		ck_assert_msg(strstr(j.why, json_bad[_i].want[k]),
			      "%s: why '%s' lacks '%s'", json_bad[_i].what,
			      j.why, json_bad[_i].want[k]);
	if (json_bad[_i].line)
		ck_assert_int_eq(j.line, json_bad[_i].line);
}
END_TEST

/* What the reader shows of a long value is cut short. */
START_TEST(json_long_value)
{
	char big[400], *d, runs[600];
	struct jread j;

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	snprintf(runs, sizeof(runs),
		 "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
		 " \"tests\": {\"putc\": {\"rate\": \"%s\"}}}]",
		 big);
	d = doc_of(runs);
	jread(d, 0, &j);
	free(d);
	ck_assert_int_eq(j.n, -1);
	ck_assert_msg(strstr(j.why, "runs[0].tests.putc.rate \"aaaa"), "%s",
		      j.why);
	ck_assert_ptr_nonnull(strstr(j.why, "... is not a rate"));
	ck_assert_uint_lt(strlen(j.why), 150);
}
END_TEST

/* A latency object of nothing counted needs no percentiles. */
START_TEST(json_nothing_counted)
{
	struct jread j;
	char *d = doc_of(
	    "[{\"csv\": \"convm004,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
	    " \"tests\": {\"putc\": {\"rate\": 5, \"latency\": "
	    "{\"count\": 0}}}}]");

	jread(d, 0, &j);
	free(d);
	ck_assert_msg(j.n == 1, "n %d: %s", j.n, j.why);
	ck_assert_int_eq(j.rows[0].c[RT_putc].has_pct, 0);
	jread_free(&j);
}
END_TEST

struct bad_seen {
	int calls;
	char why[WHY_SIZE];
};

static void note_bad(void *ctx, const char *why)
{
	struct bad_seen *b = ctx;

	if (!b->calls++)
		snprintf(b->why, sizeof(b->why), "%s", why);
}

/* With a bad_run callback a bad run is left out, as --skip-bad skips a
 * bad line, and the others are read; a bad document is still -1. */
START_TEST(json_bad_run_skipped)
{
	struct bad_seen b = {0};
	struct run_result *rows;
	char why[WHY_SIZE];
	int line, n;
	char *d = doc_of(
	    "[{\"csv\": \"one,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\"},"
	    " {\"csv\": \"two,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\","
	    " \"tests\": {\"putc\": {\"rate\": 1, \"latency\": {\"count\": 1,"
	    " \"p50_ns\": 1, \"p90_ns\": 1, \"p99_ns\": null, "
	    "\"p99_9_ns\": 1}}}},"
	    " {\"csv\": \"three,16G,51346,98,,,,,,,,,,,,,,,,,,,,,,,\"}]");

	n = json_read_rows(d, strlen(d), &rows, note_bad, &b, why, sizeof(why),
			   &line);
	free(d);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(b.calls, 1);
	ck_assert_str_eq(b.why, "runs[1].tests.putc.latency.p99_ns null is "
				"not a latency: expected a whole number of "
				"nanoseconds from 0 to 1e18");
	ck_assert_str_eq(rows[0].name, "one");
	ck_assert_str_eq(rows[1].name, "three");
	for (int i = 0; i < n; i++)
		result_free(&rows[i]);
	free(rows);

	b.calls = 0;
	d = strdup("{\"schema_version\": 2, \"runs\": []}");
	n = json_read_rows(d, strlen(d), &rows, note_bad, &b, why, sizeof(why),
			   &line);
	free(d);
	ck_assert_int_eq(n, -1);
	ck_assert_int_eq(b.calls, 0);
	ck_assert_ptr_null(rows);
	ck_assert_msg(strstr(why, "schema_version 2"), "%s", why);
}
END_TEST

/* jansson stops at its depth limit; the reader says so, no crash. */
START_TEST(json_deep)
{
	const int depth = 100000;
	char *d = malloc(2 * depth + 16), *p = d;
	struct jread j;

	ck_assert_ptr_nonnull(d);
	p += sprintf(p, "{\"runs\":");
	memset(p, '[', depth);
	memset(p + depth, ']', depth);
	strcpy(p + 2 * depth, "}");
	jread(d, 0, &j);
	ck_assert_int_eq(j.n, -1);
	ck_assert_ptr_nonnull(strstr(j.why, "not a JSON document"));
	/* Deep objects as well as arrays. */
	p = d + sprintf(d, "{\"runs\":[");
	for (int k = 0; k < depth / 8; k++)
		p += sprintf(p, "{\"a\":");
	*p = '\0';
	jread(d, 0, &j);
	ck_assert_int_eq(j.n, -1);
	ck_assert_ptr_nonnull(strstr(j.why, "not a JSON document"));
	free(d);
}
END_TEST

/* No more runs than clyde's -x can make: each would cost a row. */
START_TEST(json_too_many_runs)
{
	char *runs = malloc(2 * (JSON_RUNS_MAX + 1) + 2), *d, *p = runs;
	struct jread j;

	ck_assert_ptr_nonnull(runs);
	*p++ = '[';
	for (int k = 0; k <= JSON_RUNS_MAX; k++)
		*p++ = '0', *p++ = ',';
	p[-1] = ']';
	*p = '\0';
	d = doc_of(runs);
	jread(d, 0, &j);
	free(d);
	ck_assert_int_eq(j.n, -1);
	ck_assert_str_eq(j.why, "a runs array of 100001 elements: clyde "
				"writes at most 100000");
	/* One fewer is read (and the first run is no run). */
	strcpy(runs + 2 * JSON_RUNS_MAX, "]");
	d = doc_of(runs);
	jread(d, 0, &j);
	free(d);
	free(runs);
	ck_assert_int_eq(j.n, -1);
	ck_assert_str_eq(j.why, "runs[0] has no csv line");
}
END_TEST

static Suite *csvparse_suite(void)
{
	Suite *s = suite_create("csvparse");
	TCase *tc = tcase_create("lines");
	TCase *tj = tcase_create("json");

	tcase_add_test(tc, real_198);
	tcase_add_test(tc, real_197);
	tcase_add_test(tc, real_103);
	tcase_add_test(tc, row_as_198);
	tcase_add_test(tc, line_ends);
	tcase_add_loop_test(tc, line_kinds, 0,
			    (int)(sizeof(kinds) / sizeof(kinds[0])));
	tcase_add_test(tc, nothing_run);
	tcase_add_test(tc, plus_as_text);
	tcase_add_test(tc, limits);
	tcase_add_test(tc, round_trip);
	tcase_add_loop_test(tc, nasty_lines, 0,
			    (int)(sizeof(nasty) / sizeof(nasty[0])));
	tcase_add_test(tc, ten_thousand_fields);
	tcase_add_test(tc, long_field_shown_short);
	suite_add_tcase(s, tc);
	tcase_add_test(tj, json_valid);
	tcase_add_test(tj, json_percentiles);
	tcase_add_test(tj, json_no_runs_is_empty);
	tcase_add_test(tj, json_pgscan);
	tcase_add_loop_test(tj, json_refused, 0,
			    (int)(sizeof(json_bad) / sizeof(json_bad[0])));
	tcase_add_test(tj, json_long_value);
	tcase_add_test(tj, json_nothing_counted);
	tcase_add_test(tj, json_bad_run_skipped);
	tcase_add_test(tj, json_deep);
	tcase_add_test(tj, json_too_many_runs);
	suite_add_tcase(s, tj);
	return s;
}

CHECK_MAIN(csvparse_suite)
