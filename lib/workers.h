/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workers: N worker processes running one function, held by a start
 * barrier until every one is ready, and the merge of what each did.
 *
 * A worker's figures are mergeable (struct workers_result): work and
 * operations add up, the span runs from the first start to the last end
 * (CLOCK_MONOTONIC), CPU adds up, the worst latency is the worst of all
 * and the histograms add bucket by bucket (a random-I/O figure's service
 * and per-kind ones too, struct workers_io). The aggregate rate is the
 * total work over that span (IOR's rule), not a sum of per-worker rates.
 *
 * The parent:  workers_start -> [workers_go] -> ... -> workers_finish.
 * A worker:    fn(me, arg): get ready (open files), workers_barrier(me),
 *              the timed work, return 0 or -errno with me->what set.
 *
 * workers_barrier is the one call every worker makes before its timed
 * work: here a process barrier (a pipe the parent closes when all are
 * ready), and the place an MPI_Barrier would go. The module stamps each
 * worker's start when it leaves the barrier and its end when fn
 * returns, with its own CPU time between the two.
 *
 * Steps: a group that runs several timed windows in turn (clyde -c N,
 * one per test) calls workers_step instead of workers_barrier, once per
 * window; the parent releases step k to all together
 * (workers_step_go), waits for every worker's figures of it
 * (workers_step_wait, which merges them), and only then releases k+1.
 * Each worker has one slot, so the mapping holds one step's figures:
 * N histograms, whatever the number of steps.
 *
 * The parent:  workers_start -> (workers_step_go -> workers_step_wait)*
 *              -> workers_finish.
 * A worker:    fn(me, arg): per step: get ready, workers_step(me), the
 *              timed work, workers_step_end(me), its figures into
 *              me->res, workers_step_done(me).
 *
 * A worker that fails fails the run: the parent stops the others
 * (SIGTERM) as soon as it learns of it, and workers_finish names the
 * first to fail (its index, the call it made, the errno). Every worker
 * is reaped on every path; a stop request (*stop, set by the caller's
 * signal handlers) ends them all the same way. Never prints, never
 * exits (but a worker's _exit).
 */
#ifndef CLYDE_WORKERS_H
#define CLYDE_WORKERS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hist.h"
#include "result.h"

/* The most worker processes one group may have. */
#define WORKERS_MAX 4096u
/* Room for a failing call and its file, as phases record it. */
#define WORKERS_WHAT_MAX 512

/*
 * A random-I/O figure's own parts (clyde's phase_op_io), as a worker
 * hands them on: the service times, each kind's operations, bytes and
 * response times, the schedule of its share of an offered rate. on 0:
 * none recorded. The merge adds all of it up (the rates too: each
 * worker was offered its share); fixed is the same for all.
 */
struct workers_io {
	int on;
	struct hist svc;
	uint64_t ops[RESULT_KINDS], bytes[RESULT_KINDS];
	struct hist lat[RESULT_KINDS];
	struct result_sched sched;
};

/* Empty, with empty histograms. */
void workers_io_init(struct workers_io *io);

/* sum += one, when one recorded anything. */
void workers_io_merge(struct workers_io *sum, const struct workers_io *one);

/* What one worker did, or the merge of several. */
struct workers_result {
	uint64_t work;		   /* bytes, seeks or files done */
	uint64_t ops;		   /* operations timed */
	uint64_t start_ns, end_ns; /* CLOCK_MONOTONIC; start 0: never began */
	uint64_t user_ns, sys_ns;  /* CPU time between start and end */
	uint64_t max_latency_ns;   /* worst single operation */
	struct hist lat;	   /* every operation's latency */
	/* The most of its data file found cached (0..1) before a test
	 * read it, in any step so far; -1: never checked. */
	double cache_left;
	/* A random-I/O figure's own parts (about 25 KiB: three more
	 * histograms in each worker's slot). */
	struct workers_io io;
};

/* Zeroes r, with an empty histogram and cache_left -1. */
void workers_result_init(struct workers_result *r);

/* sum += one: work, ops and CPU add; the earliest start (of those that
 * began), the latest end; the worst latency and cache_left; histograms
 * bucket-wise. */
void workers_merge(struct workers_result *sum,
		   const struct workers_result *one);

/* Seconds from the first start to the last end; 0 when none began. */
double workers_elapsed(const struct workers_result *r);

/* Why a group failed. */
struct workers_failure {
	int worker; /* its index; -1: the parent's own call (start) */
	int err;    /* the errno */
	int signo;  /* a worker ended by a signal nobody sent: its number */
	int status; /* a worker that exited unfinished: its exit status */
	char what[WORKERS_WHAT_MAX]; /* the call (and file); "" if unknown */
};

struct workers_shared;

/* A worker's view of itself, handed to its function. */
struct workers_self {
	unsigned index; /* 0 .. n-1 */
	unsigned n;	/* the group's size */
	/* Its figures: the worker fills work, ops, max_latency_ns and lat
	 * (field by field); start, end and CPU are the module's. */
	struct workers_result *res;
	char *what; /* WORKERS_WHAT_MAX bytes: the failing call */
	/* The module's own: */
	int ready_fd, go_fd; /* the barrier's pipes, -1 once used */
	int done_fd;	     /* each step's end (workers_step_done) */
	volatile sig_atomic_t *stop;
	int started; /* passed the barrier, or in a step */
	struct workers_shared *sh;
	unsigned step; /* steps begun (workers_step) */
};

/* What to start. */
struct workers_job {
	unsigned n; /* 1 .. WORKERS_MAX */
	/* Runs in each worker: 0 or -errno. It calls workers_barrier once
	 * before its timed work; one that returns without calling it counts
	 * as ready (and as never started). */
	int (*fn)(struct workers_self *me, void *arg);
	void *arg;
	volatile sig_atomic_t *stop; /* nonzero: stop; NULL: no stops */
	/* Steps: the longest the parent waits, once one worker is at a
	 * step's barrier, for the others to get there (ms); 0: no limit. */
	unsigned barrier_timeout_ms;
};

/* A running group (the parent's side); its fields are the module's. */
struct workers {
	unsigned n, started;
	pid_t *pid;
	struct workers_shared *sh; /* the slots, in a shared mapping */
	size_t map_len;
	int ready_fd, go_fd, done_fd; /* the parent's ends, -1 when closed */
	int go_rd;		      /* go's read end, kept until the end */
	volatile sig_atomic_t *stop;
	int killed;	   /* the parent sent SIGTERM to all */
	uint64_t kill_seq; /* failures counted before that */
	int released;	   /* the barrier has been passed */
	unsigned step;	   /* steps released (workers_step_go) */
	unsigned barrier_timeout_ms;
	int late; /* the first worker that missed the barrier's timeout */
	/*
	 * Optional, the caller's to set after workers_start: called in the
	 * parent while it waits for the workers' timed work (in
	 * workers_step_wait and workers_finish) at least every
	 * WORKERS_WATCH_MS, with their live counts (workers_live) added up,
	 * for a view of the work as it goes. NULL: none.
	 */
	void (*watch)(void *arg, uint64_t ops);
	void *watch_arg;
};

/* The longest the parent waits between two watch calls, ms. */
#define WORKERS_WATCH_MS 200

/*
 * Fork job->n workers. Returns 0, or -errno with fail naming the call
 * ("mmap", "pipe", "fork"; worker -1); then nothing is left running.
 * A worker gets SIGTERM when the parent dies (PR_SET_PDEATHSIG), so
 * none outlives it; workers_finish reaps every one on every path.
 */
int workers_start(struct workers *w, const struct workers_job *job,
		  struct workers_failure *fail);

/*
 * The parent's side of the barrier: waits until every worker has
 * reached it (or ended), then lets them all go. Returns 0; -ECHILD when
 * a worker ended before the barrier, or -EINTR on a stop: then the
 * others are stopped, and workers_finish says why. Optional:
 * workers_finish lets them go if nobody did.
 */
int workers_go(struct workers *w);

/* The run cannot go on: stop every worker (at the barrier, or by
 * SIGTERM past it). workers_finish still has to be called. */
void workers_abort(struct workers *w);

/*
 * Wait for every worker, stopping the others when one fails or a stop
 * is asked for, reap them all and free the group. sum gets the merge of
 * every worker that reported. Returns 0; the first failure's -errno
 * with fail filled; or -EINTR after a stop (or workers_abort) with no
 * worker failing first.
 */
int workers_finish(struct workers *w, struct workers_result *sum,
		   struct workers_failure *fail);

/*
 * In a worker: wait until every worker is ready. Returns 0, or -errno:
 * -EINTR on a stop, -ECANCELED when the parent called the run off, a
 * pipe's errno, -EINVAL when called twice.
 */
int workers_barrier(struct workers_self *me);

/*
 * In a worker: the barrier of its next step (the one call an
 * MPI_Barrier would sit behind): says it is ready, waits until the
 * parent releases the step to all, then empties me->res and stamps its
 * start. Returns 0, or -EINTR on a stop, -ECANCELED when the parent
 * called the run off.
 */
int workers_step(struct workers_self *me);

/* In a worker: the end of a step's timed window: stamps the end and the
 * CPU time since workers_step into me->res. */
void workers_step_end(struct workers_self *me);

/* In a worker: the step's figures are all in me->res (the worker may
 * replace the module's times before this): the parent may read them.
 * Returns 0 or -errno of the pipe. */
int workers_step_done(struct workers_self *me);

/*
 * The parent: wait until every worker is ready for the next step, and
 * release nothing yet (something else may wait first: clyde -y s). The
 * same returns as workers_step_go, which waits again (at once) itself.
 */
int workers_step_ready(struct workers *w);

/*
 * The parent: wait until every worker is ready for the next step, then
 * release it to all at once. Returns 0; -ECHILD when a worker failed or
 * ended first, -EINTR on a stop: every worker is then stopped, and
 * workers_finish says why.
 */
int workers_step_go(struct workers *w);

/*
 * The parent: wait until every worker has done the step released last;
 * sum gets their merge. The same returns as workers_step_go.
 */
int workers_step_wait(struct workers *w, struct workers_result *sum);

/*
 * After -ETIMEDOUT from workers_step_go or workers_step_wait (every
 * worker then stopped): the first worker missing. At a step's start,
 * once one worker was ready, another was not within the job's
 * barrier_timeout_ms; in its timed work, no worker counted an operation
 * (workers_live) for that long. -1: none.
 */
int workers_late(const struct workers *w);

/*
 * In a worker: the counter of its operations in this step, which the
 * timed work adds 1 to per operation (__atomic_fetch_add, relaxed; the
 * worker's own children may add too), so the group's "first finished"
 * figure can be taken.
 */
uint64_t *workers_live(struct workers_self *me);

/*
 * In a worker: how many of its counted operations are likely not done
 * yet (written, but still being written back), which the worker stores
 * (__atomic_store_n) as it learns it and sets to 0 when the step's
 * work is durable; the first-finished count takes them off.
 */
uint64_t *workers_live_ahead(struct workers_self *me);

/*
 * What workers lo..hi-1 had done, in all, when the first worker of the
 * group ended the step workers_step_wait returned last (elbencho's
 * "first finished"): each one's work scaled by its operations then over
 * its operations in all; a worker that counted none is scaled by time
 * instead (exact 0). The span runs from the first start of the range to
 * that end; cpu_share[i - lo], when given, gets the share of worker i's
 * window before that end (0..1).
 */
struct workers_first {
	uint64_t work;
	uint64_t start_ns, end_ns;
	int exact;
};
void workers_step_first(const struct workers *w, unsigned lo, unsigned hi,
			struct workers_first *f, double *cpu_share);

/* Worker i's figures of the step workers_step_wait returned last. */
const struct workers_result *workers_step_result(const struct workers *w,
						 unsigned i);

#endif
