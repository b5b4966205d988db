/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner_workers: the runner's layer between the run and the pass: the
 * group of workers a run is, from their start to their results. Each
 * worker runs one pass over the phases (runner_pass.h) on its own files.
 *
 * One worker on one target runs in this process, no fork. Otherwise (-c
 * N > 1, several -d) N lib/workers processes run a pass each, and this
 * process steps them through the tests: each test is one step of the
 * group, released to all at once, waited for, merged and recorded here.
 * Under mpirun each rank is one worker of the group and this process is
 * one of them; the ranks meet around each test through the hooks of
 * runner_mpi.c.
 */
#ifndef CLYDE_RUNNER_WORKERS_H
#define CLYDE_RUNNER_WORKERS_H

#include "result.h"
#include "runner.h"
#include "runner_pass.h"

/*
 * Under mpirun, the steps of a pass across the ranks (runner_mpi.c, in
 * clyde alone: it links MPI, the Check suites do not). steps.start meets
 * every rank before a phase's timed window, with rc its own setup's
 * outcome; steps.done, after the window, gathers every rank's figures
 * and outcome to the lead, which merges them into t. Each returns 0, or
 * the step's failure (anywhere) as -errno, ctx.what naming the rank on
 * the lead.
 */
struct runner_ranks {
	int lead;      /* rank 0: it records and tells */
	unsigned size; /* ranks */
	unsigned rank; /* this one */
	struct pass_group steps;
};

/* What the run hands its group of workers. */
struct runner_plan {
	const struct runner_env *env;
	struct run_result *r;
	unsigned copies;   /* workers on each target (-c) */
	unsigned ntargets; /* targets (1, or several -d), env->scratches */
	struct fill *fill; /* the run's content: a worker in this process
			    * writes it, a forked one its own (seeded by
			    * fill_worker_seed) */
	const struct runner_ranks *ranks; /* under mpirun, or NULL */
};

/*
 * The group of plan: its workers started, every test of the pass run
 * by them and recorded into plan->r (each target's into env->per under
 * several -d), the workers collected. Prints one error line on failure.
 */
enum runner_status runner_workers_run(const struct runner_plan *plan);

#endif
