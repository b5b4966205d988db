/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner_mpi: a pass's steps across MPI ranks, each rank one worker of
 * the group (runner_workers.h: the shape of forked workers, with ranks
 * for processes, and this process one of them). Every rank runs the
 * whole pass on its own scratch directory; around each phase's timed
 * window the pass calls the two hooks here (struct pass_group):
 *
 *   start: every rank's setup outcome to rank 0 and its verdict back (an
 *          exchange, mpirank_xchg.c): the barrier. A rank whose setup
 *          failed still comes, so no rank waits for it.
 *   done:  every rank's figures and outcome to rank 0, which merges
 *          them as a forked group's step does (work, CPU, histograms and
 *          a random-I/O figure's kinds and schedule add,
 *          the worst latency is the worst, the span runs from the
 *          earliest start to the latest end) and keeps each rank's own
 *          figures as a worker of the record.
 *
 * Times: each rank measures its start and end from its own exit from
 * the barrier (CLOCK_MONOTONIC), so hosts' clocks need not agree; the
 * ranks leave the barrier within one exchange's latency of each other.
 * The test's start on the real-time clock is rank 0's exit plus the
 * earliest start.
 *
 * A failure anywhere fails the step on every rank; rank 0 names the
 * rank, its host and directory, and the failing call (ctx.what), the
 * others keep still (p->mute).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpirank.h"
#include "runner_workers.h"
#include "workers.h"

/* A rank's setup outcome, at the barrier. */
struct mpi_ready {
	int rc; /* 0, or its -errno */
	char what[512];
};

/* A rank's figures of one step. */
struct mpi_fig {
	int rc;
	char what[512];
	uint64_t work, max_latency_ns;
	uint64_t start_ns, end_ns; /* from its barrier exit */
	uint64_t user_ns, sys_ns;
	double cache_left;
	struct hist lat;
	struct workers_io io; /* a random-I/O figure's own parts */
};

static struct clk_mark base; /* this rank's exit from the step's barrier */
static int in_step;	     /* every rank is in the window */
/* Rank 0: what every rank sent, and each rank's entry of the record. */
static struct mpi_ready *ready;
static struct mpi_fig *figs;
static struct result_worker *each;

/* Rank 0's room for every rank's records; -ENOMEM. */
static int lead_room(void)
{
	unsigned n = mpirank_me.size;

	if (!ready)
		ready = calloc(n, sizeof(*ready));
	if (!figs)
		figs = calloc(n, sizeof(*figs));
	if (!each)
		each = calloc(n, sizeof(*each));
	return ready && figs && each ? 0 : -ENOMEM;
}

/* The step failed on rank v->rank: rank 0 names it; every rank fails. */
static int failed(struct pass *p, const struct mpirank_verdict *v,
		  const char *what)
{
	const struct mpirank *me = &mpirank_me;
	const struct mpirank_peer *peer;
	char copy[sizeof(p->ctx.what)];

	if (me->rank != 0)
		return v->rc;
	peer = &me->peer[v->rank];
	snprintf(copy, sizeof(copy), "%s", what);
	snprintf(p->ctx.what, sizeof(p->ctx.what),
		 "rank %d of %u on %.60s in %.120s: %.280s", v->rank, me->size,
		 peer->host, peer->dir, copy);
	return v->rc;
}

/* The exchange itself failed (rc): the ranks are out of step. */
static int broken(struct pass *p, int rc, const char *what)
{
	if (rc == -EINTR)
		return rc;
	if (mpirank_me.rank == 0 || what[0]) {
		/* Rank 0 names the missing ranks; another rank, rank 0. */
		snprintf(p->ctx.what, sizeof(p->ctx.what), "%s",
			 what[0] ? what : "the exchange between the ranks");
		p->mute = 0;
	}
	return rc;
}

static const char *what_of(const struct pass *p)
{
	return p->ctx.what[0] ? p->ctx.what : p->ctx.data_path;
}

static int mpi_start(struct pass *p, int rc)
{
	struct mpi_ready mine = {.rc = rc};
	struct mpirank_verdict v;
	char what[512] = "";
	int xrc;

	if (mpirank_me.rank == 0 && lead_room())
		return -ENOMEM;
	if (rc)
		snprintf(mine.what, sizeof(mine.what), "%s", what_of(p));
	in_step = 0;
	xrc = mpirank_exchange(&mine, ready, sizeof(mine), 0, &v, what,
			       sizeof(what));
	if (xrc)
		return broken(p, xrc, what);
	if (v.rc)
		return failed(p, &v, ready ? ready[v.rank].what : "");
	in_step = 1;
	clk_mark(&base);
	return 0;
}

/* This rank's figures of the window, from its barrier exit. */
static void own_figures(const struct pass *p, const struct timed *t,
			struct mpi_fig *f)
{
	const struct phase_out *out = &t->out;
	int self = out->self_timed && out->start_ns;

	f->work = out->work;
	f->max_latency_ns = out->max_latency_ns;
	f->start_ns = (self ? out->start_ns : t->start.wall_ns) - base.wall_ns;
	f->end_ns = (self ? out->end_ns : t->end.wall_ns) - base.wall_ns;
	f->user_ns = self ? (uint64_t)(out->user * 1e9)
			  : t->end.user_ns - t->start.user_ns;
	f->sys_ns =
	    self ? (uint64_t)(out->sys * 1e9) : t->end.sys_ns - t->start.sys_ns;
	f->cache_left = p->r->cache_left;
	f->lat = out->lat;
	workers_io_init(&f->io);
	phase_out_io_put(out, &f->io);
}

/*
 * Rank 0: the first- and last-finished figures. The ranks' counts at
 * the first end are not seen across hosts: each rank's work there is
 * taken in proportion to its time (first_exact 0).
 */
static void spans(struct timed *t, uint64_t first, uint64_t last)
{
	const struct mpirank *me = &mpirank_me;
	struct result_spans *sp = &t->spans;
	uint64_t end = UINT64_MAX;
	double work = 0;

	for (unsigned r = 0; r < me->size; r++)
		end = figs[r].end_ns < end ? figs[r].end_ns : end;
	for (unsigned r = 0; r < me->size; r++) {
		const struct mpi_fig *f = &figs[r];
		double span = (double)(f->end_ns - f->start_ns);
		double done =
		    end > f->start_ns ? (double)(end - f->start_ns) : 0;

		work += span <= 0 || done >= span
			    ? (double)f->work
			    : (double)f->work * done / span;
	}
	sp->on = me->size > 1 && end > first;
	sp->first_exact = 0;
	sp->first_work = (uint64_t)work;
	sp->first_elapsed = (double)(end - first) / 1e9;
	sp->last_work = t->out.work;
	sp->last_elapsed = (double)(last - first) / 1e9;
}

/* Rank 0: every rank's figures into t, each rank's as a worker. */
static void merge(struct pass *p, struct timed *t)
{
	const struct mpirank *me = &mpirank_me;
	struct phase_out *out = &t->out;
	uint64_t first = UINT64_MAX, last = 0, user = 0, sys = 0;
	struct workers_io io; /* the ranks' own parts, this one's among them */

	out->work = out->max_latency_ns = 0;
	hist_init(&out->lat);
	phase_out_io_reset(out);
	workers_io_init(&io);
	for (unsigned r = 0; r < me->size; r++) {
		const struct mpi_fig *f = &figs[r];

		out->work += f->work;
		if (f->max_latency_ns > out->max_latency_ns)
			out->max_latency_ns = f->max_latency_ns;
		first = f->start_ns < first ? f->start_ns : first;
		last = f->end_ns > last ? f->end_ns : last;
		user += f->user_ns;
		sys += f->sys_ns;
		hist_merge(&out->lat, &f->lat);
		workers_io_merge(&io, &f->io);
		if (f->cache_left > p->r->cache_left)
			p->r->cache_left = f->cache_left;
	}
	for (unsigned r = 0; r < me->size; r++) {
		const struct mpi_fig *f = &figs[r];

		each[r] = (struct result_worker){
		    .work = f->work,
		    .start = (double)(f->start_ns - first) / 1e9,
		    .end = (double)(f->end_ns - first) / 1e9,
		    .user = (double)f->user_ns / 1e9,
		    .sys = (double)f->sys_ns / 1e9,
		    .max_latency_ns = f->max_latency_ns,
		    .rank = (int)r,
		    .host = me->peer[r].host,
		    .dir = me->peer[r].dir,
		};
	}
	phase_out_io_add(out, &io);
	out->self_timed = 1;
	out->elapsed = (double)(last - first) / 1e9;
	out->user = (double)user / 1e9;
	out->sys = (double)sys / 1e9;
	t->start.unix_ns = base.unix_ns + first;
	t->each = each;
	t->n = me->size;
	spans(t, first, last);
}

static int mpi_done(struct pass *p, struct timed *t, int rc)
{
	static struct mpi_fig mine;
	struct mpirank_verdict v;
	char what[512] = "";
	int xrc;

	if (!in_step)
		return rc; /* the barrier failed: every rank knows */
	in_step = 0;
	memset(&mine, 0, sizeof(mine));
	mine.rc = rc;
	if (rc)
		snprintf(mine.what, sizeof(mine.what), "%s", what_of(p));
	else
		own_figures(p, t, &mine);
	xrc = mpirank_exchange(&mine, figs, sizeof(mine), 0, &v, what,
			       sizeof(what));
	if (xrc)
		return broken(p, xrc, what);
	if (v.rc)
		return failed(p, &v, figs ? figs[v.rank].what : "");
	if (mpirank_me.rank == 0)
		merge(p, t);
	return 0;
}

struct runner_ranks runner_mpi_ranks = {
    .steps = {.start = mpi_start, .done = mpi_done},
};
