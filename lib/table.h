/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * table: the human-readable tables, in bonnie++ 2.00's layout (the
 * default) or 1.03's, from a run_result. Byte-for-byte what bonnie++
 * prints, except that file-test rates are the real ones.
 */
#ifndef CLYDE_TABLE_H
#define CLYDE_TABLE_H

#include <stdio.h>

#include "result.h"

enum table_layout { TABLE_200, TABLE_103 };

/* Print the I/O block and, when file tests ran, the file block. */
void table_print(FILE *out, const struct run_result *r,
		 enum table_layout layout);

/*
 * The latency distribution of every test that ran and recorded one:
 * min, mean, p50, p90, p99, p99.9, max and the operation count.
 */
void table_print_latency(FILE *out, const struct run_result *r);

/*
 * Repeat statistics: for each test, over the runs where it ran (rate[i]
 * is the rate of run i, NaN when it did not run): mean, standard
 * deviation, min, max and the 95% confidence interval of the mean.
 */
void table_print_summary(FILE *out, unsigned nruns,
			 const double (*rate)[RT_COUNT]);

/* Parse "2.00" / "1.03" (as --format takes them); -1 when unknown. */
int table_layout_parse(const char *s, enum table_layout *out);

#endif
