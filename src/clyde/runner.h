/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner: runs the phases of one pass of the suite in the order of the
 * registry of figures (FIGURES), one phase per figure. It
 * owns what phases must not do: timing, progress lines, skipping, error
 * reports, emptying the page cache of the data file, handing each phase
 * its private state and giving it back to the phase at the end. Cleanup
 * of the scratch directory stays with main, which also owns the signal
 * handlers.
 */
#ifndef CLYDE_RUNNER_H
#define CLYDE_RUNNER_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "options.h"
#include "result.h"
#include "scratch.h"

enum runner_status { RUNNER_OK = 0, RUNNER_FAILED = 1, RUNNER_STOPPED = 2 };

struct live;

struct runner_env {
	const struct clyde_opts *opt;
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
};

struct phase_ops;

/*
 * Build the registry of phases once, from the table made from FIGURES
 * (the phase_<key>_ops of the figures clyde measures, in their order):
 * every entry checked
 * (runner_check_phases, runner_check_figures), absent optional hooks
 * filled in. main calls it at startup; runner_run calls it too. Returns
 * 0, or -1 after a line per fault on err.
 */
int runner_init(FILE *err);

/*
 * Check n phases as runner_init checks its table: each one
 * (runner_check_phase), then the list (one phase per figure, at most one
 * PHASE_MAKES_DATA, and one when a phase has PHASE_READS). Prints
 * "clyde: phase N 'name': why" for each fault; returns 0 or -1.
 */
int runner_check_phases(const struct phase_ops *const *list, size_t n,
			FILE *err);

/*
 * Why this entry cannot be a phase, or NULL: it needs a name (its
 * figure's key), a title, a progress line, a run hook, a figure, and
 * known flags that go together (PHASE_READS, PHASE_MAKES_DATA and
 * PHASE_PER_CHAR with PHASE_DATA; PHASE_DATA or PHASE_FILES, not both),
 * and a run state of at most PHASE_STATE_MAX bytes.
 */
const char *runner_check_phase(const struct phase_ops *ph);

/* The name of the data file inside the scratch directory. */
#define RUNNER_DATA_NAME "data"

/*
 * One pass: fills r (whose settings the caller has set) with every
 * phase's figures. Prints one error line on failure.
 */
enum runner_status runner_run(const struct runner_env *env,
			      struct run_result *r);

/*
 * n phases against the registry of figures (figures.h): every figure
 * clyde measures (not group EXT's) has a phase (runner_check_phases has
 * already made sure that none has two, and none fills an EXT figure),
 * and then each phase is at its figure's place among those figures, as
 * runner_init's table has them. Prints "clyde: figure KEY has no phase"
 * for each one missing, or "clyde: figure KEY: the phase in its place
 * fills OTHER" for each one out of place; returns 0 or -1.
 */
int runner_check_figures(const struct phase_ops *const *list, size_t n,
			 FILE *err);

/* Figure t's phase in the registry, or NULL (a figure of group EXT,
 * which clyde does not measure). Needs no runner_init. */
const struct phase_ops *runner_phase_of(enum result_test t);

/* Why a phase is skipped under these options, or NULL when it runs. */
const char *runner_skip_reason(const struct clyde_opts *o, unsigned flags);

struct fill;

/* The content source of a run of seed under o (--data), for the data
 * file's writes (phase_ctx.fill); NULL with errno on a failure. */
struct fill *runner_fill_new(const struct clyde_opts *o, uint64_t seed);

/* What the phases that these options run take room for. */
struct runner_room {
	int data;     /* one uses the data file (o->size bytes) */
	int files;    /* the file tests run (-n) */
	uint64_t own; /* the largest file of its own one writes beside the
		       * data file (room hook); 0 when none */
};
void runner_room(const struct clyde_opts *o, struct runner_room *r);

#endif
