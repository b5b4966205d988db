/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner: see runner.h. The timed window of a phase is exactly its run()
 * hook: setup (opening, creating) and teardown (closing) are outside it,
 * and a writing phase's fsync is inside it.
 *
 * The table of phases is made from the registry of figures: in the order
 * of the figures, each one's phase phase_<key>_ops (none for a figure of
 * group EXT, which another program measures). The registry of phases is
 * built from it once (runner_init): every entry is checked, as fio
 * checks an engine's ops when it loads it, and copied with its absent
 * optional hooks filled in by no-ops, so a pass calls every hook of
 * every phase alike and names none. Phase-private state (ctx->priv) is
 * kept in one slot per release hook: the phases sharing a hook share the
 * slot, and the hook frees it when the pass ends.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "clock.h"
#include "fill.h"
#include "live.h"
#include "phase.h"
#include "plan.h"
#include "runner.h"
#include "runner_impl.h"
#include "text.h"

/* The phases in the registry's order, which is the run order: one for
 * each figure clyde measures (none for group EXT's). */
#define NPHASES ((size_t)FIG_NPHASED)
static const struct phase_ops *const phase_list[NPHASES] = {
#define PHASE_PTR(key, title, kind, group, head, col, cell, tick, csv)         \
	FIG_PHASED(group, &phase_##key##_ops, )
    FIGURES(PHASE_PTR)
#undef PHASE_PTR
};

/* A phase as the registry holds it: every hook there. */
struct reg_phase {
	struct phase_ops ops;
	unsigned slot; /* its ctx->priv: one per release hook */
};

static struct reg_phase registry[NPHASES];
static void (*slot_release[NPHASES])(struct phase_ctx *);
static unsigned nslots;
static const struct reg_phase *maker; /* PHASE_MAKES_DATA, or NULL */
static int built;
static const struct runner_ranks *ranks; /* under mpirun, or NULL */
static struct fill *run_fill;		 /* the run's, made by runner_run */

void runner_use_ranks(const struct runner_ranks *r)
{
	ranks = r;
}

static int no_setup(struct phase_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static void no_hook(struct phase_ctx *ctx)
{
	(void)ctx;
}

const char *runner_check_phase(const struct phase_ops *ph)
{
	const unsigned f = ph->flags;

	if (!ph->name || !*ph->name)
		return "no name";
	if (!ph->title || !*ph->title || !ph->progress || !*ph->progress)
		return "no title or no progress line";
	if (!ph->run)
		return "no run hook";
	if ((unsigned)ph->test >= RT_COUNT)
		return "no figure to fill";
	if (!figure_phased(ph->test))
		return "its figure is another program's";
	if (strcmp(ph->name, result_test_name(ph->test)) != 0)
		return "its name is not the key of the figure it fills";
	if (f & ~PHASE_FLAGS_KNOWN)
		return "unknown flags";
	if ((f & (PHASE_READS | PHASE_MAKES_DATA | PHASE_PER_CHAR)) &&
	    !(f & PHASE_DATA))
		return "PHASE_READS, PHASE_MAKES_DATA and PHASE_PER_CHAR need "
		       "PHASE_DATA";
	if ((f & PHASE_DATA) && (f & PHASE_FILES))
		return "both PHASE_DATA and PHASE_FILES";
	if (ph->state_size > PHASE_STATE_MAX)
		return "a run state larger than PHASE_STATE_MAX";
	return NULL;
}

/* Why the list as a whole cannot be a registry, or NULL. */
static const char *check_list(const struct phase_ops *const *list, size_t n,
			      size_t i)
{
	const struct phase_ops *ph = list[i];
	int makers = 0, readers = 0;

	for (size_t k = 0; k < n; k++) {
		makers += !!(list[k]->flags & PHASE_MAKES_DATA);
		readers += !!(list[k]->flags & PHASE_READS);
		if (k < i && list[k]->test == ph->test)
			return "a second phase for its figure";
	}
	if ((ph->flags & PHASE_MAKES_DATA) && makers > 1)
		return "a second phase that makes the data file";
	if ((ph->flags & PHASE_READS) && !makers)
		return "it reads the data file and no phase makes it";
	return NULL;
}

int runner_check_phases(const struct phase_ops *const *list, size_t n,
			FILE *err)
{
	char name[256];
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		const char *why = runner_check_phase(list[i]);

		if (!why)
			why = check_list(list, n, i);
		if (!why)
			continue;
		text_escape(list[i]->name ? list[i]->name : "", name,
			    sizeof(name), TEXT_LINE);
		fprintf(err, "clyde: phase %zu '%s': %s\n", i + 1, name, why);
		rc = -1;
	}
	return rc;
}

int runner_check_figures(const struct phase_ops *const *list, size_t n,
			 FILE *err)
{
	enum result_test at[RT_COUNT];
	size_t nat = 0;
	int rc = 0;

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		size_t k = 0;

		if (!figure_phased(t))
			continue;
		at[nat++] = t;
		while (k < n && list[k]->test != t)
			k++;
		if (k == n) {
			fprintf(err, "clyde: figure %s has no phase\n",
				result_test_name(t));
			rc = -1;
		}
	}
	if (rc)
		return rc;
	/* Each one there: then each in its figure's place among the
	 * figures clyde measures, as the table made from FIGURES puts
	 * phase_<key>_ops. */
	for (size_t k = 0; k < n && k < nat; k++) {
		if (list[k]->test == at[k])
			continue;
		fprintf(
		    err, "clyde: figure %s: the phase in its place fills %s\n",
		    result_test_name(at[k]), result_test_name(list[k]->test));
		rc = -1;
	}
	return rc;
}

const struct phase_ops *runner_phase_of(enum result_test t)
{
	for (size_t i = 0; i < NPHASES; i++)
		if (phase_list[i]->test == t)
			return phase_list[i];
	return NULL;
}

int runner_init(FILE *err)
{
	if (built)
		return 0;
	if (runner_check_phases(phase_list, NPHASES, err) ||
	    runner_check_figures(phase_list, NPHASES, err))
		return -1;
	nslots = 0;
	for (size_t i = 0; i < NPHASES; i++) {
		struct reg_phase *rp = &registry[i];
		struct phase_ops *o = &rp->ops;

		*o = *phase_list[i];
		if (!o->setup)
			o->setup = no_setup;
		if (!o->teardown)
			o->teardown = no_hook;
		if (!o->release)
			o->release = no_hook;
		for (rp->slot = 0; rp->slot < nslots; rp->slot++)
			if (slot_release[rp->slot] == o->release)
				break;
		if (rp->slot == nslots)
			slot_release[nslots++] = o->release;
		if (o->flags & PHASE_MAKES_DATA)
			maker = rp;
	}
	built = 1;
	return 0;
}

const char *runner_skip_reason(const struct clyde_opts *o, unsigned flags)
{
	if ((flags & PHASE_DATA) && o->size == 0)
		return "-s 0";
	if ((flags & PHASE_FILES) && o->files_num == 0)
		return "no -n";
	if ((flags & PHASE_PER_CHAR) && o->fast)
		return "-f";
	if ((flags & PHASE_PER_CHAR) && o->direct)
		return "-D";
	return NULL;
}

void runner_room(const struct clyde_opts *o, struct runner_room *r)
{
	*r = (struct runner_room){0};
	for (size_t i = 0; i < NPHASES; i++) {
		const struct phase_ops *ph = phase_list[i];
		uint64_t b;

		if (runner_skip_reason(o, ph->flags) ||
		    (o->only && !(o->only & (1u << ph->test))))
			continue;
		if (ph->flags & PHASE_FILES)
			r->files = 1;
		else if (!ph->room)
			r->data = 1;
		else {
			struct phase_plan pl = plan_of(o, ph->test);

			if ((b = ph->room(&pl)) > r->own)
				r->own = b;
		}
	}
}

int runner_sync(struct pass *p, const struct timed *t)
{
	const struct runner_env *env = p->env;

	/* A -c worker's group waits once, in the parent. */
	if (!t->sync || !env->sync || p->me)
		return 0;
	return env->sync(env->sync_arg, t->sync->test, p->ctx.what,
			 sizeof(p->ctx.what));
}

/* setup, the sync hook, run() between two marks (in a -c worker: the
 * step's barrier before, its figures published after), teardown. */
static int run_hooks(struct pass *p, const struct reg_phase *rp,
		     struct timed *t)
{
	struct phase_ctx *ctx = &p->ctx;
	struct phase_plan plan = plan_of(p->env->opt, rp->ops.test);
	int rc;

	ctx->priv = p->priv[rp->slot];
	ctx->plan = &plan;
	rc = rp->ops.setup(ctx);
	if (rc == 0)
		rc = runner_sync(p, t);
	if (rc == 0 && p->me)
		rc = runner_worker_start(p);
	if (ranks)
		rc = ranks->start(p, rc);
	if (rc == 0) {
		clk_mark(&t->start);
		runner_watch_begin(p, &rp->ops, t);
		rc = rp->ops.run(ctx, &t->out);
		clk_mark(&t->end);
		runner_watch_end(p, &rp->ops, t);
	}
	if (rc == 0 && p->me)
		rc = runner_worker_done(p, t);
	if (ranks)
		rc = ranks->done(p, t, rc);
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
static int run_phase(struct pass *p, const struct reg_phase *rp,
		     const char *title, const char *progress, struct timed *t)
{
	const struct runner_env *env = p->env;
	struct phase_ctx *ctx = &p->ctx;
	/* Not in a -c worker (its parent draws), nor on a rank that is not
	 * the lead. */
	struct live *lv = p->me || p->mute ? NULL : env->live;
	int rc;

	memset(&t->out, 0, sizeof(t->out));
	t->niv = t->nwiv = 0;
	hist_init(&t->out.lat);
	t->out.record = !env->opt->no_latency;
	t->out.live = p->me ? workers_live(p->me) : NULL;
	t->out.tick_ns = UINT64_MAX;
	ctx->live_ahead = p->me ? workers_live_ahead(p->me) : NULL;
	if (env->progress) {
		fprintf(env->progress, "%s...", progress);
		fflush(env->progress);
	}
	ctx->what[0] = '\0';
	if ((p->lv = lv)) {
		p->lv_due =
		    live_begin(lv, &rp->ops, ctx, progress, p->w ? p->w->n : 1);
		t->out.tick = runner_tick;
		t->out.tick_arg = p;
		t->out.tick_ns = p->lv_due;
	}
	rc = p->w ? runner_conc_step(p, t) : run_hooks(p, rp, t);
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
	/* A -c worker's failure is the parent's to tell. */
	if (!*env->stop && !p->me && !p->mute) {
		char msg[sizeof(ctx->what) + 256];

		/* The paths in it hold whatever bytes -d had: escaped, the
		 * line stays one line and the JSON error UTF-8. */
		snprintf(msg, sizeof(msg), "%s: %s%s%s", title,
			 ctx->what[0] ? ctx->what : ctx->data_path,
			 rc == -PHASE_SAID ? "" : ": ",
			 rc == -PHASE_SAID ? "" : strerror(-rc));
		text_escape(msg, p->r->error, sizeof(p->r->error), TEXT_LINE);
		fprintf(env->err, "clyde: %s\n", p->r->error);
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
	left = cache_resident(fd, o->size);
	close(fd);
	if (left > p->r->cache_left)
		p->r->cache_left = left;
	/* Cached data only flatters a file the RAM could hold (-r 0: the
	 * user turned this check off). */
	if (left > 0.01 && !p->warned && o->ram && o->size < 2 * o->ram) {
		p->warned = 1;
		fprintf(
		    p->env->err,
		    "clyde: warning: %.0f%% of the data file stayed in the "
		    "page cache before %s, and it is smaller than twice the "
		    "RAM: figures may come from RAM (-D avoids the cache)\n",
		    left * 100.0, ph->title);
	}
}

int runner_record(struct result_test_rec *rec, const struct timed *t)
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
	return runner_watch_record(rec, t);
}

/* Several -d: each target's figures of the phase, beside the
 * aggregate's. */
static int record_targets(struct pass *p, enum result_test test)
{
	for (unsigned i = 0; p->tgt && i < p->env->ntargets; i++) {
		struct result_test_rec *rec = &p->env->per[i].t[test];

		if (runner_record(rec, &p->tgt[i]) < 0)
			return -1;
		rec->op_bytes = p->r->t[test].op_bytes;
		memcpy(rec->how, p->r->t[test].how, sizeof(rec->how));
	}
	return 0;
}

/* One phase of the pass, unless skipped. Returns nonzero to end it. */
static int pass_phase(struct pass *p, const struct reg_phase *rp)
{
	const struct clyde_opts *o = p->env->opt;
	const struct phase_ops *ph = &rp->ops;
	struct phase_plan plan = plan_of(o, ph->test);
	struct result_test_rec *rec = &p->r->t[ph->test];
	struct timed t = {.n = 0};

	rec->state = RS_NOT_RUN;
	if (runner_skip_reason(o, ph->flags) ||
	    (o->only && !(o->only & (1u << ph->test))))
		return 0;
	if (*p->env->stop)
		return 1;
	/* --only without the phase that makes the data file: it runs
	 * first, untimed; a failure says what it was for, not its title. */
	if ((ph->flags & PHASE_READS) && !p->data_ready) {
		char title[96];

		snprintf(title, sizeof(title), "preparing the data file for %s",
			 ph->title);
		if (run_phase(p, maker, title, "Preparing the data file", &t))
			return 1;
		p->data_ready = 1;
		p->ctx.gen = PHASE_GEN_WRITE;
	}
	/* Under -c each worker empties the cache of its own data file. */
	if ((ph->flags & PHASE_READS) && !p->w)
		keep_cache_out(p, ph);
	t.sync = ph;
	if (run_phase(p, rp, ph->title, ph->progress, &t)) {
		if (p->status == RUNNER_FAILED)
			rec->state = RS_FAILED;
		return 1;
	}
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
	if (runner_record(rec, &t) < 0 || record_targets(p, ph->test) < 0) {
		rec->state = RS_FAILED;
		snprintf(p->r->error, sizeof(p->r->error),
			 "%s: its latencies: %s", ph->title, strerror(ENOMEM));
		fprintf(p->env->err, "clyde: %s\n", p->r->error);
		p->status = RUNNER_FAILED;
		return 1;
	}
	return 0;
}

void runner_pass_init(struct pass *p, const struct runner_env *env,
		      struct run_result *r, int dirfd, const char *dir,
		      const char *data_path)
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
	p->ctx.fill = run_fill;
	p->ctx.chunk = (size_t)env->opt->chunk;
	p->ctx.size = env->opt->size;
	p->ctx.stop = env->stop;
	p->ctx.fd = -1;
	p->ctx.seed = r->seed;
}

void runner_pass_phases(struct pass *p)
{
	if (runner_watch_open(p))
		return;
	for (size_t i = 0; i < NPHASES; i++)
		if (pass_phase(p, &registry[i]))
			break;
	runner_watch_close(p);
	/* Each phase's state goes back through its own release hook. */
	for (unsigned s = 0; s < nslots; s++) {
		p->ctx.priv = p->priv[s];
		if (p->ctx.priv)
			slot_release[s](&p->ctx);
	}
	if (*p->env->stop)
		p->status = RUNNER_STOPPED;
}

enum runner_status runner_run(const struct runner_env *env,
			      struct run_result *r)
{
	char path[PATH_MAX + 16];
	struct pass p;

	if (runner_init(env->err)) {
		snprintf(r->error, sizeof(r->error), "a phase is not valid");
		return RUNNER_FAILED;
	}
	fill_random(env->buf, env->buf_len, r->seed);
	r->cache = env->opt->direct ? RC_DIRECT : RC_EVICT;
	if (!(run_fill = runner_fill_new(env->opt, r->seed))) {
		snprintf(r->error, sizeof(r->error), "the write data: %s",
			 strerror(errno));
		fprintf(env->err, "clyde: %s\n", r->error);
		return RUNNER_FAILED;
	}
	if (env->opt->concurrency > 1 || env->ntargets > 1) {
		enum runner_status st = runner_run_conc(env, r);

		fill_free(run_fill);
		run_fill = NULL;
		return st;
	}
	snprintf(path, sizeof(path), "%s/%s", env->scratch->path,
		 RUNNER_DATA_NAME);
	runner_pass_init(&p, env, r, env->scratch->dirfd, env->scratch->path,
			 path);
	/* Ranks: the lead tells, and its figure is the ranks' sum. */
	if (ranks) {
		p.mute = p.warned = !ranks->lead;
		r->concurrency = ranks->size;
	}
	runner_pass_phases(&p);
	fill_free(run_fill);
	run_fill = NULL;
	return p.status;
}

struct fill *runner_fill_new(const struct clyde_opts *o, uint64_t seed)
{
	size_t max = (size_t)o->chunk, need = plan_buf_need(o);

	/* The largest single write that takes its content from the fill:
	 * a chunk, or what a phase needs (buf_need); a block at least. */
	if (need > max)
		max = need;
	if (max < FILL_BLOCK)
		max = FILL_BLOCK;
	return fill_new(&o->data, seed, o->verify, max);
}
