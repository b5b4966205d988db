/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json: clyde-zcav's --json document (doc/clyde-json.5): the program,
 * schema version, host and kernel, the settings, and per target every
 * block's offset, bytes and seconds in each pass, with each pass's
 * summary. Built from the run's zcav_result; lib/zcav_json reads it
 * back. As in clyde's document (src/suite/jsondoc.c), a string that is
 * not UTF-8 is escaped (text.h) and a path gets a _bytes sibling, and a
 * key jansson refused marks the document broken rather than missing.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jdoc.h"
#include "jsonput.h"
#include "text.h"
#include "units.h"
#include "zcav_prog.h"

static json_t *settings(const struct zcav_opts *o, int *bad)
{
	json_t *s = json_object();

	if (JP_MADE(bad, s))
		return NULL;
	jp_put(s, "operation", json_string(o->write ? "write" : "read"), bad);
	jp_put(s, "block_size", json_integer((json_int_t)o->block), bad);
	jp_put(s, "chunk", json_integer((json_int_t)o->chunk), bad);
	jp_put(s, "passes", json_integer(o->loops), bad);
	jp_put(s, "skip", json_integer((json_int_t)o->skip), bad);
	jp_put(s, "range_start", json_integer((json_int_t)o->start), bad);
	jp_put(s, "range_end",
	       o->end ? json_integer((json_int_t)o->end) : json_null(), bad);
	jp_put(s, "io",
	       json_string(o->direct == 1   ? "direct"
			   : o->direct == 0 ? "buffered"
					    : "default"),
	       bad);
	jp_put(s, "uid", json_integer(getuid()), bad);
	jp_put(s, "gid", json_integer(getgid()), bad);
	return s;
}

/* Block k: offset, bytes, per-pass seconds, and the line's figures. */
static json_t *block(const struct zcav_series *t, uint64_t k, int *bad)
{
	json_t *b = json_object(), *secs = json_array();
	double s = zcav_series_seconds(t, k);

	if (JP_MADE(bad, b, secs))
		return NULL;
	for (unsigned p = 0; p < t->done; p++)
		jp_append(secs, json_real(t->secs[k * t->passes + p]), bad);
	jp_put(b, "offset", json_integer((json_int_t)t->offset[k]), bad);
	jp_put(b, "bytes", json_integer((json_int_t)t->bytes[k]), bad);
	jp_put(b, "seconds", secs, bad);
	jp_put(b, "mean_seconds", json_real(s), bad);
	jp_put(b, "mib_s", json_real(zcav_series_mib_s(t, k)), bad);
	jp_put(b, "counted", json_boolean(s >= ZCAV_MIN_SECONDS), bad);
	return b;
}

static json_t *target(const struct zcav_series *t, int *bad)
{
	json_t *o = json_object(), *blocks = json_array(), *sum = json_array();

	if (JP_MADE(bad, o, blocks, sum))
		return NULL;
	jp_path(o, "name", t->name, bad);
	jp_put(o, "kind", json_string(zcav_kind_name(t->kind)), bad);
	jp_put(o, "direct", json_boolean(t->direct), bad);
	jp_put(o, "block_size", json_integer((json_int_t)t->block), bad);
	jp_put(o, "passes", json_integer(t->passes), bad);
	jp_put(o, "start", json_integer((json_int_t)t->start), bad);
	jp_put(o, "end",
	       t->end ? json_integer((json_int_t)t->end) : json_null(), bad);
	for (uint64_t k = 0; k < t->nblocks && !*bad; k++)
		jp_append(blocks, block(t, k, bad), bad);
	for (unsigned p = 0; p < t->done; p++) {
		json_t *ps = json_object();
		double secs = t->pass_secs[p];

		jp_put(ps, "bytes", json_integer((json_int_t)t->pass_bytes[p]),
		       bad);
		jp_put(ps, "seconds", json_real(secs), bad);
		jp_put(ps, "mib_s",
		       json_real(secs > 0 ? (double)t->pass_bytes[p] /
						(double)UNITS_MIB / secs
					  : 0.0),
		       bad);
		jp_append(sum, ps, bad);
	}
	jp_put(o, "blocks", blocks, bad);
	jp_put(o, "summary", sum, bad);
	return o;
}

json_t *zcav_json_doc(const struct zcav_opts *o, const struct zcav_result *r,
		      time_t start)
{
	json_t *doc = json_object(), *targets = json_array();
	int bad = 0;

	if (JP_MADE(&bad, doc, targets))
		return NULL;
	jp_head(doc, JDOC_SCHEMA_VERSION, PROG, start, &bad);
	jp_put(doc, "settings", settings(o, &bad), &bad);
	for (unsigned i = 0; i < r->ntargets && !bad; i++)
		jp_append(targets, target(&r->target[i], &bad), &bad);
	jp_put(doc, "targets", targets, &bad);
	return jp_done(doc, bad);
}
