/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pgscan_opts: clyde-pgscan's command line. Every value is checked
 * before anything is made: the sizes and counts, the user, the root
 * rules (PostgreSQL refuses to run as root, so root must name a user
 * with -u; --drop-caches needs root) and the length of the socket path
 * the cluster will listen on, which must fit a Unix socket's sun_path.
 * Returns instead of exiting; the strings in the result point into argv.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "optable.h"
#include "optshared.h"
#include "pgscan_prog.h"
#include "units.h"

/* -s: a table of at least pgbench's smallest; a second -s the same. */
static int take_size(struct opt_ctx *c, const char *arg)
{
	struct pg_opts *o = c->base;
	char why[96];
	uint64_t v;

	if (units_parse_size(arg, UNITS_MIB, &v, why, sizeof(why)))
		return opt_refuse(c, why);
	/* pgbench's smallest table (scale 1) is about 13 MB. */
	if (v < 16 * UNITS_MIB)
		return opt_refuse(c, "must be at least 16m (the smallest "
				     "pgbench table is about 13 MB)");
	if (v > 16 * UNITS_TIB)
		return opt_refuse(c, "must be at most 16t");
	if (o->size_arg && v != o->size)
		return opt_twice(c, o->size_arg);
	o->size = v;
	o->size_arg = arg;
	return 0;
}

/*
 * pg_ctl starts the server through /bin/sh with the paths in double
 * quotes, where ", $, a backquote and \ still mean something to the
 * shell: a path it is handed (path, as the user gave it: given) that
 * holds one is refused in one line, -1; else 0.
 */
static int shell_unsafe(struct opt_ctx *c, const char *opt, const char *given,
			const char *path)
{
	const char *bad = strpbrk(path, "\"$`\\");
	char why[160];

	if (!bad)
		return 0;
	snprintf(why, sizeof(why),
		 "holds '%c', which the shell pg_ctl starts the server "
		 "through would read: name a path without \", $, ` or \\",
		 *bad);
	return opt_bad(c, opt, given, why);
}

/* -d made absolute (the server's socket directory must be), and the
 * socket's path checked against sun_path. */
static int check_dir(struct opt_ctx *c, struct pg_opts *o)
{
	char why[160];
	size_t need;

	if (!o->dir)
		return opt_error(c, "no -d DIR given (the filesystem to test)");
	if (!realpath(o->dir, o->dir_abs))
		return opt_bad(c, "-d", o->dir, strerror(errno));
	if (shell_unsafe(c, "-d", o->dir, o->dir_abs))
		return -1;
	/* DIR/clyde.XXXXXX/sock/.s.PGSQL.5432 */
	need =
	    strlen(o->dir_abs) + strlen("/clyde.XXXXXX") + strlen(PG_SOCK_TAIL);
	if (need > PG_SUN_MAX) {
		snprintf(why, sizeof(why),
			 "too long: the server's socket there would be %zu "
			 "bytes, a Unix socket's path holds at most %d",
			 need, PG_SUN_MAX);
		return opt_bad(c, "-d", o->dir_abs, why);
	}
	return 0;
}

/* What needs all the options: root and -u, --drop-caches, DIR. */
static int check_all(struct opt_ctx *c)
{
	struct pg_opts *o = c->base;

	if (c->next < c->argc)
		return opt_bad(c, "argument", c->argv[c->next],
			       "not an option (the directory goes with -d)");
	if (geteuid() == 0 && !o->privs.drop)
		return opt_error(c, "PostgreSQL will not run as root: give "
				    "-u USER");
	if (geteuid() == 0 && o->privs.uid == 0)
		return opt_error(c, "-u '%s': PostgreSQL will not run as root",
				 o->privs.user);
	if (geteuid() != 0 && o->privs.drop &&
	    (o->privs.uid != geteuid() ||
	     (o->privs.group_given && o->privs.gid != getegid())))
		return opt_error(c,
				 "-u '%s': only root can change user (running "
				 "as uid %u)",
				 o->privs.user, (unsigned)geteuid());
	if (o->drop_caches && geteuid() != 0)
		return opt_error(c, "--drop-caches needs root (it drops the "
				    "whole machine's page cache)");
	if (o->bindir && shell_unsafe(c, "--bindir", o->bindir, o->bindir))
		return -1;
	return check_dir(c, o);
}

#define F(field) offsetof(struct pg_opts, field)

static const struct opt pg_opts[] = {
    {.key = 'd',
     .type = OPT_PATH,
     .flags = OPT_ONCE,
     .off = F(dir),
     .arg = "DIR",
     .help = "the filesystem under test (a private directory is made there "
	     "and removed at the end)"},
    {.key = 's',
     .type = OPT_CALL,
     .call = take_size,
     .arg = "size",
     .help = "the table's size (bare number = MiB; default: the size "
	     "clyde's default run gives its data file)"},
    {.key = 'x',
     .type = OPT_UINT,
     .min = 1,
     .max = PG_MAX_RUNS,
     .off = F(runs),
     .arg = "N",
     .help = "cold scans and block input runs (1..100; default 1)"},
    OPT_SHARED_USER(F(privs), "as root (required: PostgreSQL refuses root): ",
		    ", PostgreSQL and clyde both; --json's file is made as "
		    "that user"),
    {.name = "parallel",
     .type = OPT_UINT,
     .min = 0,
     .max = 64,
     .off = F(parallel),
     .arg = "P",
     .help = "max_parallel_workers_per_gather (default 0: one backend reads "
	     "the whole table)"},
    {.name = "drop-caches",
     .type = OPT_FLAG,
     .off = F(drop_caches),
     .help = "as root: drop the whole page cache before each scan instead "
	     "of evicting the table's files"},
    {.name = "bindir",
     .type = OPT_PATH,
     .flags = OPT_ONCE,
     .off = F(bindir),
     .arg = "DIR",
     .help = "PostgreSQL's programs (default: pg_config --bindir, else the "
	     "highest /usr/lib/postgresql/N/bin)"},
    {.key = 'q',
     .type = OPT_FLAG,
     .off = F(quiet),
     .help = "no progress lines on stderr"},
    OPT_SHARED_JSON(F(json_path), F(json), "(the line then goes to stderr)"),
    OPT_END,
};

static const struct opt_table pg_table = {NULL, pg_opts, NULL};
static const struct opt_table *const pg_tables[] = {&pg_table, NULL};

const struct opt_parser pg_parser = {
    .prog = PROG,
    .tables = pg_tables,
    .about =
	"What a database gets from the filesystem under DIR: a private\n"
	"PostgreSQL cluster is made there (Unix socket in its own directory,\n"
	"no TCP port), a pgbench table of about size bytes is loaded, and\n"
	"`select count(*)` is timed cold (server stopped, the table's files\n"
	"evicted from the page cache, server started) N times; beside it,\n"
	"clyde's block input over a file of the same size on the same\n"
	"filesystem. One line: the scan's MB/s (10^6 bytes/s), its share of\n"
	"block input, the backend's CPU share and what bounds the scan.\n",
    .epilogue =
	"Exit status: 0 ok, 1 a run failed (the server did not start, a\n"
	"step failed: the reason on stderr), 2 bad usage or a refusal,\n"
	"128+N stopped by signal N (129/130/143: SIGHUP/SIGINT/SIGTERM; any\n"
	"that ends a process); all after stopping the server and removing\n"
	"everything the run made.\n",
    .check = check_all,
};

enum opt_result pg_opts_parse(int argc, char **argv, struct pg_opts *o,
			      FILE *out, FILE *err)
{
	memset(o, 0, sizeof(*o));
	o->runs = 1;
	return opt_parse(&pg_parser, argc, argv, o, out, err);
}
