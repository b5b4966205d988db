/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workers_impl: what workers.c and workers_step.c share and nobody else
 * sees: the shared mapping's layout and small helpers.
 */
#ifndef CLYDE_WORKERS_IMPL_H
#define CLYDE_WORKERS_IMPL_H

#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "workers.h"

struct workers_slot {
	struct workers_result res;
	uint64_t fail_seq;   /* 1, 2, ...: the order of failures; 0: none */
	int err;	     /* the worker's errno; 0: it succeeded */
	int done;	     /* set last, when the rest is written */
	int wstatus;	     /* the parent's: how it ended, once reaped */
	unsigned ready_step; /* steps it is ready for (workers_step) */
	unsigned done_step;  /* steps whose figures are in res */
	/* Operations done so far in this step (workers_live: the phases
	 * and the worker's own children add to it), and how many it had
	 * done when the first worker of the group ended its step. */
	uint64_t live_ops, ops_at_first;
	/* Of live_ops, how many are likely not on the device yet (buffered
	 * writes still being written back: workers_live_ahead). */
	uint64_t live_ahead;
	char what[WORKERS_WHAT_MAX];
};

/* The mapping: the failure counter, the step released and the call-off
 * flag (futex words), then one slot per worker. */
struct workers_shared {
	uint64_t seq;
	uint32_t gen;	       /* steps released so far */
	uint32_t cancel;       /* nonzero: the parent called the run off */
	uint32_t ended;	       /* workers that ended the step released last */
	uint64_t first_end_ns; /* the first one's end (CLOCK_MONOTONIC) */
	struct workers_slot slot[];
};

static inline int stopped(volatile sig_atomic_t *stop)
{
	return stop && *stop;
}

static inline void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* A worker's start: the time, and its CPU so far in user_ns and sys_ns
 * until its end takes the difference. */
static inline void workers_stamp_start(struct workers_result *res)
{
	struct clk_mark start;

	clk_mark(&start);
	res->start_ns = start.wall_ns;
	res->user_ns = start.user_ns;
	res->sys_ns = start.sys_ns;
}

/* Every started worker's live count of operations, added up. */
uint64_t workers_live_sum(const struct workers *w);

/* Wake every process waiting on the futex word *word (shared, not
 * private: the workers are other processes). */
static inline void workers_wake(uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* Sleep while *word is val (or until a signal). */
static inline void workers_sleep(uint32_t *word, uint32_t val)
{
	syscall(SYS_futex, word, FUTEX_WAIT, val, NULL, NULL, 0);
}

#endif
