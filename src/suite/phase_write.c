/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_write: block output. The data file is created fresh and written
 * with chunk-sized write() calls; one byte of the buffer changes before
 * each write so no layer can recognise a repeated block. With -b every
 * write is followed by fsync. The file is fsynced before the clock stops,
 * so the figure is what reached the device, not the page cache.
 */
#include "config.h"

#include "phase.h"

static int write_run(struct phase_ctx *ctx, struct phase_out *out)
{
	uint64_t chunks = ctx->size / ctx->chunk;
	uint64_t t0 = clk_now_ns();
	int rc;

	for (uint64_t i = 0; i < chunks; i++) {
		ctx->buf[i % ctx->chunk] ^= (unsigned char)(i | 1);
		if ((rc = phase_put_chunk(ctx, out, &t0, i)) != 0)
			return rc;
	}
	out->work = chunks * ctx->chunk;
	return phase_fsync(ctx);
}

const struct phase_ops phase_put_block_ops = {
    .name = "put_block",
    .title = "block output",
    .test = RT_put_block,
    .flags = PHASE_DATA | PHASE_MAKES_DATA,
    .progress = "Writing intelligently",
    .setup = phase_setup_create,
    .run = write_run,
    .teardown = phase_close,
};
