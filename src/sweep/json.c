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
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "jdoc.h"
#include "sweep_prog.h"
#include "text.h"

/* Set key to v; a refused value (NULL) marks the document broken. */
static void put(json_t *o, const char *key, json_t *v, int *bad)
{
	if (json_object_set_new(o, key, v) != 0)
		*bad = 1;
}

/* A string of the document: a byte that is not UTF-8 becomes \xNN. */
static json_t *text(const char *s)
{
	size_t room = text_escape_room(s);
	char *buf = malloc(room);
	json_t *v;

	if (!buf)
		return NULL;
	text_escape(s, buf, room, TEXT_JSON);
	v = json_string(buf);
	free(buf);
	return v;
}

/* A path as text() under key and, when not UTF-8, its bytes in hex
 * under key_bytes. */
static void put_path(json_t *o, const char *key, const char *path, int *bad)
{
	char hkey[64], *hex;
	size_t n = strlen(path);

	put(o, key, text(path), bad);
	if (text_utf8_valid(path))
		return;
	hex = malloc(2 * n + 1);
	if (!hex) {
		*bad = 1;
		return;
	}
	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", (unsigned char)path[i]);
	snprintf(hkey, sizeof(hkey), "%s_bytes", key);
	put(o, hkey, json_string(hex), bad);
	free(hex);
}

static json_t *settings(const struct sweep_opts *o,
			const struct sweep_result *r, int *bad)
{
	json_t *s = json_object(), *bs = json_array(), *fs;

	if (!s || !bs) {
		json_decref(s);
		json_decref(bs);
		*bad = 1;
		return NULL;
	}
	put_path(s, "target", r->target, bad);
	put(s, "size", json_integer((json_int_t)r->size), bad);
	for (unsigned i = 0; i < r->nbs; i++)
		if (json_array_append_new(bs,
					  json_integer((json_int_t)r->bs[i])))
			*bad = 1;
	put(s, "block_sizes", bs, bad);
	if (o->fs_arg) {
		fs = json_array();
		for (unsigned i = 0; i < o->nfs && o->fs[i]; i++)
			if (json_array_append_new(fs,
						  json_string(o->fs[i]->name)))
				*bad = 1;
		put(s, "filesystems", fs, bad);
	} else {
		put(s, "filesystems", json_null(), bad);
	}
	put(s, "seed", json_integer((json_int_t)o->seed), bad);
	put(s, "uid", json_integer(getuid()), bad);
	put(s, "gid", json_integer(getgid()), bad);
	return s;
}

static json_t *cell(const struct sweep_result *r, const struct sweep_cell *c,
		    int m, unsigned b, int op, int *bad)
{
	json_t *o = json_object();

	if (!o) {
		*bad = 1;
		return NULL;
	}
	put(o, "mode", json_string(sweep_mode_name(m)), bad);
	put(o, "block_size", json_integer((json_int_t)r->bs[b]), bad);
	put(o, "op", json_string(sweep_op_name(op)), bad);
	put(o, "bytes", json_integer((json_int_t)c->bytes), bad);
	put(o, "seconds", json_real(c->seconds), bad);
	put(o, "cpu_seconds", json_real(c->cpu), bad);
	put(o, "mb_s", json_real(sweep_mb_s(c)), bad);
	put(o, "cpu_percent", json_integer(sweep_pcp(c)), bad);
	return o;
}

static json_t *stage(const struct sweep_result *r, const struct sweep_stage *st,
		     int *bad)
{
	json_t *o = json_object(), *cells = json_array();

	if (!o || !cells) {
		json_decref(o);
		json_decref(cells);
		*bad = 1;
		return NULL;
	}
	put(o, "label", text(st->label), bad);
	put(o, "fs", text(st->fs), bad);
	put_path(o, "target", st->target, bad);
	for (int m = 0; m < SWEEP_MODES; m++)
		for (unsigned b = 0; b < r->nbs; b++)
			for (int op = 0; op < SWEEP_OPS; op++) {
				const struct sweep_cell *c =
				    &st->cell[m][b][op];

				if (c->done &&
				    json_array_append_new(
					cells, cell(r, c, m, b, op, bad)))
					*bad = 1;
			}
	put(o, "cells", cells, bad);
	return o;
}

json_t *sweep_json_doc(const struct sweep_opts *o, const struct sweep_result *r,
		       time_t start)
{
	json_t *doc = json_object(), *stages = json_array();
	struct utsname un;
	char when[32], host[256] = "";
	struct tm tm;
	int bad = 0;

	if (!doc || !stages) {
		json_decref(doc);
		json_decref(stages);
		return NULL;
	}
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ",
		 gmtime_r(&start, &tm));
	gethostname(host, sizeof(host) - 1);
	put(doc, "schema_version", json_integer(JDOC_SCHEMA_VERSION), &bad);
	put(doc, "program", json_string(PROG), &bad);
	put(doc, "version", json_string(PACKAGE_VERSION), &bad);
	put(doc, "start_time", json_string(when), &bad);
	put(doc, "host", text(host), &bad);
	put(doc, "kernel", uname(&un) == 0 ? text(un.release) : json_null(),
	    &bad);
	put(doc, "settings", settings(o, r, &bad), &bad);
	put(doc, "title", text(r->what), &bad);
	for (unsigned s = 0; s < r->nstages && !bad; s++)
		if (json_array_append_new(stages, stage(r, &r->stage[s], &bad)))
			bad = 1;
	put(doc, "stages", stages, &bad);
	if (bad) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

int sweep_json_write(const json_t *doc, FILE *f)
{
	errno = 0;
	if (json_dumpf(doc, f, JSON_INDENT(1)) || fputc('\n', f) == EOF ||
	    fflush(f) == EOF || ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
