/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ran_io: the engine of ran_read and ran_write (see ran_io.h): the
 * two timed loops, pread/pwrite at depth 1 and io_uring above it (their
 * settings and the io_uring probe: ran_settings.c). Both count every operation
 * as phase_op_done does (the histogram, the worst one, a -c worker's live
 * count) and read the clock once per completion.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fill.h"
#include "ran_io.h"
#include "seek.h"
#include "units.h"

/* Salt for the offsets' stream of the run's seed (not the seeks'). */
#define RAN_SALT 0x72616e696full

/* What one timed run knows. */
struct ran {
	struct phase_ctx *ctx;
	struct phase_out *out;
	struct ran_set set;
	int write;
	uint64_t nblocks, key, deadline_ns, done;
	int copy;	     /* a write's content copied whole (ran_buf) */
	unsigned char *bufs; /* set.depth blocks, one per slot */
};

/* The byte offset of operation k. */
static off_t ran_offset(const struct ran *r, uint64_t k)
{
	uint64_t round = k / r->nblocks;

	return (off_t)(seek_perm(k % r->nblocks, r->nblocks, r->key + round) *
		       r->set.bs);
}

/*
 * Slot's buffer, ready for operation k at *off (set). A write's holds the
 * content of its offset (--data): its sector stamps made anew over what the
 * slot held (a few stores), or under dedupe:PCT, where a block repeats another
 * whole, copied.
 */
static unsigned char *ran_buf(struct ran *r, unsigned slot, uint64_t k,
			      uint64_t *off)
{
	unsigned char *b = r->bufs + (size_t)slot * r->set.bs;
	struct fill *f = r->ctx->fill;

	*off = (uint64_t)ran_offset(r, k);
	if (!r->write)
		return b;
	if (r->copy)
		fill_into(f, b, *off, (size_t)r->set.bs, r->ctx->gen);
	else
		fill_remark(f, b, *off, (size_t)r->set.bs, r->ctx->gen);
	return b;
}

/* One operation done at now, d ns after it was submitted. */
static void ran_done(struct ran *r, uint64_t d, uint64_t now)
{
	phase_op_took(r->out, d);
	phase_op_tick(r->out, now);
	r->done++;
}

/* A transfer's result: 0, or -errno recorded (a short one: ENODATA
 * reading, EIO writing). */
static int ran_check(struct ran *r, long long res)
{
	const char *call = r->write ? "pwrite" : "pread";

	if (res == (long long)r->set.bs)
		return 0;
	if (res < 0)
		return phase_fail(r->ctx, call, (int)-res);
	return r->write ? phase_fail(r->ctx, call, EIO)
			: phase_fail_short(r->ctx);
}

/* Under --verify, a read's block checked (phase_verify). */
static int ran_verify(struct ran *r, const void *b, uint64_t k)
{
	if (r->write || !r->ctx->opt->verify)
		return 0;
	return phase_verify(r->ctx, b, (uint64_t)ran_offset(r, k),
			    (size_t)r->set.bs, r->ctx->gen);
}

/* A completion's user data: the slot, and the operation it held. */
#define RAN_SLOT_BITS 11
_Static_assert((1u << RAN_SLOT_BITS) > RAN_IODEPTH_MAX, "a slot fits");

/* Depth 1: pread or pwrite, one after the other. */
static int ran_sync(struct ran *r)
{
	struct phase_ctx *ctx = r->ctx;
	uint64_t t0 = clk_now_ns(), t1;
	int rc;

	for (uint64_t k = 0; k < r->set.ops; k++) {
		uint64_t off;
		unsigned char *b = ran_buf(r, 0, k, &off);
		ssize_t n;

		do
			n = r->write ? pwrite(ctx->fd, b, r->set.bs, (off_t)off)
				     : pread(ctx->fd, b, r->set.bs, (off_t)off);
		while (n < 0 && errno == EINTR && !*ctx->stop);
		if ((rc = ran_check(r, n < 0 ? -errno : n)) != 0 ||
		    (rc = ran_verify(r, b, k)) != 0)
			return rc;
		t1 = clk_now_ns();
		ran_done(r, t1 - t0, t1);
		t0 = t1;
		if (*ctx->stop)
			return phase_fail(ctx, r->write ? "pwrite" : "pread",
					  EINTR);
		if (t1 >= r->deadline_ns)
			break;
	}
	return 0;
}

/* Queue operation k in slot (submitted at the next submit). */
static void ran_queue(struct ran *r, struct io_uring *ring, unsigned slot,
		      uint64_t k, uint64_t *sub, uint64_t now)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	uint64_t off;
	unsigned char *b = ran_buf(r, slot, k, &off);

	/* The ring has a slot's room for each of depth operations. */
	if (r->write)
		io_uring_prep_write(sqe, r->ctx->fd, b, (unsigned)r->set.bs,
				    off);
	else
		io_uring_prep_read(sqe, r->ctx->fd, b, (unsigned)r->set.bs,
				   off);
	io_uring_sqe_set_data64(sqe, k << RAN_SLOT_BITS | slot);
	sub[slot] = now;
}

/*
 * The completions at hand: each one counted, its slot given the next
 * operation while there is one to do and no failure, stop or deadline.
 * Returns how many slots went idle; *rc gets the first failure.
 */
static unsigned ran_reap(struct ran *r, struct io_uring *ring, uint64_t *sub,
			 uint64_t *next, int *rc)
{
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0, idle = 0;

	io_uring_for_each_cqe(ring, head, cqe)
	{
		uint64_t data = io_uring_cqe_get_data64(cqe);
		unsigned slot = (unsigned)(data & ((1u << RAN_SLOT_BITS) - 1));
		uint64_t now = clk_now_ns();
		int err = ran_check(r, cqe->res);

		if (!err)
			err = ran_verify(r, r->bufs + (size_t)slot * r->set.bs,
					 data >> RAN_SLOT_BITS);

		seen++;
		if (err && !*rc)
			*rc = err;
		if (!err)
			ran_done(r, now - sub[slot], now);
		if (!*rc && !*r->ctx->stop && *next < r->set.ops &&
		    now < r->deadline_ns) {
			/* Submitted at once, as fio does by default: held
			 * for the batch, a freed slot left the device a
			 * request short (at depth 32 on a virtio disk under
			 * -D, 94k IOPS where fio made 110k). A failure here
			 * leaves it queued for the next submit_and_wait,
			 * which reports it. */
			ran_queue(r, ring, slot, (*next)++, sub, now);
			io_uring_submit(ring);
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

/* Above depth 1: io_uring, depth operations in flight. */
static int ran_uring(struct ran *r)
{
	struct io_uring ring;
	uint64_t *sub = calloc(r->set.depth, sizeof(*sub)), next = 0, t0;
	unsigned inflight = 0;
	int rc = ran_ring(r->set.depth, &ring), err = 0;

	if (!sub || rc < 0) {
		free(sub);
		if (rc >= 0)
			io_uring_queue_exit(&ring);
		return phase_fail_call(r->ctx, "io_uring_queue_init",
				       rc < 0 ? -rc : ENOMEM);
	}
	t0 = clk_now_ns();
	for (unsigned s = 0; s < r->set.depth && next < r->set.ops; s++) {
		ran_queue(r, &ring, s, next++, sub, t0);
		inflight++;
	}
	while (inflight) {
		/* A signal (EINTR) or a stop only ends the queueing: the
		 * operations in flight are reaped, so that none is still
		 * filling a buffer once it is freed. */
		rc = io_uring_submit_and_wait(&ring, 1);
		if (rc < 0 && rc != -EINTR) {
			if (!err)
				err = phase_fail_call(r->ctx, "io_uring_enter",
						      -rc);
			break; /* the ring goes with what it holds */
		}
		inflight -= ran_reap(r, &ring, sub, &next, &err);
	}
	io_uring_queue_exit(&ring);
	free(sub);
	if (!err && *r->ctx->stop)
		err = phase_fail(r->ctx, r->write ? "write" : "read", EINTR);
	return err;
}

int ran_run(struct phase_ctx *ctx, struct phase_out *out, int write)
{
	struct ran r = {.ctx = ctx, .out = out, .write = write};
	int rc;

	ran_settings(ctx->plan, &r.set);
	r.nblocks = ctx->size / r.set.bs;
	if (!r.nblocks)
		return phase_fail(ctx, "--ran-bs larger than the file", EINVAL);
	r.key = ctx->seed ^ RAN_SALT ^ (write ? 1 : 0);
	if (posix_memalign((void **)&r.bufs, 4096,
			   (size_t)r.set.depth * r.set.bs) != 0)
		return phase_fail_call(ctx, "buffer", ENOMEM);
	r.copy = ctx->opt->data.mode == FILL_DEDUPE;
	for (unsigned s = 0; write && s < r.set.depth; s++)
		fill_into(ctx->fill, r.bufs + (size_t)s * r.set.bs,
			  (uint64_t)s * r.set.bs, (size_t)r.set.bs, ctx->gen);
	r.deadline_ns = clk_now_ns() + (uint64_t)r.set.time * 1000000000ull;
	rc = r.set.depth > 1 ? ran_uring(&r) : ran_sync(&r);
	free(r.bufs);
	out->work = r.done;
	/* The writes reach the device before the clock stops. */
	if (rc == 0 && write)
		rc = phase_fsync(ctx);
	return rc;
}
