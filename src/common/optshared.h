/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * optshared: the options that several programs take with one meaning,
 * each declared once, as an entry macro for the programs' tables
 * (optable.h) with the handler or check behind it, so that the same
 * mistake gets the same line and the option the same help in every
 * program:
 *
 *	--json[=FILE]			clyde, zcav, sweep, pgscan
 *	-u user[:group]			clyde, zcav, pgscan
 *	-g group			clyde, zcav
 *	-z seed, -q			clyde, sweep
 *	--plot=FILE, --plot-script=FILE	zcav, sweep
 *	--destroy-data=TARGET, --force	zcav, sweep
 *
 * A table names the field (F: offsetof into the table's struct) and,
 * where the meaning depends on the program (when it writes, what goes to
 * stderr instead), that part of the help as a string literal, joined to
 * the shared words at compile time:
 *
 *	OPT_SHARED_JSON(F(json_path), F(json), "(the lines then go to "
 *						"stderr)"),
 *	OPT_SHARED_FORCE(F(force), "with -w: "),
 *
 * A shared option given twice must have the same value both times: a
 * second output file, target, user or seed is a mistake, never a choice
 * made silently by the last one. An option spelt alike with another
 * meaning (clyde-pgscan's -q: no progress lines) is the program's own.
 */
#ifndef CLYDE_OPTSHARED_H
#define CLYDE_OPTSHARED_H

#include "gnuplot.h"
#include "optable.h"

/*
 * --json[=FILE]: the versioned JSON document to FILE, or to standard
 * output (no value, or "-": the const char * at path stays NULL); the
 * int at seen set to 1. Refused: an empty name, a second --json naming
 * another file. also: what then goes to stderr, "(...)".
 */
#define OPT_SHARED_JSON(path, seen_, also)                                     \
	{                                                                      \
		.name = "json", .type = OPT_CALL,                              \
		.flags = OPT_ARG_OPTIONAL | OPT_SEEN, .call = opt_take_json,   \
		.off = (path), .seen = (seen_), .arg = "FILE",                 \
		.help = "write the versioned JSON result (doc/clyde-json.5) "  \
			"to FILE, or to stdout " also                          \
	}
int opt_take_json(struct opt_ctx *c, const char *arg);

/*
 * -u user[:group] and -g group into the struct privs at privs
 * (privs.h): looked up now, the switch made by the program later. Its
 * user and group keep the values as given. Refused: a user or group
 * that does not exist, an empty part, a second -u (or -g) with another
 * value, and -g naming another group than -u's user:group. The help:
 * when "run as this user (and group)" more.
 */
#define OPT_SHARED_USER(privs, when, more)                                     \
	{                                                                      \
		.key = 'u', .type = OPT_CALL, .call = opt_take_user,           \
		.off = (privs), .arg = "user[:group]",                         \
		.help = when "run as this user (and group)" more               \
	}
#define OPT_SHARED_GROUP(privs, when)                                          \
	{                                                                      \
		.key = 'g', .type = OPT_CALL, .call = opt_take_group,          \
		.off = (privs), .arg = "group",                                \
		.help = when "run as this group"                               \
	}
int opt_take_user(struct opt_ctx *c, const char *arg);
int opt_take_group(struct opt_ctx *c, const char *arg);

/*
 * -z seed: a whole number into the uint64_t at seed, the int at seen_
 * set to 1; a second -z must be the same number. The help: "seed for "
 * what " (default: fresh)" more.
 */
#define OPT_SHARED_SEED(seed, seen_, what, more)                               \
	{                                                                      \
		.key = 'z', .type = OPT_CALL, .flags = OPT_SEEN,               \
		.call = opt_take_seed, .off = (seed), .seen = (seen_),         \
		.arg = "seed",                                                 \
		.help = "seed for " what " (default: fresh)" more              \
	}
int opt_take_seed(struct opt_ctx *c, const char *arg);

/* -q: the table to stderr, the CSV alone on stdout (an int flag). */
#define OPT_SHARED_QUIET(flag)                                                 \
	{                                                                      \
		.key = 'q', .type = OPT_FLAG, .off = (flag),                   \
		.help = "quiet: the table to stderr, only CSV on stdout"       \
	}

/*
 * --plot=FILE, the chart drawn by gnuplot (what: "draw the curves"),
 * and --plot-script=FILE, its script kept; both const char *. Once
 * every option is read, opt_check_plot() refuses a --plot-script
 * without --plot and a --plot that gnuplot cannot draw (its name, or no
 * gnuplot), and sets *fmt.
 */
#define OPT_SHARED_PLOT(path, what)                                            \
	{                                                                      \
		.name = "plot", .type = OPT_PATH, .flags = OPT_ONCE,           \
		.off = (path), .arg = "FILE",                                  \
		.help = what " with gnuplot (FILE.png or .svg)"                \
	}
#define OPT_SHARED_PLOT_SCRIPT(path)                                           \
	{                                                                      \
		.name = "plot-script", .type = OPT_PATH, .flags = OPT_ONCE,    \
		.off = (path), .arg = "FILE",                                  \
		.help = "also save the chart's gnuplot script to FILE"         \
	}
int opt_check_plot(const struct opt_ctx *c, const char *plot,
		   const char *script, enum plot_format *fmt);

/*
 * --destroy-data=TARGET (a const char *) and --force (an int flag): the
 * confirmations src/common/guard.c asks of a program before it writes
 * over a target. when: the program's condition, "with -w: ". What each
 * goes with is the program's own check.
 */
#define OPT_SHARED_DESTROY_DATA(path, when)                                    \
	{                                                                      \
		.name = "destroy-data", .type = OPT_PATH, .flags = OPT_ONCE,   \
		.off = (path), .arg = "TARGET",                                \
		.help = when "the target named again, which allows writing "   \
			     "over it (refused when it is mounted or in use)"  \
	}
#define OPT_SHARED_FORCE(flag, when)                                           \
	{                                                                      \
		.name = "force", .type = OPT_FLAG, .off = (flag),              \
		.help = when "also write over a filesystem, RAID or "          \
			     "partition-table signature found on the target"   \
	}

#endif
