/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options_journal: --journal=FILE and --until-killed, the options of the
 * write journal (journal_run.h), and the checks of what they go with.
 * Part of clyde's parser (options_impl.h).
 *
 * The journal must outlive what it records: on the filesystem of a -d a
 * cut of that storage would take the journal with the data, and a lost
 * acknowledged write would look like one still in flight. So it is
 * refused on the filesystem of any -d (st_dev of its directory against
 * each -d's), before the first test.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "options_impl.h"
#include "text.h"

int opts_take_journal(struct opt_ctx *c, const char *arg)
{
	if (!*arg)
		return opt_refuse(c, "expected the path of a journal file");
	/* One journal follows one data file: a second, other name is
	 * refused as -z's second value is. */
	if (opts_state(c)->o.journal && strcmp(opts_state(c)->o.journal, arg))
		return opt_twice(c, opts_state(c)->o.journal);
	opts_state(c)->o.journal = arg;
	return 0;
}

/* The directory that holds path, into dir (len bytes): "." for a bare
 * name. */
static void parent_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		snprintf(dir, len, ".");
		return;
	}
	if (slash == path) {
		snprintf(dir, len, "/");
		return;
	}
	snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* The journal of a run: not there yet, its directory on another
 * filesystem than every -d. 0, or -1 after one line. */
static int check_place(struct opt_ctx *c, const struct clyde_opts *o)
{
	char dir[PATH_MAX];
	struct stat js, ds;

	if (lstat(o->journal, &js) == 0)
		return opt_bad(c, "--journal", o->journal,
			       "exists; a journal is never overwritten "
			       "(name a new file)");
	if (errno != ENOENT)
		return opt_bad(c, "--journal", o->journal, strerror(errno));
	parent_of(o->journal, dir, sizeof(dir));
	if (stat(dir, &js) != 0 || !S_ISDIR(js.st_mode))
		return opt_bad(c, "--journal", o->journal,
			       "its directory is not there");
	for (unsigned i = 0; i < o->ndirs; i++) {
		if (stat(o->dirs[i], &ds) != 0)
			continue; /* -d's own check says it */
		if (ds.st_dev == js.st_dev)
			return opt_bad(c, "--journal", o->journal,
				       "on the filesystem of a -d: a cut "
				       "there would take the journal with "
				       "the data; put it on another");
	}
	return 0;
}

int opts_check_journal(struct opt_ctx *c, struct opts_parse *ps)
{
	struct clyde_opts *o = &ps->o;

	if (!o->journal) {
		/* Only the check against a journal has a document. */
		if (o->verify_only && o->json)
			return opt_error(c, "--json with --verify-only needs "
					    "--journal: the check of a kept "
					    "file alone writes no document");
		if (o->until_killed)
			return opt_error(c, "--until-killed needs --journal: "
					    "after the cut, the journal tells "
					    "acknowledged writes from those "
					    "in flight");
		return 0;
	}
	if (o->verify_only) {
		if (o->until_killed)
			return opt_error(c, "--until-killed with "
					    "--verify-only: it runs no test");
		return 0;
	}
	/* The journal's records are checked by the blocks' headers. */
	o->verify = 1;
	if (o->concurrency > 1 || o->ndirs > 1)
		return opt_error(c,
				 "--journal with %s: a journal follows one "
				 "data file; run one worker on one target",
				 o->concurrency > 1 ? "-c" : "several -d");
	if (o->repeats > 1)
		return opt_error(c, "--journal with -x: each run makes the "
				    "data file afresh, and a journal follows "
				    "one data file's life");
	return check_place(c, o);
}
