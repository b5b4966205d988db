/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ran_engine: what the two halves of the random-I/O engine share
 * (ran_io.c: what an operation is and does, the closed loops, the run;
 * ran_open.c: the loop of slots freed one by one, for an offered rate
 * or --verify under a mix, and the rate's schedule). Nothing else
 * includes it: the interface is ran_io.h.
 */
#ifndef CLYDE_RAN_ENGINE_H
#define CLYDE_RAN_ENGINE_H

#include <liburing.h>
#include <stdint.h>

#include "ran_io.h"
#include "rng.h"

/* One operation: what it does, where, and when it was due and went. */
struct ran_op {
	uint64_t off, len;
	uint64_t due, sub; /* CLOCK_MONOTONIC ns */
	enum phase_kind kind;
	uint32_t gen; /* a write's generation (ran_buf) */
	int busy;     /* in a slot: in flight */
};

/* What one timed run knows. */
struct ran {
	struct phase_ctx *ctx;
	struct phase_out *out;
	struct ran_set set;
	unsigned reads; /* tenths of a percent of the operations */
	int perm;	/* offsets a permutation of the blocks (see ran_io.h) */
	/* Under --verify: no operation goes out while it overlaps one in
	 * flight, unless both read (ran_serial). */
	int serial;
	uint64_t npos, grid, key, deadline_ns, done;
	struct wl_offsets offs;
	struct rng kind_rng, size_rng, off_rng, gap_rng;
	/* An offered rate, the whole run's (0: a closed loop; the
	 * schedule takes this worker's share of it), its schedule and the
	 * next arrival, absolute. */
	uint64_t rate, start_ns, next_due;
	struct wl_sched sched;
	uint64_t held_due; /* an arrival drawn, never issued: its due time */
	/* The end of the last span every slot was in flight (UINT64_MAX
	 * while it lasts): an arrival late that fell due before it waited
	 * for a slot, or behind others that did (the target's doing); one
	 * due after it went late because the issuer woke late (the
	 * machine's). */
	uint64_t full_to;
	int copy;	     /* a write's content copied whole (ran_buf) */
	int jfail;	     /* the journal's failure (ran_buf), or 0 */
	unsigned char *bufs; /* set.depth blocks of set.bs, one per slot */
	struct ran_op *slot; /* set.depth: the operation each slot holds */
};

/* When the test ends: its time up, or --steady's rounds steady. */
static inline uint64_t ran_deadline(const struct ran *r)
{
	return r->out->until_ns < r->deadline_ns ? r->out->until_ns
						 : r->deadline_ns;
}

/* Operation k drawn (ran_io.c). */
void ran_next(struct ran *r, uint64_t k, struct ran_op *op);
/* op queued in slot, submitted at the next submit (ran_io.c): 0, or the
 * journal's failure. */
int ran_queue(struct ran *r, struct io_uring *ring, unsigned slot,
	      const struct ran_op *op, uint64_t now);
/* The completion of slot at now checked, verified, counted (ran_io.c). */
int ran_complete(struct ran *r, unsigned slot, int res, uint64_t now);

/* Sleep until t or a stop (ran_open.c). */
void ran_sleep_until(const struct ran *r, uint64_t t);
/* Above depth 1, slot by slot (ran_open.c). */
int ran_uring_open(struct ran *r, struct io_uring *ring);
/* An offered rate's schedule set up at now, and at end, how many
 * arrivals fell due (ran_open.c). No rate: nothing. */
void ran_rate_start(struct ran *r, uint64_t now);
void ran_rate_end(struct ran *r, uint64_t end);

#endif
