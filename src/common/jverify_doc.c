/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jverify_doc: see jverify_doc.h. The seeds are strings of decimal
 * digits: a content seed uses all 64 bits (fill_worker_seed), beyond
 * jansson's integers (signed) and what most readers hold exactly (a
 * double's 53 bits).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "json.h"
#include "jsonput.h"
#include "jverify_doc.h"

static json_t *seed_of(uint64_t seed)
{
	char s[24];

	snprintf(s, sizeof(s), "%" PRIu64, seed);
	return json_string(s);
}

/* "counts" and "first_offsets", each keyed by jrnl_verdict_name. */
static void put_tally(json_t *sec, const struct jrnl_tally *t, int *bad)
{
	json_t *counts = json_object(), *first = json_object();

	if (JP_MADE(bad, counts, first))
		return;
	for (int i = 0; i < JV_COUNT; i++) {
		enum jrnl_verdict v = (enum jrnl_verdict)i;
		uint64_t k =
		    t->n[v] < JRNL_TALLY_FIRST ? t->n[v] : JRNL_TALLY_FIRST;
		json_t *offs = json_array();

		jp_put(counts, jrnl_verdict_name(v),
		       json_integer((json_int_t)t->n[v]), bad);
		for (uint64_t j = 0; offs && j < k; j++)
			jp_append(offs,
				  json_integer((json_int_t)t->first[v][j]),
				  bad);
		jp_put(first, jrnl_verdict_name(v), offs, bad);
	}
	jp_put(sec, "counts", counts, bad);
	jp_put(sec, "first_offsets", first, bad);
}

void jverify_doc_put(json_t *doc, const struct jverify *r, int *bad)
{
	json_t *sec = json_object();

	if (JP_MADE(bad, sec))
		return;
	jp_path(sec, "data", r->data, bad);
	jp_path(sec, "journal", r->journal, bad);
	jp_put(sec, "run_seed", seed_of(r->run_seed), bad);
	jp_put(sec, "content_seed", seed_of(r->content_seed), bad);
	jp_put(sec, "file_size", json_integer((json_int_t)r->file_size), bad);
	jp_put(sec, "data_size", json_integer((json_int_t)r->data_size), bad);
	jp_put(sec, "journal_clean", json_boolean(r->clean), bad);
	jp_put(sec, "journal_torn", json_integer((json_int_t)r->torn), bad);
	put_tally(sec, &r->tally, bad);
	jp_put(sec, "verdict", json_string(jverify_failed(r) ? "fail" : "pass"),
	       bad);
	jp_put(doc, "journal_verify", sec, bad);
}

json_t *jverify_doc(const struct jverify *r, time_t start)
{
	json_t *doc = json_object();
	int bad = 0;

	if (JP_MADE(&bad, doc))
		return NULL;
	jp_head(doc, JSON_SCHEMA_VERSION, "clyde", start, &bad);
	jverify_doc_put(doc, r, &bad);
	return jp_done(doc, bad);
}
