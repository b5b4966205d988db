/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jsonput: see jsonput.h. Text goes through text.c's escaping, so a
 * user's bytes always reach the document (escaped) instead of making
 * jansson drop the key.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli.h"
#include "jsonput.h"
#include "text.h"

json_t *jp_text(const char *s)
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

void jp_path(json_t *o, const char *key, const char *path, int *bad)
{
	char hkey[64], *hex;
	size_t n;

	if (!path) {
		jp_put(o, key, json_null(), bad);
		return;
	}
	jp_put(o, key, jp_text(path), bad);
	if (text_utf8_valid(path))
		return;
	n = strlen(path);
	hex = malloc(2 * n + 1);
	if (!hex) {
		*bad = 1;
		return;
	}
	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", (unsigned char)path[i]);
	snprintf(hkey, sizeof(hkey), "%s_bytes", key);
	jp_put(o, hkey, json_string(hex), bad);
	free(hex);
}

void jp_time(char *buf, size_t len, time_t t)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "%s", "");
}

void jp_head(json_t *doc, int schema, const char *program, time_t start,
	     int *bad)
{
	struct utsname un;
	char when[32], host[256] = "";

	jp_time(when, sizeof(when), start);
	gethostname(host, sizeof(host) - 1);
	jp_put(doc, "schema_version", json_integer(schema), bad);
	jp_put(doc, "program", json_string(program), bad);
	jp_put(doc, "version", json_string(PACKAGE_VERSION), bad);
	jp_put(doc, "start_time", json_string(when), bad);
	jp_put(doc, "host", jp_text(host), bad);
	jp_put(doc, "kernel",
	       uname(&un) == 0 ? jp_text(un.release) : json_null(), bad);
}

json_t *jp_document(int schema, const char *program, time_t start,
		    json_t *settings, int *bad)
{
	json_t *doc = json_object();

	if (JP_MADE(bad, doc)) {
		json_decref(settings);
		return NULL;
	}
	jp_head(doc, schema, program, start, bad);
	jp_put(doc, "settings", settings, bad);
	return doc;
}

int jp_write(const json_t *doc, FILE *f, size_t flags)
{
	errno = 0;
	if (json_dumpf(doc, f, JSON_INDENT(1) | flags) ||
	    fputc('\n', f) == EOF || fflush(f) == EOF || ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

int jp_finish(json_t *doc, struct outfile *of, int close_stdout)
{
	FILE *f = of ? outfile_stream(of) : stdout;
	char *name;
	int e = 0;

	if (!doc) {
		if (of)
			outfile_abort(of);
		error("--json: the document could not be built");
		return CLI_EXIT_FAILED;
	}
	if (!f || jp_write(doc, f, 0))
		e = errno ? errno : EIO;
	json_decref(doc);
	if (!of) {
		if (e)
			return cli_stdout_failed(e);
		return close_stdout ? cli_stdout_close() : 0;
	}
	/* A commit that fails frees of's names: the line needs its own. */
	name = strdup(of->path ? of->path : "");
	if (!e && (e = -outfile_commit(of)) == 0) {
		free(name);
		return 0;
	}
	error("--json '%s': %s", name ? name : "(out of memory)", strerror(e));
	free(name);
	outfile_abort(of);
	return CLI_EXIT_FAILED;
}
