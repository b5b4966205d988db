/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jverify: the result of checking a data file against the journal of
 * its run after a cut (clyde --verify-only=DATA --journal=JOURNAL): the
 * verdict of lib/journal.h on every 4 KiB block, counted, and the report
 * a storage administrator reads. clyde fills it from the check and
 * prints it; clyde-report reads it back from the document
 * (jverify_json.h) and prints the same lines.
 */
#ifndef CLYDE_JVERIFY_H
#define CLYDE_JVERIFY_H

#include <stdint.h>
#include <stdio.h>

#include "journal.h"

struct jverify {
	char *data, *journal; /* the paths checked (malloc'd; NULL: none) */
	uint64_t run_seed, content_seed; /* the journal's header's */
	uint64_t file_size;		 /* bytes, the header's */
	uint64_t data_size;	 /* the data file's: less when a cut came
				  * while it was being made */
	int clean;		 /* the journal ended with its 'E' */
	uint64_t torn;		 /* records of its tail a cut tore, dropped */
	struct jrnl_tally tally; /* a verdict per whole block */
};

/* What verdict v means, in the report's words ("acknowledged, intact",
 * "ACKNOWLEDGED BUT LOST: ..."). */
const char *jverify_words(enum jrnl_verdict v);

/* The blocks that fail the check (lost and corrupt): 0 is a pass. */
uint64_t jverify_failed(const struct jverify *r);

/*
 * The report on out, paths named as data and journal (the caller's
 * escaping of r's paths): the heading, a line per verdict counted, with
 * the first offsets of the failing and torn ones, and "verdict: PASS" or
 * "verdict: FAIL (...)".
 */
void jverify_print(FILE *out, const struct jverify *r, const char *data,
		   const char *journal);

/* Free r's paths; r zeroed. */
void jverify_free(struct jverify *r);

#endif
