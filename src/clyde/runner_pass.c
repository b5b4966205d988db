/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner_pass: see runner_pass.h. The timed window of a phase is exactly
 * its run() hook: setup (opening, creating) and teardown (closing) are
 * outside it, and a writing phase's fsync is inside it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "cli.h"
#include "clock.h"
#include "live.h"
#include "phase.h"
#include "plan.h"
#include "precondition.h"
#include "runner_pass.h"
#include "text.h"

int runner_sync(struct pass *p, const struct timed *t)
{
	const struct runner_env *env = p->env;

	/* A forked worker's group waits once, in the parent. */
	if (!t->sync || !env->sync || p->worker)
		return 0;
	return env->sync(env->sync_arg, t->sync->test, p->ctx.what,
			 sizeof(p->ctx.what));
}

/* setup, the sync hook, run() between two marks (in a group: its start
 * hook before, its done hook after), teardown. */
static int run_hooks(struct pass *p, const struct runner_phase *rp,
		     struct timed *t)
{
	struct phase_ctx *ctx = &p->ctx;
	const struct pass_group *g = p->group;
	struct phase_plan plan = plan_of(p->env->plan, rp->ops.test);
	int rc;

	ctx->priv = p->priv[rp->slot];
	ctx->plan = &plan;
	rc = rp->ops.setup(ctx);
	if (rc == 0)
		rc = runner_sync(p, t);
	if (g && g->start)
		rc = g->start(p, rc);
	if (rc == 0) {
		clk_mark(&t->start);
		runner_watch_begin(p, &rp->ops, t);
		rc = rp->ops.run(ctx, &t->out);
		clk_mark(&t->end);
		runner_watch_end(p, &rp->ops, t);
	}
	if (g && g->done)
		rc = g->done(p, t, rc);
	rp->ops.teardown(ctx);
	p->priv[rp->slot] = ctx->priv;
	ctx->plan = NULL;
	return rc;
}

/*
 * Run one phase: setup, run() between two marks, teardown, each with the
 * phase's own ctx->priv. Prints the progress line and, on failure, the
 * one error line. Returns 0, or nonzero when the pass must end
 * (p->status says why).
 */
static int run_phase(struct pass *p, const struct runner_phase *rp,
		     const char *title, const char *progress, struct timed *t)
{
	const struct runner_env *env = p->env;
	struct phase_ctx *ctx = &p->ctx;
	/* Not in a forked worker (its parent draws), nor on a rank that is
	 * not the lead. */
	struct live *lv = p->worker || p->mute ? NULL : env->live;
	int rc;

	phase_out_init(&t->out, !env->opt->no_latency);
	t->niv = t->nwiv = 0;
	t->out.live = p->live;
	ctx->live_ahead = p->live_ahead;
	if (env->progress) {
		fprintf(env->progress, "%s...", progress);
		fflush(env->progress);
	}
	ctx->what[0] = '\0';
	if ((p->lv = lv)) {
		p->lv_due = live_begin(lv, &rp->ops, progress, p->nworkers);
		t->out.tick = runner_tick;
		t->out.tick_arg = p;
		t->out.tick_ns = p->lv_due;
	}
	rc = p->group && p->group->step ? p->group->step(p, t)
					: run_hooks(p, rp, t);
	if (lv)
		live_end(lv, &t->out, rc == 0);
	p->lv = NULL;
	if (!*env->stop && rc == 0) {
		if (env->progress)
			fprintf(env->progress, "done\n");
		return 0;
	}
	if (env->progress)
		fputc('\n', env->progress);
	p->rc = rc;
	/* A forked worker's failure is the parent's to tell. */
	if (!*env->stop && !p->worker && !p->mute) {
		char msg[sizeof(ctx->what) + 256];

		/* The paths in it hold whatever bytes -d had: escaped, the
		 * line stays one line and the JSON error UTF-8. */
		snprintf(msg, sizeof(msg), "%s: %s%s%s", title,
			 ctx->what[0] ? ctx->what : ctx->data_path,
			 rc == -PHASE_SAID ? "" : ": ",
			 rc == -PHASE_SAID ? "" : strerror(-rc));
		text_escape(msg, p->r->error, sizeof(p->r->error), TEXT_LINE);
		error_on(env->err, "%s", p->r->error);
	}
	p->status = *env->stop ? RUNNER_STOPPED : RUNNER_FAILED;
	return 1;
}

/*
 * Before a test reads the data file an earlier one wrote: write back and
 * evict it (untimed), then check how much is still cached. Under -D the
 * data file is never cached.
 */
static void keep_cache_out(struct pass *p, const struct phase_ops *ph)
{
	const struct clyde_opts *o = p->env->opt;
	double left;
	int fd;

	if (o->direct)
		return;
	fd = openat(p->ctx.dirfd, p->ctx.data_name,
		    O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	cache_evict_fd(fd);
	if (o->drop_caches)
		cache_drop_all();
	left = cache_resident(fd, p->env->plan->size);
	close(fd);
	if (left > p->r->cache_left)
		p->r->cache_left = left;
	/* Cached data only flatters a file the RAM could hold (-r 0: the
	 * user turned this check off). */
	if (left > 0.01 && !p->warned && o->ram &&
	    p->env->plan->size < 2 * o->ram) {
		p->warned = 1;
		warning_on(
		    p->env->err,
		    "warning: %.0f%% of the data file stayed in the "
		    "page cache before %s, and it is smaller than twice the "
		    "RAM: figures may come from RAM (-D avoids the cache)",
		    left * 100.0, ph->title);
	}
}

/* t's figures into rec; 0, or -1 when its latencies find no memory. */
static int record_timed(struct result_test_rec *rec, const struct timed *t)
{
	const struct phase_out *out = &t->out;

	rec->state = RS_OK;
	rec->work = out->work;
	rec->elapsed =
	    out->self_timed ? out->elapsed : clk_elapsed(&t->start, &t->end);
	rec->user = out->self_timed ? out->user : clk_user(&t->start, &t->end);
	rec->sys = out->self_timed ? out->sys : clk_sys(&t->start, &t->end);
	rec->cpu = rec->user + rec->sys;
	rec->max_latency_ns = out->max_latency_ns;
	rec->start_unix_ns = t->start.unix_ns;
	free(rec->lat);
	rec->lat = out->lat.count ? result_hist_dup(&out->lat) : NULL;
	if (out->lat.count && !rec->lat)
		return -1;
	free(rec->workers);
	rec->nworkers = 0;
	rec->workers = t->n ? calloc(t->n, sizeof(*rec->workers)) : NULL;
	if (t->n && !rec->workers)
		return -1;
	if (t->n)
		memcpy(rec->workers, t->each, t->n * sizeof(*t->each));
	rec->nworkers = t->n;
	rec->spans = t->spans;
	if (phase_out_io_record(out, rec) < 0)
		return -1;
	return runner_watch_record(rec, t);
}

/* An offered rate the target did not keep up with: said once, by the
 * process that tells the run's figures, after the test. */
static void warn_late(const struct pass *p, const struct phase_ops *ph,
		      const struct result_test_rec *rec)
{
	char msg[256];

	if (!p->worker && !p->mute &&
	    phase_sched_behind(&rec->sched, ph->name, msg, sizeof(msg)))
		warning_on(p->env->err, "%s", msg);
}

/* Several -d: each target's figures of the phase, beside the
 * aggregate's. */
static int record_targets(struct pass *p, enum result_test test)
{
	for (unsigned i = 0; p->tgt && i < p->env->ntargets; i++) {
		struct result_test_rec *rec = &p->env->per[i].t[test];

		if (record_timed(rec, &p->tgt[i]) < 0)
			return -1;
		rec->op_bytes = p->r->t[test].op_bytes;
		memcpy(rec->how, p->r->t[test].how, sizeof(rec->how));
	}
	return 0;
}

/* --precondition's untimed step before phase rp, its bytes and time the
 * run's. Returns nonzero to end the pass. */
static int precondition(struct pass *p, const struct runner_phase *rp,
			const struct phase_plan *plan)
{
	struct result_precondition *pc = &p->r->precondition;
	struct timed t = {.n = 0};
	uint64_t bs;

	if (run_phase(p, precondition_step(rp, plan, &bs),
		      "preconditioning the data file", PRECONDITION_PROGRESS,
		      &t))
		return 1;
	p->preconditioned = 1;
	pc->passes = p->env->opt->precondition;
	pc->block_size = bs;
	pc->bytes = t.out.work;
	pc->seconds =
	    t.out.self_timed ? t.out.elapsed : clk_elapsed(&t.start, &t.end);
	return 0;
}

/* The pass ends in the test of rec: a failure (not a stop) is the
 * test's, with the run's error, whether its own run, the data file's
 * preparation for it or its precondition failed. Returns 1. */
static int failed_in(const struct pass *p, struct result_test_rec *rec)
{
	if (p->status == RUNNER_FAILED)
		rec->state = RS_FAILED;
	return 1;
}

/* One phase of the pass, unless skipped. Returns nonzero to end it. */
static int pass_phase(struct pass *p, const struct runner_phase *rp)
{
	const struct phase_ops *ph = &rp->ops;
	struct phase_plan plan = plan_of(p->env->plan, ph->test);
	struct result_test_rec *rec = &p->r->t[ph->test];
	struct timed t = {.n = 0};
	int pre;

	rec->state = RS_NOT_RUN;
	if (!plan_runs(p->env->plan, ph->test))
		return 0;
	if (*p->env->stop)
		return 1;
	/* --only without the phase that makes the data file: it runs
	 * first, untimed; a failure says what it was for, not its title.
	 * The precondition writes over it too. */
	pre = (ph->flags & PHASE_PRECONDITION) && p->env->opt->precondition &&
	      !p->preconditioned;
	if ((ph->flags & PHASE_READS || pre ||
	     (p->ctx.jr && ph->flags & PHASE_JOURNAL_DATA)) &&
	    !p->data_ready) {
		char title[96];

		snprintf(title, sizeof(title), "preparing the data file for %s",
			 ph->title);
		if (run_phase(p, runner_maker(), title,
			      "Preparing the data file", &t))
			return failed_in(p, rec);
		p->data_ready = 1;
		p->ctx.gen = PHASE_GEN_WRITE;
	}
	if (pre && precondition(p, rp, &plan))
		return failed_in(p, rec);
	/* Workers that run elsewhere each empty the cache of their own. */
	if ((ph->flags & PHASE_READS) && !(p->group && p->group->step))
		keep_cache_out(p, ph);
	t.sync = ph;
	if (run_phase(p, rp, ph->title, ph->progress, &t))
		return failed_in(p, rec);
	/* (putc may cover only part of the file: -f SIZE, syscall.) */
	if (ph->flags & PHASE_MAKES_DATA) {
		p->data_ready = 1;
		p->ctx.gen = PHASE_GEN_WRITE;
	}
	if (ph->flags & PHASE_NEW_GEN)
		p->ctx.gen++;
	rec->op_bytes = ph->op_bytes ? ph->op_bytes(&plan) : 0;
	rec->how[0] = '\0';
	if (ph->how)
		ph->how(&plan, rec->how, sizeof(rec->how));
	if (record_timed(rec, &t) < 0 || record_targets(p, ph->test) < 0) {
		rec->state = RS_FAILED;
		snprintf(p->r->error, sizeof(p->r->error),
			 "%s: its latencies: %s", ph->title, strerror(ENOMEM));
		error_on(p->env->err, "%s", p->r->error);
		p->status = RUNNER_FAILED;
		return 1;
	}
	runner_watch_cliff(p, ph);
	runner_watch_steady(p, rec);
	rec->preconditioned = p->preconditioned;
	warn_late(p, ph, rec);
	return 0;
}

void runner_pass_init(struct pass *p, const struct runner_env *env,
		      struct run_result *r, int dirfd, const char *dir,
		      const char *data_path, struct fill *fill)
{
	memset(p, 0, sizeof(*p));
	p->env = env;
	p->r = r;
	p->ctx.opt = env->opt;
	p->ctx.dirfd = dirfd;
	p->ctx.data_name = RUNNER_DATA_NAME;
	p->ctx.data_path = data_path;
	p->ctx.scratch_path = dir;
	p->ctx.buf = env->buf;
	p->ctx.fill = fill;
	p->ctx.chunk = (size_t)env->opt->chunk;
	p->ctx.size = env->plan->size;
	p->ctx.stop = env->stop;
	p->ctx.fd = -1;
	p->ctx.seed = r->seed;
	p->ctx.jr = env->jr;
	p->ctx.verified = env->verified;
	p->index = -1;
	p->nworkers = 1;
	p->warned = env->cache_said;
	p->preconditioned = env->preconditioned;
	if ((p->data_ready = env->data_kept) != 0)
		p->ctx.gen = PHASE_GEN_WRITE;
}

/*
 * --until-killed: after the pass, its tests that write in place
 * (PHASE_PRECONDITION) again and again,
 * each as long as once, until a signal, a failure (a cut) or the kill
 * that ends clyde unawares; the figures are the last round's.
 */
static void until_killed(struct pass *p)
{
	for (;;) {
		int ran = 0;

		for (size_t i = 0; i < runner_nphases(); i++) {
			const struct runner_phase *rp = runner_phase_at(i);

			if (!(rp->ops.flags & PHASE_PRECONDITION) ||
			    !plan_runs(p->env->plan, rp->ops.test))
				continue;
			if (pass_phase(p, rp))
				return;
			ran = 1;
		}
		if (!ran) {
			char names[160];

			snprintf(p->r->error, sizeof(p->r->error),
				 "--until-killed: no test that writes in place "
				 "runs (%s)",
				 runner_flag_names(PHASE_PRECONDITION, " or ",
						   names, sizeof(names)));
			error_on(p->env->err, "%s", p->r->error);
			p->status = RUNNER_FAILED;
			return;
		}
	}
}

void runner_pass_phases(struct pass *p)
{
	size_t i;

	if (runner_watch_open(p))
		return;
	for (i = 0; i < runner_nphases(); i++)
		if (pass_phase(p, runner_phase_at(i)))
			break;
	if (i == runner_nphases() && p->env->opt->until_killed)
		until_killed(p);
	runner_watch_close(p);
	/* Each phase's state goes back through its own release hook. */
	runner_release(&p->ctx, p->priv);
	if (*p->env->stop)
		p->status = RUNNER_STOPPED;
}
