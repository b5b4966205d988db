/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clyde-curve: latency against load. Its parts: the options (curve_opts.c:
 * its own, clyde's it keeps, the random-I/O unit's), the steps of a curve
 * and its knee (steps.c, on clyde's runner), and the flow (main.c). Its
 * result, and what is printed and written of it, are lib/curve_result.h
 * and lib/curve_json.h, which clyde-report reads them back with.
 */
#ifndef CLYDE_CURVE_PROG_H
#define CLYDE_CURVE_PROG_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "curve_result.h"
#include "gnuplot.h"
#include "options.h"
#include "result.h"

/* --step-time's default and bound (seconds), --refine's default, and
 * the depth of the closed loop (and the slots of the open ones) without
 * --iodepth. */
#define CURVE_STEP_TIME_DEFAULT 10u
#define CURVE_STEP_TIME_MAX	3600u
#define CURVE_REFINE_DEFAULT	3u
#define CURVE_DEPTH_DEFAULT	32u

/* What clyde-curve was asked, beyond clyde's options. */
struct curve_opts {
	unsigned pct[CURVE_STEPS_MAX]; /* tenths of a percent, rising */
	unsigned nsteps;
	unsigned step_time; /* seconds a step */
	struct curve_target target;
	unsigned refine; /* bisection steps */
	int refine_set;
	const char *target_arg, *steps_arg, *refine_arg, *step_time_arg;
	const char *plot, *plot_script; /* --plot, --plot-script; NULL: none */
	enum plot_format plot_fmt;	/* --plot's, by its name */
	int log_y;			/* --log-y */
};

/* clyde-curve's parser (its --help is written from it). */
const struct opt_parser *curve_parser(void);

/* Parse argv: clyde's options in o, the curve's in c. opt_result. */
enum opt_result curve_opts_parse(int argc, char **argv, struct clyde_opts *o,
				 struct curve_opts *c, FILE *out, FILE *err);

struct run_plan;
struct targets;
struct live;

/* What the steps run with (main.c makes it). */
struct curve_ctx {
	const struct clyde_opts *o;
	const struct curve_opts *co;
	struct run_plan *plan;
	struct targets *targets;
	struct run_result *per; /* several -d: each target's (unused) */
	unsigned char *buf;
	size_t buf_len;
	volatile sig_atomic_t *stop;
	struct live *live;
	int data_kept; /* a step made the data files */
	/* --precondition's step ran before a step (the first that writes):
	 * not again for the steps after it. */
	int preconditioned;
};

/* Run curve c (its seed set): the maximum, the steps, the bisection.
 * 0, or CLI_EXIT_FAILED after one line; a stop leaves c->complete 0
 * and returns 0. */
int curve_run(struct curve_ctx *x, struct curve_one *c);

/* Before the first step: the unit's run state for the steps (the depth
 * without --iodepth, which the checks of plan_prepare judge). */
void curve_steps_begin(struct curve_ctx *x);

/* After the last step: the unit's settings as asked (the document's
 * settings say no rate; each step's test says its own). */
void curve_steps_end(struct curve_ctx *x);

/* The figure the curve runs: ran_mix under --mix, else ran_read. */
enum result_test curve_test(void);

#endif
