/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner_impl: what runner.c and runner_conc.c (-c N) share: one pass
 * of the phases, which runs the same in the parent of -c workers (each
 * phase a step of the group: released, waited for, merged, recorded)
 * and in each worker (each phase on its own files, behind the step's
 * barrier).
 */
#ifndef CLYDE_RUNNER_IMPL_H
#define CLYDE_RUNNER_IMPL_H

#include "clock.h"
#include "phase.h"
#include "result.h"
#include "runner.h"
#include "workers.h"

/* One pass: what its phases share. */
struct pass {
	const struct runner_env *env;
	struct run_result *r;
	struct phase_ctx ctx;
	void *priv[RT_COUNT]; /* by slot */
	enum runner_status status;
	int rc;		/* the failing phase's -errno */
	int data_ready; /* the data file is whole */
	int warned;	/* the cache warning was given */
	/* -c N: in a worker, itself; in the parent, the group and each
	 * worker's figures of the step last merged. Otherwise NULL. */
	struct workers_self *me;
	struct workers *w;
	struct result_worker *each;
	/* Several -d, in the parent: each target's figures of the step
	 * last merged (ntargets of them), recorded with the aggregate's. */
	struct timed *tgt;
	int mute; /* its failures are another process's to tell (a rank) */
	struct ilog *ilog; /* --log-interval (interval.h), or NULL */
	/* The status line of the test that runs (live.h), or NULL, and
	 * when it is next due. */
	struct live *lv;
	uint64_t lv_due;
};

/* The marks around a phase's run() and what it did. */
struct timed {
	struct phase_out out;
	struct clk_mark start, end;
	const struct result_worker *each; /* -c N: n workers' own figures */
	unsigned n;
	struct result_spans spans; /* several workers: first, last finished */
	/* A test's own run (not the untimed preparing one): its phase, for
	 * the environment's sync hook; NULL: no sync. */
	const struct phase_ops *sync;
	/* --log-interval: its intervals and, with several workers, each
	 * one's (not owned: the pass's ilog holds them). */
	const struct result_interval *iv, *wiv;
	unsigned niv, nwiv;
};

/*
 * Under mpirun, the steps of a pass across the ranks (runner_mpi.c, in
 * clyde alone: it links MPI, the Check suites do not). start meets
 * every rank before a phase's timed window, with rc its own setup's
 * outcome; done, after the window, gathers every rank's figures and
 * outcome to the lead, which merges them into t. Each returns 0, or the
 * step's failure (anywhere) as -errno, ctx.what naming the rank on the
 * lead.
 */
struct runner_ranks {
	int lead;      /* rank 0: it records and tells */
	unsigned size; /* ranks */
	int (*start)(struct pass *p, int rc);
	int (*done)(struct pass *p, struct timed *t, int rc);
};

/* Every pass from now on runs its steps through r (NULL: none). */
void runner_use_ranks(const struct runner_ranks *r);

/* p afresh for a pass on the data file data_path (in dir, open as
 * dirfd). */
void runner_pass_init(struct pass *p, const struct runner_env *env,
		      struct run_result *r, int dirfd, const char *dir,
		      const char *data_path);

/* Every phase of the registry in turn, then every release hook; sets
 * p->status. */
void runner_pass_phases(struct pass *p);

/* The environment's sync hook before t's timed window (not in a -c
 * worker: the parent waits for the group). 0, or -errno with ctx.what
 * set by the hook. */
int runner_sync(struct pass *p, const struct timed *t);

/* t's figures into rec; 0, or -1 when its latencies find no memory. */
int runner_record(struct result_test_rec *rec, const struct timed *t);

/* -c N > 1 or several -d: the pass in N workers per target
 * (runner_conc.c). */
enum runner_status runner_run_conc(const struct runner_env *env,
				   struct run_result *r);

/* In the parent: one step (the phase every worker runs now) released,
 * waited for and merged into t. 0, or -errno with ctx.what naming the
 * worker that failed. */
int runner_conc_step(struct pass *p, struct timed *t);

/* In a worker: the step's barrier, just before run(); 0 or -errno. */
int runner_worker_start(struct pass *p);

/* In a worker: the step's figures published, just after run(). */
int runner_worker_done(struct pass *p, const struct timed *t);

/*
 * The watchers of a test (runner_watch.c): open and close for a pass
 * (open: 0, or -1 with the pass failed and said), begin and end around
 * run() (after t's start mark, after its end mark), and t's intervals
 * into rec (0, or -1 without memory).
 */
int runner_watch_open(struct pass *p);
/* The clock hook (phase_out.tick, tick_arg the pass): each watcher's
 * turn when due, then the earliest next due time. */
void runner_tick(struct phase_out *out, uint64_t now);
void runner_watch_close(struct pass *p);
void runner_watch_begin(struct pass *p, const struct phase_ops *ph,
			struct timed *t);
void runner_watch_end(struct pass *p, const struct phase_ops *ph,
		      struct timed *t);
int runner_watch_record(struct result_test_rec *rec, const struct timed *t);

#endif
