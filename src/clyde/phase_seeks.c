/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_seeks: random seeks. N seeker processes (default 5) share S
 * seeks (default 8192). The parent makes one ticket per seek from the
 * run's seed (seek.h: no chunk twice until all were read) and hands them
 * out through a pipe, so the set of seeks is fixed by the seed whichever
 * seeker takes which. Each seek is
 * an lseek to a random chunk and a read of it; one in ten also changes a
 * byte, seeks back and writes the chunk (-b: fsync after it).
 *
 * The seekers are lib/workers processes: each opens the data file
 * itself, then waits at the start barrier so they start together. The
 * figure runs from the first seeker's start to the last one's end, and
 * %CP is the sum of the seekers' own CPU time: bonnie++ 1.97+ adds
 * whole-process figures once per seeker, which inflates it. Each
 * seeker's latencies go into its own histogram, and the merge adds them
 * bucket by bucket, so the percentiles are exact over all seeks.
 *
 * With no seek count given (the plan's seeks_time, clyde/plan.h) there is
 * no pipe: seeker i of n takes tickets i, i + n, i + 2n, ... of the same
 * stream for seeks_time seconds from its own start, and the count done
 * is the figure's work.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "phase.h"
#include "plan.h"
#include "seek.h"
#include "workers.h"

/* Salt for the tickets' stream of the run's seed. */
#define SEEK_SALT 0x7365656b73ull

/* What every seeker is handed (each gets its own copy of ctx). */
struct seek_job {
	struct phase_ctx *ctx;
	int tickets;	/* the read end of the tickets' pipe */
	int feed;	/* its write end, the parent's: closed in a seeker;
			 * both -1 when the seekers seek for a time */
	int record;	/* fill the latency histogram */
	uint64_t *live; /* the -c worker's count of operations, or NULL */
	int watched;	/* else each seeker counts in its own slot, for the
			 * parent's watch (the status line); 0: no count */
};

/* One seek: read the chunk a ticket names, and maybe write it back. */
static int seek_once(struct phase_ctx *ctx, uint64_t ticket, uint64_t nchunks)
{
	off_t off = (off_t)(seek_ticket_chunk(ticket, nchunks) * ctx->chunk);
	int rc;

	/* The seekers share the file, and a buffered read that meets
	 * another seeker's write of the same chunk may see part of each
	 * (the page cache copies without the page's lock): a block that
	 * fails its check is read again before it counts as corrupt. A
	 * real fault is still there on the second read. */
	for (int tries = 0;; tries++) {
		if (lseek(ctx->fd, off, SEEK_SET) < 0)
			return phase_fail(ctx, "lseek", errno);
		if ((rc = phase_read_all(ctx, ctx->buf, ctx->chunk)) != 0)
			return rc;
		rc = phase_verify(ctx, ctx->buf, (uint64_t)off, ctx->chunk,
				  ctx->gen);
		if (rc != -PHASE_SAID || tries == 2)
			break;
	}
	if (rc)
		return rc;
	if (!seek_ticket_writes(ticket))
		return 0;
	ctx->buf[ticket % ctx->chunk]++;
	/* The same generation, its CRCs over the changed byte. */
	if (ctx->opt->verify)
		fill_remark(ctx->fill, ctx->buf, (uint64_t)off, ctx->chunk,
			    ctx->gen);
	if (lseek(ctx->fd, off, SEEK_SET) < 0)
		return phase_fail(ctx, "lseek", errno);
	if ((rc = phase_write_all(ctx, ctx->buf, ctx->chunk)) != 0)
		return rc;
	if (ctx->opt->sync_each)
		return phase_fsync(ctx);
	return 0;
}

/* One ticket's seek, counted and timed; *wrote notes a write. */
static int seek_step(struct phase_ctx *ctx, uint64_t ticket, uint64_t nchunks,
		     struct phase_out *out, uint64_t *t0, int *wrote)
{
	int rc;

	if ((rc = seek_once(ctx, ticket, nchunks)) != 0)
		return rc;
	*wrote |= seek_ticket_writes(ticket);
	out->work++;
	phase_op_done(out, t0);
	return 0;
}

/* The writes reach the device before this seeker's clock stops. */
static int seek_done(struct phase_ctx *ctx, int wrote)
{
	if (wrote && !*ctx->stop)
		return phase_fsync(ctx);
	return 0;
}

/* Take tickets until the pipe is empty and closed, seeking for each. */
static int seek_all(struct phase_ctx *ctx, int tickets, struct phase_out *out)
{
	uint64_t nchunks = ctx->size / ctx->chunk, ticket, t0 = clk_now_ns();
	int rc = 0, wrote = 0;

	while (!*ctx->stop) {
		ssize_t n = read(tickets, &ticket, sizeof(ticket));

		if (n == 0)
			break;
		if (n != (ssize_t)sizeof(ticket)) {
			if (n < 0 && errno == EINTR)
				continue;
			return phase_fail_call(ctx, "read tickets (pipe)",
					       n < 0 ? errno : EIO);
		}
		if ((rc = seek_step(ctx, ticket, nchunks, out, &t0, &wrote)))
			return rc;
	}
	return seek_done(ctx, wrote);
}

/* No count: tickets index, index + n, ... for seeks_time seconds. */
static int seek_timed(struct phase_ctx *ctx, unsigned index, unsigned n,
		      struct phase_out *out)
{
	uint64_t nchunks = ctx->size / ctx->chunk, t0 = clk_now_ns();
	uint64_t end = t0 + (uint64_t)(ctx->plan->run->seeks_time * 1e9);
	int rc, wrote = 0;

	for (uint64_t k = index; !*ctx->stop && t0 < end; k += n) {
		uint64_t ticket =
		    seek_ticket(ctx->seed ^ SEEK_SALT, k, nchunks);

		if ((rc = seek_step(ctx, ticket, nchunks, out, &t0, &wrote)))
			return rc;
	}
	return seek_done(ctx, wrote);
}

/*
 * One seeker process (lib/workers runs it): its own buffer and file
 * offset, nothing shared with the others; ready once the file is open.
 */
static int seeker(struct workers_self *me, void *arg)
{
	const struct seek_job *job = arg;
	struct phase_ctx *ctx = job->ctx;
	/* Its count goes to the -c worker's, else (watched) to its own
	 * slot, which the parent adds up for the tick hook (phase_watch). */
	uint64_t *live = job->watched ? workers_live(me) : NULL;
	struct phase_out out;
	unsigned char *buf;
	int rc;

	phase_out_init(&out, job->record);
	out.live = job->live ? job->live : live;
	if (job->feed >= 0)
		close(job->feed);
	if (posix_memalign((void **)&buf, 4096, ctx->chunk) != 0) {
		rc = -ENOMEM;
		goto report;
	}
	memcpy(buf, ctx->buf, ctx->chunk);
	ctx->buf = buf;
	ctx->fd = -1;
	if ((rc = phase_open(ctx, O_RDWR, "open")) < 0)
		goto report;
	/* Readahead around random offsets would turn later seeks into cache
	 * hits: the figure is the device's random reads. */
	if (!ctx->opt->direct)
		posix_fadvise(ctx->fd, 0, 0, POSIX_FADV_RANDOM);
	if ((rc = workers_barrier(me)) != 0) {
		rc = phase_fail_call(ctx, "seeker start (pipe)", -rc);
		goto report;
	}
	rc = job->tickets < 0 ? seek_timed(ctx, me->index, me->n, &out)
			      : seek_all(ctx, job->tickets, &out);
	me->res->work = out.work;
	me->res->ops = out.work;
	me->res->max_latency_ns = out.max_latency_ns;
	hist_merge(&me->res->lat, &out.lat);
	phase_out_io_put(&out, &me->res->io);
report:
	/* The file and the buffer go with the process. */
	snprintf(me->what, WORKERS_WHAT_MAX, "%s", ctx->what);
	return rc;
}

/*
 * Write tickets *next.. up to the seek count, blocking as the seekers
 * drain the pipe (or, nonblock, until it is full). A batch is PIPE_BUF
 * bytes at most, so a write is all or nothing and no ticket is split.
 */
static int feed(struct phase_ctx *ctx, int fd, uint64_t *next, int nonblock)
{
	uint64_t batch[512], total = ctx->plan->run->seeks;
	uint64_t nchunks = ctx->size / ctx->chunk;

	while (*next < total) {
		size_t n = total - *next < 512 ? (size_t)(total - *next) : 512,
		       done = 0;

		for (size_t i = 0; i < n; i++)
			batch[i] = seek_ticket(ctx->seed ^ SEEK_SALT, *next + i,
					       nchunks);
		while (done < n * sizeof(uint64_t)) {
			ssize_t w = write(fd, (char *)batch + done,
					  n * sizeof(uint64_t) - done);

			if (w < 0 && errno == EINTR && !*ctx->stop)
				continue;
			if (w < 0 && errno == EAGAIN && nonblock)
				return -EAGAIN; /* full; nothing of it written
						 */
			if (w < 0)
				return phase_fail_call(
				    ctx, "write tickets (pipe)", errno);
			done += (size_t)w;
		}
		*next += n;
	}
	return 0;
}

/*
 * Once every seeker is ready, let them all go and feed them the tickets
 * the pipe could not take before. Returns 0 or -errno; a failed feed
 * (EPIPE: every seeker gone) yields to the seekers' reasons, which
 * workers_finish gives.
 */
static int seeks_feed(struct phase_ctx *ctx, struct workers *w, int fd,
		      uint64_t *next)
{
	int rc = workers_go(w);

	if (rc == 0)
		rc = feed(ctx, fd, next, 0);
	return rc;
}

/* The seekers reaped and merged into out: first start, last end, summed
 * CPU, all latencies. 0, or the first failure (the feeder's, feed_rc,
 * when no seeker had one). */
static int seeks_end(struct phase_ctx *ctx, struct workers *w, int feed_rc,
		     struct phase_out *out)
{
	struct workers_failure fail;
	struct workers_result sum;
	int rc = workers_finish(w, &sum, &fail);

	if (rc == -ECHILD && !fail.what[0])
		phase_fail_call(ctx, "seeker", ECHILD);
	else if (rc && rc != -EINTR)
		snprintf(ctx->what, sizeof(ctx->what), "%s", fail.what);
	else if (rc == 0)
		rc = feed_rc;
	out->work = sum.work;
	out->max_latency_ns = sum.max_latency_ns;
	hist_merge(&out->lat, &sum.lat);
	phase_out_io_add(out, &sum.io);
	out->self_timed = 1;
	out->elapsed = workers_elapsed(&sum);
	out->start_ns = sum.start_ns;
	out->end_ns = sum.end_ns;
	out->user = (double)sum.user_ns / 1e9;
	out->sys = (double)sum.sys_ns / 1e9;
	return rc;
}

/* No seek count: the seekers make their own tickets for seeks_time
 * seconds, with no pipe to feed. */
static int seeks_timed(struct phase_ctx *ctx, struct seek_job *job,
		       const struct workers_job *wj, struct phase_out *out)
{
	struct workers_failure fail;
	struct workers w;
	int rc;

	job->tickets = job->feed = -1;
	fflush(NULL);
	if ((rc = workers_start(&w, wj, &fail)) != 0)
		return phase_fail_call(ctx, fail.what, -rc);
	/* As with tickets: the parent's wait feeds the clock hook. */
	if (out->tick) {
		w.watch = phase_watch;
		w.watch_arg = out;
	}
	return seeks_end(ctx, &w, workers_go(&w), out);
}

static int seeks_run(struct phase_ctx *ctx, struct phase_out *out)
{
	uint64_t next = 0, left = ctx->plan->run->seeks;
	struct seek_job job = {.ctx = ctx,
			       .record = out->record,
			       .live = out->live,
			       .watched = out->tick != NULL};
	struct workers_job wj = {
	    .n = ctx->opt->procs, .fn = seeker, .arg = &job, .stop = ctx->stop};
	struct workers w;
	struct workers_failure fail;
	int tk[2], rc, feed_rc;

	if (ctx->plan->run->seeks_time > 0)
		return seeks_timed(ctx, &job, &wj, out);
	if (pipe2(tk, O_CLOEXEC))
		return phase_fail_call(ctx, "pipe", errno);
	job.tickets = tk[0];
	job.feed = tk[1];
	/* Room for all tickets where the kernel allows, so the parent
	 * rarely has to run while the seekers do. */
	fcntl(tk[1], F_SETPIPE_SZ,
	      (int)(left * 8 < (1u << 20) ? left * 8 : (1u << 20)));
	fcntl(tk[1], F_SETFL, O_NONBLOCK);
	rc = feed(ctx, tk[1], &next, 1);
	fcntl(tk[1], F_SETFL, 0);
	if (rc == 0 || rc == -EAGAIN) {
		fflush(NULL);
		if ((rc = workers_start(&w, &wj, &fail)) != 0)
			phase_fail_call(ctx, fail.what, -rc);
		else if (out->tick) {
			w.watch = phase_watch;
			w.watch_arg = out;
		}
	}
	close(tk[0]);
	if (rc) {
		close(tk[1]);
		return rc;
	}
	feed_rc = seeks_feed(ctx, &w, tk[1], &next);
	close(tk[1]);
	return seeks_end(ctx, &w, feed_rc, out);
}

/* The run's seek count, one operation each. */
static void seeks_expect(const struct phase_plan *p, struct phase_expect *e)
{
	e->ops = p->run->seeks;
	e->unit = "seeks";
}

const struct phase_ops phase_seeks_ops = {
    .name = "seeks",
    .title = "random seeks",
    .test = RT_seeks,
    .flags = PHASE_DATA | PHASE_READS | PHASE_SEEK_COUNT | PHASE_FORKED_WRITES,
    .progress = "Seeking randomly",
    .run = seeks_run,
    .expect = seeks_expect,
};
