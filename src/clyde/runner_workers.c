/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner_workers: see runner_workers.h.
 *
 * Forked workers (-c N > 1, bonnie++ 1.97's concurrency, or several -d)
 * are lib/workers processes, forked once per pass; each makes its own
 * directory w.K (K = 1..N) in its target's scratch directory, with its
 * own data file and file-test directory in it, and runs the same pass
 * of phases as a worker alone does, keeping its phases' state and open
 * files from one phase to the next. Each phase is one step of the
 * group: every worker does its untimed setup (the cache eviction of its
 * own data file included) and waits at the step's barrier; this
 * process, the conductor, runs the pass too, with the group's step in
 * place of each test's own hooks: it releases the step to all at once,
 * waits for every worker's figures, merges them (work, first start,
 * last end, CPU, worst latency, histograms, a random-I/O figure's
 * service times, kinds and schedule) and records the merge as
 * the test's figure, each worker's own figures beside it, before
 * releasing the next step.
 *
 * Several -d: a group of N workers per target, all in one set of steps
 * (worker k works in target k / N), so every target's test starts at
 * once. The conductor records each target's merge as that target's
 * figure, and as the aggregate the work of all of them when the first
 * worker ended over the time from the first start to then (elbencho's
 * "first finished"): the rate while every target was busy, which is
 * the sum of the targets' rates; the last-finished figure (all work
 * over first start to last end) would count the slower targets'
 * lone tail, and is kept beside it.
 *
 * A forked worker never prints: its failure (the call, the file, the
 * errno) goes to its slot, and the conductor, having stopped the
 * others, says it in one line naming the test and the worker.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "fill.h"
#include "interval.h"
#include "runner_workers.h"
#include "text.h"
#include "workers.h"

/* The group of a run: its plan, and the conductor's own state when
 * its workers are forked (n > 1). */
struct group {
	struct runner_plan plan;
	unsigned n;		    /* workers */
	struct workers w;	    /* forked: the processes */
	struct result_worker *each; /* forked: each one's figures */
	char path[PATH_MAX + 16];   /* alone: the data file's path */
};

static struct group *group_of(const struct pass *p)
{
	return p->group_arg;
}

/* In a forked worker: the step's barrier, just before run(), once its
 * setup went well. */
static int worker_start(struct pass *p, int rc)
{
	if (rc)
		return rc;
	rc = workers_step(p->group_arg);
	return rc ? phase_fail_call(&p->ctx, "the start of the step", -rc) : 0;
}

/* In a forked worker: the step's figures published, just after a
 * run() that went well. */
static int worker_done(struct pass *p, struct timed *t, int rc)
{
	struct workers_self *me = p->group_arg;
	struct workers_result *res = me->res;
	const struct phase_out *out = &t->out;

	if (rc)
		return rc;
	/* Its work is durable now (a writing test ends in fsync). */
	__atomic_store_n(workers_live_ahead(me), 0, __ATOMIC_RELAXED);
	workers_step_end(me);
	res->work = out->work;
	res->max_latency_ns = out->max_latency_ns;
	hist_merge(&res->lat, &out->lat);
	phase_out_io_put(out, &res->io);
	/* Its own cache checks (keep_cache_out) so far, for the run's. */
	res->cache_left = p->r->cache_left;
	/* Seeks: the seekers' span and CPU, not this process's. */
	if (out->self_timed && out->start_ns) {
		res->start_ns = out->start_ns;
		res->end_ns = out->end_ns;
		res->user_ns = (uint64_t)(out->user * 1e9);
		res->sys_ns = (uint64_t)(out->sys * 1e9);
	}
	if ((rc = workers_step_done(me)) != 0)
		return phase_fail_call(&p->ctx, "the end of the step", -rc);
	return 0;
}

/* Worker K's directory w.K, made and opened; -errno with what set. */
static int worker_dir(struct workers_self *me, int top, const char *name,
		      const char *dir)
{
	int fd;

	if (mkdirat(top, name, 0700) && errno != EEXIST) {
		snprintf(me->what, WORKERS_WHAT_MAX, "mkdir %.480s", dir);
		return -errno;
	}
	fd = openat(top, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		snprintf(me->what, WORKERS_WHAT_MAX, "open %.480s", dir);
		return -errno;
	}
	return fd;
}

static const struct pass_group worker_steps = {
    .start = worker_start,
    .done = worker_done,
};

/* A forked worker: the whole pass on its own files. */
static int forked_worker(struct workers_self *me, void *arg)
{
	const struct runner_plan *plan = arg;
	struct runner_env env = *plan->env;
	const unsigned copies = plan->copies;
	char name[32], dir[PATH_MAX + 32], path[PATH_MAX + 48];
	struct fill *fill;
	struct pass p;
	int fd;

	if (env.ntargets > 1)
		env.scratch = &env.scratches[me->index / copies];
	snprintf(name, sizeof(name), "w.%u", me->index % copies + 1);
	snprintf(dir, sizeof(dir), "%s/%s", env.scratch->path, name);
	snprintf(path, sizeof(path), "%s/%s", dir, RUNNER_DATA_NAME);
	if ((fd = worker_dir(me, env.scratch->dirfd, name, dir)) < 0)
		return fd;
	env.progress = NULL;
	/* Content of its own (fill_worker_seed). */
	if (!(fill = runner_fill_new(
		  env.plan, fill_worker_seed(plan->r->seed, me->index + 1)))) {
		close(fd);
		snprintf(me->what, WORKERS_WHAT_MAX, "the write data");
		return -ENOMEM;
	}
	runner_pass_init(&p, &env, plan->r, fd, dir, path, fill);
	p.group = &worker_steps;
	p.group_arg = me;
	p.worker = 1;
	p.index = (int)me->index;
	p.ctx.worker = me->index;
	p.ctx.nworkers = copies * plan->ntargets;
	p.live = workers_live(me);
	p.live_ahead = workers_live_ahead(me);
	/* One cache warning for the run, not one per worker. */
	p.warned = me->index != 0 || env.cache_said;
	runner_pass_phases(&p);
	fill_free(p.ctx.fill);
	close(fd);
	if (p.status == RUNNER_OK)
		return 0;
	snprintf(me->what, WORKERS_WHAT_MAX, "%.500s",
		 p.ctx.what[0] ? p.ctx.what : path);
	return p.status == RUNNER_STOPPED || !p.rc ? -EINTR : p.rc;
}

/* Worker i as a message names it: its number, and its -d when there
 * are several. */
static void worker_name(const struct pass *p, int i, char *buf, size_t len)
{
	const struct runner_env *env = p->env;
	unsigned copies = env->opt->concurrency;
	char d[PATH_MAX * 4 + 1];

	if (env->ntargets < 2) {
		snprintf(buf, len, "worker %d of %u", i + 1, group_of(p)->n);
		return;
	}
	text_shown(env->opt->dirs[(unsigned)i / copies], d, sizeof(d));
	snprintf(buf, len, "worker %u of %u on -d '%.400s'",
		 (unsigned)i % copies + 1, copies, d);
}

/* The group failed or was stopped: finish it, and name the worker that
 * failed first in ctx.what. Returns its -errno, or -EINTR. */
static int step_failed(struct pass *p, int rc, int in_work)
{
	struct workers_failure fail;
	struct workers_result sum;
	struct workers *w = &group_of(p)->w;
	int late = workers_late(w);
	int frc = workers_finish(w, &sum, &fail);
	char who[PATH_MAX * 4 + 64];

	if (rc == -ETIMEDOUT && late >= 0) {
		worker_name(p, late, who, sizeof(who));
		snprintf(p->ctx.what, sizeof(p->ctx.what),
			 in_work ? "%.250s: not done, and no worker did an "
				   "operation for --barrier-timeout=%u s"
				 : "%.250s: not at the start of the test "
				   "within --barrier-timeout=%u s",
			 who, p->env->opt->barrier_timeout);
		return -ETIME; /* "Timer expired", not a connection's */
	}
	if (*p->env->stop || frc == -EINTR || (frc == 0 && rc == -EINTR))
		return -EINTR;
	if (frc == 0)
		frc = rc;
	worker_name(p, fail.worker, who, sizeof(who));
	/* A worker that died says nothing of its own: no errno fits. */
	if (fail.signo) {
		snprintf(p->ctx.what, sizeof(p->ctx.what),
			 "%.250s: ended by signal %d (%.64s)", who, fail.signo,
			 strsignal(fail.signo));
		return -PHASE_SAID;
	}
	if (!fail.what[0] && fail.err == ECHILD) {
		snprintf(p->ctx.what, sizeof(p->ctx.what),
			 "%.250s: exited with status %d before its work was "
			 "done",
			 who, fail.status);
		return -PHASE_SAID;
	}
	snprintf(p->ctx.what, sizeof(p->ctx.what), "%.250s: %.250s", who,
		 fail.what[0] ? fail.what : "the worker");
	return frc;
}

/* The sync hook failed (its words in ctx.what) or was stopped, with
 * every worker at the step's barrier: they are stopped and reaped, and
 * the hook's rc is the step's. */
static int step_unsynced(struct pass *p, int rc)
{
	struct workers_failure fail;
	struct workers_result sum;

	workers_abort(&group_of(p)->w);
	workers_finish(&group_of(p)->w, &sum, &fail);
	return rc;
}

/* The merge of workers lo..hi-1 of the step just waited for. */
static void merge_range(const struct workers *w, unsigned lo, unsigned hi,
			struct workers_result *sum)
{
	workers_result_init(sum);
	for (unsigned i = lo; i < hi; i++)
		workers_merge(sum, workers_step_result(w, i));
}

/* A merge of workers into t, their own figures from each[0..n). */
static void timed_of(struct timed *t, const struct workers_result *sum,
		     struct result_worker *each, unsigned n)
{
	/* The test's start: the first worker's, on the real-time clock. */
	if (sum->start_ns)
		t->start.unix_ns =
		    clk_unix_ns() - (clk_now_ns() - sum->start_ns);
	t->out.work = sum->work;
	t->out.max_latency_ns = sum->max_latency_ns;
	hist_merge(&t->out.lat, &sum->lat);
	phase_out_io_add(&t->out, &sum->io);
	t->out.self_timed = 1;
	t->out.elapsed = workers_elapsed(sum);
	t->out.user = (double)sum->user_ns / 1e9;
	t->out.sys = (double)sum->sys_ns / 1e9;
	t->each = each;
	t->n = n;
}

/*
 * The first- and last-finished figures of the whole group into t; under
 * several -d the first-finished one is the aggregate's figure, its CPU
 * each worker's share of its window before the first end.
 */
static void spans_of(struct pass *p, struct timed *t)
{
	const struct group *g = group_of(p);
	const struct workers *w = &g->w;
	struct workers_first f;
	double *share = calloc(w->n, sizeof(*share));
	double user = 0, sys = 0;

	workers_step_first(w, 0, w->n, &f, share);
	struct result_spans *sp = &t->spans;

	sp->on = w->n > 1 && f.end_ns > f.start_ns;
	sp->first_exact = f.exact;
	sp->first_work = f.work;
	sp->first_elapsed = (double)(f.end_ns - f.start_ns) / 1e9;
	sp->last_work = t->out.work;
	sp->last_elapsed = t->out.elapsed;
	if (p->env->ntargets < 2 || !sp->on || !share) {
		free(share);
		return;
	}
	for (unsigned i = 0; i < w->n; i++) {
		user += g->each[i].user * share[i];
		sys += g->each[i].sys * share[i];
	}
	free(share);
	t->out.work = f.work;
	t->out.elapsed = sp->first_elapsed;
	t->out.user = user;
	t->out.sys = sys;
}

/* Several -d: each target's merge into p->tgt. */
static void targets_of(struct pass *p)
{
	const struct group *g = group_of(p);
	const unsigned copies = p->env->opt->concurrency;

	for (unsigned i = 0; p->tgt && i < p->env->ntargets; i++) {
		struct timed *tt = &p->tgt[i];
		struct workers_result sum;

		memset(tt, 0, sizeof(*tt));
		phase_out_init(&tt->out, 0);
		merge_range(&g->w, i * copies, (i + 1) * copies, &sum);
		timed_of(tt, &sum, g->each + i * copies, copies);
	}
}

/* --log-interval: every worker's intervals of the step, their sum the
 * test's, each target's sum its own. 0 or -ENOMEM. */
static int step_intervals(struct pass *p, struct timed *t)
{
	struct ilog *l = p->ilog;
	const struct group *g = group_of(p);
	const unsigned n = g->n;
	double *off;
	int rc;

	if (!l)
		return 0;
	if (!(off = calloc(n, sizeof(*off))))
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		off[i] = g->each[i].start;
	rc =
	    ilog_collect(l, n, off, p->env->ntargets, p->env->opt->concurrency);
	free(off);
	if (rc)
		return rc;
	t->iv = l->sum;
	t->niv = l->nsum;
	t->wiv = l->each;
	t->nwiv = l->neach;
	for (unsigned i = 0; p->tgt && i < l->ntargets; i++) {
		p->tgt[i].iv = l->tsum[i];
		p->tgt[i].niv = l->ntsum[i];
	}
	return 0;
}

/* The conductor's step (pass_group.step): the test every worker runs
 * now released, waited for and merged into t. 0, or -errno with
 * ctx.what naming the worker that failed. */
static int group_step(struct pass *p, struct timed *t)
{
	struct group *g = group_of(p);
	struct workers *w = &g->w;
	struct workers_result sum;
	int rc;

	if (!w->sh)
		return -EINTR; /* finished after a failure */
	/* Every worker set up: then -y's wait, for the whole group. */
	if ((rc = workers_step_ready(w)) == 0 && (rc = runner_sync(p, t)))
		return step_unsynced(p, rc);
	/* The status line follows the workers' counts (live.h). */
	w->watch = t->out.tick ? phase_watch : NULL;
	w->watch_arg = &t->out;
	if (rc == 0 && (rc = workers_step_go(w)) == 0 &&
	    (rc = workers_step_wait(w, &sum)) != 0) {
		w->watch = NULL;
		return step_failed(p, rc, 1);
	}
	w->watch = NULL;
	if (rc)
		return step_failed(p, rc, 0);
	if (sum.cache_left > p->r->cache_left)
		p->r->cache_left = sum.cache_left;
	for (unsigned i = 0; i < w->n; i++) {
		const struct workers_result *one = workers_step_result(w, i);
		struct result_worker *e = &g->each[i];

		e->work = one->work;
		e->start = (double)(one->start_ns - sum.start_ns) / 1e9;
		e->end = (double)(one->end_ns - sum.start_ns) / 1e9;
		e->user = (double)one->user_ns / 1e9;
		e->sys = (double)one->sys_ns / 1e9;
		e->max_latency_ns = one->max_latency_ns;
		e->target = i / p->env->opt->concurrency;
	}
	timed_of(t, &sum, g->each, w->n);
	spans_of(p, t);
	targets_of(p);
	return step_intervals(p, t);
}

/* The group could not start, or a worker failed after the last step:
 * one line, the run failed. */
static enum runner_status group_error(struct pass *p, const char *what, int err)
{
	snprintf(p->r->error, sizeof(p->r->error), "%s: %s: %s",
		 p->env->ntargets > 1 ? "several -d" : "-c", what,
		 strerror(err));
	error_on(p->env->err, "%s", p->r->error);
	return RUNNER_FAILED;
}

static const struct pass_group conductor_steps = {.step = group_step};

/* One worker on one target: its pass in this process, on the target's
 * own directory, with the run's content; under mpirun, one rank of the
 * group, meeting the others around each test. */
static void alone(struct group *g, struct pass *p)
{
	const struct runner_plan *plan = &g->plan;
	const struct runner_env *env = plan->env;

	snprintf(g->path, sizeof(g->path), "%s/%s", env->scratch->path,
		 RUNNER_DATA_NAME);
	runner_pass_init(p, env, plan->r, env->scratch->dirfd,
			 env->scratch->path, g->path, plan->fill);
	/* Ranks: the lead tells; an offered rate is split over them as
	 * over forked workers. */
	if (plan->ranks) {
		p->group = &plan->ranks->steps;
		p->mute = p->warned = !plan->ranks->lead;
		p->ranked = 1;
		p->ctx.worker = plan->ranks->rank;
		p->ctx.nworkers = plan->ranks->size;
	}
}

static void forked_free(struct group *g, struct pass *p)
{
	free(g->each);
	free(p->tgt);
	g->each = NULL;
	p->tgt = NULL;
}

/* n workers forked, and the conductor's pass over their steps: 0, or -1
 * when they could not start (said, p->status failed). */
static int forked(struct group *g, struct pass *p)
{
	const struct runner_plan *plan = &g->plan;
	const struct runner_env *env = plan->env;
	const unsigned targets = plan->ntargets;
	struct workers_job wj = {.n = g->n,
				 .fn = forked_worker,
				 .arg = &g->plan,
				 .stop = env->stop,
				 .barrier_timeout_ms =
				     env->opt->barrier_timeout * 1000u};
	struct workers_failure fail;
	int rc;

	runner_pass_init(p, env, plan->r, env->scratch->dirfd,
			 env->scratch->path, env->scratch->path, plan->fill);
	p->group = &conductor_steps;
	p->group_arg = g;
	p->nworkers = g->n;
	g->each = calloc(g->n, sizeof(*g->each));
	if (targets > 1)
		p->tgt = calloc(targets, sizeof(*p->tgt));
	if (!g->each || (targets > 1 && !p->tgt)) {
		forked_free(g, p);
		p->status = group_error(p, "the workers' figures", ENOMEM);
		return -1;
	}
	/* Nothing buffered is written twice by a worker. */
	fflush(NULL);
	if (runner_watch_ms(p) && (rc = ilog_share(g->n)) != 0) {
		forked_free(g, p);
		p->status = group_error(p, "the interval log", -rc);
		return -1;
	}
	if ((rc = workers_start(&g->w, &wj, &fail)) != 0) {
		ilog_unshare();
		forked_free(g, p);
		p->status = group_error(p, fail.what, -rc);
		return -1;
	}
	return 0;
}

/* The forked workers collected after the pass: a failure after the
 * last step is the run's. */
static void forked_finish(struct group *g, struct pass *p)
{
	const struct runner_env *env = p->env;
	struct workers_failure fail;
	struct workers_result sum;
	int rc;

	if (g->w.sh) {
		rc = workers_finish(&g->w, &sum, &fail);
		if (rc && rc != -EINTR && p->status == RUNNER_OK) {
			char what[WORKERS_WHAT_MAX + 32];
			char who[PATH_MAX * 4 + 64];

			worker_name(p, fail.worker, who, sizeof(who));
			snprintf(what, sizeof(what), "%.250s: %.250s", who,
				 fail.what);
			p->status = group_error(p, what, -rc);
		}
	}
	ilog_unshare();
	forked_free(g, p);
	/* Several -d: each target's record has the run's cache figures. */
	for (unsigned i = 0; env->ntargets > 1 && i < env->ntargets; i++) {
		env->per[i].cache = p->r->cache;
		env->per[i].cache_left = p->r->cache_left;
	}
	if (*env->stop)
		p->status = RUNNER_STOPPED;
}

enum runner_status runner_workers_run(const struct runner_plan *plan)
{
	struct group g = {.plan = *plan, .n = plan->copies * plan->ntargets};
	struct pass p;

	if (g.n == 1)
		alone(&g, &p);
	else if (forked(&g, &p))
		return p.status;
	runner_pass_phases(&p);
	if (g.n > 1)
		forked_finish(&g, &p);
	return p.status;
}
