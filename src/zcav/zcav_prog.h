/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zcav_prog: what clyde-zcav's files share. main.c has the command line
 * and the flow (signals, outcome); open.c opens the targets and makes
 * the outputs before the first read; run.c is the per-target thread
 * that reads (or writes) and times the blocks; chart.c the chart.
 */
#ifndef CLYDE_ZCAV_PROG_H
#define CLYDE_ZCAV_PROG_H

#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "outfile.h"
#include "zcav_opts.h"
#include "zcav_result.h"

#define PROG "clyde-zcav"
/* The buffer's alignment, and the most O_DIRECT may ask of it. */
#define ZCAV_ALIGN 4096u

/* A refused value: "clyde-zcav: what 'val': why" on stderr, -1. */
#define bad(what, val, why) error("%s '%s': %s", what, val, why)

/* One target and its thread. */
struct zcav_target {
	const struct zcav_opts *opt;
	/* The run's stop: the first signal (or SIGPIPE for a closed
	 * standard output), 0 while running. */
	const volatile sig_atomic_t *stop;
	const char *path;
	const char *log;   /* NULL: stdout */
	struct outfile of; /* the log, under its temporary name */
	int have_of;
	FILE *out;
	int fd;
	struct stat id; /* the open target: what no output may be */
	int stream;	/* pipe or "-": read in order, never seeked */
	int direct;
	unsigned align;
	uint64_t start, end; /* end 0 on a stream: to EOF */
	uint64_t seed;
	/* The bytes a line covers: the block; reading without -b, a power
	 * of two times it once a line was read in under 0.5 s (grown
	 * set). */
	uint64_t line;
	int grown;
	/* Results: per block, its offset, bytes and per-pass seconds. */
	struct zcav_series *res;
	/* Outcome. */
	int err;	/* errno of the failure, 0 ok */
	int out_failed; /* err is from writing the lines, not the target */
	char what[256];
	pthread_t thread;
	int started;
	volatile int finished;
};

/* --plot's picture and --plot-script's script, under temporary names. */
struct zcav_chart_files {
	struct outfile pic, script;
};

/* ---- open.c ---- */

/* Open t->path and settle its range; a refusal is one line, -1. */
int open_target(struct zcav_target *t);

/*
 * Refusals among targets and outputs, one line and -1 each: two targets
 * that are one pipe; an output (-l, --plot, --json) that is a target, or two
 * outputs that are one file.
 */
int open_check_streams(const struct zcav_target *t, int n);
int open_check_outputs(const struct zcav_opts *opt, const struct zcav_target *t,
		       int n);

/* The logs, the chart and its script as temporary files, before the
 * first read. 0, or -1 after one line. */
int open_outputs(const struct zcav_opts *opt, struct zcav_target *t, int n,
		 struct zcav_chart_files *plot);

/* Every temporary output removed: a refusal, a failure or a stop. */
void open_abort_outputs(struct zcav_target *t, int n,
			struct zcav_chart_files *plot);

/* ---- run.c ---- */

/* The signal that wakes a worker's blocked read: SIGURG, whose default
 * is to be ignored, so no stop (cli.h: every terminating signal) is
 * taken for it, and one from outside only interrupts a read. */
#define ZCAV_WAKE SIGURG

/*
 * Start a thread per target and wait for all. A stop (*stop set, by a
 * signal, or SIGPIPE recorded here when standard output was closed under
 * a target) wakes each blocked read with ZCAV_WAKE. 0, or CLI_EXIT_FAILED
 * when a thread could not start (a stop recorded, so the others end).
 */
int run_all(struct zcav_target *t, int n, volatile sig_atomic_t *stop);

/*
 * After a run that completed, one line on stderr about a target's lines
 * too fast to time, when there is something to say: reading without -b,
 * the size the lines grew to; with -b or -w, the -b that times them;
 * either way, a range read (or written) whole in under 0.5 s.
 */
void run_note(const struct zcav_target *t);

/* ---- chart.c ---- */

/*
 * After the run (status its exit status so far): the chart of r drawn
 * into its temporary file (only when status is 0) and, with
 * --plot-script, its script written; both renamed over their names.
 * Removed instead on a failure or a stop (*stop). The exit status.
 */
int chart_finish(const struct zcav_opts *o, const struct zcav_result *r,
		 struct zcav_chart_files *c, int status,
		 const volatile sig_atomic_t *stop);

/* What open_outputs() made for the chart removed. */
void chart_abort(struct zcav_chart_files *c);

/* ---- json.c ---- */

/*
 * The --json document of a run begun at start (doc/clyde-json.5): a new
 * reference, or NULL when it could not be built whole.
 */
json_t *zcav_json_doc(const struct zcav_opts *o, const struct zcav_result *r,
		      time_t start);

#endif
