/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_io: the system-call wrappers every phase uses, so that short
 * transfers, EINTR and error context are handled the same way everywhere.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "phase.h"
#include "plan.h"
#include "xfer.h"

int phase_fail(struct phase_ctx *ctx, const char *call, int err)
{
	snprintf(ctx->what, sizeof(ctx->what), "%s %s", call, ctx->data_path);
	return -err;
}

int phase_fail_verify(struct phase_ctx *ctx, const struct fill_bad *bad)
{
	char text[256];

	fill_bad_text(bad, text, sizeof(text));
	snprintf(ctx->what, sizeof(ctx->what), "verify %s: %s", ctx->data_path,
		 text);
	return -PHASE_SAID;
}

int phase_fail_short(struct phase_ctx *ctx)
{
	snprintf(ctx->what, sizeof(ctx->what),
		 "read %s: file shorter than expected", ctx->data_path);
	return -ENODATA;
}

int phase_fail_call(struct phase_ctx *ctx, const char *call, int err)
{
	snprintf(ctx->what, sizeof(ctx->what), "%s", call);
	return -err;
}

int phase_open(struct phase_ctx *ctx, int flags, const char *call)
{
	int fd;

	flags |= O_NOFOLLOW | O_CLOEXEC;
	if (ctx->opt->direct)
		flags |= O_DIRECT;
	fd = openat(ctx->dirfd, ctx->data_name, flags, 0600);
	if (fd < 0)
		return phase_fail(ctx, call, errno);
	ctx->fd = fd;
	ctx->wb_prev = ctx->wb_next = 0;
	return fd;
}

int phase_setup_read(struct phase_ctx *ctx)
{
	int fd = phase_open(ctx, O_RDONLY, "open");

	return fd < 0 ? fd : 0;
}

int phase_setup_create(struct phase_ctx *ctx)
{
	int fd;

	/* Fresh: what an earlier run or the per-char test left is neither
	 * reused nor overwritten in place. */
	unlinkat(ctx->dirfd, ctx->data_name, 0);
	fd = phase_open(ctx, O_WRONLY | O_CREAT | O_EXCL, "create");
	return fd < 0 ? fd : 0;
}

int phase_setup_stream(struct phase_ctx *ctx, const char *mode)
{
	FILE *f;

	if (ctx->opt->per_char == PER_CHAR_SYSCALL)
		return 0;
	f = fdopen(ctx->fd, mode);
	if (!f)
		return phase_fail(ctx, "fdopen", errno);
	ctx->stream = f;
	return 0;
}

void phase_close(struct phase_ctx *ctx)
{
	if (ctx->stream) {
		fclose(ctx->stream);
		ctx->stream = NULL;
		ctx->fd = -1;
	}
	if (ctx->fd >= 0) {
		close(ctx->fd);
		ctx->fd = -1;
	}
}

int phase_write_all(struct phase_ctx *ctx, const void *buf, size_t len)
{
	ssize_t n = xfer_write_all(ctx->fd, buf, len, ctx->stop);

	return n < 0 ? phase_fail(ctx, "write", (int)-n) : 0;
}

int phase_read_all(struct phase_ctx *ctx, void *buf, size_t len)
{
	ssize_t n = xfer_read_all(ctx->fd, buf, len, ctx->stop);

	if (n < 0)
		return phase_fail(ctx, "read", (int)-n);
	return (size_t)n < len ? phase_fail_short(ctx) : 0;
}

#define WB_WINDOW (8ull << 20)

int phase_writeback(struct phase_ctx *ctx, uint64_t pos)
{
	int fd = ctx->fd;

	if (ctx->opt->direct || pos < ctx->wb_next + WB_WINDOW)
		return 0;
	if (sync_file_range(fd, (off_t)ctx->wb_next,
			    (off_t)(pos - ctx->wb_next), SYNC_FILE_RANGE_WRITE))
		return phase_fail(ctx, "sync_file_range", errno);
	if (ctx->wb_next > ctx->wb_prev) {
		off_t off = (off_t)ctx->wb_prev;
		off_t len = (off_t)(ctx->wb_next - ctx->wb_prev);

		/* Waiting for the window before the last: the device is
		 * about halfway through it, and has the last one to go. */
		if (ctx->live_ahead)
			__atomic_store_n(
			    ctx->live_ahead,
			    (pos - ctx->wb_prev - (uint64_t)len / 2) /
				ctx->chunk,
			    __ATOMIC_RELAXED);
		if (sync_file_range(fd, off, len,
				    SYNC_FILE_RANGE_WAIT_BEFORE |
					SYNC_FILE_RANGE_WRITE |
					SYNC_FILE_RANGE_WAIT_AFTER))
			return phase_fail(ctx, "sync_file_range", errno);
		posix_fadvise(fd, off, len, POSIX_FADV_DONTNEED);
	}
	ctx->wb_prev = ctx->wb_next;
	ctx->wb_next = pos;
	return 0;
}

/* A failure of the journal (a record, a flush); returns -err. */
static int journal_fail(struct phase_ctx *ctx, const char *what, int err)
{
	snprintf(ctx->what, sizeof(ctx->what), "--journal %s: %s",
		 ctx->opt->journal, what);
	return -err;
}

int phase_fsync(struct phase_ctx *ctx)
{
	int rc;

	if (fsync(ctx->fd) != 0)
		return phase_fail(ctx, "fsync", errno);
	if (ctx->jr && (rc = jrun_synced(ctx->jr)) != 0)
		return journal_fail(ctx, "recording a sync", -rc);
	return 0;
}

int phase_journal_out(struct phase_ctx *ctx, uint32_t gen, uint64_t off,
		      uint64_t len)
{
	int rc;

	if (!ctx->jr)
		return 0;
	if ((rc = jrun_intent(ctx->jr, gen, off, len)) != 0 ||
	    (rc = jrun_send(ctx->jr)) != 0)
		return journal_fail(ctx, "recording a write", -rc);
	return 0;
}

int phase_journal_cover(struct phase_ctx *ctx, uint32_t gen, uint64_t off,
			uint64_t len)
{
	int rc;

	if (!ctx->jr)
		return 0;
	if (ctx->opt->sync_each)
		return phase_journal_out(ctx, gen, off, len);
	/* phase_writeback's window: a record every 8 MiB. */
	if ((rc = jrun_cover(ctx->jr, gen, off, len, WB_WINDOW)) != 0)
		return journal_fail(ctx, "recording a write", -rc);
	return 0;
}

int phase_journal_back(struct phase_ctx *ctx, uint32_t gen, uint64_t off,
		       uint64_t len, int acked)
{
	int rc;

	if (!ctx->jr)
		return 0;
	if (!acked) {
		jrun_written(ctx->jr, gen, off, len);
		return 0;
	}
	if ((rc = jrun_acked(ctx->jr, gen, off, len)) != 0)
		return journal_fail(ctx, "recording an acknowledgement", -rc);
	return 0;
}

int phase_verify_journal(struct phase_ctx *ctx, const void *buf, uint64_t off,
			 size_t len)
{
	const unsigned char *b = buf;
	struct fill_bad bad;

	/* Whole blocks only, as fill_check takes them. */
	for (uint64_t at = (off + FILL_BLOCK - 1) / FILL_BLOCK * FILL_BLOCK;
	     at + FILL_BLOCK <= off + len; at += FILL_BLOCK) {
		uint32_t gen = jrun_expect(ctx->jr, at / FILL_BLOCK);

		if (fill_check(ctx->fill, b + (at - off), at, FILL_BLOCK, gen,
			       &bad) != FILL_OK)
			return phase_fail_verify(ctx, &bad);
	}
	return 0;
}

void phase_watch(void *arg, uint64_t ops)
{
	struct phase_out *out = arg;

	out->ops = ops;
	phase_op_tick(out, clk_now_ns());
}

uint64_t phase_per_char_size(const struct clyde_opts *o, uint64_t size)
{
	uint64_t want = o->per_char_size;

	if (!want)
		want = o->per_char == PER_CHAR_SYSCALL
			   ? OPT_PER_CHAR_SYSCALL_DEFAULT
			   : size;
	return want < size ? want : size;
}

void phase_expect_block(const struct phase_plan *p, struct phase_expect *e)
{
	e->ops = p->run->size / p->opt->chunk;
	e->op_bytes = p->opt->chunk;
	e->data_moves = 1;
}

/* A chunk an operation, the last one short. */
void phase_expect_per_char(const struct phase_plan *p, struct phase_expect *e)
{
	uint64_t bytes = phase_per_char_size(p->opt, p->run->size);

	e->ops = (bytes + p->opt->chunk - 1) / p->opt->chunk;
	e->op_bytes = p->opt->chunk;
}
