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
 *
 * Under --journal it writes the data file instead, in turn from offset
 * 0 like a log, each write a generation of its own recorded in the
 * journal as it goes out and once the method made it durable
 * (journal_run.h): the acknowledged writes a cut must not lose.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fill.h"
#include "jsonput.h"
#include "optable.h"
#include "phase.h"
#include "units.h"
#include "xfer.h"

/* The file, in the scratch directory, and its size (pg_test_fsync's
 * 16 MiB, a WAL segment's). */
#define SYNCW_NAME	"sync_write"
#define SYNCW_FILE_SIZE (16u << 20)

/* --sync-method: how each write is made durable before the next. */
enum syncw_method {
	SYNCW_FDATASYNC, /* write, then fdatasync (the default) */
	SYNCW_FSYNC,	 /* write, then fsync */
	SYNCW_DSYNC,	 /* a write to a file opened O_DSYNC */
	SYNCW_SYNC,	 /* a write to a file opened O_SYNC */
};

static const char *const method_names[] = {
    [SYNCW_FDATASYNC] = "fdatasync",
    [SYNCW_FSYNC] = "fsync",
    [SYNCW_DSYNC] = "dsync",
    [SYNCW_SYNC] = "sync",
    NULL,
};

/* The bounds of --sync-size, --sync-ops and --sync-time (seconds). */
#define SYNCW_SIZE_MAX (16u << 20)
#define SYNCW_OPS_MAX  100000000ull
#define SYNCW_TIME_MAX 3600.0

/* The figure's options, private to it: 8 KiB writes (a database page)
 * by fdatasync, at most 10000 of them or a second, whichever ends
 * first, unless given. */
struct syncw_opts {
	int method; /* enum syncw_method */
	uint64_t size;
	const char *size_arg; /* as given; NULL if none */
	uint64_t ops;
	double time;
	int bound_set; /* --sync-ops or --sync-time given */
};

static struct syncw_opts syncw_given;
static const struct syncw_opts syncw_defaults = {
    .method = SYNCW_FDATASYNC, .size = 8192, .ops = 10000, .time = 1.0};

static int take_size(struct opt_ctx *c, const char *arg)
{
	char why[96];
	uint64_t v;

	if (units_parse_size(arg, 1, &v, why, sizeof(why)))
		return opt_refuse(c, why);
	if (v == 0 || v > SYNCW_SIZE_MAX)
		return opt_refuse(c, "expected 1 byte to 16m");
	syncw_given.size = v;
	syncw_given.size_arg = arg;
	return 0;
}

static int take_ops(struct opt_ctx *c, const char *arg)
{
	char why[96];
	uint64_t v;

	if (units_parse_uint(arg, SYNCW_OPS_MAX, &v, why, sizeof(why)) || !v)
		return opt_refuse(c, "expected a number of writes from 1 to "
				     "100000000");
	syncw_given.ops = v;
	syncw_given.bound_set = 1;
	return 0;
}

static int take_time(struct opt_ctx *c, const char *arg)
{
	char *end;
	double v;

	/* Plain decimal seconds: no sign, no exponent, no hex, no inf. */
	if (!arg[0] || strspn(arg, "0123456789.") != strlen(arg))
		return opt_refuse(c, "expected seconds, e.g. 1 or 0.5");
	v = strtod(arg, &end);
	if (*end || !isfinite(v) || v <= 0 || v > SYNCW_TIME_MAX)
		return opt_refuse(c, "expected seconds above 0, at most 3600");
	syncw_given.time = v;
	syncw_given.bound_set = 1;
	return 0;
}

static int take_method(struct opt_ctx *c, const char *arg)
{
	for (int i = 0; method_names[i]; i++)
		if (!strcmp(arg, method_names[i])) {
			syncw_given.method = i;
			return 0;
		}
	return opt_refuse(c, "expected fdatasync, fsync, dsync (O_DSYNC) or "
			     "sync (O_SYNC)");
}

static const struct opt syncw_entries[] = {
    {.name = "sync-method",
     .type = OPT_CALL,
     .call = take_method,
     .words = method_names,
     .arg = "METHOD",
     .help = "each write made durable by fdatasync (default), fsync, dsync "
	     "(O_DSYNC) or sync (O_SYNC)"},
    {.name = "sync-size",
     .type = OPT_CALL,
     .call = take_size,
     .arg = "SIZE",
     .help = "bytes per synchronous write (default 8k; under -D a "
	     "multiple of 512)"},
    {.name = "sync-ops",
     .type = OPT_CALL,
     .call = take_ops,
     .arg = "N",
     .help = "at most N synchronous writes (default 10000) ..."},
    {.name = "sync-time",
     .type = OPT_CALL,
     .call = take_time,
     .arg = "SECONDS",
     .help = "... or this long (default 1), whichever ends first"},
    OPT_END,
};

static const struct opt_table syncw_table = {
    "Synchronous writes (sync_write):", syncw_entries, &syncw_given};

/* Under -D, the writes are whole 512-byte sectors; under --journal,
 * whole 4 KiB blocks, each with its generation. */
static int syncw_check(struct opt_ctx *c, const struct clyde_opts *o)
{
	if (o->journal && syncw_given.size % FILL_BLOCK)
		return opt_bad(c, "--sync-size", syncw_given.size_arg,
			       "--journal writes whole 4 KiB blocks: give a "
			       "multiple of 4096");
	if (o->direct && syncw_given.size % 512)
		return opt_bad(c, "--sync-size", syncw_given.size_arg,
			       "-D writes whole 512-byte sectors: give a "
			       "multiple of 512");
	return 0;
}

static const struct phase_options syncw_options = {
    .table = &syncw_table,
    .defaults = &syncw_defaults,
    .size = sizeof(struct syncw_opts),
    .check = syncw_check,
};

/* The run state: the most writes, as sized for a default run (0: as
 * the options say). */
struct syncw_state {
	uint64_t ops;
};

/* The most writes of a test under plan p. */
static uint64_t syncw_ops(const struct phase_plan *p)
{
	const struct syncw_state *st = p->state;
	const struct syncw_opts *so = p->options;

	return st->ops ? st->ops : so->ops;
}

struct syncw {
	unsigned char *buf; /* SYNCW_FILE_SIZE bytes from lib/fill */
	int made;	    /* the file was created: teardown removes it */
	uint64_t next;	    /* --journal: the data file's offset next */
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
	const struct syncw_opts *so = ctx->plan->options;
	struct syncw *s = calloc(1, sizeof(*s));
	int flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC, rc;
	const char *name = SYNCW_NAME;

	if (!s)
		return phase_fail_call(ctx, "malloc", ENOMEM);
	ctx->priv = s;
	if (posix_memalign((void **)&s->buf, 4096, SYNCW_FILE_SIZE) != 0) {
		s->buf = NULL;
		return phase_fail_call(ctx, "posix_memalign", ENOMEM);
	}
	/* The content --data gives the file's offsets; each operation
	 * writes offset 0's again, as pg_test_fsync writes one buffer.
	 * Under --journal the data file itself, in turn (a log), each
	 * write its own generation: the content is made per write. */
	if (ctx->jr)
		name = ctx->data_name;
	else
		fill_into(ctx->fill, s->buf, 0, SYNCW_FILE_SIZE,
			  PHASE_GEN_WRITE);
	if (!ctx->jr && (rc = syncw_make(ctx, s)) != 0)
		return rc;
	if (so->method == SYNCW_DSYNC)
		flags |= O_DSYNC;
	else if (so->method == SYNCW_SYNC)
		flags |= O_SYNC;
	if (o->direct)
		flags |= O_DIRECT;
	ctx->fd = openat(ctx->dirfd, name, flags);
	if (ctx->fd < 0)
		return syncw_fail(ctx, "open", errno);
	return 0;
}

/* One operation: the write at off, and the sync call the method has. */
static int syncw_once(struct phase_ctx *ctx, const void *buf, size_t len,
		      uint64_t off)
{
	const struct syncw_opts *so = ctx->plan->options;
	int m = so->method;
	ssize_t n = xfer_pwrite_all(ctx->fd, buf, len, (off_t)off, ctx->stop);

	if (n < 0)
		return syncw_fail(ctx, "write", (int)-n);
	if (m == SYNCW_FDATASYNC && fdatasync(ctx->fd) != 0)
		return syncw_fail(ctx, "fdatasync", errno);
	if (m == SYNCW_FSYNC && fsync(ctx->fd) != 0)
		return syncw_fail(ctx, "fsync", errno);
	return 0;
}

/*
 * Under --journal: the next write of the log over the data file, its
 * generation the journal's next, recorded as it goes out and, once the
 * method's sync returned (or the O_DSYNC/O_SYNC write), acknowledged.
 */
static int syncw_logged(struct phase_ctx *ctx, struct syncw *s, size_t len)
{
	uint64_t span = ctx->size / len * len, off = s->next;
	uint32_t gen = jrun_next(ctx->jr);
	int rc;

	if (!span) {
		snprintf(ctx->what, sizeof(ctx->what),
			 "--journal: the data file (%llu bytes) is smaller "
			 "than one --sync-size write",
			 (unsigned long long)ctx->size);
		return -PHASE_SAID;
	}
	s->next = (off + len) % span;
	fill_into(ctx->fill, s->buf, off, len, gen);
	if ((rc = phase_journal_out(ctx, gen, off, len)) != 0 ||
	    (rc = syncw_once(ctx, s->buf, len, off)) != 0)
		return rc;
	return phase_journal_back(ctx, gen, off, len, 1);
}

static int syncw_run(struct phase_ctx *ctx, struct phase_out *out)
{
	const struct syncw_opts *o = ctx->plan->options;
	struct syncw *s = ctx->priv;
	uint64_t t0 = clk_now_ns();
	uint64_t end = t0 + (uint64_t)(o->time * 1e9);
	uint64_t i, ops = syncw_ops(ctx->plan);
	int rc;

	/* Under --steady, rounds until the watcher ends them. */
	if (out->until_ns != UINT64_MAX) {
		ops = UINT64_MAX;
		end = UINT64_MAX;
	}
	for (i = 0; i < ops;) {
		rc = ctx->jr ? syncw_logged(ctx, s, (size_t)o->size)
			     : syncw_once(ctx, s->buf, (size_t)o->size, 0);
		if (rc != 0)
			return rc;
		phase_op_done(out, &t0);
		i++;
		if (*ctx->stop)
			return syncw_fail(ctx, "write", EINTR);
		if (t0 >= end || t0 >= out->until_ns)
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
	const struct syncw_opts *so = p->options;

	return (size_t)so->size;
}

/* "8k fdatasync", " direct" under -D. */
static void syncw_how(const struct phase_plan *p, char *buf, size_t len)
{
	const struct syncw_opts *so = p->options;
	char size[24];

	units_fmt_small(size, sizeof(size), so->size);
	snprintf(buf, len, "%s %s%s", size, method_names[so->method],
		 p->opt->direct ? " direct" : "");
}

/* settings.sync_write: the method, write size and bounds. */
static json_t *syncw_json(const struct phase_plan *p, int *bad)
{
	const struct syncw_opts *so = p->options;
	json_t *w = json_object();

	if (JP_MADE(bad, w))
		return NULL;
	jp_put(w, "method", json_string(method_names[so->method]), bad);
	jp_put(w, "size", json_integer((json_int_t)so->size), bad);
	jp_put(w, "ops", json_integer((json_int_t)syncw_ops(p)), bad);
	jp_put(w, "time", json_real(so->time), bad);
	return w;
}

/* Its 10000 writes take 0.3 s on tmpfs: with neither --sync-ops nor
 * --sync-time, the time alone ends it. */
static int syncw_autosize(const struct phase_plan *p, double target, char *what,
			  size_t len)
{
	struct syncw_state *st = p->state;
	const struct syncw_opts *so = p->options;

	(void)target;
	if (so->bound_set)
		return 0;
	st->ops = SYNCW_OPS_MAX;
	snprintf(what, len, "sync_write for %g s", so->time);
	return 1;
}

static void syncw_expect(const struct phase_plan *p, struct phase_expect *e)
{
	const struct syncw_opts *so = p->options;

	e->ops = syncw_ops(p);
	e->secs = so->time;
}

const struct phase_ops phase_sync_write_ops = {
    .name = "sync_write",
    .title = "synchronous write",
    .test = RT_sync_write,
    .flags =
	PHASE_DATA | PHASE_PRECONDITION | PHASE_STEADY | PHASE_JOURNAL_DATA,
    .progress = "Writing synchronously",
    .setup = syncw_setup,
    .run = syncw_run,
    .how = syncw_how,
    .room = syncw_room,
    .buf_need = syncw_buf_need,
    .state_size = sizeof(struct syncw_state),
    .options = &syncw_options,
    .settings = syncw_json,
    .settings_after = "sync_each_write",
    .autosize = syncw_autosize,
    .expect = syncw_expect,
    .teardown = syncw_teardown,
};
