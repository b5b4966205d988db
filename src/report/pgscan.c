/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_pgscan: the line that sets a clyde-pgscan document's scans
 * beside its block input, "PostgreSQL seq scan = 86% of block input
 * (215 MB/s / 250 MB/s), backend CPU 97%", for txt (per row), compare
 * (per side) and html (both). The scan and the block input are read of
 * the same size on the same filesystem, so their ratio is what the
 * database gets of the array's sequential read; the backend's CPU share
 * says whether it waited on the array or on itself. MB/s are decimal
 * (10^6 bytes/s), as clyde-pgscan's own line prints them.
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

int report_pg_ratio(const struct report_set *set, const size_t *idx, size_t n,
		    char *buf, size_t len)
{
	double scan = 0, block = 0, cpu = 0;
	size_t k = 0, ncpu = 0;

	for (size_t i = 0; i < n; i++) {
		const struct csv_cell *c = set->rows[idx[i]].res.c;
		double s = report_rate(&c[RT_pg_scan]);
		double b = report_rate(&c[RT_get_block]);

		/* A run of both: a too-fast one has no rate to set beside. */
		if (c[RT_pg_scan].state != CSV_VALUE ||
		    c[RT_get_block].state != CSV_VALUE || !isfinite(s) ||
		    !isfinite(b) || b <= 0)
			continue;
		scan += s;
		block += b;
		k++;
		if (c[RT_pg_scan].cpu >= 0) {
			cpu += c[RT_pg_scan].cpu;
			ncpu++;
		}
	}
	if (!k)
		return 0;
	scan /= (double)k;
	block /= (double)k;
	snprintf(buf, len,
		 "PostgreSQL seq scan = %.0f%% of block input (%.0f MB/s / "
		 "%.0f MB/s)",
		 100 * scan / block, mbs(scan), mbs(block));
	if (ncpu)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 ", backend CPU %.0f%%", cpu / (double)ncpu);
	return 1;
}
