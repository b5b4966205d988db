/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_getc: per-char input. In the default stdio mode, getc() of every
 * byte of the data file (bonnie++ 1.03); with --per-char=syscall, one
 * read() system call per byte over a bounded size (bonnie++ 2.00). Every
 * byte is folded into ctx->sink so the compiler cannot drop the reads.
 * One operation, for latency, is one chunk's worth of bytes.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "phase.h"

static int getc_setup(struct phase_ctx *ctx)
{
	int rc = phase_setup_read(ctx);

	return rc ? rc : phase_setup_stream(ctx, "r");
}

static int getc_run(struct phase_ctx *ctx, struct phase_out *out)
{
	FILE *f = ctx->stream;
	uint64_t total = phase_per_char_size(ctx->opt, ctx->size), done = 0;
	uint64_t sum = 0;
	uint64_t t0 = clk_now_ns();
	int rc;

	while (done < total) {
		uint64_t n =
		    total - done < ctx->chunk ? total - done : ctx->chunk;
		if (f) {
			for (uint64_t i = 0; i < n; i++) {
				int c = getc(f);

				if (c == EOF)
					return ferror(f)
						   ? phase_fail(ctx, "read",
								errno)
						   : phase_fail_short(ctx);
				sum += (unsigned)c;
			}
		} else {
			for (uint64_t i = 0; i < n; i++) {
				unsigned char c;

				if ((rc = phase_read_all(ctx, &c, 1)) != 0)
					return rc;
				sum += c;
			}
		}
		done += n;
		if ((rc = phase_op_next(ctx, out, &t0, "read")) != 0)
			return rc;
	}
	ctx->sink += sum;
	out->work = done;
	return 0;
}

const struct phase_ops phase_getc_ops = {
    .name = "getc",
    .title = "per-char input",
    .test = RT_getc,
    .flags = PHASE_DATA | PHASE_PER_CHAR | PHASE_READS,
    .progress = "Reading a byte at a time",
    .setup = getc_setup,
    .run = getc_run,
    .expect = phase_expect_per_char,
    .teardown = phase_close,
};
