/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zcav_opts: clyde-zcav's command line, read into one struct by a
 * function that returns instead of exiting and allocates nothing (the
 * names point into argv), so it can be called any number of times in
 * one process.
 */
#ifndef CLYDE_ZCAV_OPTS_H
#define CLYDE_ZCAV_OPTS_H

#include <stdint.h>

#include "gnuplot.h"
#include "optable.h"
#include "privs.h"

#define ZCAV_MAX_TARGETS 64

/* A target as named, with the -l log before it (NULL: stdout). */
struct zcav_spec {
	const char *path; /* "-" is standard input */
	const char *log;
};

struct zcav_opts {
	uint64_t block, chunk, start, end; /* end 0: to the end */
	/* -b given, and with a chunk: lines are then blocks, never grown. */
	int block_given, chunk_given;
	unsigned loops;
	uint64_t skip;
	int direct; /* -1 default, 0 --buffered, 1 --direct */
	int write;
	int force;
	const char *destroy;
	const char *plot;
	int json;	       /* --json given */
	const char *json_path; /* --json=FILE; NULL: standard output */
	enum plot_format plot_fmt;
	const char *plot_script; /* --plot-script: the chart's script */
	const char *range;	 /* -r as given, for messages */
	struct privs privs; /* -u, -g: whom to read as, once targets are open */
	int ntargets;
	struct zcav_spec target[ZCAV_MAX_TARGETS];
	const char *log_next; /* parsing: the -l waiting for its target */
};

/* clyde-zcav's options, declared (zcav_opts.c): its parser. */
extern const struct opt_parser zcav_parser;

/*
 * Parse argv into o (targets in order, each with the -l before it).
 * --help and --version print to stdout and return OPT_DONE; a bad value
 * prints one line "clyde-zcav: ..." on stderr naming it and returns
 * OPT_BAD. getopt's state is reset first. Nothing is allocated; nothing
 * is opened (--plot's gnuplot is looked up on PATH).
 */
enum opt_result zcav_opts_parse(int argc, char **argv, struct zcav_opts *o);

#endif
