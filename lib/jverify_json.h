/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jverify_json: reading the document of a journal check
 * (doc/clyde-json.5, "JOURNAL VERIFY DOCUMENTS": "program": "clyde" with
 * a "journal_verify" section) back into the result it was written from,
 * strictly.
 */
#ifndef CLYDE_JVERIFY_JSON_H
#define CLYDE_JVERIFY_JSON_H

#include <stddef.h>

#include "jverify.h"

/*
 * buf (len bytes) into *r, every value checked against doc/clyde-json.5:
 * the counts add up to the file's blocks, each verdict's first offsets
 * are its first min(count, 8) blocks in order, and the verdict is the
 * counts'. 0, or -1 with one line in why naming the key and value at
 * fault ("journal_verify.counts.lost -1 is not a count of blocks: ..."),
 * r empty. jverify_free() frees r.
 */
int jverify_json_read(const char *buf, size_t len, struct jverify *r, char *why,
		      size_t whylen);

#endif
