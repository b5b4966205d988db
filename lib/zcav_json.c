/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zcav_json: a clyde-zcav JSON document (doc/clyde-json.5) read back into
 * a zcav_result. Only measurements are read (offsets, bytes, seconds,
 * each pass's sums); what is derived from them (mib_s, counted) is
 * computed again by whoever shows it, so it cannot disagree.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "jdoc.h"
#include "zcav_json.h"
#include "zcav_result.h"

/* The most bytes a name or block may hold, and blocks a target. */
#define NAME_MAX_BYTES 4095
#define MAX_BLOCKS     100000000ULL
#define MAX_BYTES      (1ULL << 62)

static const char *const kinds[ZCAV_KINDS] = {"device", "file", "pipe"};
static const char *const ops[] = {"read", "write"};

/* Block k of s from b (at names it). */
static int read_block(const json_t *b, const char *at, struct zcav_series *s,
		      char *why, size_t len)
{
	uint64_t off, bytes;
	const json_t *secs;
	char where[128];

	if (jdoc_u64(b, at, "offset", 0, MAX_BYTES, "an offset: expected bytes",
		     &off, why, len) ||
	    jdoc_u64(b, at, "bytes", 1, s->block,
		     "a block's size: expected bytes from 1 to block_size",
		     &bytes, why, len))
		return -1;
	secs = jdoc_array(b, at, "seconds", s->passes, why, len);
	if (!secs)
		return -1;
	if (json_array_size(secs) != s->done) {
		snprintf(why, len,
			 "%s.seconds holds %zu times: expected one per pass "
			 "done (%u)",
			 at, json_array_size(secs), s->done);
		return -1;
	}
	if (zcav_series_add(s, off, bytes)) {
		snprintf(why, len, "%s: %s", at, strerror(errno));
		return -1;
	}
	for (unsigned p = 0; p < s->done; p++) {
		snprintf(where, sizeof(where), "%s.seconds[%u]", at, p);
		if (jdoc_seconds(json_array_get(secs, p), where,
				 &s->secs[(s->nblocks - 1) * s->passes + p],
				 why, len))
			return -1;
	}
	return 0;
}

/* Pass p's sums from o. */
static int read_pass(const json_t *o, const char *at, struct zcav_series *s,
		     unsigned p, char *why, size_t len)
{
	char where[128];

	snprintf(where, sizeof(where), "%s.seconds", at);
	return jdoc_u64(o, at, "bytes", 0, MAX_BYTES,
			"a byte count: expected a whole number",
			&s->pass_bytes[p], why, len) ||
	       jdoc_seconds(json_object_get(o, "seconds"), where,
			    &s->pass_secs[p], why, len);
}

/* Target i from t into r->target[i]. */
static int read_target(const json_t *t, const char *at, struct zcav_series *s,
		       char *why, size_t len)
{
	const json_t *blocks, *summary;
	uint64_t block, passes, start, end = 0;
	char *name = NULL, where[96];
	int kind, direct;

	if (!json_is_object(t)) {
		snprintf(why, len, "%s is not a target: expected an object",
			 at);
		return -1;
	}
	if (jdoc_path(t, at, "name", NAME_MAX_BYTES, &name, why, len))
		return -1;
	kind = jdoc_name(t, at, "kind", kinds, ZCAV_KINDS, why, len);
	if (kind < 0 || jdoc_bool(t, at, "direct", &direct, why, len) ||
	    jdoc_u64(t, at, "block_size", 4096, MAX_BYTES,
		     "a block size: expected bytes from 4096", &block, why,
		     len) ||
	    jdoc_u64(t, at, "passes", 1, ZCAV_MAX_PASSES,
		     "a count of passes: expected a whole number from 1 to "
		     "1000",
		     &passes, why, len) ||
	    jdoc_u64(t, at, "start", 0, MAX_BYTES, "an offset: expected bytes",
		     &start, why, len) ||
	    (!json_is_null(json_object_get(t, "end")) &&
	     jdoc_u64(t, at, "end", 1, MAX_BYTES,
		      "an end: expected bytes, or null for a pipe's end", &end,
		      why, len))) {
		free(name);
		return -1;
	}
	if (zcav_series_init(s, name, (unsigned)passes, block)) {
		free(name);
		snprintf(why, len, "%s: %s", at, strerror(errno));
		return -1;
	}
	free(name);
	if (jdoc_text(t, at, "model", s->model, sizeof(s->model), why, len) ||
	    jdoc_opt_u64(t, at, "size_bytes", 1, MAX_BYTES,
			 "a size: expected bytes, or null", &s->size, why, len))
		return -1;
	s->kind = (enum zcav_kind)kind;
	s->direct = direct;
	s->start = start;
	s->end = end;
	summary = jdoc_array(t, at, "summary", s->passes, why, len);
	if (!summary)
		return -1;
	s->done = (unsigned)json_array_size(summary);
	for (unsigned p = 0; p < s->done; p++) {
		snprintf(where, sizeof(where), "%s.summary[%u]", at, p);
		if (read_pass(json_array_get(summary, p), where, s, p, why,
			      len))
			return -1;
	}
	blocks = jdoc_array(t, at, "blocks", MAX_BLOCKS, why, len);
	if (!blocks)
		return -1;
	for (size_t k = 0; k < json_array_size(blocks); k++) {
		snprintf(where, sizeof(where), "%s.blocks[%zu]", at, k);
		if (read_block(json_array_get(blocks, k), where, s, why, len))
			return -1;
	}
	return 0;
}

int zcav_json_read(const char *buf, size_t len, struct zcav_result *r,
		   char *why, size_t whylen)
{
	json_t *doc = jdoc_load(buf, len, "clyde-zcav", why, whylen);
	const json_t *set, *targets;
	char at[64];
	int op;

	memset(r, 0, sizeof(*r));
	if (!doc)
		return -1;
	set = json_object_get(doc, "settings");
	op = jdoc_name(set, "settings", "operation", ops, 2, why, whylen);
	if (op < 0 ||
	    jdoc_u64(set, "settings", "chunk", 4096, MAX_BYTES,
		     "a chunk: expected bytes from 4096", &r->chunk, why,
		     whylen) ||
	    jdoc_u64(set, "settings", "skip", 1, 1000000,
		     "a skip: expected a whole number from 1 to 1000000",
		     &r->skip, why, whylen))
		goto bad;
	r->write = op == 1;
	if (jdoc_start_time(doc, r->start_time, sizeof(r->start_time), why,
			    whylen))
		goto bad;
	targets = jdoc_array(doc, "", "targets", 64, why, whylen);
	if (!targets)
		goto bad;
	if (json_array_size(targets) == 0) {
		snprintf(why, whylen, "targets is empty: expected a target");
		goto bad;
	}
	r->target = calloc(json_array_size(targets), sizeof(*r->target));
	if (!r->target) {
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		goto bad;
	}
	for (size_t i = 0; i < json_array_size(targets); i++) {
		snprintf(at, sizeof(at), "targets[%zu]", i);
		r->ntargets = (unsigned)i + 1;
		if (read_target(json_array_get(targets, i), at, &r->target[i],
				why, whylen))
			goto bad;
	}
	json_decref(doc);
	return 0;
bad:
	json_decref(doc);
	zcav_result_free(r);
	return -1;
}
