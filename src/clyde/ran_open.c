/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ran_open: the random-I/O engine's open loop (see ran_io.h). Under an
 * offered rate each worker's arrivals are due on a schedule of its own
 * (ran_rate_start) and go out when due while a slot is free; under
 * --verify with a mix an operation waits while it overlaps one in
 * flight where either writes. Slots are freed one by one, and what is
 * due takes a freed slot at once.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "ran_engine.h"

/* Salt for the arrivals' stream of an offered rate. */
#define RAN_SALT_ARRIVAL 0x61727276ull

/* Sleep until the absolute CLOCK_MONOTONIC time t (ns), or a stop. */
void ran_sleep_until(const struct ran *r, uint64_t t)
{
	struct timespec ts = {(time_t)(t / 1000000000u),
			      (long)(t % 1000000000u)};

	while (!*r->ctx->stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
						 &ts, NULL) == EINTR)
		;
}

/* The loop of slots freed one by one (an offered rate, or --verify
 * under a mix): its state between its steps. */
struct ran_open {
	unsigned *free, nfree; /* the idle slots */
	uint64_t k;	       /* operations drawn */
	struct ran_op op;      /* the next one, drawn and not yet queued */
	int have, ending;      /* op is drawn; no more are to be queued */
	int held;	       /* op waits for one in flight it overlaps */
};

/*
 * Whether op would overlap an operation in flight where one of the two
 * writes. A read beside a write to the same block may see it half
 * written (the page cache copies without a lock; -D tears at sectors),
 * and --verify would call that corruption: as fio's serialize_overlap,
 * it waits instead.
 */
static int ran_overlaps(const struct ran *r, const struct ran_op *op)
{
	for (unsigned s = 0; s < r->set.depth; s++) {
		const struct ran_op *o = &r->slot[s];

		if (o->busy &&
		    (o->kind == PHASE_WRITE || op->kind == PHASE_WRITE) &&
		    o->off < op->off + op->len && op->off < o->off + o->len)
			return 1;
	}
	return 0;
}

/* Queue every operation that is due by now while a slot is free (and
 * under serial, while it overlaps none in flight); the first one due at
 * or after the deadline ends the offering. Returns how many it queued. */
static unsigned ran_offer(struct ran *r, struct io_uring *ring,
			  struct ran_open *o, uint64_t now)
{
	unsigned queued = 0;

	o->held = 0;
	while (!o->ending && o->nfree) {
		if (!o->have) {
			if (o->k >= r->set.ops) {
				o->ending = 1;
				break;
			}
			ran_next(r, o->k++, &o->op);
			o->have = 1;
		}
		if (o->op.due >= ran_deadline(r)) {
			o->ending = 1;
			break;
		}
		if (r->rate && o->op.due > now)
			break;
		if (r->serial && ran_overlaps(r, &o->op)) {
			o->held = 1;
			break;
		}
		if (ran_queue(r, ring, o->free[o->nfree - 1], &o->op, now)) {
			o->ending = 1;
			break;
		}
		o->nfree--;
		o->have = 0;
		if (!o->nfree)
			r->full_to = UINT64_MAX;
		queued++;
	}
	return queued;
}

/* Wait for a completion, but under a free slot no later than the next
 * arrival's due time. 0, or the failure of io_uring_enter. */
static int ran_wait(struct ran *r, struct io_uring *ring,
		    const struct ran_open *o, uint64_t now)
{
	struct io_uring_cqe *cqe;
	int rc;

	if (o->have && o->nfree && !o->ending && !o->held && r->rate) {
		uint64_t d = o->op.due > now ? o->op.due - now : 0;
		struct __kernel_timespec ts = {(long long)(d / 1000000000u),
					       (long long)(d % 1000000000u)};

		if (o->nfree == r->set.depth) {
			/* Nothing in flight: a sleep, no ring call. */
			io_uring_submit(ring);
			ran_sleep_until(r, o->op.due);
			return 0;
		}
		rc = io_uring_submit_and_wait_timeout(ring, &cqe, 1, &ts, NULL);
	} else {
		rc = io_uring_submit_and_wait(ring, 1);
	}
	return rc < 0 && rc != -EINTR && rc != -ETIME ? rc : 0;
}

/* Above depth 1, slot by slot: operations queued when due (at once in a
 * closed loop) and, under serial, when they overlap none in flight;
 * depth of them in flight at most. */
int ran_uring_open(struct ran *r, struct io_uring *ring)
{
	struct ran_open o = {.free = calloc(r->set.depth, sizeof(unsigned))};
	int err = 0, rc;

	if (!o.free)
		return phase_fail_call(r->ctx, "buffer", ENOMEM);
	for (unsigned s = 0; s < r->set.depth; s++)
		o.free[o.nfree++] = r->set.depth - 1 - s;
	for (;;) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		uint64_t now = clk_now_ns();

		if (r->jfail && !err)
			err = r->jfail;
		if (err || *r->ctx->stop || now >= ran_deadline(r))
			o.ending = 1;
		ran_offer(r, ring, &o, now);
		if (o.ending && o.nfree == r->set.depth)
			break;
		if ((rc = ran_wait(r, ring, &o, now)) != 0) {
			if (!err)
				err = phase_fail_call(r->ctx, "io_uring_enter",
						      -rc);
			break; /* the ring goes with what it holds */
		}
		io_uring_for_each_cqe(ring, head, cqe)
		{
			unsigned slot = (unsigned)io_uring_cqe_get_data64(cqe);
			uint64_t t = clk_now_ns();
			int e = ran_complete(r, slot, cqe->res, t);

			if (e && !err)
				err = e;
			r->slot[slot].busy = 0;
			if (!o.nfree)
				r->full_to = t;
			o.free[o.nfree++] = slot;
			seen++;
			/* What is due goes out at once, as in the closed
			 * loop: held for the next wait, a target that is
			 * behind ran a fifth slower than closed (at depth 16
			 * under -D, 65k IOPS against 88k). */
			if (!err && !*r->ctx->stop && t < ran_deadline(r) &&
			    ran_offer(r, ring, &o, t))
				io_uring_submit(ring);
		}
		io_uring_cq_advance(ring, seen);
	}
	if (o.have)
		r->held_due = o.op.due;
	free(o.free);
	return err ? err : r->jfail;
}

/*
 * The schedule of an offered rate: this worker's share of it, from a
 * stream of its own, and once the test is over, how many arrivals fell
 * due before it ended. The share is exactly rate / n, however small
 * (the n workers' fixed arrivals interleave into the one schedule): a
 * worker never runs as a closed loop for want of a whole operation a
 * second. What it says it was offered is the split in whole operations
 * (the rest to the first ones), so that the workers' sum is the rate.
 */
void ran_rate_start(struct ran *r, uint64_t now)
{
	const struct phase_ctx *ctx = r->ctx;
	unsigned n = ctx->nworkers ? ctx->nworkers : 1;
	uint64_t rate = r->set.wl.rate;

	r->rate = rate;
	r->out->sched.rate = rate / n + (ctx->worker < rate % n);
	r->out->sched.fixed = r->set.wl.arrivals == WL_FIXED;
	if (!r->rate)
		return;
	rng_seed(&r->gap_rng,
		 ctx->seed ^ RAN_SALT_ARRIVAL ^ ((uint64_t)ctx->worker << 32));
	wl_sched_init(&r->sched, r->rate, r->set.wl.arrivals);
	wl_sched_share(&r->sched, n, ctx->worker);
	r->start_ns = now;
	wl_sched_next(&r->sched, &r->gap_rng);
	r->next_due = now + r->sched.due;
}

void ran_rate_end(struct ran *r, uint64_t end)
{
	struct phase_sched *s = &r->out->sched;
	uint64_t due = s->issued;

	if (!r->rate)
		return;
	/* The one drawn but not issued, then the schedule on to the end. */
	if (r->held_due < end)
		due++;
	while (due < r->set.ops && r->next_due < end) {
		due++;
		wl_sched_next(&r->sched, &r->gap_rng);
		r->next_due = r->start_ns + r->sched.due;
	}
	s->due = due;
}
