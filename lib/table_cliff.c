/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * table_cliff: the write-cache cliff of each figure that writes
 * (cliff.h) in the text tables, a section of its own after the More
 * figures: the burst and sustained rates, the bytes absorbed before the
 * drop and its time; or that none was found, and why. A run that looked
 * for none (an older document) prints nothing here.
 */
#include "config.h"

#include <stdio.h>

#include "table.h"
#include "units.h"

/* The name column of the More figures section (table.c's). */
#define NAME_WIDTH 19
#define MIB	   1048576.0

void table_print_cliff(FILE *out, const char *name, const struct run_result *r,
		       int *head)
{
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		const struct result_test_rec *rec = &r->t[t];
		const struct cliff *c = &rec->cliff;

		if (rec->state != RS_OK || !c->looked)
			continue;
		if (!*head) {
			fprintf(out, "%-*s %-16s %11s %15s %12s %9s\n",
				NAME_WIDTH, "Write cache", "test",
				"burst MiB/s", "sustained MiB/s", "absorbed",
				"drop at");
			*head = 1;
		}
		fprintf(out, "%-*.*s %-16s", NAME_WIDTH, NAME_WIDTH, name,
			result_test_name(t));
		if (c->found)
			fprintf(out, " %11.1f %15.1f %8.1f MiB %7.2f s\n",
				c->burst / MIB, c->sustained / MIB,
				c->absorbed / MIB, c->drop_s);
		else
			fprintf(out, " no cliff: %s\n", c->why);
	}
}
