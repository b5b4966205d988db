/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_rewrite: for every chunk of the data file, read it, change one
 * byte, seek back and write it: the read-modify-write pattern of a
 * database page update. One operation is the read, seek and write of one
 * chunk. With -b every write is followed by fsync; the file is fsynced
 * before the clock stops. Under --verify each chunk read is checked,
 * and written back as the next generation (PHASE_NEW_GEN).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "fill.h"
#include "phase.h"

static int rewrite_setup(struct phase_ctx *ctx)
{
	int fd = phase_open(ctx, O_RDWR, "open");

	return fd < 0 ? fd : 0;
}

static int rewrite_run(struct phase_ctx *ctx, struct phase_out *out)
{
	uint64_t chunks = ctx->size / ctx->chunk;
	uint64_t t0 = clk_now_ns();
	off_t back = -(off_t)ctx->chunk;
	int rc;

	for (uint64_t i = 0; i < chunks; i++) {
		if ((rc = phase_read_all(ctx, ctx->buf, ctx->chunk)) != 0 ||
		    (rc = phase_verify(ctx, ctx->buf, i * ctx->chunk,
				       ctx->chunk, ctx->gen)) != 0)
			return rc;
		ctx->buf[i % ctx->chunk]++;
		/* Under --verify the chunk's blocks become the next
		 * generation, their CRCs over the changed byte too. */
		if (ctx->opt->verify)
			fill_remark(ctx->fill, ctx->buf, i * ctx->chunk,
				    ctx->chunk, ctx->gen + 1);
		if (lseek(ctx->fd, back, SEEK_CUR) < 0)
			return phase_fail(ctx, "lseek", errno);
		if ((rc = phase_put_chunk(ctx, out, &t0, i, ctx->buf,
					  ctx->gen + 1)) != 0)
			return rc;
	}
	out->work = chunks * ctx->chunk;
	return phase_fsync(ctx);
}

/* Block output's chunks, each read and written again: the data size
 * moved twice at the block rate. */
static void rewrite_expect(const struct phase_plan *p, struct phase_expect *e)
{
	phase_expect_block(p, e);
	e->data_moves = 2;
}

const struct phase_ops phase_rewrite_ops = {
    .name = "rewrite",
    .title = "rewrite",
    .test = RT_rewrite,
    .flags = PHASE_DATA | PHASE_READS | PHASE_NEW_GEN,
    .progress = "Rewriting",
    .setup = rewrite_setup,
    .run = rewrite_run,
    .expect = rewrite_expect,
    .teardown = phase_close,
};
