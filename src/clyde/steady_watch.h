/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * steady_watch: --steady's watcher of a test that can run in rounds
 * (PHASE_STEADY), on the runner's clock hook beside the status line and
 * the interval log (runner_watch.c). At each round's end, at the first
 * operation that ends after it, it keeps the round's operations, bytes
 * and p99 (from a copy of the test's histograms then), and once the
 * last ROUNDS rounds meet the rule (lib/steady.h) it ends the test
 * (phase_out.until_ns). At the end the test's figure becomes the
 * window's: its operations, bytes, time and latencies those of the
 * window's rounds alone, its CPU the window's share. Not steady by
 * --steady-max: the last ROUNDS rounds are the window all the same, and
 * the record says NOT steady.
 */
#ifndef CLYDE_STEADY_WATCH_H
#define CLYDE_STEADY_WATCH_H

#include <stdint.h>

#include "options.h"
#include "phase.h"
#include "steady.h"

struct steady_watch;

/*
 * A watcher for a test that starts now (CLOCK_MONOTONIC), whose
 * operations are op_bytes each when its figure counts no bytes of its
 * own: out->until_ns set to its limit. NULL without memory.
 */
struct steady_watch *steady_watch_new(const struct clyde_opts *o,
				      struct phase_out *out, uint64_t now,
				      uint64_t op_bytes);

/* Its turn on the clock hook, for an operation ended at now: the next
 * time it is due. */
uint64_t steady_watch_tick(struct steady_watch *w, struct phase_out *out,
			   uint64_t now);

/*
 * The test ended at end (ns), with cpu seconds of user and sys time: out
 * made the window's (self-timed), and the rounds as a record keeps them
 * (NULL without memory), w freed.
 */
struct steady_run *steady_watch_end(struct steady_watch *w,
				    struct phase_out *out, uint64_t end,
				    double user, double sys);

#endif
