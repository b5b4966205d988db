/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner_phases: the runner's bottom layer, the registry of phases a
 * pass is made of and what the selected phases need from the run: why
 * one is skipped, the room they take, the content their writes take
 * (the largest single write). It knows no pass, no worker and no run;
 * the pass walks it, main and the sizing read it.
 */
#ifndef CLYDE_RUNNER_PHASES_H
#define CLYDE_RUNNER_PHASES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "phase.h"

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
 * known flags that go together (PHASE_READS, PHASE_MAKES_DATA,
 * PHASE_PER_CHAR and PHASE_SEEK_COUNT with PHASE_DATA; PHASE_FILE_COUNT
 * with PHASE_FILES; PHASE_DATA or PHASE_FILES, not both),
 * and a run state of at most PHASE_STATE_MAX bytes.
 */
const char *runner_check_phase(const struct phase_ops *ph);

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

/* Figure t's phase in the registry, or NULL (another program's figure,
 * which clyde does not measure). Needs no runner_init. */
const struct phase_ops *runner_phase_of(enum result_test t);

/*
 * The keys of the phases with flag (PHASE_PRECONDITION, ...) in the
 * registry's order, into buf: "a, b" then last (" and ", " or ", ", ")
 * before the last one ("ran_write, ran_mix or sync_write"), so that a
 * message or a help line that lists them follows the flags. Needs no
 * runner_init; returns buf.
 */
const char *runner_flag_names(unsigned flag, const char *last, char *buf,
			      size_t len);

struct run_plan;

/* Why a phase is skipped in this run (its options and plan.h's sizes),
 * or NULL when it runs. */
const char *runner_skip_reason(const struct run_plan *rp, unsigned flags);

/*
 * The note to give before the first test when a phase the run asks for
 * (all, or those --only names) is skipped by an option given for
 * something else than skipping it (the per-char tests under -D, which
 * takes whole aligned blocks only), or NULL. Needs no runner_init.
 */
const char *runner_skip_note(const struct run_plan *rp);

struct fill;

/* The content source of a run of seed in rp (--data), for the data
 * file's writes (phase_ctx.fill); NULL with errno on a failure. */
struct fill *runner_fill_new(const struct run_plan *rp, uint64_t seed);

/* What the phases that run in rp take room for. */
struct runner_room {
	int data;	    /* one uses the data file (rp->size bytes) */
	int files;	    /* the file tests run (-n) */
	uint64_t own;	    /* the largest file of its own one writes beside the
			     * data file (room hook); 0 when none */
	const char *own_by; /* the key of the test that writes it */
};
void runner_room(const struct run_plan *rp, struct runner_room *r);

/* A phase as the registry holds it: every hook there (absent optional
 * ones are no-ops), and its slot of private state, one per release
 * hook (the phases sharing a hook share the slot). */
struct runner_phase {
	struct phase_ops ops;
	unsigned slot;
};

/* After runner_init: the number of phases and the phase at i, in the
 * run order; the one that makes the data file (PHASE_MAKES_DATA), or
 * NULL. */
size_t runner_nphases(void);
const struct runner_phase *runner_phase_at(size_t i);
const struct runner_phase *runner_maker(void);

/* The state of every slot in priv (one per slot) back through its
 * release hook (ctx->priv set to each in turn); the empty ones skipped. */
void runner_release(struct phase_ctx *ctx, void *const *priv);

#endif
