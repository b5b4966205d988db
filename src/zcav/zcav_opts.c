/* SPDX-License-Identifier: GPL-2.0-or-later */
/* zcav_opts: see zcav_opts.h. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "units.h"
#include "zcav_opts.h"

#define PROG	  "clyde-zcav"
#define MAX_CHUNK (256 * UNITS_MIB)
#define ALIGN	  4096u

static const char usage_text[] =
    "usage: clyde-zcav [-b block[:chunk]] [-c count] [-r [start:]end]\n"
    "                  [-s skip] [--direct|--buffered] [--plot FILE]\n"
    "                  [--plot-script FILE] [--json[=FILE]]\n"
    "                  [-w --destroy-data=TARGET [--force]]\n"
    "                  [-u user[:group]] [-g group]\n"
    "                  [-l log] [-f] target [[-l log] [-f] target]...\n"
    "\n"
    "Throughput by position: reads a block device, a file, a pipe or \"-\"\n"
    "(standard input) end to end in blocks and prints, per block, its offset\n"
    "(GiB), MiB/s and seconds, in bonnie++ zcav's gnuplot-ready format.\n"
    "\n"
    "  -b block[:chunk] block timed per line and the size of each read\n"
    "                  (bare numbers are MiB; default 512:1)\n"
    "  -c count        passes; each block's figure is the mean after\n"
    "                  dropping the top and bottom thirds (default 1)\n"
    "  -r [start:]end  only this range (bare numbers are MiB)\n"
    "  -s skip         read one block in skip (default 1: every block)\n"
    "  -l log          the next target's lines go to log, not stdout\n"
    "                  (written under a temporary name, renamed at the end)\n"
    "  -f target       a target (the -f may be left out); several run at\n"
    "                  once, one thread each\n"
    "  -u user[:group] after opening the targets, run as this user (and\n"
    "                  group): logs and the plot are made as that user\n"
    "  -g group        the same for the group alone\n"
    "  --direct        O_DIRECT on files too (devices: the default)\n"
    "  --buffered      through the page cache, devices too (evicted\n"
    "                  before each pass)\n"
    "  --plot FILE     draw the curves with gnuplot (FILE.png or .svg)\n"
    "  --plot-script FILE  also save the chart's gnuplot script to FILE\n"
    "  --json[=FILE]   write the versioned JSON result (doc/clyde-json.5)\n"
    "                  to FILE, or to stdout (the lines then go to stderr)\n"
    "  -w              write seeded random data instead of reading:\n"
    "                  DESTROYS the target's data; needs\n"
    "                  --destroy-data=TARGET naming the same device or file\n"
    "  --force         with -w: write over a filesystem, RAID or\n"
    "                  partition-table signature\n"
    "  --help          this text;  --version  the version\n"
    "\n"
    "Blocks faster than 0.5 s are commented out (\"#0.50 ++++ 0.412\").\n"
    "Exit status: 0 ok, 1 a run failed, 2 bad usage or a refusal,\n"
    "129/130/143 stopped by SIGHUP/SIGINT/SIGTERM, 141 standard output\n"
    "closed by its reader.\n";

enum { OPT_DIRECT = 256, OPT_BUFFERED, OPT_PLOT_SCRIPT };

/* A refused value: one line on stderr, -1. */
#define bad(o, val, why) cli_bad(stderr, PROG, o, val, why)

/*
 * A size as bare MiB or with a suffix, a multiple of 4 KiB. part names
 * which piece of arg s is ("the chunk"), NULL when s is all of arg; the
 * message names arg whole either way.
 */
static int parse_mib(const char *o, const char *arg, const char *part,
		     const char *s, uint64_t *out, int zero_ok)
{
	char why[96], msg[256];
	const char *err = NULL;

	if (units_parse_size(s, UNITS_MIB, out, why, sizeof(why)))
		err = why;
	else if (!zero_ok && *out == 0)
		err = "must be more than 0";
	else if (*out % ALIGN)
		err = "must be a multiple of 4 KiB";
	if (!err)
		return 0;
	if (!part)
		return bad(o, arg, err);
	snprintf(msg, sizeof(msg), "%s '%s': %s", part, s, err);
	return bad(o, arg, msg);
}

/* "a:b" into a and b (b NULL without a colon); a second colon is refused. */
static int split2(const char *o, const char *arg, char *buf, size_t len,
		  char **second)
{
	char *colon;

	if (strlen(arg) >= len)
		return bad(o, arg, "too long");
	strcpy(buf, arg);
	colon = strchr(buf, ':');
	*second = NULL;
	if (colon) {
		*colon++ = '\0';
		if (strchr(colon, ':'))
			return bad(o, arg, "more than one ':'");
		*second = colon;
	}
	return 0;
}

static int parse_block(const char *arg, struct zcav_opts *o)
{
	char buf[128], *chunk;

	if (split2("-b", arg, buf, sizeof(buf), &chunk))
		return -1;
	if (parse_mib("-b", arg, chunk ? "the block" : NULL, buf, &o->block, 0))
		return -1;
	if (chunk && parse_mib("-b", arg, "the chunk", chunk, &o->chunk, 0))
		return -1;
	/* A block below the default chunk is read in one piece. */
	if (!chunk && o->block < o->chunk)
		o->chunk = o->block;
	if (o->chunk > MAX_CHUNK)
		return bad("-b", arg, "chunk must be at most 256 MiB");
	if (o->chunk > o->block)
		return bad("-b", arg, "chunk must not exceed the block");
	return 0;
}

static int parse_range(const char *arg, struct zcav_opts *o)
{
	char buf[128], *end;

	if (split2("-r", arg, buf, sizeof(buf), &end))
		return -1;
	if (end) {
		if (parse_mib("-r", arg, "the start", buf, &o->start, 1) ||
		    parse_mib("-r", arg, "the end", end, &o->end, 0))
			return -1;
	} else if (parse_mib("-r", arg, NULL, buf, &o->end, 0)) {
		return -1;
	}
	if (o->end <= o->start)
		return bad("-r", arg, "the end must be past the start");
	return 0;
}

static int parse_uint(const char *o, const char *s, uint64_t min, uint64_t max,
		      uint64_t *out)
{
	char why[96];

	if (units_parse_uint(s, max, out, why, sizeof(why)))
		return bad(o, s, why);
	if (*out < min) {
		snprintf(why, sizeof(why), "must be %llu..%llu",
			 (unsigned long long)min, (unsigned long long)max);
		return bad(o, s, why);
	}
	return 0;
}

static int parse_privs(int c, const char *arg, struct zcav_opts *o)
{
	char why[300];
	const char *colon = strchr(arg, ':');

	/* privs names only the part it could not find; an empty part is
	 * named here with the whole value. */
	if (c == 'u' && colon && (colon == arg || !colon[1]))
		return bad("-u", arg,
			   colon == arg ? "the user is empty"
					: "the group is empty");
	if ((c == 'u' ? privs_parse_user : privs_parse_group)(arg, &o->privs,
							      why, sizeof(why)))
		return cli_error(PROG, "-%c %s", c, why);
	return 0;
}

/* A target in order, with the -l (if any) given before it. */
static int add_target(struct zcav_opts *o, const char *path, const char **log)
{
	struct zcav_spec *s = &o->target[o->ntargets];

	if (o->ntargets == ZCAV_MAX_TARGETS)
		return bad("-f", path, "at most 64 targets");
	for (int i = 0; i < o->ntargets; i++) {
		if (*log && o->target[i].log && !strcmp(o->target[i].log, *log))
			return bad("-l", *log, "two targets log to one file");
		if (!strcmp(path, "-") && !strcmp(o->target[i].path, "-"))
			return bad("target", path,
				   "standard input named twice");
	}
	s->path = path;
	s->log = *log;
	*log = NULL;
	o->ntargets++;
	return 0;
}

/* What is wrong with the options as a whole, after each was read. */
static int check_all(struct zcav_opts *o, const char *log)
{
	int stdout_users = 0;

	if (log)
		return bad("-l", log, "no target after it");
	if (o->ntargets == 0) {
		return cli_error(PROG, "no target given (a device, file, pipe "
				       "or -)");
	}
	for (int i = 0; i < o->ntargets; i++)
		stdout_users += !o->target[i].log;
	if (stdout_users > 1) {
		return cli_error(PROG,
				 "%d targets write to stdout; give all but "
				 "one a -l log",
				 stdout_users);
	}
	if ((o->destroy || o->force) && !o->write) {
		return cli_error(PROG, "--destroy-data and --force only go "
				       "with -w (reading needs neither)");
	}
	if (o->write && o->ntargets > 1)
		return cli_error(PROG, "-w: one target at a time");
	if (o->plot_script && !o->plot)
		return bad("--plot-script", o->plot_script,
			   "goes with --plot (the script draws its chart)");
	if (o->plot) {
		char why[512];

		if (plot_prepare(o->plot, &o->plot_fmt, why, sizeof(why)))
			return cli_error(PROG, "%s", why);
	}
	return 0;
}

static void defaults(struct zcav_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->block = 512 * UNITS_MIB;
	o->chunk = UNITS_MIB;
	o->loops = 1;
	o->skip = 1;
	o->direct = -1;
}

enum zcav_parse zcav_opts_parse(int argc, char **argv, struct zcav_opts *o)
{
	static const struct option longs[] = {
	    {"direct", no_argument, NULL, OPT_DIRECT},
	    {"buffered", no_argument, NULL, OPT_BUFFERED},
	    CLI_LONG_PLOT,
	    {"plot-script", required_argument, NULL, OPT_PLOT_SCRIPT},
	    CLI_LONG_DESTROY,
	    CLI_LONG_FORCE,
	    CLI_LONG_JSON,
	    CLI_LONG_HELP,
	    CLI_LONG_VERSION,
	    {NULL, 0, NULL, 0},
	};
	const char *log = NULL;
	int c, rc = 0;
	uint64_t v = 0;

	defaults(o);
	opterr = 0;
	optind = 0; /* a full reset: the next call starts afresh */
	/* "-" first: targets come back in order, as code 1. */
	while (!rc && (c = getopt_long(argc, argv, "-:b:c:r:s:l:f:wu:g:", longs,
				       NULL)) != -1) {
		switch (c) {
		case 'b':
			rc = parse_block(optarg, o);
			break;
		case 'c':
			rc = parse_uint("-c", optarg, 1, 1000, &v);
			o->loops = (unsigned)v;
			break;
		case 'r':
			o->range = optarg;
			rc = parse_range(optarg, o);
			break;
		case 's':
			rc = parse_uint("-s", optarg, 1, 1000000, &o->skip);
			break;
		case 'l':
			if (log)
				rc = bad("-l", optarg,
					 "two -l without a target between");
			else if (!*optarg)
				rc = bad("-l", optarg, "empty value");
			log = optarg;
			break;
		case 'f':
		case 1:
			rc = add_target(o, optarg, &log);
			break;
		case 'w':
			o->write = 1;
			break;
		case 'u':
		case 'g':
			rc = parse_privs(c, optarg, o);
			break;
		case OPT_DIRECT:
			o->direct = 1;
			break;
		case OPT_BUFFERED:
			o->direct = 0;
			break;
		case CLI_OPT_PLOT:
			o->plot = optarg;
			break;
		case OPT_PLOT_SCRIPT:
			o->plot_script = optarg;
			if (!*optarg)
				rc = bad("--plot-script", optarg, "empty name");
			break;
		case CLI_OPT_JSON:
			rc = cli_json_path(stderr, PROG, optarg, &o->json_path);
			o->json = 1;
			break;
		case CLI_OPT_DESTROY:
			o->destroy = optarg;
			break;
		case CLI_OPT_FORCE:
			o->force = 1;
			break;
		default:
			rc = cli_getopt_tail(c, argv, PROG, usage_text, stdout,
					     stderr);
			if (rc == CLI_DONE)
				return ZCAV_PARSE_DONE;
			break;
		}
	}
	if (rc || check_all(o, log))
		return ZCAV_PARSE_USAGE;
	return ZCAV_PARSE_RUN;
}
