/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jput: setting a key of a JSON object and appending to an array, each
 * checked. jansson gives NULL for a string that is not UTF-8 and for any
 * value when memory runs out, and json_object_set_new() or
 * json_array_append_new() then leaves the key or the element out without
 * a word. A builder keeps one `int bad = 0`, hands &bad to every jp_put
 * and jp_append, and ends with jp_done(): the value when all went in,
 * else NULL (the value freed). A builder that takes another's value
 * (NULL when that one failed) fails in turn, so a document is either
 * whole or not there, and its caller says "out of memory" the usual way.
 */
#ifndef CLYDE_JPUT_H
#define CLYDE_JPUT_H

#include <jansson.h>
#include <stddef.h>

/* Set key of o to v (taken over); a NULL o or v, or a failure, sets
 * *bad. */
void jp_put(json_t *o, const char *key, json_t *v, int *bad);

/* Append v (taken over) to the array a; a NULL a or v, or a failure,
 * sets *bad. */
void jp_append(json_t *a, json_t *v, int *bad);

/*
 * Whether the values a builder has just made (json_object(), json_array()
 * and the like) are all there: 0; else -1, with every one of them freed
 * and *bad set. JP_MADE(bad, a, b, ...) names them as arguments.
 */
int jp_made(json_t *const v[], size_t n, int *bad);
#define JP_MADE(bad, ...)                                                      \
	jp_made((json_t *const[]){__VA_ARGS__},                                \
		sizeof((json_t *const[]){__VA_ARGS__}) / sizeof(json_t *),     \
		bad)

/* The end of a builder: v, or NULL (v freed) when bad. */
json_t *jp_done(json_t *v, int bad);

#endif
