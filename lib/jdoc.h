/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jdoc: reading back the JSON documents of clyde-zcav and clyde-sweep
 * (doc/clyde-json.5), strictly. Each getter takes the object, the key
 * and where the object is ("targets[1].blocks[3]"), checks the value's
 * type and range, and on a bad or missing value writes one line naming
 * the key and the value into why[len] and returns -1: "targets[0].passes
 * 0 is not a count of passes: expected a whole number from 1 to 1000".
 */
#ifndef CLYDE_JDOC_H
#define CLYDE_JDOC_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* The schema version of the zcav and sweep documents. */
#define JDOC_SCHEMA_VERSION 1

/*
 * buf (len bytes) parsed as a document of program at
 * JDOC_SCHEMA_VERSION: the root object, or NULL with why said (not
 * JSON, another program or version).
 */
json_t *jdoc_load(const char *buf, size_t len, const char *program, char *why,
		  size_t whylen);

/* A whole number from min to max at o[key]. */
int jdoc_u64(const json_t *o, const char *at, const char *key, uint64_t min,
	     uint64_t max, const char *what, uint64_t *out, char *why,
	     size_t len);

/* A number from 0 up at v (named at), finite. */
int jdoc_seconds(const json_t *v, const char *at, double *out, char *why,
		 size_t len);

/* true or false at o[key]. */
int jdoc_bool(const json_t *o, const char *at, const char *key, int *out,
	      char *why, size_t len);

/* An array at o[key] of at most max elements. NULL after why. */
const json_t *jdoc_array(const json_t *o, const char *at, const char *key,
			 size_t max, char *why, size_t len);

/* One of names[n] at o[key]: its index, or -1 after why. */
int jdoc_name(const json_t *o, const char *at, const char *key,
	      const char *const *names, int n, char *why, size_t len);

/*
 * A path or name at o[key]: the exact bytes from key_bytes (hex) when
 * the document has it, else the string. Malloc'd into *out, or -1 after
 * why (also when it holds a NUL or is longer than max bytes).
 */
int jdoc_path(const json_t *o, const char *at, const char *key, size_t max,
	      char **out, char *why, size_t len);

/*
 * Keys later versions added, so an older document without them still
 * reads: absent or null gives "" (jdoc_text) or 0 (jdoc_opt_u64).
 * jdoc_text takes a string of printable characters of at most room - 1
 * bytes into buf[room] (a device's model).
 */
int jdoc_text(const json_t *o, const char *at, const char *key, char *buf,
	      size_t room, char *why, size_t len);
int jdoc_opt_u64(const json_t *o, const char *at, const char *key, uint64_t min,
		 uint64_t max, const char *what, uint64_t *out, char *why,
		 size_t len);

/*
 * The document's start_time into buf[room] ("2026-11-30T01:30:00Z"): ""
 * when absent; anything but such a string is refused.
 */
int jdoc_start_time(const json_t *doc, char *buf, size_t room, char *why,
		    size_t len);

#endif
