/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner: a run of the suite, from its plan to its result: one pass of
 * the phases in the order of the registry of figures (FIGURES), one
 * phase per figure, by the run's group of workers (one worker on one
 * target is a group of one, in this process), each test's figures
 * recorded. It owns what phases must not do: timing, progress lines,
 * skipping, error reports, emptying the page cache of the data file,
 * handing each phase its private state and giving it back to the phase
 * at the end. Cleanup of the scratch directory stays with main, which
 * also owns the signal handlers.
 *
 * The layers below (runner.c lists them), each with its header:
 * runner_workers.h (the group), runner_pass.h (one worker's pass),
 * runner_phases.h (the registry of phases, which this header includes
 * for the callers that size, check or list them).
 */
#ifndef CLYDE_RUNNER_H
#define CLYDE_RUNNER_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "options.h"
#include "result.h"
#include "runner_phases.h"
#include "scratch.h"

enum runner_status { RUNNER_OK = 0, RUNNER_FAILED = 1, RUNNER_STOPPED = 2 };

struct live;

struct runner_env {
	const struct clyde_opts *opt;
	/* The run's plan (plan.h, plan->opt is opt): the data size, -n, the
	 * seek count and the timed bounds the run uses. */
	const struct run_plan *plan;
	struct scratch *scratch; /* the first target's */
	/* Several -d: ntargets scratch directories (scratch is the first),
	 * one worker group each, and per[ntargets] for each target's own
	 * figures (settings set by the caller). ntargets 0 or 1: one
	 * target, per unused. */
	struct scratch *scratches;
	unsigned ntargets;
	struct run_result *per;
	unsigned char *buf; /* aligned; max(chunk, -n chunk) bytes */
	size_t buf_len;
	volatile sig_atomic_t *stop;
	FILE *progress;	   /* NULL: no progress lines */
	FILE *err;	   /* error messages */
	struct live *live; /* the status line while a test runs (live.h,
			    * --progress), or NULL */
	/*
	 * Called before each test's timed window (after its setup), with
	 * sync_arg and the figure; NULL: none. Returns 0 to go on, or
	 * -errno after naming what it waited for in what (len bytes), which
	 * fails the test as a phase's error does (-y: the wait for the
	 * other processes).
	 */
	int (*sync)(void *arg, enum result_test t, char *what, size_t len);
	void *sync_arg;
	/* The data file (each worker's) an earlier run of this environment
	 * made is still whole: a test that reads it does not make it again
	 * (clyde-curve's steps). */
	int data_kept;
	/* The warning on a data file the cache kept was given in an
	 * earlier run: not again. */
	int cache_said;
	/* --precondition's step ran in an earlier run over the same data
	 * files (clyde-curve's first step): not again. */
	int preconditioned;
	/* --journal: the run's journal (journal_run.h), or NULL. */
	struct jrun *jr;
	/* --verify: where every process of the run (forked workers and
	 * seekers included) adds the 4 KiB blocks it checked and found
	 * sound: memory the caller mapped shared (MAP_SHARED) before the
	 * run; NULL: not counted. */
	uint64_t *verified;
};

/* The name of the data file inside the scratch directory. */
#define RUNNER_DATA_NAME "data"

/*
 * One pass: fills r (whose settings the caller has set) with every
 * phase's figures. Prints one error line on failure.
 */
enum runner_status runner_run(const struct runner_env *env,
			      struct run_result *r);

struct runner_ranks;

/* Every run from now on is one rank of the group r describes (mpirank.c,
 * under mpirun; NULL: none). */
void runner_use_ranks(const struct runner_ranks *r);

#endif
