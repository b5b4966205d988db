/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jsondoc: clyde's JSON document (--json): the program, the machine, the
 * target directory's filesystem and device, every setting, then one
 * object per run and the repeat summary. The keys are listed, with their
 * meaning, in doc/clyde-json.5.
 */
#ifndef CLYDE_JSONDOC_H
#define CLYDE_JSONDOC_H

#include <stdio.h>
#include <time.h>

#include <jansson.h>

#include "options.h"
#include "result.h"

struct run_plan;

/*
 * The document up to "runs" (empty), for a run of plan rp started at
 * start; NULL when it could not be built whole (no memory). Text that
 * is not UTF-8 (a path) is escaped as doc/clyde-json.5 says, never left
 * out.
 */
json_t *jsondoc_new(const struct run_plan *rp, time_t start);

/* The same head and settings for another program that runs clyde's
 * tests (clyde-curve), named program, with "runs" empty. */
json_t *jsondoc_new_as(const struct run_plan *rp, time_t start,
		       const char *program);

/*
 * Append one run, and its seed to settings.seeds; under several -d, the
 * run's figures are the aggregate, and per[n] each target's (in the
 * run's "targets", each with its directory, as the document's "targets"
 * list them). 0, or -1 (no memory).
 */
int jsondoc_add_run(json_t *doc, const struct run_plan *rp,
		    const struct run_result *r, const struct run_result *per,
		    unsigned n);

/*
 * Add the summary and write the document to f (an outfile's stream, or
 * stdout), with a final newline, flushed. 0, or -1 with errno.
 */
int jsondoc_write(json_t *doc, unsigned nruns, const double (*rate)[RT_COUNT],
		  FILE *f);

#endif
