/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zcav_result: see zcav_result.h. Numbers are printed in the C locale by
 * construction (printf with "%.2f" under the program's default "C"
 * locale; nothing here calls setlocale).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "units.h"
#include "zcav_result.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double zcav_trimmed_mean(double *v, unsigned n)
{
	unsigned drop = n / 3;
	double sum = 0.0;

	if (n == 0)
		return 0.0;
	qsort(v, n, sizeof(*v), cmp_double);
	for (unsigned i = drop; i < n - drop; i++)
		sum += v[i];
	return sum / (double)(n - 2 * drop);
}

void zcav_print_loops(FILE *f, unsigned loops, const char *version)
{
	fprintf(f, "#loops: %u, version: %s\n", loops, version);
}

void zcav_print_columns(FILE *f)
{
	fputs("#block offset (GiB), MiB/s, time\n", f);
}

int zcav_print_block(FILE *f, uint64_t offset, uint64_t bytes, double seconds)
{
	double gib = (double)offset / (double)UNITS_GIB;

	if (seconds < ZCAV_MIN_SECONDS) {
		fprintf(f, "#%.2f ++++ %.3f\n", gib, seconds);
		return 0;
	}
	fprintf(f, "%.2f %.2f %.3f\n", gib,
		(double)bytes / (double)UNITS_MIB / seconds, seconds);
	return 1;
}

void zcav_print_summary(FILE *f, const char *verb, uint64_t bytes,
			double seconds)
{
	uint64_t mib = bytes / UNITS_MIB;
	unsigned long long rate = 0;

	if (seconds > 0)
		rate = (unsigned long long)((double)bytes / (double)UNITS_MIB /
					    seconds);
	fprintf(
	    f, "# %s %llu %s in %llu seconds, %llu megabytes per second.\n",
	    verb,
	    (unsigned long long)(bytes >= UNITS_GIB ? bytes / UNITS_GIB : mib),
	    bytes >= UNITS_GIB ? "gigs" : "megs",
	    (unsigned long long)(seconds > 0 ? seconds : 0), rate);
}

void zcav_print_head(FILE *f, const struct zcav_series *s, const char *version)
{
	zcav_print_loops(f, s->passes, version);
	if (s->passes == 1)
		zcav_print_columns(f);
}

void zcav_print_pass(FILE *f, const struct zcav_series *s, unsigned p,
		     int write)
{
	zcav_print_summary(f, write ? "Wrote" : "Read", s->pass_bytes[p],
			   s->pass_secs[p]);
}

void zcav_print_means(FILE *f, const struct zcav_series *s)
{
	fputs("#\n", f);
	zcav_print_columns(f);
	for (uint64_t k = 0; k < s->nblocks; k++)
		zcav_print_block(f, s->offset[k], s->bytes[k],
				 zcav_series_seconds(s, k));
}

void zcav_series_cliff(const struct zcav_series *s, uint64_t skip,
		       struct cliff *c)
{
	struct result_interval *v;
	double end = 0;

	memset(c, 0, sizeof(*c));
	if (skip > 1 || !s->done || !s->nblocks ||
	    !(v = calloc(s->nblocks, sizeof(*v))))
		return;
	for (uint64_t k = 0; k < s->nblocks; k++) {
		v[k].secs = s->secs[k * s->passes];
		v[k].bytes = s->bytes[k];
		end += v[k].secs;
		v[k].end = end;
	}
	cliff_find(v, (unsigned)s->nblocks, c);
	free(v);
}

void zcav_print_cliff(FILE *f, const struct zcav_series *s, uint64_t skip)
{
	struct cliff c;

	zcav_series_cliff(s, skip, &c);
	if (!c.looked)
		return;
	if (c.found)
		fprintf(f,
			"#cliff: burst %.1f MiB/s, sustained %.1f MiB/s, %.1f "
			"MiB absorbed, the drop at %.2f s\n",
			c.burst / (double)UNITS_MIB,
			c.sustained / (double)UNITS_MIB,
			c.absorbed / (double)UNITS_MIB, c.drop_s);
	else
		fprintf(f, "#no cliff: %s\n", c.why);
}

void zcav_print_series(FILE *f, const struct zcav_series *s, int write,
		       uint64_t skip, const char *version)
{
	zcav_print_head(f, s, version);
	/* One pass: each block's line came as it was timed. */
	for (uint64_t k = 0; s->passes == 1 && s->done && k < s->nblocks; k++)
		zcav_print_block(f, s->offset[k], s->bytes[k], s->secs[k]);
	for (unsigned p = 0; p < s->done; p++)
		zcav_print_pass(f, s, p, write);
	if (write && s->done == s->passes)
		zcav_print_cliff(f, s, skip);
	if (s->passes > 1 && s->done == s->passes)
		zcav_print_means(f, s);
}

const char *zcav_kind_name(enum zcav_kind k)
{
	static const char *const name[ZCAV_KINDS] = {"device", "file", "pipe"};

	return (unsigned)k < ZCAV_KINDS ? name[k] : "?";
}

int zcav_series_init(struct zcav_series *s, const char *name, unsigned passes,
		     uint64_t block)
{
	memset(s, 0, sizeof(*s));
	if (passes < 1 || passes > ZCAV_MAX_PASSES || block == 0) {
		errno = EINVAL;
		return -1;
	}
	s->passes = passes;
	s->block = block;
	s->name = strdup(name);
	s->pass_bytes = calloc(passes, sizeof(*s->pass_bytes));
	s->pass_secs = calloc(passes, sizeof(*s->pass_secs));
	if (!s->name || !s->pass_bytes || !s->pass_secs) {
		zcav_series_free(s);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int zcav_series_add(struct zcav_series *s, uint64_t offset, uint64_t bytes)
{
	if (s->nblocks == s->cap) {
		uint64_t cap = s->cap ? s->cap * 2 : 256;
		uint64_t *o, *b;
		double *t;

		o = realloc(s->offset, cap * sizeof(*o));
		if (o)
			s->offset = o;
		b = realloc(s->bytes, cap * sizeof(*b));
		if (b)
			s->bytes = b;
		t = realloc(s->secs, cap * s->passes * sizeof(*t));
		if (t)
			s->secs = t;
		if (!o || !b || !t) {
			errno = ENOMEM;
			return -1;
		}
		s->cap = cap;
	}
	s->offset[s->nblocks] = offset;
	s->bytes[s->nblocks] = bytes;
	for (unsigned p = 0; p < s->passes; p++)
		s->secs[s->nblocks * s->passes + p] = 0.0;
	s->nblocks++;
	return 0;
}

double zcav_series_seconds(const struct zcav_series *s, uint64_t k)
{
	double v[ZCAV_MAX_PASSES];

	if (s->passes == 1)
		return s->secs[k];
	memcpy(v, s->secs + k * s->passes, s->passes * sizeof(*v));
	return zcav_trimmed_mean(v, s->passes);
}

double zcav_series_mib_s(const struct zcav_series *s, uint64_t k)
{
	double secs = zcav_series_seconds(s, k);

	return secs > 0 ? (double)s->bytes[k] / (double)UNITS_MIB / secs : 0.0;
}

void zcav_series_free(struct zcav_series *s)
{
	free(s->name);
	free(s->offset);
	free(s->bytes);
	free(s->secs);
	free(s->pass_bytes);
	free(s->pass_secs);
	memset(s, 0, sizeof(*s));
}

void zcav_result_free(struct zcav_result *r)
{
	for (unsigned i = 0; i < r->ntargets && r->target; i++)
		zcav_series_free(&r->target[i]);
	free(r->target);
	memset(r, 0, sizeof(*r));
}
