/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * result_shown: a run_result as clyde's outputs show it, for the Check
 * suites that compare one with another. No program needs these: clyde
 * prints its rows through table_print_rows and csv_cell_of, and
 * clyde-report reads documents through json_read_doc.
 */
#ifndef CLYDE_T_RESULT_SHOWN_H
#define CLYDE_T_RESULT_SHOWN_H

#include <stddef.h>
#include <stdio.h>

#include "result.h"
#include "table.h"

/*
 * The shown part of r from what it measured: what csv_parse of its
 * csv_write line gives, the cells of figures no line holds as csv_cell_of
 * gives them, and every cell of a test that ran with its exact rate and
 * percentiles. Returns 0, or -1 without memory (the shown part cleared).
 */
int csv_shown(struct run_result *r);

/* One result's table: table_print_rows of r alone. */
void table_print(FILE *out, const struct run_result *r,
		 enum table_layout layout);

/* json_read_doc with no flags, no run objects and no head. */
int json_read_rows(const char *buf, size_t len, struct run_result **rows,
		   void (*bad_run)(void *ctx, const char *why), void *ctx,
		   char *why, size_t whylen, int *line);

#endif
