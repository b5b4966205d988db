/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json: clyde-zcav's --json document (doc/clyde-json.5): the program,
 * schema version, host and kernel, the settings, and per target every
 * block's offset, bytes and seconds in each pass, with each pass's
 * summary. Built from the run's zcav_result; lib/zcav_json reads it
 * back. As in clyde's document (src/suite/jsondoc.c), a string that is
 * not UTF-8 is escaped (text.h) and a path gets a _bytes sibling, and a
 * key jansson refused marks the document broken rather than missing.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "jdoc.h"
#include "text.h"
#include "units.h"
#include "zcav_prog.h"

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

static json_t *settings(const struct zcav_opts *o, int *bad)
{
	json_t *s = json_object();

	if (!s) {
		*bad = 1;
		return NULL;
	}
	put(s, "operation", json_string(o->write ? "write" : "read"), bad);
	put(s, "block_size", json_integer((json_int_t)o->block), bad);
	put(s, "chunk", json_integer((json_int_t)o->chunk), bad);
	put(s, "passes", json_integer(o->loops), bad);
	put(s, "skip", json_integer((json_int_t)o->skip), bad);
	put(s, "range_start", json_integer((json_int_t)o->start), bad);
	put(s, "range_end",
	    o->end ? json_integer((json_int_t)o->end) : json_null(), bad);
	put(s, "io",
	    json_string(o->direct == 1	 ? "direct"
			: o->direct == 0 ? "buffered"
					 : "default"),
	    bad);
	put(s, "uid", json_integer(getuid()), bad);
	put(s, "gid", json_integer(getgid()), bad);
	return s;
}

/* Block k: offset, bytes, per-pass seconds, and the line's figures. */
static json_t *block(const struct zcav_series *t, uint64_t k, int *bad)
{
	json_t *b = json_object(), *secs = json_array();
	double s = zcav_series_seconds(t, k);

	if (!b || !secs) {
		json_decref(b);
		json_decref(secs);
		*bad = 1;
		return NULL;
	}
	for (unsigned p = 0; p < t->done; p++)
		if (json_array_append_new(
			secs, json_real(t->secs[k * t->passes + p])))
			*bad = 1;
	put(b, "offset", json_integer((json_int_t)t->offset[k]), bad);
	put(b, "bytes", json_integer((json_int_t)t->bytes[k]), bad);
	put(b, "seconds", secs, bad);
	put(b, "mean_seconds", json_real(s), bad);
	put(b, "mib_s", json_real(zcav_series_mib_s(t, k)), bad);
	put(b, "counted", json_boolean(s >= ZCAV_MIN_SECONDS), bad);
	return b;
}

static json_t *target(const struct zcav_series *t, int *bad)
{
	json_t *o = json_object(), *blocks = json_array(), *sum = json_array();

	if (!o || !blocks || !sum) {
		json_decref(o);
		json_decref(blocks);
		json_decref(sum);
		*bad = 1;
		return NULL;
	}
	put_path(o, "name", t->name, bad);
	put(o, "kind", json_string(zcav_kind_name(t->kind)), bad);
	put(o, "direct", json_boolean(t->direct), bad);
	put(o, "block_size", json_integer((json_int_t)t->block), bad);
	put(o, "passes", json_integer(t->passes), bad);
	put(o, "start", json_integer((json_int_t)t->start), bad);
	put(o, "end", t->end ? json_integer((json_int_t)t->end) : json_null(),
	    bad);
	for (uint64_t k = 0; k < t->nblocks && !*bad; k++)
		if (json_array_append_new(blocks, block(t, k, bad)))
			*bad = 1;
	for (unsigned p = 0; p < t->done; p++) {
		json_t *ps = json_object();
		double secs = t->pass_secs[p];

		put(ps, "bytes", json_integer((json_int_t)t->pass_bytes[p]),
		    bad);
		put(ps, "seconds", json_real(secs), bad);
		put(ps, "mib_s",
		    json_real(secs > 0 ? (double)t->pass_bytes[p] /
					     (double)UNITS_MIB / secs
				       : 0.0),
		    bad);
		if (json_array_append_new(sum, ps))
			*bad = 1;
	}
	put(o, "blocks", blocks, bad);
	put(o, "summary", sum, bad);
	return o;
}

json_t *zcav_json_doc(const struct zcav_opts *o, const struct zcav_result *r,
		      time_t start)
{
	json_t *doc = json_object(), *targets = json_array();
	struct utsname un;
	char when[32], host[256] = "";
	struct tm tm;
	int bad = 0;

	if (!doc || !targets) {
		json_decref(doc);
		json_decref(targets);
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
	put(doc, "settings", settings(o, &bad), &bad);
	for (unsigned i = 0; i < r->ntargets && !bad; i++)
		if (json_array_append_new(targets, target(&r->target[i], &bad)))
			bad = 1;
	put(doc, "targets", targets, &bad);
	if (bad) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

int zcav_json_write(const json_t *doc, FILE *f)
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
