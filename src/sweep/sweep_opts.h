/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweep_opts: clyde-sweep's command line. Parsing checks every value
 * before anything is touched and returns instead of exiting, so it can
 * be called again and again in one process (a fuzz target does that).
 * It allocates nothing that outlives it: the strings in the result
 * point into argv.
 *
 * Lists (-B, --filesystems) are single-comma separated; an empty item
 * (",,", a leading or trailing comma, an item of blanks) is refused, and
 * so is an item given twice ("4k,4096" is the same size twice). An
 * option given twice must say the same thing both times (the same
 * value, the same list); two different values are refused rather than
 * one silently winning, --destroy-data above all.
 */
#ifndef CLYDE_SWEEP_OPTS_H
#define CLYDE_SWEEP_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "gnuplot.h"
#include "optable.h"
#include "sweep_result.h"

/* A stage clyde-sweep can run on a device: raw, or a filesystem it
 * makes with mkfs (args go before the device). */
struct sweep_fs_kind {
	const char *name;
	const char *mkfs; /* NULL for raw */
	const char *args[4];
	const char *package; /* Debian package with mkfs, for a hint */
};

extern const struct sweep_fs_kind sweep_fs_kinds[];
extern const unsigned sweep_n_fs_kinds;

struct sweep_opts {
	uint64_t size;	      /* -s, bytes per cell */
	const char *size_arg; /* as given, or "1g" */
	unsigned nbs;
	uint64_t bs[SWEEP_MAX_BS];
	const char *bs_arg; /* -B as given, NULL for the default */
	unsigned nfs;
	const struct sweep_fs_kind *fs[SWEEP_MAX_STAGES];
	const char *fs_arg;  /* --filesystems as given, or NULL */
	const char *destroy; /* --destroy-data */
	int force;
	const char *plot;
	enum plot_format plot_fmt;
	const char *plot_script; /* --plot-script: the chart's gnuplot script */
	int quiet;
	int json;	       /* --json given */
	const char *json_path; /* --json=FILE; NULL: standard output */
	uint64_t seed;
	int seed_set;
	const char *target;
};

/* clyde-sweep's options, declared (sweep_opts.c): its parser. */
extern const struct opt_parser sweep_parser;

/*
 * Parse argv (getopt may permute it) into o: OPT_OK to run, OPT_DONE
 * after --help or --version (printed on out), OPT_BAD after one line
 * "clyde-sweep: <what>: <why>" on err, getopt's own refusals (an
 * unknown option, a missing value) included.
 */
enum opt_result sweep_opts_parse(int argc, char **argv, struct sweep_opts *o,
				 FILE *out, FILE *err);

#endif
