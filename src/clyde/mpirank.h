/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpirank: clyde under mpirun (a --with-mpi build), each rank one
 * worker. main calls three functions: mpirank_start after the options
 * (finds mpirun from the environment and only then starts MPI, refuses
 * what cannot go with ranks, expands the -d pattern, makes rank 0 the
 * only one that prints its results), mpirank_agree once every check is
 * done (the ranks go on only if all of them do), and mpirank_end with
 * the exit status once the scratch directory is gone. Without HAVE_MPI
 * they are the inline stubs below and nothing of MPI is compiled.
 *
 * The rest is what mpirank.c, mpirank_xchg.c (the exchanges every step
 * is made of), mpirank_err.c (the rank's standard error) and
 * runner_mpi.c (a pass's steps) share.
 */
#ifndef CLYDE_MPIRANK_H
#define CLYDE_MPIRANK_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "options.h"

#ifdef HAVE_MPI
/*
 * Under mpirun: MPI started, o made this rank's (-d expanded, and on
 * every rank but 0 no --json). Returns -1 to go on (also outside
 * mpirun: nothing done), or the exit status after a refusal (printed by
 * rank 0: every rank refuses the same options).
 */
int mpirank_start(struct clyde_opts *o, volatile sig_atomic_t *stop);

/*
 * Every rank's checks, status (0: go on; else the exit status it would
 * end with), met: the largest status of all ranks, which every rank
 * then ends with. Each refusing rank has said why itself. Outside
 * mpirun, status.
 */
int mpirank_agree(int status);

/*
 * The end, after the scratch directory is removed: a -d directory the
 * pattern made goes too (when still the same and empty), and MPI is
 * finished (or, when the ranks fell out of step, the job aborted with
 * status). Returns status.
 */
int mpirank_end(int status);

/* Under mpirun: the number of ranks; else 0. */
unsigned mpirank_ranks(void);

/* The -d this rank's pattern made (for the scratch watcher), or NULL. */
const char *mpirank_made_dir(void);
#else
static inline int mpirank_start(struct clyde_opts *o,
				volatile sig_atomic_t *stop)
{
	(void)o;
	(void)stop;
	return -1;
}

static inline int mpirank_agree(int status)
{
	return status;
}

static inline int mpirank_end(int status)
{
	return status;
}

static inline unsigned mpirank_ranks(void)
{
	return 0;
}

static inline const char *mpirank_made_dir(void)
{
	return NULL;
}
#endif

/* The longest host name a rank shows (the short name, to the first dot). */
#define MPIRANK_HOST_MAX 64

/* What every rank tells the lead at the agreement. */
struct mpirank_peer {
	int status; /* first: an exchange's outcome (mpirank_exchange) */
	char host[MPIRANK_HOST_MAX];
	char dir[PATH_MAX];
};

/* This rank. */
struct mpirank {
	int on; /* under mpirun, MPI started */
	int rank;
	unsigned size;
	char host[MPIRANK_HOST_MAX];
	char dir[PATH_MAX]; /* -d, expanded */
	unsigned timeout;   /* --barrier-timeout, seconds; 0: none */
	volatile sig_atomic_t *stop;
	int agreed, ended;
	int broken;	     /* an exchange failed: the ranks are out of step */
	unsigned char *came; /* rank 0, broken: who came to that exchange */
	int told;	     /* not rank 0, broken: rank 0 said so */
	struct mpirank_peer
	    *peer; /* on rank 0, each rank's, from the agreement */
	int made;  /* -d made by the pattern: its identity */
	dev_t made_dev;
	ino_t made_ino;
};

extern struct mpirank mpirank_me;

/* The lead's verdict on an exchange. */
struct mpirank_verdict {
	int rc;	    /* the first rank's nonzero outcome (worst: the largest) */
	int rank;   /* that rank; -1: none */
	int broken; /* rank 0 could not gather: rc is its failure */
};

/*
 * One exchange: every rank's record (len bytes, an int outcome first) to
 * rank 0's all (size * len bytes; NULL elsewhere), then rank 0's verdict
 * on them to every rank. Nothing blocks: each wait tests its requests
 * every half millisecond, watching the stop flag and the timeout (rank
 * 0 waits the timeout, the others 10 s more, as they wait for it too).
 * 0 with v set; or, the ranks now out of step (broken): -EINTR on a
 * stop, -ETIME when ranks did not come in time (what, wlen bytes, names
 * them on rank 0, rank 0 on the others), -EPROTO on an MPI error.
 */
int mpirank_exchange(const void *mine, void *all, size_t len, int worst,
		     struct mpirank_verdict *v, char *what, size_t wlen);

/*
 * This rank's standard error from now on (mpirank_err.c): each line of
 * clyde's ("clyde: ...") names the rank and host; on every rank but 0,
 * only those lines are kept, not the ones every rank would print alike
 * (the data size, notes), and rank 0's pass unchanged once the ranks
 * agreed. 0, or -1 (stderr left as it was).
 */
int mpirank_err_open(void);

/*
 * After a failed exchange, once this rank's cleanup is done: on rank 0,
 * wait (at most MPIRANK_FAREWELL_S, or a stop) until every rank that came
 * to it says its own cleanup is done too; on the others, say so when
 * rank 0 told them. Only then may rank 0's MPI_Abort end the job, so
 * that no rank that could clean up is killed half way (mpirun sends
 * SIGTERM, and SIGKILL soon after).
 */
#define MPIRANK_FAREWELL_S 30u
void mpirank_farewell(void);

#endif
