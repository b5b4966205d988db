/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jverify_doc: the document of a journal check (clyde --verify-only=DATA
 * --journal=JOURNAL --json), of clyde's family (doc/clyde-json.5,
 * "JOURNAL VERIFY DOCUMENTS"): clyde's head, "program": "clyde", and a
 * "journal_verify" section in place of "runs". clyde writes it from its
 * check; clyde-report json puts the section again after the head of a
 * document it read, so what it writes is what clyde wrote.
 */
#ifndef CLYDE_JVERIFY_DOC_H
#define CLYDE_JVERIFY_DOC_H

#include <jansson.h>
#include <time.h>

#include "jverify.h"

/* "journal_verify": r's paths, seeds, size, counts, first offsets and
 * verdict, into doc. */
void jverify_doc_put(json_t *doc, const struct jverify *r, int *bad);

/* The whole document of a check started at start; NULL without memory. */
json_t *jverify_doc(const struct jverify *r, time_t start);

#endif
