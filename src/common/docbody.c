/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * docbody: see docbody.h. The figures a reader computes again (a block's
 * mean_seconds, mib_s and counted; a cell's mb_s and cpu_percent) are
 * written from lib/zcav_result.c's and lib/sweep_result.c's functions, the
 * lines and the table are printed with, so they cannot disagree.
 */
#include "config.h"

#include "docbody.h"
#include "json.h"
#include "jsonput.h"
#include "units.h"

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

static json_t *target(const struct zcav_series *t, const struct zcav_result *r,
		      int *bad)
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
	jp_put(o, "model", t->model[0] ? jp_text(t->model) : json_null(), bad);
	jp_put(o, "size_bytes",
	       t->size ? json_integer((json_int_t)t->size) : json_null(), bad);
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
	/* -w: the write-cache cliff over the first pass's blocks, as the
	 * lines' "#cliff" says (a reader finds it again from the blocks). */
	if (r->write && t->done == t->passes) {
		struct cliff c;

		zcav_series_cliff(t, r->skip, &c);
		if (c.looked)
			jp_put(o, "cliff", json_cliff(&c), bad);
	}
	return o;
}

void docbody_zcav(json_t *doc, const struct zcav_result *r, int *bad)
{
	json_t *targets = json_array();

	if (JP_MADE(bad, targets))
		return;
	for (unsigned i = 0; i < r->ntargets && !*bad; i++)
		jp_append(targets, target(&r->target[i], r, bad), bad);
	jp_put(doc, "targets", targets, bad);
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

void docbody_sweep(json_t *doc, const struct sweep_result *r, int *bad)
{
	json_t *stages = json_array();

	jp_put(doc, "title", jp_text(r->what), bad);
	jp_put(doc, "model", r->model[0] ? jp_text(r->model) : json_null(),
	       bad);
	jp_put(doc, "size_bytes",
	       r->dev_size ? json_integer((json_int_t)r->dev_size)
			   : json_null(),
	       bad);
	if (JP_MADE(bad, stages))
		return;
	for (unsigned s = 0; s < r->nstages && !*bad; s++)
		jp_append(stages, stage(r, &r->stage[s], bad), bad);
	jp_put(doc, "stages", stages, bad);
}
