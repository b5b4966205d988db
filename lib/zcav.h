/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zcav: the throughput-by-position output of bonnie++'s zcav, which
 * gnuplot reads as it is: a header, one line per block (offset in GiB,
 * MiB/s, seconds), blocks faster than the minimum time commented out,
 * and a summary line per pass. Also the mean that several passes (-c)
 * report for a block: the top and bottom thirds dropped first.
 */
#ifndef CLYDE_ZCAV_H
#define CLYDE_ZCAV_H

#include <stdint.h>
#include <stdio.h>

#include "clock.h"

/* A block read faster than this is too short to time: commented out. */
#define ZCAV_MIN_SECONDS CLK_MIN_SECONDS

/* One line of the output, as zcav_parse_line reads it back. */
struct zcav_point {
	double gib;	/* offset of the block */
	double mib_s;	/* 0 for a commented-out block */
	double seconds; /* time for the block */
	int counted;	/* 0: faster than ZCAV_MIN_SECONDS ("#0.50 ++++ ...") */
};

/*
 * The mean of v[n] after sorting it and dropping the lowest and the
 * highest n/3 values (so 1 or 2 values are all kept). v is reordered.
 * Returns 0 for n == 0.
 */
double zcav_trimmed_mean(double *v, unsigned n);

/* "#loops: N, version: V" */
void zcav_print_loops(FILE *f, unsigned loops, const char *version);

/* "#block offset (GiB), MiB/s, time" */
void zcav_print_columns(FILE *f);

/*
 * One block of bytes at offset, read or written in seconds:
 * "%.2f %.2f %.3f", or "#%.2f ++++ %.3f" when too fast to count.
 * Returns 1 when the line counts, 0 when commented out.
 */
int zcav_print_block(FILE *f, uint64_t offset, uint64_t bytes, double seconds);

/*
 * "# Read N gigs in S seconds, M megabytes per second." (gigs from
 * 1 GiB up, else megs, as zcav 2.00; all three figures truncated;
 * verb "Read" or "Wrote").
 */
void zcav_print_summary(FILE *f, const char *verb, uint64_t bytes,
			double seconds);

/*
 * Parse a block line back. Returns 1 for a block line (counted or
 * commented out), 0 for any other line (header, summary, blank), -1 for
 * a line that starts like a block line but does not parse.
 */
int zcav_parse_line(const char *line, struct zcav_point *p);

#endif
