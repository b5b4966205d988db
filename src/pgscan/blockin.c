/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blockin: the array's side of the comparison, clyde's own block input,
 * over a file of the same size on the same filesystem: clyde (the binary
 * beside clyde-pgscan, or $CLYDE_BIN) runs as a child, as the target
 * user, in the scratch directory, get_block only, -x as given, and
 * writes its JSON document there. That document is the base of
 * clyde-pgscan's own. With no -s, clyde sizes its data file by its
 * default rule, and that size (settings.file_size) sizes the table.
 */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "pgscan_prog.h"

/* The clyde to run: $CLYDE_BIN, else the one beside this program (in a
 * build tree, src/clyde beside src/clyde-pgscan is clyde's folder, and
 * clyde is built in it). */
static int clyde_path(char *buf, size_t len)
{
	const char *env = getenv("CLYDE_BIN");
	char self[PATH_MAX], *dir;
	struct stat st;
	ssize_t n;

	if (env && *env) {
		if (!realpath(env, buf))
			return error("CLYDE_BIN '%s': %s", env,
				     strerror(errno));
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return error("/proc/self/exe: %s", strerror(errno));
	self[n] = '\0';
	dir = dirname(self);
	snprintf(buf, len, "%s/clyde", dir);
	if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(buf, len, "%s/clyde/clyde", dir);
	if (access(buf, X_OK))
		return error("%s: %s (clyde measures block input)", buf,
			     strerror(errno));
	return 0;
}

/* The document clyde wrote, with a run per scan. */
static json_t *load_doc(const struct pg_run *r, struct pg_result *res)
{
	char path[PATH_MAX];
	json_error_t je;
	json_t *doc, *runs, *fs;

	pg_path(path, sizeof(path), r->scratch.path, "clyde.json");
	doc = json_load_file(path, 0, &je);
	if (!doc) {
		error("clyde's document: %s", je.text);
		return NULL;
	}
	runs = json_object_get(doc, "runs");
	fs = json_object_get(json_object_get(doc, "settings"), "file_size");
	if (!json_is_array(runs) || json_array_size(runs) != r->o->runs ||
	    !json_is_integer(fs) ||
	    !json_is_object(json_object_get(doc, "settings"))) {
		error("clyde's document has not %u runs and a "
		      "file size",
		      r->o->runs);
		json_decref(doc);
		return NULL;
	}
	res->file_size = (uint64_t)json_integer_value(fs);
	return doc;
}

int pg_block_input(struct pg_run *r, struct pg_result *res, void **doc)
{
	char clyde[PATH_MAX], runs[16], json[PATH_MAX + 32], log[PATH_MAX];
	char *argv[20] = {clyde, "-d", r->scratch.path,	   "-r", "0",
			  "-n",	 "0",  "--only=get_block", "-x", runs,
			  "-q",	 json};
	char why[512];
	int n = 12, st;

	if (clyde_path(clyde, sizeof(clyde)))
		return CLI_EXIT_FAILED;
	snprintf(runs, sizeof(runs), "%u", r->o->runs);
	snprintf(json, sizeof(json), "--json=%s/clyde.json", r->scratch.path);
	if (r->o->size_arg) {
		argv[n++] = "-s";
		argv[n++] = (char *)r->o->size_arg;
	}
	argv[n] = NULL;
	if (!r->o->quiet)
		error("block input: clyde --only=get_block -x %u", r->o->runs);
	st = pg_child(r, argv, "clyde.log", "clyde.log");
	if (st < 0 && pg_stop)
		return CLI_EXIT_FAILED;
	if (st) {
		pg_path(log, sizeof(log), r->scratch.path, "clyde.log");
		pg_log_reason(log, why, sizeof(why));
		if (st < 0)
			snprintf(why, sizeof(why), "%s", strerror(errno));
		error("clyde (block input) failed: %s",
		      why[0] ? why : "no reason given");
		return st == CLI_EXIT_USAGE ? CLI_EXIT_USAGE : CLI_EXIT_FAILED;
	}
	*doc = load_doc(r, res);
	return *doc ? 0 : CLI_EXIT_FAILED;
}
