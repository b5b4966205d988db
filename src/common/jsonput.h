/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jsonput: building the JSON documents of clyde, clyde-zcav and
 * clyde-sweep (doc/clyde-json.5) with jansson, so that no key is ever
 * dropped without a word. jansson gives NULL for a string that is not
 * UTF-8 (or when memory runs out), and json_object_set_new() then leaves
 * the key out silently: jp_put (lib/jput.h) marks the document broken
 * (*bad) instead, and the callers never write a broken one. Text goes
 * through jp_text, so a user's bytes reach the document escaped.
 */
#ifndef CLYDE_JSONPUT_H
#define CLYDE_JSONPUT_H

#include <jansson.h>
#include <stdio.h>
#include <time.h>

#include "jput.h"
#include "outfile.h"

/* A string of the document: a byte that is not UTF-8 becomes \xNN. */
json_t *jp_text(const char *s);

/*
 * A path, which may hold any bytes: as jp_text() under key and, when a
 * byte had to be escaped, every byte of it in hex under key_bytes, so
 * the exact path can be rebuilt. NULL: null.
 */
void jp_path(json_t *o, const char *key, const char *path, int *bad);

/* t as start_time writes it, UTC ("2026-11-30T01:30:00Z"), in buf[len]. */
void jp_time(char *buf, size_t len, time_t t);

/*
 * The head every document opens with: schema_version, program, version,
 * start_time (UTC, from start), host and kernel.
 */
void jp_head(json_t *doc, int schema, const char *program, time_t start,
	     int *bad);

/*
 * A new document: jp_head's keys, then settings (taken over). NULL, with
 * *bad set and settings dropped, without memory.
 */
json_t *jp_document(int schema, const char *program, time_t start,
		    json_t *settings, int *bad);

/*
 * The document on f, indented by one, with a final newline, flushed.
 * flags: more jansson dump flags (e.g. JSON_REAL_PRECISION). 0, or -1
 * with errno set.
 */
int jp_write(const json_t *doc, FILE *f, size_t flags);

/*
 * The end of a --json[=FILE]: doc (taken over; NULL when it could not be
 * built) written to of, made before the first test and renamed over its
 * name when whole, or to standard output when of is NULL (then closed
 * when close_stdout, as the program's last output). One line for a
 * failure; the exit status (0, 1, or 141 for a closed stdout).
 */
int jp_finish(json_t *doc, struct outfile *of, int close_stdout);

#endif
