/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan: the run's state beside its options. The options say what was
 * asked; the work the run does is its struct run_plan, and what it
 * decides for a phase (a bound sized for a default run, a fallback
 * taken) is kept here too, in each unit's run state
 * (phase_ops.unit, state_size), and handed to the phase's hooks in a
 * struct phase_plan. The run-level hooks of every unit run from here, in
 * the registry's order, so that main, the runner and the documents name
 * no phase.
 */
#ifndef CLYDE_PLAN_H
#define CLYDE_PLAN_H

#include "phase.h"

struct autosize;

/*
 * The work a run does: the options it was asked with, read-only, and
 * what it decided from them. The data size, -n and the seek count are
 * the options' (plan_init), or what autosize chose for a run that sizes
 * itself; with no count given, seeks, creates and stats run for a time
 * instead (autosize.h), until the first run settles the counts it
 * reached. Everything after opts_parse reads these here, never the
 * options' own, and nothing writes them back into the options.
 */
struct run_plan {
	const struct clyde_opts *opt;
	uint64_t size;	    /* bytes of the data file; 0: no data tests */
	uint64_t files_num; /* -n, in units of 1024 files; 0: no file tests */
	uint64_t seeks;	    /* the seek count */
	/* Seeks for seeks_time seconds instead of a count, seq create for
	 * files_time seconds to choose -n, each stat test over the files
	 * until stat_time seconds; 0: the counts above. */
	double seeks_time, files_time, stat_time;
	/* What was sized and from what (autosize.h); NULL: nothing. */
	const struct autosize *sized;
};

/* The plan of a run of o as o gives it: its size, -n and seek count,
 * nothing sized, nothing timed. */
void plan_init(struct run_plan *rp, const struct clyde_opts *o);

/* r (all zeros, or a run before) afresh for a run of rp of seed: the
 * version, -m, the seed and the sizes a result line says. */
void plan_result(const struct run_plan *rp, struct run_result *r,
		 uint64_t seed);

/* Figure t's plan in run plan rp: the options, rp, and its unit's run
 * state (NULL for a figure clyde has no phase for). */
struct phase_plan plan_of(const struct run_plan *rp, enum result_test t);

/* Whether figure t's phase runs in rp (not skipped by its flags, and
 * named by --only when it is given); 0 for a figure with no phase. */
int plan_runs(const struct run_plan *rp, enum result_test t);

/* Whether a phase of figure t's unit runs in rp (not skipped by its
 * flags, and named by --only when it is given). */
int plan_unit_runs(const struct run_plan *rp, enum result_test t);

/* Whether a phase with any of flags (PHASE_*) runs in rp. */
int plan_runs_any(const struct run_plan *rp, unsigned flags);

/*
 * Before the first test: the prepare hook of every unit that runs in
 * rp, in the registry's order. 0, or the first one's exit status.
 */
int plan_prepare(const struct run_plan *rp);

/* The largest buf_need of the units in rp; 0 when none has one. */
size_t plan_buf_need(const struct run_plan *rp);

struct json_t;

/*
 * Into the run's JSON settings s, just after it put key after: each
 * unit's settings object (settings hook) whose settings_after is after.
 * after NULL, once the run's own are in: those whose settings_after is
 * NULL or a key s does not have.
 */
void plan_settings(struct json_t *s, const struct run_plan *rp,
		   const char *after, int *bad);

/*
 * For a run that sizes itself (no -s: opt->size_chosen), each unit's
 * autosize hook with target seconds, when a phase of it runs. Returns
 * how many sized their work.
 */
unsigned plan_autosize(const struct run_plan *rp, double target);

/* Into what (len bytes, n used), for each unit that plan_autosize
 * sized: ", " unless first and its words. Returns n then. */
size_t plan_sized_words(char *what, size_t len, size_t n);

/* Into settings.auto j: each unit that has an autosize hook, under its
 * unit name, true when it sized its work. */
void plan_auto(struct json_t *j, int *bad);

#endif
