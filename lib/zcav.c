/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zcav: see zcav.h. Numbers are printed in the C locale by construction
 * (printf with "%.2f" under the program's default "C" locale; nothing
 * here calls setlocale).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "zcav.h"

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

int zcav_parse_line(const char *line, struct zcav_point *p)
{
	char tail;

	memset(p, 0, sizeof(*p));
	if (line[0] == '#') {
		/* "#0.50 ++++ 0.412": a block too fast to count. */
		if (!strstr(line, "++++"))
			return 0;
		if (sscanf(line, "#%lf ++++ %lf %c", &p->gib, &p->seconds,
			   &tail) != 2)
			return -1;
		return 1;
	}
	if (line[0] == '\n' || line[0] == '\0')
		return 0;
	if (sscanf(line, "%lf %lf %lf %c", &p->gib, &p->mib_s, &p->seconds,
		   &tail) != 3)
		return -1;
	p->counted = 1;
	return 1;
}
