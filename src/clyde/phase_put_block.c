/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_put_block: block output. The data file is created fresh and written
 * with chunk-sized write() calls, each chunk the content --data gives its
 * offset (lib/fill: by default random bytes with every 512-byte sector
 * stamped, so that no layer can compress or deduplicate it, at the cost
 * of a few stores; no copy). With -b every
 * write is followed by fsync. The file is fsynced before the clock stops,
 * so the figure is what reached the device, not the page cache.
 */
#include "config.h"

#include "fill.h"
#include "phase.h"

static int write_run(struct phase_ctx *ctx, struct phase_out *out)
{
	uint64_t chunks = ctx->size / ctx->chunk;
	uint64_t t0 = clk_now_ns();
	int rc;

	for (uint64_t i = 0; i < chunks; i++) {
		const void *buf = fill_at(ctx->fill, i * ctx->chunk, ctx->chunk,
					  PHASE_GEN_WRITE);

		if ((rc = phase_put_chunk(ctx, out, &t0, i, buf,
					  PHASE_GEN_WRITE)) != 0)
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
    .expect = phase_expect_block,
    .teardown = phase_close,
};
