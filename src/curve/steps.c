/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * steps: one curve on clyde's runner. Each step is a run of the one
 * figure (ran_read, or ran_mix under --mix) with the random-I/O unit's
 * run state set for it (ran_state: the step's rate, its time, the depth
 * without --iodepth), so the engine, the workers of -c and several -d,
 * the split of the rate over them and the merge of their figures are
 * clyde's own. The first step makes the data files; the later ones
 * find them whole (runner_env.data_kept).
 *
 * The maximum is a closed loop at the depth; each step of the list
 * offers its percentage of what the maximum achieved, in Poisson (or
 * --arrivals=fixed) arrivals, with the depth as its slots. With a
 * target, the knee is bracketed by the list (the last step within it
 * before the first beyond it, lib/curve.h) and narrowed by bisecting the
 * offered rate between the two, --refine times; the knee is then the
 * step of the bracket's low end: the highest load seen within the
 * target below the first one beyond it.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "curve_prog.h"
#include "plan.h"
#include "ran_io.h"
#include "runner.h"
#include "targets.h"

/* A step's result afresh, as clyde sets a run's. */
static struct run_result *step_result(const struct curve_ctx *x, uint64_t seed)
{
	const struct clyde_opts *o = x->o;
	struct run_result *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	plan_result(x->plan, r, seed);
	/* Several -d: every worker of every target at once, as clyde's
	 * aggregate row. */
	r->concurrency = o->concurrency * (o->ndirs > 1 ? o->ndirs : 1);
	return r;
}

/* run_step's status when a signal stopped the step (CLI_EXIT_FAILED is
 * 1 too, so not 1). */
#define STEP_STOPPED (-1)

/*
 * Run one step and put it in c in the order of its offered rate (the
 * maximum first). 0; STEP_STOPPED when stopped (nothing kept);
 * CLI_EXIT_FAILED after the runner's line (the failed step kept).
 */
static int run_step(struct curve_ctx *x, struct curve_one *c,
		    enum curve_kind kind, unsigned pct, uint64_t offered)
{
	const struct clyde_opts *o = x->o;
	struct phase_plan pp = plan_of(x->plan, curve_test());
	struct ran_state *st = pp.state;
	struct run_result *r = step_result(x, c->seed + c->n);
	struct curve_step *s;
	struct runner_env env = {
	    .opt = o,
	    .plan = x->plan,
	    .scratch = &x->targets->s[0],
	    .scratches = x->targets->s,
	    .ntargets = x->targets->n,
	    .per = x->per,
	    .buf = x->buf,
	    .buf_len = x->buf_len,
	    .stop = x->stop,
	    .progress = o->quiet ? NULL : stderr,
	    .err = stderr,
	    .live = x->live,
	    .data_kept = x->data_kept,
	    .cache_said = x->data_kept,
	    .preconditioned = x->preconditioned,
	};
	enum runner_status rs;
	unsigned at;

	if (!r) {
		error("out of memory for a step");
		return CLI_EXIT_FAILED;
	}
	st->step_rate = offered;
	if (!o->quiet) {
		if (kind == CURVE_STEP_MAX)
			fprintf(stderr, "The maximum: a closed loop\n");
		else {
			char p[16];

			curve_pct_text(pct, p, sizeof(p));
			fprintf(stderr,
				"Step %s%% of the maximum: %llu IOPS "
				"offered%s\n",
				p, (unsigned long long)offered,
				kind == CURVE_STEP_REFINE ? " (bisection)"
							  : "");
		}
	}
	rs = runner_run(&env, r);
	for (unsigned i = 0; x->per && i < o->ndirs; i++) {
		result_free(&x->per[i]);
		result_init(&x->per[i]);
	}
	if (rs == RUNNER_STOPPED) {
		result_free(r);
		free(r);
		return STEP_STOPPED;
	}
	x->data_kept = 1;
	x->preconditioned |= r->precondition.passes > 0;
	for (at = c->n; at > 1 && c->step[at - 1].offered > offered; at--)
		c->step[at] = c->step[at - 1];
	s = &c->step[at];
	*s = (struct curve_step){.kind = kind,
				 .pct = pct,
				 .offered = offered,
				 .seed = r->seed,
				 .rec = r->t[curve_test()]};
	snprintf(s->error, sizeof(s->error), "%s", r->error);
	/* The record's parts are the step's now. */
	memset(&r->t[curve_test()], 0, sizeof(r->t[curve_test()]));
	result_free(r);
	free(r);
	c->n++;
	return rs == RUNNER_FAILED ? CLI_EXIT_FAILED : 0;
}

/* Step i of c as the knee's search sees it. */
static struct curve_point point_of(const struct curve_one *c, unsigned i,
				   const struct curve_target *t)
{
	const struct curve_step *s = &c->step[i];

	return (struct curve_point){
	    .offered = (double)s->offered,
	    .achieved = curve_achieved(s),
	    .value = curve_stat_of(&s->rec, t->stat),
	};
}

/* The bracket among c's steps after the maximum: 0 with *lo, *hi
 * (c->n: none beyond) indexes into c->step; -1: none within. */
static int bracket(const struct curve_one *c, const struct curve_target *t,
		   unsigned *lo, unsigned *hi)
{
	struct curve_point p[CURVE_RUN_STEPS];
	unsigned n = c->n - 1;

	for (unsigned i = 0; i < n; i++)
		p[i] = point_of(c, i + 1, t);
	if (curve_bracket(p, n, t, lo, hi))
		return -1;
	*lo += 1;
	*hi += 1;
	return 0;
}

/* The offered rate of a step: pct tenths of max, at least one
 * operation a second for each worker (a share of 0 is a closed loop). */
static uint64_t offered_of(const struct curve_ctx *x, double max, unsigned pct)
{
	uint64_t workers =
	    (uint64_t)x->o->concurrency * (x->o->ndirs > 1 ? x->o->ndirs : 1);
	uint64_t v = (uint64_t)llround(max * pct / 1000.0);

	return v < workers ? workers : v;
}

void curve_steps_begin(struct curve_ctx *x)
{
	struct phase_plan pp = plan_of(x->plan, curve_test());
	struct ran_state *st = pp.state;

	st->depth_default = CURVE_DEPTH_DEFAULT;
	st->ops = RAN_OPS_MAX;
	st->time = x->co->step_time;
	st->step_rate = 0;
}

void curve_steps_end(struct curve_ctx *x)
{
	struct phase_plan pp = plan_of(x->plan, curve_test());
	struct ran_state *st = pp.state;

	st->step_rate = 0;
}

int curve_run(struct curve_ctx *x, struct curve_one *c)
{
	const struct curve_opts *co = x->co;
	unsigned lo, hi;
	double max;
	int rc;

	c->n = 0;
	c->knee = -1;
	c->complete = 0;
	if ((rc = run_step(x, c, CURVE_STEP_MAX, 0, 0)) != 0)
		return rc == STEP_STOPPED ? 0 : rc;
	max = curve_achieved(&c->step[0]);
	if (max <= 0) {
		error("the maximum: no operation completed in %u s",
		      co->step_time);
		return CLI_EXIT_FAILED;
	}
	for (unsigned i = 0; i < co->nsteps; i++)
		if ((rc = run_step(x, c, CURVE_STEP_LIST, co->pct[i],
				   offered_of(x, max, co->pct[i]))) != 0)
			return rc == STEP_STOPPED ? 0 : rc;
	if (co->target.on && bracket(c, &co->target, &lo, &hi) == 0) {
		for (unsigned k = 0; k < co->refine && hi < c->n; k++) {
			uint64_t a = c->step[lo].offered,
				 b = c->step[hi].offered, mid = (a + b) / 2;

			if (mid <= a || mid >= b)
				break;
			rc = run_step(x, c, CURVE_STEP_REFINE,
				      (unsigned)llround(mid * 1000.0 / max),
				      mid);
			if (rc)
				return rc == STEP_STOPPED ? 0 : rc;
			/* The new step sits between the two. */
			if (bracket(c, &co->target, &lo, &hi))
				break;
		}
	}
	c->complete = 1;
	if (co->target.on && bracket(c, &co->target, &lo, &hi) == 0)
		c->knee = (int)lo;
	return 0;
}
