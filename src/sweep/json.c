/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json: clyde-sweep's --json document (doc/clyde-json.5): the program,
 * schema version, host and kernel, the settings, and per stage every
 * cell that ran (mode, block size, operation, bytes, seconds, CPU
 * seconds, and the MB/s and %CP the table shows). Built from the run's
 * sweep_result; lib/sweep_json reads it back. As in clyde's document
 * (src/suite/jsondoc.c), a string that is not UTF-8 is escaped (text.h)
 * and a path gets a _bytes sibling, and a key jansson refused marks the
 * document broken rather than missing.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

static json_t *cell(const struct sweep_result *r, const struct sweep_cell *c,
		    int m, unsigned b, int op, int *bad)
{
	json_t *o = json_object();

	if (JP_MADE(bad, o))
		return NULL;
	jp_put(o, "mode", json_string(sweep_mode_name(m)), bad);
	jp_put(o, "block_size", json_integer((json_int_t)r->bs[b]), bad);
	jp_put(o, "op", json_string(sweep_op_name(op)), bad);
	jp_put(o, "bytes", json_integer((json_int_t)c->bytes), bad);
	jp_put(o, "seconds", json_real(c->seconds), bad);
	jp_put(o, "cpu_seconds", json_real(c->cpu), bad);
	jp_put(o, "mb_s", json_real(sweep_mb_s(c)), bad);
	jp_put(o, "cpu_percent", json_integer(sweep_pcp(c)), bad);
	return o;
}

static json_t *stage(const struct sweep_result *r, const struct sweep_stage *st,
		     int *bad)
{
	json_t *o = json_object(), *cells = json_array();

	if (JP_MADE(bad, o, cells))
		return NULL;
	jp_put(o, "label", jp_text(st->label), bad);
	jp_put(o, "fs", jp_text(st->fs), bad);
	jp_path(o, "target", st->target, bad);
	for (int m = 0; m < SWEEP_MODES; m++)
		for (unsigned b = 0; b < r->nbs; b++)
			for (int op = 0; op < SWEEP_OPS; op++) {
				const struct sweep_cell *c =
				    &st->cell[m][b][op];

				if (c->done)
					jp_append(cells,
						  cell(r, c, m, b, op, bad),
						  bad);
			}
	jp_put(o, "cells", cells, bad);
	return o;
}

json_t *sweep_json_doc(const struct sweep_opts *o, const struct sweep_result *r,
		       time_t start)
{
	json_t *doc = json_object(), *stages = json_array();
	int bad = 0;

	if (JP_MADE(&bad, doc, stages))
		return NULL;
	jp_head(doc, JDOC_SCHEMA_VERSION, PROG, start, &bad);
	jp_put(doc, "settings", settings(o, r, &bad), &bad);
	jp_put(doc, "title", jp_text(r->what), &bad);
	for (unsigned s = 0; s < r->nstages && !bad; s++)
		jp_append(stages, stage(r, &r->stage[s], &bad), &bad);
	jp_put(doc, "stages", stages, &bad);
	return jp_done(doc, bad);
}
