/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan: the run's state beside its options. The options say what was
 * asked; what the run decides for a phase (a bound sized for a default
 * run, a fallback taken) is kept here, in each unit's run state
 * (phase_ops.unit, state_size), and handed to the phase's hooks in a
 * struct phase_plan. The run-level hooks of every unit run from here, in
 * the registry's order, so that main, the runner and the documents name
 * no phase.
 */
#ifndef CLYDE_PLAN_H
#define CLYDE_PLAN_H

#include "phase.h"

/* Figure t's plan under o: o, and its unit's run state (NULL for a
 * figure clyde has no phase for). */
struct phase_plan plan_of(const struct clyde_opts *o, enum result_test t);

/* Whether a phase of figure t's unit runs under o (not skipped by its
 * flags, and named by --only when it is given). */
int plan_unit_runs(const struct clyde_opts *o, enum result_test t);

/*
 * Before the first test: the prepare hook of every unit that runs under
 * o, in the registry's order. 0, or the first one's exit status.
 */
int plan_prepare(const struct clyde_opts *o);

/* The largest buf_need of the units under o; 0 when none has one. */
size_t plan_buf_need(const struct clyde_opts *o);

struct json_t;

/*
 * Into the run's JSON settings s, just after it put key after: each
 * unit's settings object (settings hook) whose settings_after is after.
 * after NULL, once the run's own are in: those whose settings_after is
 * NULL or a key s does not have.
 */
void plan_settings(struct json_t *s, const struct clyde_opts *o,
		   const char *after, int *bad);

/*
 * For a run that sizes itself (o->size_chosen), each unit's autosize
 * hook with target seconds, when a phase of it runs. Returns how many
 * sized their work.
 */
unsigned plan_autosize(const struct clyde_opts *o, double target);

/* Into what (len bytes, n used), for each unit that plan_autosize
 * sized: ", " unless first and its words. Returns n then. */
size_t plan_sized_words(char *what, size_t len, size_t n);

/* Into settings.auto j: each unit that has an autosize hook, under its
 * unit name, true when it sized its work. */
void plan_auto(struct json_t *j, int *bad);

#endif
