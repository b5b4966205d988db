/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * result: see result.h. Rates and %CP are derived here, once, so that the
 * table, the CSV line and (later) JSON can never disagree.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "result.h"
#include "stats.h"
#include "units.h"

/* The records of a result that measured nothing: read-only, so that a
 * write meant for records of its own faults at once. */
static const struct result_test_rec result_none[RT_COUNT];

void result_init(struct run_result *r)
{
	memset(r, 0, sizeof(*r));
	r->t = (struct result_test_rec *)result_none;
	r->concurrency = RESULT_DEF_CONCURRENCY;
	r->chunk = RESULT_DEF_CHUNK;
	r->seeks = RESULT_DEF_SEEKS;
	r->seek_procs = RESULT_DEF_PROCS;
	r->cache_left = -1.0;
	for (int t = 0; t < RT_COUNT; t++) {
		r->c[t].cpu = -1;
		r->c[t].how = "";
	}
}

void result_per_char_of_line(struct run_result *r)
{
	/* bonnie++ 1.03 used putc/getc, bonnie++ 1.97 and 2.00 (formats
	 * 1.97 and 1.98) 1-byte system calls; clyde's lines mean by default
	 * what bonnie++'s of their format do. */
	if (r->fmt == CSV_103) {
		r->per_char = RPC_STDIO;
		r->per_char_from = RPF_FORMAT;
		return;
	}
	r->per_char = RPC_SYSCALL;
	r->per_char_from =
	    strncmp(r->version, "clyde", 5) ? RPF_BONNIE : RPF_CLYDE;
}

const char *result_per_char_name(enum result_per_char m)
{
	switch (m) {
	case RPC_STDIO:
		return "stdio putc()/getc()";
	case RPC_SYSCALL:
		return "1-byte read()/write() calls";
	case RPC_UNKNOWN:
	default:
		return "unknown";
	}
}

const char *result_per_char_whence(enum result_per_char m)
{
	switch (m) {
	case RPC_STDIO:
		return "over the whole file (bonnie++ 1.03)";
	case RPC_SYSCALL:
		return "(bonnie++ 1.97 and 2.00)";
	case RPC_UNKNOWN:
	default:
		return "";
	}
}

void result_per_char_figures(char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "per-char figures (");

	for (enum result_test t = 0; t < RT_COUNT && n < len; t++)
		if (figure_of(t)->flags & FIGF_PER_CHAR)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      buf[n - 1] == '(' ? "" : ", ",
					      figure_of(t)->key);
	if (n < len)
		snprintf(buf + n, len - n, ")");
}

int result_has_per_char(const struct run_result *r)
{
	for (enum result_test t = 0; t < RT_COUNT; t++)
		if ((figure_of(t)->flags & FIGF_PER_CHAR) &&
		    r->c[t].state != CSV_EMPTY)
			return 1;
	return 0;
}

void result_per_char_source(const struct run_result *r, char *buf, size_t len)
{
	switch (r->per_char_from) {
	case RPF_SETTINGS:
		snprintf(buf, len, "its JSON settings");
		break;
	case RPF_BONNIE:
		snprintf(buf, len, "a bonnie++ %s line", r->version);
		break;
	case RPF_FORMAT:
		snprintf(buf, len, "a 1.03 line");
		break;
	case RPF_CLYDE:
		snprintf(buf, len, "a %s %s line, clyde's default for it",
			 r->version, r->fmt == CSV_197 ? "1.97" : "1.98");
		break;
	case RPF_NONE:
	default:
		snprintf(buf, len, "%s", "");
		break;
	}
}

void result_rec_free(struct result_test_rec *rec)
{
	free(rec->lat);
	rec->lat = NULL;
	free(rec->workers);
	rec->workers = NULL;
	rec->nworkers = 0;
	free(rec->intervals);
	free(rec->wintervals);
	rec->intervals = rec->wintervals = NULL;
	rec->nintervals = rec->nwintervals = 0;
	steady_run_free(rec->steady);
	rec->steady = NULL;
	result_io_free(rec);
}

int result_has_records(const struct run_result *r)
{
	return r->t && r->t != result_none;
}

int result_measure(struct run_result *r)
{
	struct result_test_rec *t;

	if (result_has_records(r))
		return 0;
	t = calloc(RT_COUNT, sizeof(*t));
	if (!t)
		return -1;
	r->t = t;
	return 0;
}

void result_free(struct run_result *r)
{
	if (result_has_records(r)) {
		for (int t = 0; t < RT_COUNT; t++)
			result_rec_free(&r->t[t]);
		free(r->t);
	}
	r->t = (struct result_test_rec *)result_none;
}

struct hist *result_hist_dup(const struct hist *h)
{
	struct hist *d = malloc(sizeof(*d));

	if (d)
		*d = *h;
	return d;
}

const char *result_test_name(enum result_test t)
{
	return (unsigned)t < RT_COUNT ? figure_of(t)->key : "?";
}

enum result_kind result_test_kind(enum result_test t)
{
	return figure_of(t)->kind;
}

double result_rate(const struct result_test_rec *rec, enum result_kind kind)
{
	if (rec->elapsed <= 0.0)
		return 0.0;
	switch (kind) {
	case RK_IO:
		return (double)(uint64_t)((double)rec->work / 1024.0 /
					  rec->elapsed);
	case RK_FILE:
		return (double)(uint64_t)((double)rec->work / rec->elapsed);
	case RK_SEEK:
	default:
		return (double)rec->work / rec->elapsed;
	}
}

const char *result_work_unit(enum result_kind kind)
{
	return kind == RK_IO	 ? "bytes"
	       : kind == RK_SEEK ? "seeks"
	       : kind == RK_OPS	 ? "operations"
				 : "files";
}

const char *result_rate_unit(enum result_kind kind)
{
	return kind == RK_IO	 ? "KiB/s"
	       : kind == RK_SEEK ? "seeks/s"
	       : kind == RK_OPS	 ? "ops/s"
				 : "files/s";
}

unsigned result_rates_of(unsigned nruns, const double (*rate)[RT_COUNT],
			 enum result_test t, double *x)
{
	unsigned n = 0;

	for (unsigned i = 0; i < nruns; i++)
		if (!isnan(rate[i][t]))
			x[n++] = rate[i][t];
	return n;
}

unsigned result_summary(unsigned nruns, const double (*rate)[RT_COUNT],
			enum result_test t, struct stats *s)
{
	double *x = malloc((nruns ? nruns : 1) * sizeof(*x));
	unsigned n;

	if (!x)
		return 0;
	n = result_rates_of(nruns, rate, t, x);
	if (n)
		stats_compute(x, n, s);
	free(x);
	return n;
}

int result_pcp(const struct result_test_rec *rec)
{
	return clk_pcp(rec->cpu, rec->elapsed);
}

int result_too_fast(const struct result_test_rec *rec)
{
	return rec->state == RS_OK && clk_too_fast(rec->elapsed);
}

void result_join_size(char *buf, size_t len, const char *const *fields, int n)
{
	size_t at = 0, end;

	buf[0] = '\0';
	for (int i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ":" : "",
				       fields[i]);
	end = strlen(buf);
	while (end && buf[end - 1] == ':')
		buf[--end] = '\0';
}

void result_join_files(char *buf, size_t len, const char *num, const char *max,
		       const char *min, const char *dirs, const char *chunk)
{
	snprintf(buf, len, "%s%s%s%s%s%s%s%s%s", num, *max ? ":" : "", max,
		 *min ? ":" : "", min, *dirs ? "/" : "", dirs,
		 *chunk ? ":" : "", chunk);
}

void result_size_label(const struct run_result *r, int full, char *buf,
		       size_t len)
{
	char size[32], chunk[32] = "", conc[16] = "", seeks[32] = "",
		       procs[16] = "";
	const char *fields[5] = {size, chunk, conc, seeks, procs};

	units_fmt_size(size, sizeof(size), r->file_size);
	/* Fields after size, empty when default. */
	if (r->chunk != RESULT_DEF_CHUNK)
		units_fmt_small(chunk, sizeof(chunk), r->chunk);
	if (r->concurrency != RESULT_DEF_CONCURRENCY)
		snprintf(conc, sizeof(conc), "%u", r->concurrency);
	if (r->seeks != RESULT_DEF_SEEKS)
		snprintf(seeks, sizeof(seeks), "%llu",
			 (unsigned long long)r->seeks);
	if (r->seek_procs != RESULT_DEF_PROCS)
		snprintf(procs, sizeof(procs), "%u", r->seek_procs);
	result_join_size(buf, len, fields, full ? 5 : 2);
}

void result_files_label(const struct run_result *r, char *buf, size_t len)
{
	char num[32], max[32] = "", min[32] = "", dirs[32] = "";

	snprintf(num, sizeof(num), "%llu", (unsigned long long)r->num_files);
	if (r->max_size < 0)
		snprintf(max, sizeof(max), "%lld", (long long)r->max_size);
	else if (r->max_size > 0)
		units_fmt_small(max, sizeof(max), (uint64_t)r->max_size);
	if (r->max_size != 0 && r->min_size)
		units_fmt_small(min, sizeof(min), r->min_size);
	if (r->num_dirs)
		snprintf(dirs, sizeof(dirs), "%llu",
			 (unsigned long long)r->num_dirs);
	result_join_files(buf, len, num, max, min, dirs, "");
}
