/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_putc: per-char output. In the default stdio mode, putc() of every
 * byte of the data file through a stdio stream, bonnie++ 1.03's meaning
 * and the one in years of spreadsheets: it measures the C library's
 * buffering plus the block writes underneath. With --per-char=syscall,
 * one write() system call per byte over 20 MiB, as bonnie++ 2.00
 * (-f SIZE sets how many bytes either mode covers).
 * One operation, for latency, is one chunk's worth of bytes. The stream
 * is flushed and the file fsynced inside the timed window. The bytes are
 * the run's fill data, like every other write.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "fill.h"
#include "phase.h"

static int putc_setup(struct phase_ctx *ctx)
{
	int rc = phase_setup_create(ctx);

	return rc ? rc : phase_setup_stream(ctx, "w");
}

static int putc_run(struct phase_ctx *ctx, struct phase_out *out)
{
	FILE *f = ctx->stream; /* NULL in syscall mode */
	const unsigned char *data;
	uint64_t total = phase_per_char_size(ctx->opt, ctx->size), done = 0;
	uint64_t t0 = clk_now_ns();
	int rc;

	while (done < total) {
		size_t n = (size_t)(total - done < ctx->chunk ? total - done
							      : ctx->chunk);

		data = fill_at(ctx->fill, done, n, PHASE_GEN_WRITE);
		if ((rc = phase_journal_cover(ctx, PHASE_GEN_WRITE, done, n)))
			return rc;
		if (f) {
			for (size_t i = 0; i < n; i++)
				if (putc(data[i], f) == EOF)
					return phase_fail(ctx, "write",
							  errno ? errno : EIO);
		} else {
			for (size_t i = 0; i < n; i++)
				if ((rc = phase_write_all(ctx, data + i, 1)))
					return rc;
		}
		if ((rc = phase_journal_back(ctx, PHASE_GEN_WRITE, done, n, 0)))
			return rc;
		done += n;
		if ((rc = phase_writeback(ctx, done)) != 0 ||
		    (rc = phase_op_next(ctx, out, &t0, "write")) != 0)
			return rc;
	}
	if (f && fflush(f) == EOF)
		return phase_fail(ctx, "write", errno);
	out->work = done;
	return phase_fsync(ctx);
}

const struct phase_ops phase_putc_ops = {
    .name = "putc",
    .title = "per-char output",
    .test = RT_putc,
    .flags = PHASE_DATA | PHASE_PER_CHAR,
    .progress = "Writing a byte at a time",
    .setup = putc_setup,
    .run = putc_run,
    .expect = phase_expect_per_char,
    .teardown = phase_close,
};
