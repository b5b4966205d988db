/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner: see runner.h. The top of the runner's layers, each calling
 * only the ones below it:
 *
 *   runner.c          a run, from its plan to its result
 *   runner_workers.c  the group of workers the plan makes (one in this
 *                     process, or forked; runner_mpi.c: across ranks)
 *   runner_pass.c     one worker's pass over the phases (runner_watch.c:
 *                     what watches a test while it runs)
 *   runner_phases.c   the registry of phases and what they need
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fill.h"
#include "runner.h"
#include "runner_workers.h"

static const struct runner_ranks *ranks; /* under mpirun, or NULL */

void runner_use_ranks(const struct runner_ranks *r)
{
	ranks = r;
}

enum runner_status runner_run(const struct runner_env *env,
			      struct run_result *r)
{
	struct runner_plan plan = {
	    .env = env,
	    .r = r,
	    .copies = env->opt->concurrency,
	    .ntargets = env->ntargets > 1 ? env->ntargets : 1,
	    .ranks = ranks,
	};
	enum runner_status st;
	int bad = result_measure(r);

	/* Records of its own (and each target's), to fill. */
	for (unsigned i = 0; env->per && i < plan.ntargets; i++)
		bad |= result_measure(&env->per[i]);
	if (bad) {
		snprintf(r->error, sizeof(r->error), "the results: %s",
			 strerror(ENOMEM));
		error_on(env->err, "%s", r->error);
		return RUNNER_FAILED;
	}
	if (runner_init(env->err)) {
		snprintf(r->error, sizeof(r->error), "a phase is not valid");
		return RUNNER_FAILED;
	}
	fill_random(env->buf, env->buf_len, r->seed);
	r->cache = env->opt->direct ? RC_DIRECT : RC_EVICT;
	if (!(plan.fill = runner_fill_new(env->plan, r->seed))) {
		snprintf(r->error, sizeof(r->error), "the write data: %s",
			 strerror(errno));
		error_on(env->err, "%s", r->error);
		return RUNNER_FAILED;
	}
	/* Ranks: the run's figure is the ranks' sum. */
	if (ranks)
		r->concurrency = ranks->size;
	st = runner_workers_run(&plan);
	fill_free(plan.fill);
	return st;
}
