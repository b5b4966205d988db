/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_ratio: the line that sets another program's figure beside the
 * figure of clyde's it is measured against (extfig.h's against), as
 * "PostgreSQL seq scan = 86% of block input (215 MB/s / 250 MB/s),
 * backend CPU 97%", for txt (per row), compare (per side) and html
 * (both). The two are read of the same size on the same filesystem, so
 * their ratio is what the other program gets of the device's sequential
 * rate; its CPU share says whether it waited on the device or on itself.
 * MB/s are decimal (10^6 bytes/s), as clyde-pgscan's own line prints
 * them.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* KiB/s to decimal MB/s. */
static double mbs(double kib)
{
	return kib * 1024 / 1e6;
}

int report_ratio(const struct report_set *set, const size_t *idx, size_t n,
		 enum result_test t, char *buf, size_t len)
{
	const struct figure *f = figure_of(t);
	double fig = 0, base = 0, cpu = 0;
	size_t k = 0, ncpu = 0;

	if (f->against < 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct csv_cell *c = set->rows[idx[i]].res.c;
		const struct csv_cell *a = &c[f->against];
		double s = report_rate(&c[t]);
		double b = report_rate(a);

		/* A run of both: a too-fast one has no rate to set beside. */
		if (c[t].state != CSV_VALUE || a->state != CSV_VALUE ||
		    !isfinite(s) || !isfinite(b) || b <= 0)
			continue;
		fig += s;
		base += b;
		k++;
		if (c[t].cpu >= 0) {
			cpu += c[t].cpu;
			ncpu++;
		}
	}
	if (!k)
		return 0;
	fig /= (double)k;
	base /= (double)k;
	snprintf(buf, len, "%s = %.0f%% of %s (%.0f MB/s / %.0f MB/s)",
		 f->title, 100 * fig / base,
		 figure_of((enum result_test)f->against)->title, mbs(fig),
		 mbs(base));
	if (ncpu)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 ", %s CPU %.0f%%", f->cpu_of, cpu / (double)ncpu);
	return 1;
}
