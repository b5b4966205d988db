/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_get_block: block input. Chunk-sized read() calls over the whole data
 * file. One operation is one chunk. Under --verify every block read is
 * checked (its header and CRC, phase_verify).
 */
#include "config.h"

#include "phase.h"

static int read_run(struct phase_ctx *ctx, struct phase_out *out)
{
	uint64_t chunks = ctx->size / ctx->chunk;
	uint64_t t0 = clk_now_ns();
	int rc;

	for (uint64_t i = 0; i < chunks; i++) {
		if ((rc = phase_read_all(ctx, ctx->buf, ctx->chunk)) != 0 ||
		    (rc = phase_verify(ctx, ctx->buf, i * ctx->chunk,
				       ctx->chunk, ctx->gen)) != 0 ||
		    (rc = phase_op_next(ctx, out, &t0, "read")) != 0)
			return rc;
	}
	ctx->sink += ctx->buf[0];
	out->work = chunks * ctx->chunk;
	return 0;
}

const struct phase_ops phase_get_block_ops = {
    .name = "get_block",
    .title = "block input",
    .test = RT_get_block,
    .flags = PHASE_DATA | PHASE_READS,
    .progress = "Reading intelligently",
    .setup = phase_setup_read,
    .run = read_run,
    .expect = phase_expect_block,
    .teardown = phase_close,
};
