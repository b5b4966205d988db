/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner: runs the phases of one pass of the suite in PHASES order. It
 * owns what phases must not do: timing, progress lines, skipping, error
 * reports. Cleanup of the scratch directory stays with main, which also
 * owns the signal handlers.
 */
#ifndef CLYDE_RUNNER_H
#define CLYDE_RUNNER_H

#include <signal.h>
#include <stdio.h>

#include "options.h"
#include "result.h"
#include "scratch.h"

enum runner_status { RUNNER_OK = 0, RUNNER_FAILED = 1, RUNNER_STOPPED = 2 };

struct runner_env {
	const struct clyde_opts *opt;
	struct scratch *scratch;
	unsigned char *buf; /* aligned; max(chunk, -n chunk) bytes */
	size_t buf_len;
	volatile sig_atomic_t *stop;
	FILE *progress;     /* NULL: no progress lines */
	FILE *err;          /* error messages */
};

/* The name of the data file inside the scratch directory. */
#define RUNNER_DATA_NAME "data"

/*
 * One pass: fills r (whose settings the caller has set) with every
 * phase's figures. Prints one error line on failure.
 */
enum runner_status runner_run(const struct runner_env *env,
			      struct run_result *r);

/*
 * The phase table against the registry of figures (figures.h): every
 * phase fills a figure of it, no figure has two phases, and each of
 * bonnie++'s figures has one. 0, or -1 with why. runner_run checks it
 * once, before its first phase.
 */
int runner_check_phases(char *why, size_t whylen);

/* Why a phase is skipped under these options, or NULL when it runs. */
const char *runner_skip_reason(const struct clyde_opts *o, unsigned flags);

#endif
