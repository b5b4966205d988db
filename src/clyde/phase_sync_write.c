/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_sync_write: synchronous writes, the latency of a database commit.
 * One operation is one write of --sync-size bytes (default 8 KiB, a
 * database page) made durable before the next begins, by --sync-method:
 * a write then fdatasync (the default) or fsync, or a write to a file
 * opened O_DSYNC (dsync) or O_SYNC (sync); under -D the file is opened
 * O_DIRECT too. The rate is operations per second and the latency
 * listing is what one commit costs: it shows a write cache that is on,
 * off or lying.
 *
 * It does what PostgreSQL's pg_test_fsync does for its "one 8kB write"
 * figures, so the two compare: a file of 16 MiB is written whole and
 * fsynced first (untimed, in setup), and every operation writes the same
 * buffer at offset 0, so no write extends the file or allocates a block
 * and fdatasync has no metadata to write. (pg_test_fsync opens its
 * open_datasync and open_sync files O_DIRECT always; clyde does so only
 * under -D, for every method.)
 *
 * The file is its own, "sync_write" in the scratch directory, not the
 * data file: it needs none of the data file's size (a run with --only
 * has none), and the data file's blocks and cache state are the other
 * phases'. It is still a data-file group figure (PHASE_DATA): -s 0 skips
 * every I/O test, this one too. The run stops at the earlier of
 * --sync-ops operations and --sync-time seconds (one clock read per
 * operation, which phase_op_done makes, decides both), and at a stop.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fill.h"
#include "jsonput.h"
#include "phase.h"
#include "units.h"
#include "xfer.h"

/* The file, in the scratch directory, and its size (pg_test_fsync's
 * 16 MiB, a WAL segment's). */
#define SYNCW_NAME	"sync_write"
#define SYNCW_FILE_SIZE (16u << 20)

/* The run state: the most writes, as sized for a default run (0: as
 * the options say). */
struct syncw_state {
	uint64_t ops;
};

/* The most writes of a test under plan p. */
static uint64_t syncw_ops(const struct phase_plan *p)
{
	const struct syncw_state *st = p->state;

	return st->ops ? st->ops : p->opt->sync_ops;
}

struct syncw {
	unsigned char *buf; /* SYNCW_FILE_SIZE bytes from lib/fill */
	int made;	    /* the file was created: teardown removes it */
};

/* Record a failure of call on the phase's file; returns -err. */
static int syncw_fail(struct phase_ctx *ctx, const char *call, int err)
{
	snprintf(ctx->what, sizeof(ctx->what), "%s %s/%s", call,
		 ctx->scratch_path, SYNCW_NAME);
	return -err;
}

/* The file, made and written whole, then fsynced and closed, as
 * pg_test_fsync prepares its own before any test. */
static int syncw_make(struct phase_ctx *ctx, struct syncw *s)
{
	ssize_t n;
	int fd;

	unlinkat(ctx->dirfd, SYNCW_NAME, 0);
	fd = openat(ctx->dirfd, SYNCW_NAME,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return syncw_fail(ctx, "create", errno);
	s->made = 1;
	n = xfer_pwrite_all(fd, s->buf, SYNCW_FILE_SIZE, 0, ctx->stop);
	if (n < 0 || fsync(fd) != 0) {
		int e = n < 0 ? (int)-n : errno;

		close(fd);
		return syncw_fail(ctx, n < 0 ? "write" : "fsync", e);
	}
	/* Its clean pages go: a 16 MiB write leaves the file's cache in
	 * large folios, and a write of 8 KiB into one dirties it whole,
	 * so that every sync would write far more than the operation. */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (close(fd) != 0)
		return syncw_fail(ctx, "close", errno);
	return 0;
}

static int syncw_setup(struct phase_ctx *ctx)
{
	const struct clyde_opts *o = ctx->opt;
	struct syncw *s = calloc(1, sizeof(*s));
	int flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC, rc;

	if (!s)
		return phase_fail_call(ctx, "malloc", ENOMEM);
	ctx->priv = s;
	if (posix_memalign((void **)&s->buf, 4096, SYNCW_FILE_SIZE) != 0) {
		s->buf = NULL;
		return phase_fail_call(ctx, "posix_memalign", ENOMEM);
	}
	/* The content --data gives the file's offsets; each operation
	 * writes offset 0's again, as pg_test_fsync writes one buffer. */
	fill_into(ctx->fill, s->buf, 0, SYNCW_FILE_SIZE, PHASE_GEN_WRITE);
	if ((rc = syncw_make(ctx, s)) != 0)
		return rc;
	if (o->sync_method == OPT_SYNCW_DSYNC)
		flags |= O_DSYNC;
	else if (o->sync_method == OPT_SYNCW_SYNC)
		flags |= O_SYNC;
	if (o->direct)
		flags |= O_DIRECT;
	ctx->fd = openat(ctx->dirfd, SYNCW_NAME, flags);
	if (ctx->fd < 0)
		return syncw_fail(ctx, "open", errno);
	return 0;
}

/* One operation: the write, and the sync call the method has. */
static int syncw_once(struct phase_ctx *ctx, const void *buf, size_t len)
{
	enum opt_sync_method m = ctx->opt->sync_method;
	ssize_t n = xfer_pwrite_all(ctx->fd, buf, len, 0, ctx->stop);

	if (n < 0)
		return syncw_fail(ctx, "write", (int)-n);
	if (m == OPT_SYNCW_FDATASYNC && fdatasync(ctx->fd) != 0)
		return syncw_fail(ctx, "fdatasync", errno);
	if (m == OPT_SYNCW_FSYNC && fsync(ctx->fd) != 0)
		return syncw_fail(ctx, "fsync", errno);
	return 0;
}

static int syncw_run(struct phase_ctx *ctx, struct phase_out *out)
{
	const struct clyde_opts *o = ctx->opt;
	const struct syncw *s = ctx->priv;
	uint64_t t0 = clk_now_ns();
	uint64_t end = t0 + (uint64_t)(o->sync_time * 1e9);
	uint64_t i, ops = syncw_ops(ctx->plan);
	int rc;

	for (i = 0; i < ops;) {
		if ((rc = syncw_once(ctx, s->buf, (size_t)o->sync_size)) != 0)
			return rc;
		phase_op_done(out, &t0);
		i++;
		if (*ctx->stop)
			return syncw_fail(ctx, "write", EINTR);
		if (t0 >= end)
			break;
	}
	out->work = i;
	return 0;
}

static void syncw_teardown(struct phase_ctx *ctx)
{
	struct syncw *s = ctx->priv;

	if (ctx->fd >= 0)
		close(ctx->fd);
	ctx->fd = -1;
	if (!s)
		return;
	if (s->made)
		unlinkat(ctx->dirfd, SYNCW_NAME, 0);
	free(s->buf);
	free(s);
	ctx->priv = NULL;
}

/* Its file, beside the data file. */
static uint64_t syncw_room(const struct phase_plan *p)
{
	(void)p;
	return SYNCW_FILE_SIZE;
}

/* Each write's bytes come from the run's fill. */
static size_t syncw_buf_need(const struct phase_plan *p)
{
	return (size_t)p->opt->sync_size;
}

/* "8k fdatasync", " direct" under -D. */
static void syncw_how(const struct phase_plan *p, char *buf, size_t len)
{
	const struct clyde_opts *o = p->opt;
	char size[24];

	units_fmt_small(size, sizeof(size), o->sync_size);
	snprintf(buf, len, "%s %s%s", size,
		 opts_sync_method_name(o->sync_method),
		 o->direct ? " direct" : "");
}

/* settings.sync_write: the method, write size and bounds. */
static json_t *syncw_json(const struct phase_plan *p, int *bad)
{
	const struct clyde_opts *o = p->opt;
	json_t *w = json_object();

	if (JP_MADE(bad, w))
		return NULL;
	jp_put(w, "method", json_string(opts_sync_method_name(o->sync_method)),
	       bad);
	jp_put(w, "size", json_integer((json_int_t)o->sync_size), bad);
	jp_put(w, "ops", json_integer((json_int_t)syncw_ops(p)), bad);
	jp_put(w, "time", json_real(o->sync_time), bad);
	return w;
}

/* Its 10000 writes take 0.3 s on tmpfs: with neither --sync-ops nor
 * --sync-time, the time alone ends it. */
static int syncw_autosize(const struct phase_plan *p, double target, char *what,
			  size_t len)
{
	struct syncw_state *st = p->state;

	(void)target;
	if (p->opt->sync_bound_set)
		return 0;
	st->ops = SYNCW_OPS_MAX;
	snprintf(what, len, "sync_write for %g s", p->opt->sync_time);
	return 1;
}

static void syncw_expect(const struct phase_plan *p, uint64_t *ops,
			 double *secs)
{
	*ops = syncw_ops(p);
	*secs = p->opt->sync_time;
}

const struct phase_ops phase_sync_write_ops = {
    .name = "sync_write",
    .title = "synchronous write",
    .test = RT_sync_write,
    .flags = PHASE_DATA,
    .progress = "Writing synchronously",
    .setup = syncw_setup,
    .run = syncw_run,
    .how = syncw_how,
    .room = syncw_room,
    .buf_need = syncw_buf_need,
    .state_size = sizeof(struct syncw_state),
    .settings = syncw_json,
    .settings_after = "sync_each_write",
    .autosize = syncw_autosize,
    .expect = syncw_expect,
    .teardown = syncw_teardown,
};
