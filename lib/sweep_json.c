/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweep_json: a clyde-sweep JSON document (doc/clyde-json.5) read back
 * into a sweep_result. Only measurements are read (bytes, seconds, CPU
 * seconds); mb_s and cpu_percent are computed from them again, so what
 * is shown cannot disagree with them.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jdoc.h"
#include "sweep_json.h"
#include "sweep_result.h"

#define MAX_BYTES (1ULL << 62)

/* A name of at most room - 1 bytes at o[key] into buf[room]. */
static int read_name(const json_t *o, const char *at, const char *key,
		     char *buf, size_t room, char *why, size_t len)
{
	char *s;

	if (jdoc_path(o, at, key, room - 1, &s, why, len))
		return -1;
	memcpy(buf, s, strlen(s) + 1);
	free(s);
	return 0;
}

static int read_cell(const json_t *c, const char *at, struct sweep_result *r,
		     struct sweep_stage *st, char *why, size_t len)
{
	static const char *const modes[SWEEP_MODES] = {"buffered", "direct"};
	static const char *const ops[SWEEP_OPS] = {"write", "read"};
	struct sweep_cell *cell;
	char where[160];
	uint64_t bs;
	unsigned b;
	int m, op;

	m = jdoc_name(c, at, "mode", modes, SWEEP_MODES, why, len);
	op = m < 0 ? -1 : jdoc_name(c, at, "op", ops, SWEEP_OPS, why, len);
	if (op < 0 || jdoc_u64(c, at, "block_size", 1, MAX_BYTES,
			       "a block size: expected bytes", &bs, why, len))
		return -1;
	for (b = 0; b < r->nbs && r->bs[b] != bs; b++)
		;
	if (b == r->nbs) {
		snprintf(why, len,
			 "%s.block_size %llu is not one of "
			 "settings.block_sizes",
			 at, (unsigned long long)bs);
		return -1;
	}
	cell = &st->cell[m][b][op];
	if (cell->done) {
		snprintf(why, len, "%s: a second %s %s cell of block size %llu",
			 at, modes[m], ops[op], (unsigned long long)bs);
		return -1;
	}
	if (jdoc_u64(c, at, "bytes", 0, MAX_BYTES,
		     "a byte count: expected a whole number", &cell->bytes, why,
		     len))
		return -1;
	snprintf(where, sizeof(where), "%s.seconds", at);
	if (jdoc_seconds(json_object_get(c, "seconds"), where, &cell->seconds,
			 why, len))
		return -1;
	snprintf(where, sizeof(where), "%s.cpu_seconds", at);
	if (jdoc_seconds(json_object_get(c, "cpu_seconds"), where, &cell->cpu,
			 why, len))
		return -1;
	cell->done = 1;
	return 0;
}

static int read_stage(const json_t *o, const char *at, struct sweep_result *r,
		      struct sweep_stage *st, char *why, size_t len)
{
	const json_t *cells;
	char where[96];

	if (read_name(o, at, "label", st->label, sizeof(st->label), why, len) ||
	    read_name(o, at, "fs", st->fs, sizeof(st->fs), why, len) ||
	    read_name(o, at, "target", st->target, sizeof(st->target), why,
		      len))
		return -1;
	cells = jdoc_array(o, at, "cells",
			   (size_t)SWEEP_MODES * SWEEP_MAX_BS * SWEEP_OPS, why,
			   len);
	if (!cells)
		return -1;
	for (size_t i = 0; i < json_array_size(cells); i++) {
		snprintf(where, sizeof(where), "%s.cells[%zu]", at, i);
		if (read_cell(json_array_get(cells, i), where, r, st, why, len))
			return -1;
	}
	return 0;
}

int sweep_json_read(const char *buf, size_t len, struct sweep_result *r,
		    char *why, size_t whylen)
{
	json_t *doc = jdoc_load(buf, len, "clyde-sweep", why, whylen);
	const json_t *set, *bs, *stages;
	char at[64];
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (!doc)
		return -1;
	set = json_object_get(doc, "settings");
	if (read_name(set, "settings", "target", r->target, sizeof(r->target),
		      why, whylen) ||
	    read_name(doc, "", "title", r->what, sizeof(r->what), why,
		      whylen) ||
	    jdoc_u64(set, "settings", "size", 1, MAX_BYTES,
		     "a size: expected bytes per cell", &r->size, why, whylen))
		goto out;
	if (jdoc_text(doc, "", "model", r->model, sizeof(r->model), why,
		      whylen) ||
	    jdoc_opt_u64(doc, "", "size_bytes", 1, MAX_BYTES,
			 "a size: expected bytes, or null", &r->dev_size, why,
			 whylen) ||
	    jdoc_start_time(doc, r->start_time, sizeof(r->start_time), why,
			    whylen))
		goto out;
	bs = jdoc_array(set, "settings", "block_sizes", SWEEP_MAX_BS, why,
			whylen);
	if (!bs)
		goto out;
	for (size_t i = 0; i < json_array_size(bs); i++) {
		const json_t *v = json_array_get(bs, i);

		if (!json_is_integer(v) || json_integer_value(v) < 1) {
			snprintf(why, whylen,
				 "settings.block_sizes[%zu] is not a block "
				 "size: expected bytes",
				 i);
			goto out;
		}
		r->bs[r->nbs++] = (uint64_t)json_integer_value(v);
	}
	stages = jdoc_array(doc, "", "stages", SWEEP_MAX_STAGES, why, whylen);
	if (!stages)
		goto out;
	for (size_t s = 0; s < json_array_size(stages); s++) {
		snprintf(at, sizeof(at), "stages[%zu]", s);
		r->nstages = (unsigned)s + 1;
		if (read_stage(json_array_get(stages, s), at, r, &r->stage[s],
			       why, whylen))
			goto out;
	}
	rc = 0;
out:
	json_decref(doc);
	return rc;
}
