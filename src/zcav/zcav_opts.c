/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zcav_opts: clyde-zcav's options, declared in one table for the option
 * engine (optable.h), which reads them and writes --help; see
 * zcav_opts.h.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "optable.h"
#include "optshared.h"
#include "units.h"
#include "zcav_opts.h"

#define MAX_CHUNK (256 * UNITS_MIB)
#define ALIGN	  4096u

/*
 * A size as bare MiB or with a suffix, a multiple of 4 KiB. part names
 * which piece of the value s is ("the chunk"), NULL when s is all of
 * it; the message names the value whole either way.
 */
static int parse_mib(struct opt_ctx *c, const char *part, const char *s,
		     uint64_t *out, int zero_ok)
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
		return opt_refuse(c, err);
	snprintf(msg, sizeof(msg), "%s '%s': %s", part, s, err);
	return opt_refuse(c, msg);
}

/* The value "a:b" into buf, *second at b (NULL without a colon); a
 * second colon is refused. */
static int split2(struct opt_ctx *c, char *buf, size_t len, char **second)
{
	char *colon;

	if (strlen(c->arg) >= len)
		return opt_refuse(c, "too long");
	strcpy(buf, c->arg);
	colon = strchr(buf, ':');
	*second = NULL;
	if (colon) {
		*colon++ = '\0';
		if (strchr(colon, ':'))
			return opt_refuse(c, "more than one ':'");
		*second = colon;
	}
	return 0;
}

/* -b block[:chunk] */
static int take_block(struct opt_ctx *c, const char *arg)
{
	struct zcav_opts *o = c->base;
	char buf[128], *chunk;

	(void)arg;
	if (split2(c, buf, sizeof(buf), &chunk))
		return -1;
	if (parse_mib(c, chunk ? "the block" : NULL, buf, &o->block, 0))
		return -1;
	if (chunk && parse_mib(c, "the chunk", chunk, &o->chunk, 0))
		return -1;
	/* A block below the default chunk is read in one piece. */
	if (!chunk && o->block < o->chunk)
		o->chunk = o->block;
	if (o->chunk > MAX_CHUNK)
		return opt_refuse(c, "chunk must be at most 256 MiB");
	if (o->chunk > o->block)
		return opt_refuse(c, "chunk must not exceed the block");
	o->block_given = 1;
	o->chunk_given = chunk != NULL;
	return 0;
}

/* -r [start:]end */
static int take_range(struct opt_ctx *c, const char *arg)
{
	struct zcav_opts *o = c->base;
	char buf[128], *end;

	o->range = arg;
	if (split2(c, buf, sizeof(buf), &end))
		return -1;
	if (end) {
		if (parse_mib(c, "the start", buf, &o->start, 1) ||
		    parse_mib(c, "the end", end, &o->end, 0))
			return -1;
	} else if (parse_mib(c, NULL, buf, &o->end, 0)) {
		return -1;
	}
	if (o->end <= o->start)
		return opt_refuse(c, "the end must be past the start");
	return 0;
}

/* -l log: the next target's. */
static int take_log(struct opt_ctx *c, const char *arg)
{
	struct zcav_opts *o = c->base;

	if (o->log_next)
		return opt_refuse(c, "two -l without a target between");
	if (!*arg)
		return opt_refuse(c, "empty value");
	o->log_next = arg;
	return 0;
}

/* A target in order (-f target, or an operand), with the -l (if any)
 * given before it. */
static int take_target(struct opt_ctx *c, const char *path)
{
	struct zcav_opts *o = c->parse_base;
	struct zcav_spec *s = &o->target[o->ntargets];

	if (o->ntargets == ZCAV_MAX_TARGETS)
		return opt_bad(c, "-f", path, "at most 64 targets");
	for (int i = 0; i < o->ntargets; i++) {
		if (o->log_next && o->target[i].log &&
		    !strcmp(o->target[i].log, o->log_next))
			return opt_bad(c, "-l", o->log_next,
				       "two targets log to one file");
		if (!strcmp(path, "-") && !strcmp(o->target[i].path, "-"))
			return opt_bad(c, "target", path,
				       "standard input named twice");
	}
	s->path = path;
	s->log = o->log_next;
	o->log_next = NULL;
	o->ntargets++;
	return 0;
}

/* What is wrong with the options as a whole, after each was read. */
static int check_all(struct opt_ctx *c)
{
	struct zcav_opts *o = c->base;
	int stdout_users = 0;

	if (o->log_next)
		return opt_bad(c, "-l", o->log_next, "no target after it");
	if (o->ntargets == 0)
		return opt_error(c, "no target given (a device, file, pipe "
				    "or -)");
	for (int i = 0; i < o->ntargets; i++)
		stdout_users += !o->target[i].log;
	if (stdout_users > 1)
		return opt_error(c,
				 "%d targets write to stdout; give all but "
				 "one a -l log",
				 stdout_users);
	if ((o->destroy || o->force) && !o->write)
		return opt_error(c, "--destroy-data and --force only go "
				    "with -w (reading needs neither)");
	if (o->write && o->ntargets > 1)
		return opt_error(c, "-w: one target at a time");
	return opt_check_plot(c, o->plot, o->plot_script, &o->plot_fmt);
}

#define F(field) offsetof(struct zcav_opts, field)

static const struct opt zcav_opts[] = {
    {.key = 'b',
     .type = OPT_CALL,
     .call = take_block,
     .arg = "block[:chunk]",
     .help = "block timed per line and the size of each read (bare "
	     "numbers are MiB; default 512:1, and a line then covers as many "
	     "blocks as take 0.5 s)"},
    {.key = 'c',
     .type = OPT_UINT,
     .min = 1,
     .max = 1000,
     .off = F(loops),
     .arg = "count",
     .help = "passes; each block's figure is the mean after dropping the "
	     "top and bottom thirds (default 1)"},
    {.key = 'r',
     .type = OPT_CALL,
     .call = take_range,
     .arg = "[start:]end",
     .help = "only this range (bare numbers are MiB)"},
    {.key = 's',
     .type = OPT_U64,
     .min = 1,
     .max = 1000000,
     .off = F(skip),
     .arg = "skip",
     .help = "read one block in skip (default 1: every block)"},
    {.key = 'l',
     .type = OPT_CALL,
     .call = take_log,
     .flags = OPT_NO_USAGE,
     .arg = "log",
     .help = "the next target's lines go to log, not stdout (written under "
	     "a temporary name, renamed at the end)"},
    {.key = 'f',
     .type = OPT_CALL,
     .call = take_target,
     .flags = OPT_NO_USAGE,
     .arg = "target",
     .help = "a target (the -f may be left out); several run at once, one "
	     "thread each"},
    OPT_SHARED_USER(F(privs), "after opening the targets, ",
		    ": logs and the plot are made as that user"),
    OPT_SHARED_GROUP(F(privs), "after opening the targets, "),
    {.name = "direct",
     .type = OPT_SET,
     .value = 1,
     .off = F(direct),
     .help = "O_DIRECT on files too (devices: the default)"},
    {.name = "buffered",
     .type = OPT_SET,
     .value = 0,
     .off = F(direct),
     .help = "through the page cache, devices too (evicted before each "
	     "pass)"},
    OPT_SHARED_PLOT(F(plot), "draw the curves"),
    OPT_SHARED_PLOT_SCRIPT(F(plot_script)),
    OPT_SHARED_JSON(F(json_path), F(json), "(the lines then go to stderr)"),
    {.key = 'w',
     .type = OPT_FLAG,
     .off = F(write),
     .help = "write seeded random data instead of reading: DESTROYS the "
	     "target's data; needs --destroy-data=TARGET naming the same "
	     "device or file"},
    OPT_SHARED_DESTROY_DATA(F(destroy), "with -w: "),
    OPT_SHARED_FORCE(F(force), "with -w: "),
    OPT_END,
};

static const struct opt_table zcav_table = {NULL, zcav_opts, NULL};
static const struct opt_table *const zcav_tables[] = {&zcav_table, NULL};

static const struct opt_usage zcav_usage[] = {
    {0, "[-l log] [-f] target [[-l log] [-f] target]..."},
    {0, NULL},
};

const struct opt_parser zcav_parser = {
    .prog = "clyde-zcav",
    .tables = zcav_tables,
    .usage = zcav_usage,
    .about =
	"Throughput by position: reads a block device, a file, a pipe or "
	"\"-\"\n"
	"(standard input) end to end in blocks and prints, per block, its "
	"offset\n"
	"(GiB), MiB/s and seconds, in bonnie++ zcav's gnuplot-ready format.\n",
    .epilogue = "Blocks faster than 0.5 s are commented out (\"#0.50 ++++ "
		"0.412\").\n"
		"Exit status: 0 ok, 1 a run failed, 2 bad usage or a refusal,\n"
		"128+N stopped by signal N (129/130/143: "
		"SIGHUP/SIGINT/SIGTERM; any\n"
		"that ends a process), 141 standard output closed by its "
		"reader.\n",
    .operand = take_target,
    .check = check_all,
};

enum opt_result zcav_opts_parse(int argc, char **argv, struct zcav_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->block = 512 * UNITS_MIB;
	o->chunk = UNITS_MIB;
	o->loops = 1;
	o->skip = 1;
	o->direct = -1;
	return opt_parse(&zcav_parser, argc, argv, o, stdout, stderr);
}
