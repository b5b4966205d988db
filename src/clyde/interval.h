/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * interval: --log-interval=MS, a test's throughput and latency over
 * time. While a test runs, the runner's clock hook (phase_out.tick)
 * gives ilog_tick its turn once an operation ends past the due time;
 * it closes the interval (operations and bytes since the last tick,
 * the percentiles of the interval's own histogram, fed by
 * phase_op_took through phase_out.ilat, and of a random-I/O figure's
 * service times, fed by phase_op_io through phase_out.isvc) and says
 * when the next is due.
 * ilog_end closes the last, partial one.
 *
 * A -c worker logs its own intervals into a mapping the parent made
 * before it forked them (ilog_share): a bounded array per worker, which
 * the parent reads once the step is over (ilog_collect), every worker's
 * intervals and their sum by interval.
 */
#ifndef CLYDE_INTERVAL_H
#define CLYDE_INTERVAL_H

#include <stdint.h>

#include "hist.h"
#include "result.h"

struct phase_out;

/* --log-interval's bounds, ms. */
#define ILOG_MS_MIN 10u
#define ILOG_MS_MAX 3600000u
/* The period a figure that writes (figures.h's FIGF_CLIFF) is logged
 * at without --log-interval, for its write-cache cliff (cliff.h): short
 * enough that a cache filled in a twentieth of a second has several
 * intervals of its burst. ILOG_MAX of them cover 655 s. */
#define ILOG_CLIFF_MS 10u
/* The intervals kept of one test (per worker): beyond, the last one
 * takes the rest of the test. */
#define ILOG_MAX 65536u

struct ilog {
	uint64_t period_ns;
	uint64_t start_ns, last_ns; /* the test's start, the last tick */
	uint64_t next_ns;	    /* when the open interval is due */
	uint64_t ops0;		    /* out->ops at the last tick */
	uint64_t op_bytes;	    /* bytes of one operation; 0: none */
	uint64_t bytes;		    /* the bytes logged so far */
	uint64_t io_bytes0; /* a random-I/O figure's bytes at the last tick */
	struct hist h;	    /* the open interval's latencies */
	struct hist hs;	    /* its service times (phase_op_io's), if any */
	struct result_interval *v; /* the intervals so far, n of them */
	unsigned n;
	int worker; /* a -c worker's index (v is its shared array), or -1 */
	/* In the parent of -c workers: what ilog_collect gathered. */
	struct result_interval *sum, *each;
	unsigned nsum, neach;
	/* Several -d: each target's sum, for its own record. */
	struct result_interval **tsum;
	unsigned *ntsum, ntargets;
};

/* A log of ms intervals; worker is a -c worker's index or -1. NULL
 * without memory. */
struct ilog *ilog_new(unsigned ms, int worker);
void ilog_free(struct ilog *l);

/* The timed window starts at now: out's interval histogram is l's, the
 * first interval due one period on (l->next_ns). op_bytes: the bytes of one
 * operation (0: its operations have no size). */
void ilog_begin(struct ilog *l, struct phase_out *out, uint64_t op_bytes,
		uint64_t now);

/* The clock hook's turn at now: the interval closed when due (a turn
 * another watcher's due time gave it, before, changes nothing);
 * returns when the next one is due. */
uint64_t ilog_tick(struct ilog *l, struct phase_out *out, uint64_t now);

/* A test not logged: nothing kept of it (a worker's count published
 * as 0, so the parent collects nothing of it). */
void ilog_skip(struct ilog *l);

/* The window ended at now: the last interval closed (io: out->work is
 * bytes, which the bytes logged are made to add up to), out detached,
 * a worker's count published. */
void ilog_end(struct ilog *l, struct phase_out *out, uint64_t now, int io);

/* In the parent, before -c's workers are forked: n workers' arrays.
 * 0 or -errno. ilog_unshare unmaps them. */
int ilog_share(unsigned n);
void ilog_unshare(void);

/*
 * In the parent, after a step: workers [0, n) intervals into l->each
 * (worker by worker, ends from the test's first start: offset[i] is
 * worker i's start from it, seconds), their sum by interval into
 * l->sum, and with ntargets > 1 each target's (copies workers each)
 * into l->tsum. 0, or -ENOMEM.
 */
int ilog_collect(struct ilog *l, unsigned n, const double *offset,
		 unsigned ntargets, unsigned copies);

#endif
