/*
 * runner: see runner.h. The timed window of a phase is exactly its run()
 * hook: setup (opening, creating) and teardown (closing) are outside it,
 * and a writing phase's fsync is inside it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "fill.h"
#include "phase.h"
#include "runner.h"

static const struct phase_ops *const phases[] = {
#define PHASE_PTR(x) &phase_##x##_ops,
	PHASES(PHASE_PTR)
#undef PHASE_PTR
};

const char *runner_skip_reason(const struct clyde_opts *o, unsigned flags)
{
	if (o->size == 0)
		return "-s 0";
	if ((flags & PHASE_PER_CHAR) && o->fast)
		return "-f";
	if ((flags & PHASE_PER_CHAR) && o->direct)
		return "-D";
	return NULL;
}

enum runner_status runner_run(const struct runner_env *env,
			      struct run_result *r)
{
	const struct clyde_opts *o = env->opt;
	char path[PATH_MAX + 16];
	struct phase_ctx ctx;

	snprintf(path, sizeof(path), "%s/%s", env->scratch->path,
		 RUNNER_DATA_NAME);
	memset(&ctx, 0, sizeof(ctx));
	ctx.opt = o;
	ctx.dirfd = env->scratch->dirfd;
	ctx.data_name = RUNNER_DATA_NAME;
	ctx.data_path = path;
	ctx.buf = env->buf;
	ctx.chunk = (size_t)o->chunk;
	ctx.size = o->size;
	ctx.stop = env->stop;
	ctx.fd = -1;
	fill_random(env->buf, ctx.chunk, r->seed);

	for (size_t i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
		const struct phase_ops *ph = phases[i];
		struct result_test_rec *rec = &r->t[ph->test];
		struct phase_out out = {0, 0};
		struct clk_mark start, end;
		int rc = 0;

		rec->state = RS_NOT_RUN;
		if (runner_skip_reason(o, ph->flags))
			continue;
		if (*env->stop)
			return RUNNER_STOPPED;
		if (env->progress) {
			fprintf(env->progress, "%s...", ph->progress);
			fflush(env->progress);
		}
		ctx.what[0] = '\0';
		if (ph->setup)
			rc = ph->setup(&ctx);
		if (rc == 0) {
			clk_mark(&start);
			rc = ph->run(&ctx, &out);
			clk_mark(&end);
		}
		if (ph->teardown)
			ph->teardown(&ctx);
		if (*env->stop) {
			if (env->progress)
				fputc('\n', env->progress);
			return RUNNER_STOPPED;
		}
		if (rc != 0) {
			if (env->progress)
				fputc('\n', env->progress);
			fprintf(env->err, "clyde: %s: %s: %s\n", ph->title,
				ctx.what[0] ? ctx.what : path, strerror(-rc));
			return RUNNER_FAILED;
		}
		rec->state = RS_OK;
		rec->work = out.work;
		rec->elapsed = clk_elapsed(&start, &end);
		rec->cpu = clk_cpu(&start, &end);
		rec->max_latency_ns = out.max_latency_ns;
		if (env->progress)
			fprintf(env->progress, "done\n");
	}
	return RUNNER_OK;
}
