/*
 * csv: see csv.h. Each line is built as an array of fields and then
 * joined, so the three formats differ only in which fields they take.
 * Numbers are printed with the C locale's conventions (no grouping, '.'
 * as the decimal point): clyde never calls setlocale with "".
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "units.h"

#define FIELD_LEN 64
#define NFIELDS_198 50

/* Field names of the 1.98 format, in order. */
static const char *const names_198[NFIELDS_198] = {
	"format_version", "bonnie_version", "name", "concurrency", "seed",
	"file_size", "io_chunk_size", "seeks", "seek_proc_count", "putc",
	"putc_cpu", "put_block", "put_block_cpu", "rewrite", "rewrite_cpu",
	"getc", "getc_cpu", "get_block", "get_block_cpu", "seeks",
	"seeks_cpu", "num_files", "max_size", "min_size", "num_dirs",
	"file_chunk_size", "seq_create", "seq_create_cpu", "seq_stat",
	"seq_stat_cpu", "seq_del", "seq_del_cpu", "ran_create",
	"ran_create_cpu", "ran_stat", "ran_stat_cpu", "ran_del",
	"ran_del_cpu", "putc_latency", "put_block_latency", "rewrite_latency",
	"getc_latency", "get_block_latency", "seeks_latency",
	"seq_create_latency", "seq_stat_latency", "seq_del_latency",
	"ran_create_latency", "ran_stat_latency", "ran_del_latency"};

/*
 * Which 1.98 fields each format keeps, in its order. 1.03 has no
 * version, concurrency, seed, chunk, seek or file-size-detail fields and
 * no latencies; its file_size and num_files carry the labels instead.
 */
static const int map_197[] = {
	0,  1,  2,  3,  4,  5,  6,  9,  10, 11, 12, 13, 14, 15, 16, 17,
	18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,
	34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49};
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
		int base = t < RT_FIRST_FILE ? 9 + 2 * (int)t
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
