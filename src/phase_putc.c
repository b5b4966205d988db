/*
 * phase_putc: per-char output. In the default stdio mode, putc() of every
 * byte of the data file through a stdio stream, bonnie++ 1.03's meaning
 * and the one in years of spreadsheets: it measures the C library's
 * buffering plus the block writes underneath. With --per-char=syscall,
 * one write() system call per byte over a bounded size, as bonnie++ 2.00.
 * One operation, for latency, is one chunk's worth of bytes. The stream
 * is flushed and the file fsynced inside the timed window.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "phase.h"

static int putc_setup(struct phase_ctx *ctx)
{
	FILE *f;
	int fd;

	/* A fresh file: a leftover of any earlier run is not ours to reuse. */
	unlinkat(ctx->dirfd, ctx->data_name, 0);
	fd = phase_open(ctx, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, "create");
	if (fd < 0)
		return fd;
	if (ctx->opt->per_char == PER_CHAR_SYSCALL)
		return 0;
	f = fdopen(fd, "w");
	if (!f)
		return phase_fail(ctx, "fdopen", errno);
	ctx->stream = f;
	return 0;
}

static int putc_run_stdio(struct phase_ctx *ctx, struct phase_out *out)
{
	FILE *f = ctx->stream;
	uint64_t total = ctx->size, done = 0, worst = 0;
	uint64_t t0 = clk_now_ns();

	while (done < total) {
		uint64_t n = total - done < ctx->chunk ? total - done : ctx->chunk;
		for (uint64_t i = 0; i < n; i++)
			if (putc((int)((done + i) & 0x7f), f) == EOF)
				return phase_fail(ctx, "write", errno ? errno : EIO);
		done += n;
		phase_op_done(&t0, &worst);
		if (*ctx->stop)
			return phase_fail(ctx, "write", EINTR);
	}
	if (fflush(f) == EOF)
		return phase_fail(ctx, "write", errno);
	out->work = done;
	out->max_latency_ns = worst;
	return phase_fsync(ctx);
}

static int putc_run_syscall(struct phase_ctx *ctx, struct phase_out *out)
{
	uint64_t total = phase_per_char_size(ctx), done = 0, worst = 0;
	uint64_t t0 = clk_now_ns();
	int rc;

	while (done < total) {
		uint64_t n = total - done < ctx->chunk ? total - done : ctx->chunk;
		for (uint64_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)((done + i) & 0x7f);

			if ((rc = phase_write_all(ctx, &c, 1)) != 0)
				return rc;
		}
		done += n;
		phase_op_done(&t0, &worst);
		if (*ctx->stop)
			return phase_fail(ctx, "write", EINTR);
	}
	out->work = done;
	out->max_latency_ns = worst;
	return phase_fsync(ctx);
}

static int putc_run(struct phase_ctx *ctx, struct phase_out *out)
{
	if (ctx->opt->per_char == PER_CHAR_SYSCALL)
		return putc_run_syscall(ctx, out);
	return putc_run_stdio(ctx, out);
}

const struct phase_ops phase_putc_ops = {
	.name = "putc",
	.title = "per-char output",
	.test = RT_putc,
	.flags = PHASE_PER_CHAR | PHASE_WRITES,
	.progress = "Writing a byte at a time",
	.setup = putc_setup,
	.run = putc_run,
	.teardown = phase_close,
};
