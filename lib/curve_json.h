/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * curve_json: clyde-curve's document (doc/clyde-json.5) beyond the head
 * and settings it shares with clyde's: settings.curve, "complete",
 * "curves" (each step's test as clyde writes a test) and "summary"; and
 * the strict reader clyde-report reads it back with. A document read
 * and written again is what the program wrote.
 */
#ifndef CLYDE_CURVE_JSON_H
#define CLYDE_CURVE_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "curve_result.h"

/* Put r's parts into doc (which has "settings"); any "runs" goes. 0,
 * or -1 (no memory). */
int curve_json_put(json_t *doc, const struct curve_result *r);

/*
 * buf (len bytes) as a clyde-curve document of JSON_SCHEMA_VERSION,
 * every value checked (its type and range; the steps of a curve the
 * maximum first, then rising in the load offered; a knee one of them)
 * into r (settings and curves; curve_result_free frees it), with each
 * step's histograms. Returns the document (the caller drops it), or
 * NULL with why naming the key: "curves[0].steps[2].offered \"x\" is not
 * ...".
 */
json_t *curve_json_read(const char *buf, size_t len, struct curve_result *r,
			char *why, size_t whylen);

#endif
