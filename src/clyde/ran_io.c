/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ran_io: the engine of the random-I/O figures (see ran_io.h): what an
 * operation is (ran_next) and does, the closed loops (pread/pwrite at
 * depth 1, io_uring above it) and the run around them. The open loop of
 * an offered rate is ran_open.c, the settings and the io_uring probe
 * ran_settings.c. Every operation is counted by phase_op_io (the
 * histograms, the worst one, a -c worker's live count); a closed loop
 * reads the clock once per completion.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "fill.h"
#include "ran_engine.h"
#include "seek.h"
#include "units.h"

/* Salt for the offsets' stream of the run's seed (not the seeks'), and
 * for the kinds' and sizes' streams of a workload. */
#define RAN_SALT      0x72616e696full
#define RAN_SALT_KIND 0x6b696e64ull
#define RAN_SALT_SIZE 0x73697a65ull

/* Operation k: its kind, size and offset drawn, and under a rate its due
 * time (the schedule moved on). */
void ran_next(struct ran *r, uint64_t k, struct ran_op *op)
{
	const struct wl_bs *bs = &r->set.wl.bs;

	op->kind = r->reads >= WL_WHOLE			  ? PHASE_READ
		   : !r->reads				  ? PHASE_WRITE
		   : wl_draw_read(r->reads, &r->kind_rng) ? PHASE_READ
							  : PHASE_WRITE;
	op->len = bs->n == 1 ? bs->size[0] : wl_draw_bs(bs, &r->size_rng);
	if (r->perm)
		op->off =
		    seek_perm(k % r->npos, r->npos, r->key + k / r->npos) *
		    r->grid;
	else
		op->off = wl_offsets_draw(&r->offs, &r->off_rng) * r->grid;
	if (r->rate) {
		op->due = r->next_due;
		wl_sched_next(&r->sched, &r->gap_rng);
		r->next_due = r->start_ns + r->sched.due;
	}
}

/*
 * Slot's buffer, ready for op. A write's holds the content of its offset
 * (--data): its sector stamps made anew over what the slot held (a few
 * stores; the slot was filled whole at the start, at the largest size),
 * or under dedupe:PCT, where a block repeats another whole, copied.
 * Under --journal each write has a generation of its own (so that one
 * the storage lost leaves an older block), recorded before it goes out:
 * NULL then when the journal failed (ctx->what says it).
 */
static unsigned char *ran_buf(struct ran *r, unsigned slot, struct ran_op *op)
{
	unsigned char *b = r->bufs + (size_t)slot * r->set.bs;
	struct phase_ctx *ctx = r->ctx;
	struct fill *f = ctx->fill;

	if (op->kind == PHASE_READ)
		return b;
	op->gen = ctx->jr ? jrun_next(ctx->jr) : ctx->gen;
	if (r->copy)
		fill_into(f, b, op->off, (size_t)op->len, op->gen);
	else
		fill_remark(f, b, op->off, (size_t)op->len, op->gen);
	if (ctx->jr &&
	    (r->jfail = phase_journal_out(ctx, op->gen, op->off, op->len)) != 0)
		return NULL;
	return b;
}

/* A write returned: under --journal, acknowledged when the file is
 * opened O_SYNC (-b), else at the fsync that ends the test. */
static int ran_back(struct ran *r, const struct ran_op *op)
{
	if (op->kind == PHASE_READ || !r->ctx->jr)
		return 0;
	return phase_journal_back(r->ctx, op->gen, op->off, op->len,
				  r->ctx->opt->sync_each);
}

static const char *ran_call(const struct ran_op *op, int uring)
{
	if (op->kind == PHASE_READ)
		return uring ? "read" : "pread";
	return uring ? "write" : "pwrite";
}

/* A transfer's result: 0, or -errno recorded (a short one: ENODATA
 * reading, EIO writing). */
static int ran_check(struct ran *r, const struct ran_op *op, long long res,
		     int uring)
{
	if (res == (long long)op->len)
		return 0;
	if (res < 0)
		return phase_fail(r->ctx, ran_call(op, uring), (int)-res);
	return op->kind == PHASE_WRITE
		   ? phase_fail(r->ctx, ran_call(op, uring), EIO)
		   : phase_fail_short(r->ctx);
}

/* Under --verify, a read's block checked (phase_verify). */
static int ran_verify(struct ran *r, const void *b, const struct ran_op *op)
{
	if (op->kind == PHASE_WRITE || !r->ctx->opt->verify)
		return 0;
	return phase_verify(r->ctx, b, op->off, (size_t)op->len, r->ctx->gen);
}

/* op done at now: its response from when it was due (closed loop: from
 * its submission), its service from its submission. */
static void ran_done(struct ran *r, const struct ran_op *op, uint64_t now)
{
	uint64_t from = r->rate ? op->due : op->sub;

	phase_op_io(r->out, op->kind, op->len, now - from, now - op->sub);
	phase_op_tick(r->out, now);
	r->done++;
}

/* op submitted at now: over PHASE_LATE_NS after it was due, late. */
static void ran_sent(struct ran *r, struct ran_op *op, uint64_t now)
{
	op->sub = now;
	if (r->rate && now > op->due + PHASE_LATE_NS) {
		r->out->sched.late++;
		if (op->due < r->full_to)
			r->out->sched.late_held++;
	}
	r->out->sched.issued++;
}

/* Depth 1: pread or pwrite, one after the other; under a rate, each
 * when it is due. */
static int ran_sync(struct ran *r)
{
	struct phase_ctx *ctx = r->ctx;
	uint64_t t1 = clk_now_ns();
	struct ran_op op;
	int rc;

	for (uint64_t k = 0; k < r->set.ops; k++) {
		unsigned char *b;
		ssize_t n;

		ran_next(r, k, &op);
		if (r->rate) {
			if (op.due >= ran_deadline(r))
				break;
			if (op.due > t1) {
				ran_sleep_until(r, op.due);
				t1 = clk_now_ns();
			}
		}
		if (!(b = ran_buf(r, 0, &op)))
			return r->jfail;
		/* Closed loop: from the last completion, one clock read an
		 * operation; under a rate, from now. */
		ran_sent(r, &op, r->rate ? clk_now_ns() : t1);
		do
			n = op.kind == PHASE_WRITE
				? pwrite(ctx->fd, b, op.len, (off_t)op.off)
				: pread(ctx->fd, b, op.len, (off_t)op.off);
		while (n < 0 && errno == EINTR && !*ctx->stop);
		if ((rc = ran_check(r, &op, n < 0 ? -errno : n, 0)) != 0 ||
		    (rc = ran_verify(r, b, &op)) != 0 ||
		    (rc = ran_back(r, &op)) != 0)
			return rc;
		t1 = clk_now_ns();
		ran_done(r, &op, t1);
		/* The one slot was in flight until now. */
		r->full_to = t1;
		if (*ctx->stop)
			return phase_fail(ctx, ran_call(&op, 0), EINTR);
		if (t1 >= ran_deadline(r))
			break;
	}
	return 0;
}

/* Queue op in slot (submitted at the next submit, at now): 0, or the
 * journal's failure (r->jfail), nothing queued. */
int ran_queue(struct ran *r, struct io_uring *ring, unsigned slot,
	      const struct ran_op *op, uint64_t now)
{
	struct io_uring_sqe *sqe;
	struct ran_op *o = &r->slot[slot];
	unsigned char *b;

	*o = *op;
	if (!(b = ran_buf(r, slot, o)))
		return r->jfail;
	sqe = io_uring_get_sqe(ring);
	/* The ring has a slot's room for each of depth operations. */
	if (o->kind == PHASE_WRITE)
		io_uring_prep_write(sqe, r->ctx->fd, b, (unsigned)o->len,
				    o->off);
	else
		io_uring_prep_read(sqe, r->ctx->fd, b, (unsigned)o->len,
				   o->off);
	io_uring_sqe_set_data64(sqe, slot);
	o->busy = 1;
	ran_sent(r, o, now);
	return 0;
}

/* A completion of slot at now: checked, verified, counted. 0 or the
 * failure. */
int ran_complete(struct ran *r, unsigned slot, int res, uint64_t now)
{
	const struct ran_op *o = &r->slot[slot];
	int err = ran_check(r, o, res, 1);

	if (!err)
		err = ran_verify(r, r->bufs + (size_t)slot * r->set.bs, o);
	if (!err)
		err = ran_back(r, o);
	if (!err)
		ran_done(r, o, now);
	return err;
}

/*
 * The completions at hand (closed loop): each one counted, its slot given
 * the next operation while there is one to do and no failure, stop or
 * deadline. Returns how many slots went idle; *rc gets the first failure.
 */
static unsigned ran_reap(struct ran *r, struct io_uring *ring, uint64_t *next,
			 int *rc)
{
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0, idle = 0;

	io_uring_for_each_cqe(ring, head, cqe)
	{
		unsigned slot = (unsigned)io_uring_cqe_get_data64(cqe);
		uint64_t now = clk_now_ns();
		int err = ran_complete(r, slot, cqe->res, now);

		seen++;
		if (err && !*rc)
			*rc = err;
		if (!*rc && !*r->ctx->stop && *next < r->set.ops &&
		    now < ran_deadline(r)) {
			struct ran_op op;

			/* Submitted at once, as fio does by default: held
			 * for the batch, a freed slot left the device a
			 * request short (at depth 32 on a virtio disk under
			 * -D, 94k IOPS where fio made 110k). The same call
			 * posts the completions the kernel holds for this
			 * thread (DEFER_TASKRUN), so that this loop reaps
			 * them without a wait: buffered reads on tmpfs, 3%
			 * more IOPS. A failure here leaves it queued for the
			 * next submit_and_wait, which reports it. */
			ran_next(r, (*next)++, &op);
			if ((*rc = ran_queue(r, ring, slot, &op, now)) != 0) {
				idle++;
				continue;
			}
			io_uring_cq_advance(ring, seen);
			seen = 0;
			io_uring_submit_and_get_events(ring);
		} else {
			idle++;
		}
	}
	io_uring_cq_advance(ring, seen);
	return idle;
}

/*
 * A ring of depth entries. Only this thread submits and reaps, so the
 * kernel may leave completion work to the reaping call (DEFER_TASKRUN,
 * which needs SINGLE_ISSUER) rather than interrupt it; a kernel before
 * 6.1 refuses those flags, and gets a plain ring.
 */
static int ran_ring(unsigned depth, struct io_uring *ring)
{
	int rc = io_uring_queue_init(depth, ring,
				     IORING_SETUP_SINGLE_ISSUER |
					 IORING_SETUP_DEFER_TASKRUN);

	return rc == -EINVAL ? io_uring_queue_init(depth, ring, 0) : rc;
}

/* Above depth 1, closed loop: depth operations in flight. */
static int ran_uring_closed(struct ran *r, struct io_uring *ring)
{
	uint64_t next = 0, t0 = clk_now_ns();
	unsigned inflight = 0;
	int rc, err = 0;

	for (unsigned s = 0; s < r->set.depth && next < r->set.ops; s++) {
		struct ran_op op;

		ran_next(r, next++, &op);
		if ((err = ran_queue(r, ring, s, &op, t0)) != 0)
			break;
		inflight++;
	}
	while (inflight) {
		/* A signal (EINTR) or a stop only ends the queueing: the
		 * operations in flight are reaped, so that none is still
		 * filling a buffer once it is freed. */
		rc = io_uring_submit_and_wait(ring, 1);
		if (rc < 0 && rc != -EINTR) {
			if (!err)
				err = phase_fail_call(r->ctx, "io_uring_enter",
						      -rc);
			break; /* the ring goes with what it holds */
		}
		inflight -= ran_reap(r, ring, &next, &err);
	}
	return err;
}

/* Above depth 1: io_uring. */
static int ran_uring(struct ran *r)
{
	struct io_uring ring;
	int rc = ran_ring(r->set.depth, &ring), err;

	if (rc < 0)
		return phase_fail_call(r->ctx, "io_uring_queue_init", -rc);
	err = r->rate || r->serial ? ran_uring_open(r, &ring)
				   : ran_uring_closed(r, &ring);
	io_uring_queue_exit(&ring);
	if (!err && *r->ctx->stop)
		err = phase_fail(
		    r->ctx,
		    r->reads ? (r->reads < WL_WHOLE ? "I/O" : "read") : "write",
		    EINTR);
	return err;
}

/*
 * The offsets: a permutation for one size over uniform offsets, as the
 * figures always had (the same blocks for the same seed); otherwise the
 * distribution over the positions (ran_positions). 0 or -errno.
 */
static int ran_offsets(struct ran *r, unsigned reads)
{
	const struct wl_bs *bs = &r->set.wl.bs;
	char why[160];

	r->key = r->ctx->seed ^ RAN_SALT ^ (reads ? 0 : 1);
	r->npos = ran_positions(r->ctx->size, &r->set);
	if (!r->npos)
		return phase_fail(r->ctx, "--ran-bs larger than the file",
				  EINVAL);
	r->grid = bs->size[0];
	for (unsigned i = 1; i < bs->n; i++)
		if (bs->size[i] < r->grid)
			r->grid = bs->size[i];
	r->perm = bs->n == 1 && r->set.wl.dist.kind == WL_UNIFORM;
	/* Overlaps that matter: a read beside a write, or writes that
	 * may meet (a permutation's do not within a round; under --journal,
	 * where each write has a generation of its own, two to one block
	 * must not be in flight at once across rounds either). */
	r->serial = r->ctx->opt->verify && r->set.depth > 1 &&
		    reads < WL_WHOLE && (reads > 0 || !r->perm || r->ctx->jr);
	if (r->perm)
		return 0;
	rng_seed(&r->off_rng, r->key);
	if (wl_offsets_init(&r->offs, &r->set.wl.dist, r->npos, r->ctx->seed,
			    why, sizeof(why))) {
		snprintf(r->ctx->what, sizeof(r->ctx->what), "--dist: %s", why);
		return -PHASE_SAID;
	}
	return 0;
}

int ran_run(struct phase_ctx *ctx, struct phase_out *out, unsigned reads)
{
	struct ran r = {
	    .ctx = ctx, .out = out, .reads = reads, .held_due = UINT64_MAX};
	uint64_t now;
	int rc, slack;

	ran_settings(ctx->plan, &r.set);
	if ((rc = ran_offsets(&r, reads)) != 0)
		return rc;
	rng_seed(&r.kind_rng, ctx->seed ^ RAN_SALT_KIND);
	rng_seed(&r.size_rng, ctx->seed ^ RAN_SALT_SIZE);
	r.bufs = NULL;
	r.slot = calloc(r.set.depth, sizeof(*r.slot));
	if (!r.slot || posix_memalign((void **)&r.bufs, 4096,
				      (size_t)r.set.depth * r.set.bs) != 0) {
		free(r.slot);
		return phase_fail_call(ctx, "buffer", ENOMEM);
	}
	r.copy = ctx->opt->data.mode == FILL_DEDUPE;
	for (unsigned s = 0; reads < WL_WHOLE && s < r.set.depth; s++)
		fill_into(ctx->fill, r.bufs + (size_t)s * r.set.bs,
			  (uint64_t)s * r.set.bs, (size_t)r.set.bs, ctx->gen);
	now = clk_now_ns();
	r.deadline_ns = now + (uint64_t)r.set.time * 1000000000ull;
	/* Under --steady, rounds until the watcher ends them. */
	if (out->until_ns != UINT64_MAX) {
		r.deadline_ns = UINT64_MAX;
		r.set.ops = RAN_OPS_MAX;
	}
	ran_rate_start(&r, now);
	/* Under a rate, a sleep ends when the I/O is due, not up to the
	 * default 50 us slack later: clyde's own lateness would otherwise
	 * count as the target's response time. */
	slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	if (r.rate && slack > 1)
		prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	rc = r.set.depth > 1 ? ran_uring(&r) : ran_sync(&r);
	if (r.rate && slack > 1)
		prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
	ran_rate_end(&r, ran_deadline(&r) < clk_now_ns() ? ran_deadline(&r)
							 : clk_now_ns());
	free(r.bufs);
	free(r.slot);
	out->work = r.done;
	/* The writes reach the device before the clock stops. */
	if (rc == 0 && reads < WL_WHOLE)
		rc = phase_fsync(ctx);
	return rc;
}
