/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner_pass: the runner's middle layer, one worker's pass over the
 * phases of the registry (runner_phases.h), in order: skipping, the
 * untimed making of the data file a read test needs, the cache eviction
 * before a read, each test's setup, its timed window (run() between two
 * marks, the watchers around it: runner_watch.c), its teardown, its
 * record, the progress line, the status line and the one error line.
 *
 * The pass knows no group of workers: the layer above it that made the
 * group (runner_workers.c; runner_mpi.c across ranks) hands it a
 * struct pass_group, whose hooks are how its tests meet the other
 * workers. A pass alone in its process has none.
 */
#ifndef CLYDE_RUNNER_PASS_H
#define CLYDE_RUNNER_PASS_H

#include <stdint.h>

#include "clock.h"
#include "phase.h"
#include "result.h"
#include "runner.h"
#include "runner_phases.h"

struct pass;
struct timed;
struct steady_watch;

/*
 * How a pass's tests meet the other workers of its group. Each hook
 * returns 0, or the step's failure as -errno with ctx.what set (NULL
 * hooks: nothing to meet).
 */
struct pass_group {
	/* The conductor of workers that run elsewhere: a test is one step
	 * of the group, released to them, waited for and merged into t, in
	 * place of the test's own hooks, which this pass does not run. */
	int (*step)(struct pass *p, struct timed *t);
	/* Around a test's timed window where it runs: start after its
	 * setup (rc its outcome) and the sync hook, done after the window
	 * (rc its outcome). Each returns the outcome of the step. */
	int (*start)(struct pass *p, int rc);
	int (*done)(struct pass *p, struct timed *t, int rc);
};

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
	/* Its group (NULL: alone) and the group layer's own state. */
	const struct pass_group *group;
	void *group_arg;
	/* A worker forked by the group layer: the parent runs the sync
	 * hook for the whole group, draws the status line and tells the
	 * failures. Its index among them (the interval log's), else -1. */
	int worker;
	int index;
	/* The workers the status line counts (1 for a pass alone); in a
	 * worker, its live count of operations and of those not yet
	 * written back (workers_live, workers_live_ahead), else NULL. */
	unsigned nworkers;
	uint64_t *live, *live_ahead;
	/* Several -d, in the conductor: each target's figures of the step
	 * last merged (ntargets of them), recorded with the aggregate's. */
	struct timed *tgt;
	int mute; /* its failures are another process's to tell (a rank) */
	struct ilog *ilog; /* --log-interval (interval.h), or NULL */
	/* The log is clyde's own, without --log-interval: only the
	 * figures that look for a cliff are logged. */
	int ilog_cliff;
	int ranked; /* one rank of an mpirun group */
	/* --precondition's step ran in this pass (or, runner_env's
	 * preconditioned, in the run before it). */
	int preconditioned;
	/* The status line of the test that runs (live.h), or NULL, and
	 * when it is next due. */
	struct live *lv;
	uint64_t lv_due;
	/* --steady: the watcher of the test that runs in rounds, or NULL,
	 * and when it is next due; then the rounds of the test just run,
	 * for its record (owned until recorded). */
	struct steady_watch *sw;
	uint64_t sw_due;
	struct steady_run *steady;
};

/* The marks around a phase's run() and what it did. */
struct timed {
	struct phase_out out;
	struct clk_mark start, end;
	const struct result_worker *each; /* several workers' own figures */
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

/* p afresh for a pass alone on the data file data_path (in dir, open as
 * dirfd), writing the content of fill; the group layer then sets its
 * part. */
void runner_pass_init(struct pass *p, const struct runner_env *env,
		      struct run_result *r, int dirfd, const char *dir,
		      const char *data_path, struct fill *fill);

/* Every phase of the registry in turn, then every release hook; sets
 * p->status. */
void runner_pass_phases(struct pass *p);

/* The environment's sync hook before t's timed window (not in a forked
 * worker: its parent waits for the group). 0, or -errno with ctx.what
 * set by the hook. */
int runner_sync(struct pass *p, const struct timed *t);

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
/* The log's period for p's pass: --log-interval's, else ILOG_CLIFF_MS
 * (not under mpirun, whose ranks log nothing); 0: none. */
unsigned runner_watch_ms(const struct pass *p);
/* The test of ph just recorded in rec: its rounds under --steady (rec
 * owns them), and the settings column's words on them. */
void runner_watch_steady(struct pass *p, struct result_test_rec *rec);
/* A figure that writes (FIGF_CLIFF): the write-cache cliff in the
 * intervals recorded, the aggregate's and each target's (cliff.h). */
void runner_watch_cliff(struct pass *p, const struct phase_ops *ph);

#endif
