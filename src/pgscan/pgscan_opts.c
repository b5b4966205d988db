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
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "pgscan_prog.h"
#include "units.h"

static const char usage_text[] =
    "usage: clyde-pgscan -d DIR [-s size] [-x N] [-u user[:group]]\n"
    "                    [--parallel=P] [--drop-caches] [--bindir=DIR]\n"
    "                    [-q] [--json[=FILE]]\n"
    "\n"
    "What a database gets from the filesystem under DIR: a private\n"
    "PostgreSQL cluster is made there (Unix socket in its own directory,\n"
    "no TCP port), a pgbench table of about size bytes is loaded, and\n"
    "`select count(*)` is timed cold (server stopped, the table's files\n"
    "evicted from the page cache, server started) N times; beside it,\n"
    "clyde's block input over a file of the same size on the same\n"
    "filesystem. One line: the scan's MB/s (10^6 bytes/s), its share of\n"
    "block input, the backend's CPU share and what bounds the scan.\n"
    "\n"
    "  -d DIR          the filesystem under test (a private directory is\n"
    "                  made there and removed at the end)\n"
    "  -s size         the table's size (bare number = MiB; default: the\n"
    "                  size clyde's default run gives its data file)\n"
    "  -x N            cold scans and block input runs (1..100; default 1)\n"
    "  -u user[:group] as root: the user PostgreSQL and clyde run as\n"
    "                  (required: PostgreSQL refuses root); --json's\n"
    "                  file is made as that user\n"
    "  --parallel=P    max_parallel_workers_per_gather (default 0: one\n"
    "                  backend reads the whole table)\n"
    "  --drop-caches   as root: drop the whole page cache before each scan\n"
    "                  instead of evicting the table's files\n"
    "  --bindir=DIR    PostgreSQL's programs (default: pg_config --bindir,\n"
    "                  else the highest /usr/lib/postgresql/N/bin)\n"
    "  -q              no progress lines on stderr\n"
    "  --json[=FILE]   the JSON document (doc/clyde-json.5) to FILE, or to\n"
    "                  stdout (the line then to stderr)\n"
    "  --help          this text;  --version  the version\n"
    "\n"
    "Exit status: 0 ok, 1 a run failed (the server did not start, a\n"
    "step failed: the reason on stderr), 2 bad usage or a refusal,\n"
    "129/130/143 stopped by SIGHUP/SIGINT/SIGTERM; all after stopping\n"
    "the server and removing everything the run made.\n";

enum { OPT_PARALLEL = 256, OPT_DROP, OPT_BINDIR };

#define bad(err, o, val, why) cli_bad(err, PROG, o, val, why)

/* A string option given twice must say the same thing. */
static int opt_str(FILE *err, const char *name, const char *arg,
		   const char **slot)
{
	if (!*arg)
		return bad(err, name, arg, "empty value");
	if (*slot && strcmp(*slot, arg))
		return bad(err, name, arg, "given twice with different values");
	*slot = arg;
	return 0;
}

static int opt_size(FILE *err, const char *arg, struct pg_opts *o)
{
	char why[96];
	uint64_t v;

	if (units_parse_size(arg, UNITS_MIB, &v, why, sizeof(why)))
		return bad(err, "-s", arg, why);
	/* pgbench's smallest table (scale 1) is about 13 MB. */
	if (v < 16 * UNITS_MIB)
		return bad(err, "-s", arg,
			   "must be at least 16m (the smallest pgbench "
			   "table is about 13 MB)");
	if (v > 16 * UNITS_TIB)
		return bad(err, "-s", arg, "must be at most 16t");
	if (o->size_arg && v != o->size)
		return bad(err, "-s", arg, "given twice with different values");
	o->size = v;
	o->size_arg = arg;
	return 0;
}

static int opt_count(FILE *err, const char *name, const char *arg, uint64_t min,
		     uint64_t max, unsigned *out)
{
	char why[96];
	uint64_t v;

	if (units_parse_uint(arg, UINT64_MAX, &v, why, sizeof(why)))
		return bad(err, name, arg, why);
	if (v < min || v > max) {
		snprintf(why, sizeof(why), "must be %llu to %llu",
			 (unsigned long long)min, (unsigned long long)max);
		return bad(err, name, arg, why);
	}
	*out = (unsigned)v;
	return 0;
}

static int opt_user(FILE *err, const char *arg, struct pg_opts *o)
{
	char why[256];

	if (o->user_arg && strcmp(o->user_arg, arg))
		return bad(err, "-u", arg, "given twice with different values");
	if (privs_parse_user(arg, &o->privs, why, sizeof(why)))
		return bad(err, "-u", arg, why);
	o->user_arg = arg;
	return 0;
}

/* -d made absolute (the server's socket directory must be), and the
 * socket's path checked against sun_path. */
static int check_dir(FILE *err, struct pg_opts *o)
{
	char why[160];
	size_t need;

	if (!o->dir) {
		fprintf(err, "%s: no -d DIR given (the filesystem to test)\n",
			PROG);
		return -1;
	}
	if (!realpath(o->dir, o->dir_abs))
		return bad(err, "-d", o->dir, strerror(errno));
	/* DIR/clyde.XXXXXX/sock/.s.PGSQL.5432 */
	need =
	    strlen(o->dir_abs) + strlen("/clyde.XXXXXX") + strlen(PG_SOCK_TAIL);
	if (need > PG_SUN_MAX) {
		snprintf(why, sizeof(why),
			 "too long: the server's socket there would be %zu "
			 "bytes, a Unix socket's path holds at most %d",
			 need, PG_SUN_MAX);
		return bad(err, "-d", o->dir_abs, why);
	}
	return 0;
}

/* What needs all the options: root and -u, --drop-caches, DIR. */
static int check_all(int argc, char **argv, struct pg_opts *o, FILE *err)
{
	if (optind < argc)
		return bad(err, "argument", argv[optind],
			   "not an option (the directory goes with -d)");
	if (geteuid() == 0 && !o->privs.drop) {
		fprintf(err,
			"%s: PostgreSQL will not run as root: give -u USER\n",
			PROG);
		return -1;
	}
	if (geteuid() == 0 && o->privs.uid == 0) {
		fprintf(err, "%s: -u '%s': PostgreSQL will not run as root\n",
			PROG, o->user_arg);
		return -1;
	}
	if (geteuid() != 0 && o->privs.drop &&
	    (o->privs.uid != geteuid() ||
	     (o->privs.group_given && o->privs.gid != getegid()))) {
		fprintf(err,
			"%s: -u '%s': only root can change user (running as "
			"uid %u)\n",
			PROG, o->user_arg, (unsigned)geteuid());
		return -1;
	}
	if (o->drop_caches && geteuid() != 0) {
		fprintf(err,
			"%s: --drop-caches needs root (it drops the whole "
			"machine's page cache)\n",
			PROG);
		return -1;
	}
	if (o->json_path && !strcmp(o->json_path, "-"))
		o->json_path = NULL;
	return check_dir(err, o);
}

/* One option's value into o; -1 after a line. */
static int take(FILE *err, int c, struct pg_opts *o)
{
	switch (c) {
	case 'd':
		return opt_str(err, "-d", optarg, &o->dir);
	case 's':
		return opt_size(err, optarg, o);
	case 'x':
		return opt_count(err, "-x", optarg, 1, PG_MAX_RUNS, &o->runs);
	case 'u':
		return opt_user(err, optarg, o);
	case 'q':
		o->quiet = 1;
		return 0;
	case OPT_PARALLEL:
		return opt_count(err, "--parallel", optarg, 0, 64,
				 &o->parallel);
	case OPT_DROP:
		o->drop_caches = 1;
		return 0;
	case OPT_BINDIR:
		return opt_str(err, "--bindir", optarg, &o->bindir);
	case CLI_OPT_JSON:
		o->json = 1;
		return optarg ? opt_str(err, "--json", optarg, &o->json_path)
			      : 0;
	}
	return 1;
}

enum pg_opts_status pg_opts_parse(int argc, char **argv, struct pg_opts *o,
				  FILE *out, FILE *err)
{
	static const struct option longs[] = {
	    {"parallel", required_argument, NULL, OPT_PARALLEL},
	    {"drop-caches", no_argument, NULL, OPT_DROP},
	    {"bindir", required_argument, NULL, OPT_BINDIR},
	    CLI_LONG_JSON,
	    CLI_LONG_HELP,
	    CLI_LONG_VERSION,
	    {NULL, 0, NULL, 0},
	};
	int c, rc = 0;

	memset(o, 0, sizeof(*o));
	o->runs = 1;
	opterr = 0;
	optind = 0;
	while (!rc &&
	       (c = getopt_long(argc, argv, ":d:s:x:u:q", longs, NULL)) != -1) {
		rc = take(err, c, o);
		if (rc == 1) {
			rc = cli_getopt_tail(c, argv, PROG, usage_text, out,
					     err);
			if (rc == CLI_DONE)
				return PG_OPTS_DONE;
		}
	}
	if (rc || check_all(argc, argv, o, err))
		return PG_OPTS_USAGE;
	return PG_OPTS_RUN;
}
