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

enum runner_status runner_run(const struct runner_env *env,
			      struct run_result *r)
{
	const struct clyde_opts *o = env->opt;
	char path[PATH_MAX + 16];
	struct phase_ctx ctx;
	enum runner_status status = RUNNER_OK;

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

	for (size_t i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
		const struct phase_ops *ph = phases[i];
		struct result_test_rec *rec = &r->t[ph->test];
		struct phase_out out;
		struct clk_mark start, end;
		int rc = 0;

		memset(&out, 0, sizeof(out));
		rec->state = RS_NOT_RUN;
		if (runner_skip_reason(o, ph->flags))
			continue;
		if (*env->stop)
			break;
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
		if (*env->stop || rc != 0) {
			if (env->progress)
				fputc('\n', env->progress);
			if (!*env->stop)
				fprintf(env->err, "clyde: %s: %s: %s\n", ph->title,
					ctx.what[0] ? ctx.what : path,
					strerror(-rc));
			status = *env->stop ? RUNNER_STOPPED : RUNNER_FAILED;
			break;
		}
		rec->state = RS_OK;
		rec->work = out.work;
		rec->elapsed = out.self_timed ? out.elapsed
					      : clk_elapsed(&start, &end);
		rec->cpu = out.self_timed ? out.cpu : clk_cpu(&start, &end);
		rec->max_latency_ns = out.max_latency_ns;
		if (env->progress)
			fprintf(env->progress, "done\n");
	}
	phase_files_release(&ctx);
	if (*env->stop)
		status = RUNNER_STOPPED;
	return status;
}
