/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner_conc: -c N > 1, bonnie++ 1.97's concurrency. N worker
 * processes (lib/workers) are forked once per pass; each makes its own
 * directory w.K (K = 1..N) in the scratch directory, with its own data
 * file and file-test directory in it, and runs the same pass of phases
 * as a -c 1 run does (runner.c), keeping its phases' state and open
 * files from one phase to the next. Each phase is one step of the
 * group: every worker does its untimed setup (the cache eviction of its
 * own data file included) and waits at the step's barrier; the parent
 * releases the step to all at once, waits for every worker's figures,
 * merges them (work, first start, last end, CPU, worst latency,
 * histograms) and records the merge as the test's figure, each
 * worker's own figures beside it, before releasing the next step.
 *
 * A worker never prints: its failure (the call, the file, the errno)
 * goes to its slot, and the parent, having stopped the others, says it
 * in one line naming the test and the worker.
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

#include "runner_impl.h"

/* What every worker is handed. */
struct conc_job {
	const struct runner_env *env;
	struct run_result *r;
};

int runner_worker_start(struct pass *p)
{
	int rc = workers_step(p->me);

	return rc ? phase_fail_call(&p->ctx, "the start of the step", -rc) : 0;
}

int runner_worker_done(struct pass *p, const struct timed *t)
{
	struct workers_self *me = p->me;
	struct workers_result *res = me->res;
	const struct phase_out *out = &t->out;
	int rc;

	workers_step_end(me);
	res->work = out->work;
	res->max_latency_ns = out->max_latency_ns;
	hist_merge(&res->lat, &out->lat);
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

/* One worker: the whole pass on its own files. */
static int conc_worker(struct workers_self *me, void *arg)
{
	const struct conc_job *job = arg;
	struct runner_env env = *job->env;
	char name[32], dir[PATH_MAX + 32], path[PATH_MAX + 48];
	struct pass p;
	int fd;

	snprintf(name, sizeof(name), "w.%u", me->index + 1);
	snprintf(dir, sizeof(dir), "%s/%s", env.scratch->path, name);
	snprintf(path, sizeof(path), "%s/%s", dir, RUNNER_DATA_NAME);
	if ((fd = worker_dir(me, env.scratch->dirfd, name, dir)) < 0)
		return fd;
	env.progress = NULL;
	runner_pass_init(&p, &env, job->r, fd, dir, path);
	p.me = me;
	/* One cache warning for the run, not one per worker. */
	p.warned = me->index != 0;
	runner_pass_phases(&p);
	close(fd);
	if (p.status == RUNNER_OK)
		return 0;
	snprintf(me->what, WORKERS_WHAT_MAX, "%.500s",
		 p.ctx.what[0] ? p.ctx.what : path);
	return p.status == RUNNER_STOPPED || !p.rc ? -EINTR : p.rc;
}

/* The group failed or was stopped: finish it, and name the worker that
 * failed first in ctx.what. Returns its -errno, or -EINTR. */
static int conc_failed(struct pass *p, int rc)
{
	struct workers_failure fail;
	struct workers_result sum;
	unsigned n = p->w->n;
	int frc = workers_finish(p->w, &sum, &fail);

	if (*p->env->stop || frc == -EINTR || (frc == 0 && rc == -EINTR))
		return -EINTR;
	if (frc == 0)
		frc = rc;
	if (fail.signo)
		snprintf(p->ctx.what, sizeof(p->ctx.what),
			 "worker %d of %u: ended by signal %d", fail.worker + 1,
			 n, fail.signo);
	else
		snprintf(p->ctx.what, sizeof(p->ctx.what),
			 "worker %d of %u: %.400s", fail.worker + 1, n,
			 fail.what[0] ? fail.what : "the worker");
	return frc;
}

/* The sync hook failed (its words in ctx.what) or was stopped, with
 * every worker at the step's barrier: they are stopped and reaped, and
 * the hook's rc is the step's. */
static int conc_unsynced(struct pass *p, int rc)
{
	struct workers_failure fail;
	struct workers_result sum;

	workers_abort(p->w);
	workers_finish(p->w, &sum, &fail);
	return rc;
}

int runner_conc_step(struct pass *p, struct timed *t)
{
	struct workers *w = p->w;
	struct workers_result sum;
	int rc;

	if (!w->sh)
		return -EINTR; /* finished after a failure */
	/* Every worker set up: then -y's wait, for the whole group. */
	if ((rc = workers_step_ready(w)) == 0 && (rc = runner_sync(p, t)))
		return conc_unsynced(p, rc);
	if (rc == 0 && (rc = workers_step_go(w)) == 0)
		rc = workers_step_wait(w, &sum);
	if (rc)
		return conc_failed(p, rc);
	/* The test's start: the first worker's, on the real-time clock. */
	if (sum.start_ns)
		t->start.unix_ns =
		    clk_unix_ns() - (clk_now_ns() - sum.start_ns);
	t->out.work = sum.work;
	t->out.max_latency_ns = sum.max_latency_ns;
	hist_merge(&t->out.lat, &sum.lat);
	t->out.self_timed = 1;
	t->out.elapsed = workers_elapsed(&sum);
	t->out.user = (double)sum.user_ns / 1e9;
	t->out.sys = (double)sum.sys_ns / 1e9;
	if (sum.cache_left > p->r->cache_left)
		p->r->cache_left = sum.cache_left;
	for (unsigned i = 0; i < w->n; i++) {
		const struct workers_result *one = workers_step_result(w, i);
		struct result_worker *e = &p->each[i];

		e->work = one->work;
		e->start = (double)(one->start_ns - sum.start_ns) / 1e9;
		e->end = (double)(one->end_ns - sum.start_ns) / 1e9;
		e->user = (double)one->user_ns / 1e9;
		e->sys = (double)one->sys_ns / 1e9;
		e->max_latency_ns = one->max_latency_ns;
	}
	t->each = p->each;
	t->n = w->n;
	return 0;
}

/* The group could not start, or a worker failed after the last step:
 * one line, the run failed. */
static enum runner_status conc_error(struct pass *p, const char *what,
				     int err)
{
	snprintf(p->r->error, sizeof(p->r->error), "-c %u: %s: %s",
		 p->env->opt->concurrency, what, strerror(err));
	fprintf(p->env->err, "clyde: %s\n", p->r->error);
	return RUNNER_FAILED;
}

enum runner_status runner_run_conc(const struct runner_env *env,
				   struct run_result *r)
{
	struct conc_job job = {.env = env, .r = r};
	struct workers_job wj = {.n = env->opt->concurrency,
				 .fn = conc_worker,
				 .arg = &job,
				 .stop = env->stop};
	struct workers w;
	struct workers_failure fail;
	struct workers_result sum;
	struct pass p;
	int rc;

	runner_pass_init(&p, env, r, env->scratch->dirfd, env->scratch->path,
			 env->scratch->path);
	p.each = calloc(wj.n, sizeof(*p.each));
	if (!p.each)
		return conc_error(&p, "the workers' figures", ENOMEM);
	p.w = &w;
	/* Nothing buffered is written twice by a worker. */
	fflush(NULL);
	if ((rc = workers_start(&w, &wj, &fail)) != 0) {
		free(p.each);
		return conc_error(&p, fail.what, -rc);
	}
	runner_pass_phases(&p);
	if (w.sh) {
		rc = workers_finish(&w, &sum, &fail);
		if (rc && rc != -EINTR && p.status == RUNNER_OK) {
			char what[WORKERS_WHAT_MAX + 32];

			snprintf(what, sizeof(what), "worker %d of %u: %s",
				 fail.worker + 1, wj.n, fail.what);
			p.status = conc_error(&p, what, -rc);
		}
	}
	free(p.each);
	if (*env->stop)
		p.status = RUNNER_STOPPED;
	return p.status;
}
