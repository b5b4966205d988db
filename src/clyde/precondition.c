/* SPDX-License-Identifier: GPL-2.0-or-later */
/* precondition: see precondition.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "fill.h"
#include "phase.h"
#include "plan.h"
#include "precondition.h"

/* The step as made for the phase that comes: its block size. One step
 * runs at a time in a process (each worker has its own). */
static struct {
	struct runner_phase rp;
	uint64_t bs;
} step;

static int pre_setup(struct phase_ctx *ctx)
{
	int fd = phase_open(ctx, O_WRONLY, "open");

	return fd < 0 ? fd : 0;
}

/* One write of len bytes at off, whole. */
static int put(struct phase_ctx *ctx, const unsigned char *buf, size_t len,
	       uint64_t off)
{
	while (len) {
		ssize_t n = pwrite(ctx->fd, buf, len, (off_t)off);

		if (n < 0 && errno == EINTR && !*ctx->stop)
			continue;
		if (n < 0)
			return phase_fail(ctx, "write", errno);
		if (n == 0)
			return phase_fail(ctx, "write", EIO);
		buf += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int pre_run(struct phase_ctx *ctx, struct phase_out *out)
{
	const unsigned passes = ctx->opt->precondition;
	uint64_t t0 = clk_now_ns();
	int rc;

	for (unsigned k = 0; k < passes; k++) {
		for (uint64_t off = 0; off < ctx->size; off += step.bs) {
			size_t len =
			    (size_t)(ctx->size - off < step.bs ? ctx->size - off
							       : step.bs);
			const void *buf =
			    fill_at(ctx->fill, off, len, ctx->gen);

			if ((rc = phase_journal_cover(ctx, ctx->gen, off,
						      len)) != 0 ||
			    (rc = put(ctx, buf, len, off)) != 0 ||
			    (rc = phase_journal_back(ctx, ctx->gen, off, len,
						     0)) != 0 ||
			    (rc = phase_op_next(ctx, out, &t0, "write")) != 0)
				return rc;
			out->work += len;
		}
		if ((rc = phase_fsync(ctx)) != 0)
			return rc;
	}
	return 0;
}

static void pre_expect(const struct phase_plan *p, struct phase_expect *e)
{
	e->ops =
	    p->opt->precondition * ((p->run->size + step.bs - 1) / step.bs);
	e->op_bytes = step.bs;
}

const struct runner_phase *precondition_step(const struct runner_phase *ph,
					     const struct phase_plan *plan,
					     uint64_t *bs_out)
{
	size_t bs = ph->ops.buf_need ? ph->ops.buf_need(plan) : 0;

	step.bs = bs ? bs : (uint64_t)plan->opt->chunk;
	*bs_out = step.bs;
	step.rp = (struct runner_phase){
	    .ops = {.name = "precondition",
		    .title = "preconditioning the data file",
		    .test = ph->ops.test,
		    .flags = PHASE_DATA,
		    .progress = PRECONDITION_PROGRESS,
		    .setup = pre_setup,
		    .run = pre_run,
		    .expect = pre_expect,
		    .teardown = phase_close},
	    .slot = ph->slot,
	};
	return &step.rp;
}
