/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner: see runner.h. The timed window of a phase is exactly its run()
 * hook: setup (opening, creating) and teardown (closing) are outside it,
 * and a writing phase's fsync is inside it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "clock.h"
#include "fill.h"
#include "phase.h"
#include "runner.h"
#include "text.h"

static const struct phase_ops *const phases[] = {
#define PHASE_PTR(x) &phase_##x##_ops,
	PHASES(PHASE_PTR)
#undef PHASE_PTR
};

int runner_check_phases(char *why, size_t whylen)
{
	unsigned n[RT_COUNT] = {0};

	for (size_t i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
		if ((unsigned)phases[i]->test >= RT_COUNT) {
			snprintf(why, whylen, "phase %s fills no figure",
				 phases[i]->title);
			return -1;
		}
		n[phases[i]->test]++;
	}
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		if (n[t] > 1 || (n[t] == 0 && figure_bonnie(t))) {
			snprintf(why, whylen, "figure %s has %u phases, not 1",
				 result_test_name(t), n[t]);
			return -1;
		}
	}
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

/*
 * Run one phase: setup, run() between two marks, teardown. Prints the
 * progress line and, on failure, the one error line. Returns 0, or
 * nonzero when the pass must end (the status says why).
 */
static int run_phase(const struct runner_env *env, struct phase_ctx *ctx,
		     const struct phase_ops *ph, const char *title,
		     const char *progress, struct phase_out *out,
		     struct clk_mark *start, struct clk_mark *end,
		     enum runner_status *status, char *error, size_t errlen)
{
	int rc = 0;

	memset(out, 0, sizeof(*out));
	hist_init(&out->lat);
	out->record = !env->opt->no_latency;
	if (env->progress) {
		fprintf(env->progress, "%s...", progress);
		fflush(env->progress);
	}
	ctx->what[0] = '\0';
	if (ph->setup)
		rc = ph->setup(ctx);
	if (rc == 0) {
		clk_mark(start);
		rc = ph->run(ctx, out);
		clk_mark(end);
	}
	if (ph->teardown)
		ph->teardown(ctx);
	if (*env->stop || rc != 0) {
		if (env->progress)
			fputc('\n', env->progress);
		if (!*env->stop) {
			char msg[sizeof(ctx->what) + 256];

			/* The paths in it hold whatever bytes -d had: escaped,
			 * the line stays one line and the JSON error UTF-8. */
			snprintf(msg, sizeof(msg), "%s: %s: %s", title,
				 ctx->what[0] ? ctx->what : ctx->data_path,
				 strerror(-rc));
			text_escape(msg, error, errlen, TEXT_LINE);
			fprintf(env->err, "clyde: %s\n", error);
		}
		*status = *env->stop ? RUNNER_STOPPED : RUNNER_FAILED;
		return 1;
	}
	if (env->progress)
		fprintf(env->progress, "done\n");
	return 0;
}

/*
 * Before a test reads what an earlier one wrote: write back and evict it
 * (untimed), then check how much is still cached. Under -D the data file
 * is never cached, so only the file tests need this.
 */
static void keep_cache_out(const struct runner_env *env,
			   struct phase_ctx *ctx, const struct phase_ops *ph,
			   struct run_result *r, int *warned)
{
	const struct clyde_opts *o = env->opt;
	double left;
	int fd;

	if (ph->flags & PHASE_FILES) {
		if (o->drop_caches)
			cache_drop_all();
		else if (ctx->files.dirfd >= 0)
			cache_evict_tree(ctx->files.dirfd);
		return;
	}
	if (o->direct)
		return;
	fd = openat(ctx->dirfd, ctx->data_name,
		    O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	cache_evict_fd(fd);
	if (o->drop_caches)
		cache_drop_all();
	left = cache_resident(fd, o->size);
	close(fd);
	if (left > r->cache_left)
		r->cache_left = left;
	/* Cached data only flatters a file the RAM could hold (-r 0: the
	 * user turned this check off). */
	if (left > 0.01 && !*warned && o->ram && o->size < 2 * o->ram) {
		*warned = 1;
		fprintf(env->err,
			"clyde: warning: %.0f%% of the data file stayed in the "
			"page cache before %s, and it is smaller than twice the "
			"RAM: figures may come from RAM (-D avoids the cache)\n",
			left * 100.0, ph->title);
	}
}

/* True when the data file must exist before this phase runs. */
static int needs_data(const struct phase_ops *ph)
{
	return (ph->flags & PHASE_DATA) && (ph->flags & PHASE_READS);
}

enum runner_status runner_run(const struct runner_env *env,
			      struct run_result *r)
{
	const struct clyde_opts *o = env->opt;
	char path[PATH_MAX + 16];
	struct phase_ctx ctx;
	enum runner_status status = RUNNER_OK;
	int data_ready = 0, warned = 0;
	static int checked;

	if (!checked) {
		if (runner_check_phases(r->error, sizeof(r->error)) < 0) {
			fprintf(env->err, "clyde: internal error: %s\n",
				r->error);
			return RUNNER_FAILED;
		}
		checked = 1;
	}
	snprintf(path, sizeof(path), "%s/%s", env->scratch->path,
		 RUNNER_DATA_NAME);
	memset(&ctx, 0, sizeof(ctx));
	ctx.opt = o;
	ctx.dirfd = env->scratch->dirfd;
	ctx.data_name = RUNNER_DATA_NAME;
	ctx.data_path = path;
	ctx.scratch_path = env->scratch->path;
	ctx.buf = env->buf;
	ctx.chunk = (size_t)o->chunk;
	ctx.size = o->size;
	ctx.stop = env->stop;
	ctx.fd = -1;
	ctx.seed = r->seed;
	ctx.files.dirfd = -1;
	fill_random(env->buf, env->buf_len, r->seed);
	r->cache = o->direct ? RC_DIRECT : RC_EVICT;

	for (size_t i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
		const struct phase_ops *ph = phases[i];
		struct result_test_rec *rec = &r->t[ph->test];
		struct phase_out out;
		struct clk_mark start, end;

		rec->state = RS_NOT_RUN;
		if (runner_skip_reason(o, ph->flags) ||
		    (o->only && !(o->only & (1u << ph->test))))
			continue;
		if (*env->stop)
			break;
		/* --only without an output test: write the file, untimed;
		 * a failure says what it was for, not "block output". */
		if (needs_data(ph) && !data_ready) {
			char title[96];

			snprintf(title, sizeof(title),
				 "preparing the data file for %s", ph->title);
			if (run_phase(env, &ctx, &phase_put_block_ops, title,
				      "Preparing the data file", &out, &start,
				      &end, &status, r->error,
				      sizeof(r->error)))
				break;
			data_ready = 1;
		}
		if (ph->flags & PHASE_READS)
			keep_cache_out(env, &ctx, ph, r, &warned);
		if (run_phase(env, &ctx, ph, ph->title, ph->progress, &out,
			      &start, &end, &status, r->error,
			      sizeof(r->error))) {
			if (status == RUNNER_FAILED)
				rec->state = RS_FAILED;
			break;
		}
		/* (putc may cover only part of the file: -f SIZE, syscall.) */
		if (ph->test == RT_put_block)
			data_ready = 1;
		rec->state = RS_OK;
		rec->work = out.work;
		rec->elapsed = out.self_timed ? out.elapsed
					      : clk_elapsed(&start, &end);
		rec->user = out.self_timed ? out.user : clk_user(&start, &end);
		rec->sys = out.self_timed ? out.sys : clk_sys(&start, &end);
		rec->cpu = rec->user + rec->sys;
		rec->max_latency_ns = out.max_latency_ns;
		rec->lat = out.lat;
	}
	phase_files_release(&ctx);
	if (*env->stop)
		status = RUNNER_STOPPED;
	return status;
}
