/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json: clyde-sweep's --json document (doc/clyde-json.5): the program,
 * schema version, host and kernel, the settings, and per stage every
 * cell that ran (mode, block size, operation, bytes, seconds, CPU
 * seconds, and the MB/s and %CP the table shows). The title and
 * stages are built from the run's sweep_result by common/docbody.c,
 * which clyde-report shares; lib/sweep_json reads the document back.
 * As in clyde's document (src/clyde/jsondoc.c), a string that is not
 * UTF-8 is escaped (text.h) and a path gets a _bytes sibling, and a key
 * jansson refused marks the document broken rather than missing.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "docbody.h"
#include "jdoc.h"
#include "sweep_prog.h"
#include "jsonput.h"
#include "text.h"

static json_t *settings(const struct sweep_opts *o,
			const struct sweep_result *r, int *bad)
{
	json_t *s = json_object(), *bs = json_array(), *fs;

	if (JP_MADE(bad, s, bs))
		return NULL;
	jp_path(s, "target", r->target, bad);
	jp_put(s, "size", json_integer((json_int_t)r->size), bad);
	for (unsigned i = 0; i < r->nbs; i++)
		jp_append(bs, json_integer((json_int_t)r->bs[i]), bad);
	jp_put(s, "block_sizes", bs, bad);
	if (o->fs_arg) {
		fs = json_array();
		for (unsigned i = 0; i < o->nfs && o->fs[i]; i++)
			jp_append(fs, json_string(o->fs[i]->name), bad);
		jp_put(s, "filesystems", fs, bad);
	} else {
		jp_put(s, "filesystems", json_null(), bad);
	}
	jp_put(s, "seed", json_integer((json_int_t)o->seed), bad);
	jp_put(s, "uid", json_integer(getuid()), bad);
	jp_put(s, "gid", json_integer(getgid()), bad);
	return s;
}

json_t *sweep_json_doc(const struct sweep_opts *o, const struct sweep_result *r,
		       time_t start)
{
	int bad = 0;
	json_t *doc = jp_document(JDOC_SCHEMA_VERSION, PROG, start,
				  settings(o, r, &bad), &bad);

	if (doc)
		docbody_sweep(doc, r, &bad);
	return jp_done(doc, bad);
}
