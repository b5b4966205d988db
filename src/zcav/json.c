/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json: clyde-zcav's --json document (doc/clyde-json.5): the program,
 * schema version, host and kernel, the settings, and per target every
 * block's offset, bytes and seconds in each pass, with each pass's
 * summary. The targets are built from the run's zcav_result by
 * common/docbody.c, which clyde-report shares; lib/zcav_json reads the
 * document back. As in clyde's document (src/clyde/jsondoc.c), a string
 * that is not UTF-8 is escaped (text.h) and a path gets a _bytes
 * sibling, and a key jansson refused marks the document broken rather
 * than missing.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "docbody.h"
#include "jdoc.h"
#include "jsonput.h"
#include "text.h"
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

json_t *zcav_json_doc(const struct zcav_opts *o, const struct zcav_result *r,
		      time_t start)
{
	int bad = 0;
	json_t *doc = jp_document(JDOC_SCHEMA_VERSION, PROG, start,
				  settings(o, &bad), &bad);

	if (doc)
		docbody_zcav(doc, r, &bad);
	return jp_done(doc, bad);
}
