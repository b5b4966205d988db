/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_cliff: a test's write-cache cliff (cliff.h) as its "cliff"
 * object (doc/clyde-json.5), written by json.c and clyde-zcav's document
 * and read back by json_cliff_read.c:
 *
 *   {"found": true, "method", "burst_bytes_per_s", "sustained_bytes_per_s",
 *    "burst_sd", "sustained_sd", "drop_seconds", "absorbed_bytes",
 *    "burst_intervals", "sustained_intervals", "intervals"}
 *   {"found": false, "intervals", "why"}
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "json.h"
#include "jput.h"

/* What the finding rests on, in the document's words. */
#define CLIFF_METHOD "two-level least squares of the intervals' log rates"

json_t *json_cliff(const struct cliff *c)
{
	json_t *o = json_object();
	int bad = 0;

	jp_put(o, "found", json_boolean(c->found), &bad);
	jp_put(o, "intervals", json_integer(c->intervals), &bad);
	if (!c->found) {
		jp_put(o, "why", json_string(c->why), &bad);
		return jp_done(o, bad);
	}
	jp_put(o, "method", json_string(CLIFF_METHOD), &bad);
	jp_put(o, "burst_bytes_per_s", json_real(c->burst), &bad);
	jp_put(o, "sustained_bytes_per_s", json_real(c->sustained), &bad);
	jp_put(o, "burst_sd", json_real(c->burst_sd), &bad);
	jp_put(o, "sustained_sd", json_real(c->sustained_sd), &bad);
	jp_put(o, "drop_seconds", json_real(c->drop_s), &bad);
	jp_put(o, "absorbed_bytes", json_real(c->absorbed), &bad);
	jp_put(o, "burst_intervals", json_integer(c->n_burst), &bad);
	jp_put(o, "sustained_intervals", json_integer(c->n_sustained), &bad);
	return jp_done(o, bad);
}
