/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner_watch: what watches a test while it runs, on the runner's one
 * clock hook (phase_out.tick): runner_tick gives each watcher its turn
 * when it is due and sets the earliest of their next due times. The
 * watchers: the status line (live.c), armed by run_phase before the
 * test's setup, and --log-interval (interval.c), armed here at the timed
 * window's start, and --steady's rounds (steady_watch.c), armed there
 * too; runner_pass.c calls these around a test's timed window
 * and at a pass's start and end. Part of the pass's layer (runner_pass.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cliff.h"
#include "interval.h"
#include "live.h"
#include "runner_pass.h"
#include "steady_watch.h"

void runner_tick(struct phase_out *out, uint64_t now)
{
	struct pass *p = out->tick_arg;
	uint64_t next = UINT64_MAX, n;

	/* The line redraws whenever asked: only at its own time. */
	if (p->lv) {
		if (now >= p->lv_due)
			p->lv_due = live_tick(p->lv, out, now);
		next = p->lv_due;
	}
	/* The log only inside the timed window (ilat set by ilog_begin);
	 * it keeps its own grid. */
	if (p->ilog && out->ilat && (n = ilog_tick(p->ilog, out, now)) < next)
		next = n;
	if (p->sw) {
		if (now >= p->sw_due)
			p->sw_due = steady_watch_tick(p->sw, out, now);
		if (p->sw_due < next)
			next = p->sw_due;
	}
	out->tick_ns = next;
}

/* Whether the test of ph is logged. */
static int logged(const struct pass *p, const struct phase_ops *ph)
{
	return p->ilog &&
	       (!p->ilog_cliff || (figure_of(ph->test)->flags & FIGF_CLIFF));
}

/* --steady's watcher for a test that runs in rounds; it fails the
 * test only by leaving it whole, without rounds, when out of memory. */
static void steady_begin(struct pass *p, const struct phase_ops *ph,
			 struct timed *t)
{
	uint64_t op = ph->op_bytes ? ph->op_bytes(p->ctx.plan) : 0;

	if (!p->env->opt->steady || !(ph->flags & PHASE_STEADY))
		return;
	if (!(p->sw =
		  steady_watch_new(p->env->opt, &t->out, t->start.wall_ns, op)))
		return;
	p->sw_due = 0;
	t->out.tick = runner_tick;
	t->out.tick_arg = p;
	t->out.tick_ns = 0;
}

void runner_watch_begin(struct pass *p, const struct phase_ops *ph,
			struct timed *t)
{
	uint64_t op = ph->op_bytes ? ph->op_bytes(p->ctx.plan) : 0;

	steady_begin(p, ph, t);
	if (p->ilog && !logged(p, ph))
		ilog_skip(p->ilog);
	if (!logged(p, ph))
		return;
	if (result_test_kind(ph->test) == RK_IO)
		op = p->ctx.chunk;
	t->out.tick = runner_tick;
	t->out.tick_arg = p;
	ilog_begin(p->ilog, &t->out, op, t->start.wall_ns);
	/* The status line may be due sooner. */
	if (p->ilog->next_ns < t->out.tick_ns)
		t->out.tick_ns = p->ilog->next_ns;
}

void runner_watch_end(struct pass *p, const struct phase_ops *ph,
		      struct timed *t)
{
	if (p->sw) {
		steady_run_free(p->steady);
		p->steady = steady_watch_end(p->sw, &t->out, t->end.wall_ns,
					     clk_user(&t->start, &t->end),
					     clk_sys(&t->start, &t->end));
		p->sw = NULL;
	}
	if (!logged(p, ph))
		return;
	ilog_end(p->ilog, &t->out, t->end.wall_ns,
		 result_test_kind(ph->test) == RK_IO);
	t->iv = p->ilog->v;
	t->niv = p->ilog->n;
}

/* A copy of n intervals into *dst (NULL when none); 0 or -1. */
static int copy_intervals(struct result_interval **dst, unsigned *ndst,
			  const struct result_interval *src, unsigned n)
{
	free(*dst);
	*dst = NULL;
	*ndst = 0;
	if (!n)
		return 0;
	if (!(*dst = malloc(n * sizeof(**dst))))
		return -1;
	memcpy(*dst, src, n * sizeof(**dst));
	*ndst = n;
	return 0;
}

int runner_watch_record(struct result_test_rec *rec, const struct timed *t)
{
	if (copy_intervals(&rec->intervals, &rec->nintervals, t->iv, t->niv) ||
	    copy_intervals(&rec->wintervals, &rec->nwintervals, t->wiv,
			   t->nwiv))
		return -1;
	return 0;
}

unsigned runner_watch_ms(const struct pass *p)
{
	if (p->env->opt->log_interval_ms)
		return p->env->opt->log_interval_ms;
	return p->ranked ? 0 : ILOG_CLIFF_MS;
}

int runner_watch_open(struct pass *p)
{
	const unsigned ms = runner_watch_ms(p);

	p->ilog_cliff = !p->env->opt->log_interval_ms;
	if (!ms || (p->ilog = ilog_new(ms, p->index)))
		return 0;
	snprintf(p->r->error, sizeof(p->r->error), "--log-interval: %s",
		 strerror(ENOMEM));
	if (!p->worker)
		error_on(p->env->err, "%s", p->r->error);
	p->status = RUNNER_FAILED;
	p->rc = -ENOMEM;
	return -1;
}

void runner_watch_close(struct pass *p)
{
	ilog_free(p->ilog);
	p->ilog = NULL;
	steady_run_free(p->steady);
	p->steady = NULL;
}

void runner_watch_steady(struct pass *p, struct result_test_rec *rec)
{
	char words[64];
	size_t n;

	steady_run_free(rec->steady);
	rec->steady = p->steady;
	p->steady = NULL;
	if (!rec->steady)
		return;
	steady_run_text(rec->steady, words, sizeof(words));
	n = strlen(rec->how);
	snprintf(rec->how + n, sizeof(rec->how) - n, "%s%s", n ? " " : "",
		 words);
}

/* The cliff of a record's first n intervals. */
static void cliff_of(struct result_test_rec *rec, unsigned n)
{
	memset(&rec->cliff, 0, sizeof(rec->cliff));
	if (n)
		cliff_find(rec->intervals, n, &rec->cliff);
}

/*
 * How many of the total's intervals every target ran through: those
 * before the first target's last interval ends, that last one out too
 * when it is partial (it ended between two ticks). Beyond, the total
 * drops as targets finish, which is no cliff of any device.
 */
static unsigned all_ran(const struct pass *p, enum result_test test)
{
	unsigned most = p->r->t[test].nintervals;
	double period;

	if (!p->ilog)
		return most;
	period = (double)p->ilog->period_ns / 1e9;

	for (unsigned i = 0; i < p->env->ntargets; i++) {
		const struct result_test_rec *rec = &p->env->per[i].t[test];
		unsigned n = rec->nintervals;

		if (n && rec->intervals[n - 1].secs < period * 0.999)
			n--;
		if (n < most)
			most = n;
	}
	return most;
}

void runner_watch_cliff(struct pass *p, const struct phase_ops *ph)
{
	struct result_test_rec *total = &p->r->t[ph->test];

	if (!(figure_of(ph->test)->flags & FIGF_CLIFF))
		return;
	cliff_of(total, p->tgt && p->env->ntargets > 1 ? all_ran(p, ph->test)
						       : total->nintervals);
	for (unsigned i = 0; p->tgt && i < p->env->ntargets; i++)
		cliff_of(&p->env->per[i].t[ph->test],
			 p->env->per[i].t[ph->test].nintervals);
}
