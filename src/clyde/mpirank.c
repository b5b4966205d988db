/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpirank: see mpirank.h. mpirun is found from the environment it gives
 * every rank (OMPI_COMM_WORLD_SIZE, PMIX_RANK), so a plain clyde of an
 * MPI build never starts an MPI singleton. What every rank refuses
 * alike (the options, the -d pattern) is refused before MPI starts and
 * said by rank 0 alone; what each rank checks for itself (the
 * directory, its room, the outputs) is said by each refusing rank and
 * met at mpirank_agree, so that every rank ends with the same status.
 *
 * A rank leaving before the agreement (a refused check returns from
 * main) still comes to it, from the atexit hook, with exit status 2.
 * At the end, MPI_Finalize when the ranks are in step; after a stop
 * (mpirun tears the job down: a rank died, or ^C) nothing more of MPI,
 * the rank's cleanup done; when an exchange failed (a rank missing),
 * MPI_Abort, so that mpirun ends the ranks still waiting.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "dirpat.h"
#include "mpirank.h"
#include "runner_workers.h"
#include "text.h"

/* runner_mpi.c: the step hooks. */
extern struct runner_ranks runner_mpi_ranks;

struct mpirank mpirank_me;

static const char *env_rank(void)
{
	const char *s = getenv("OMPI_COMM_WORLD_RANK");

	return s ? s : getenv("PMIX_RANK");
}

/* This host's short name, as %h and the messages show it. */
static void short_host(char *buf, size_t len)
{
	if (gethostname(buf, len - 1) != 0 || !buf[0])
		snprintf(buf, len, "localhost");
	buf[len - 1] = '\0';
	buf[strcspn(buf, ".")] = '\0';
}

/* What cannot go with ranks: why, or NULL. */
static const char *refused(const struct clyde_opts *o)
{
	if (o->concurrency > 1)
		return "-c: under mpirun each rank is one worker; start more "
		       "ranks (mpirun -np N) instead";
	if (o->ndirs > 1)
		return "several -d: under mpirun give one -d, with %r or %h "
		       "in it for a directory per rank or per host";
	if (o->sem_procs)
		return "-p: under mpirun the ranks keep in step themselves; "
		       "no semaphores are needed";
	if (o->sync)
		return "-y: under mpirun the ranks keep in step themselves "
		       "before each test; start more ranks instead";
	if (o->log_interval_ms)
		return "--log-interval: not under mpirun yet; log a run "
		       "without it";
	if (o->steady)
		return "--steady: not under mpirun yet (each rank would "
		       "settle at its own time); run it without";
	if (o->journal)
		return "--journal: a journal follows one data file; run "
		       "it without mpirun";
	return NULL;
}

/* -d's pattern for this rank; 0 or -1 (said by rank 0). */
static int expand_dir(struct clyde_opts *o, int rank)
{
	struct mpirank *me = &mpirank_me;
	char why[128], d[PATH_MAX * 4 + 1];

	if (dirpat_expand(o->dir, rank, me->host, me->dir, sizeof(me->dir), why,
			  sizeof(why)) == 0) {
		o->dir = o->dirs[0] = me->dir;
		return 0;
	}
	if (rank == 0) {
		text_escape(o->dir, d, sizeof(d), TEXT_LINE);
		error("-d '%s': %s", d, why);
	}
	return -1;
}

/* A per-rank -d that is not there yet is made, and noted as ours. */
static void make_dir(const char *pattern)
{
	struct mpirank *me = &mpirank_me;
	struct stat st;

	if (!dirpat_per_rank(pattern) || stat(me->dir, &st) == 0 ||
	    errno != ENOENT || mkdir(me->dir, 0700) != 0 ||
	    lstat(me->dir, &st) != 0)
		return;
	me->made = 1;
	me->made_dev = st.st_dev;
	me->made_ino = st.st_ino;
}

/* The -d this run made, if still that directory; only empty it goes. */
static void unmake_dir(void)
{
	struct mpirank *me = &mpirank_me;
	struct stat st;

	if (!me->made || lstat(me->dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    st.st_dev != me->made_dev || st.st_ino != me->made_ino)
		return;
	me->made = 0;
	if (rmdir(me->dir) != 0 && errno != ENOTEMPTY && errno != EEXIST)
		error("-d '%s', made for this rank: cannot remove it: %s",
		      me->dir, strerror(errno));
}

static void at_exit(void)
{
	if (mpirank_me.on && !mpirank_me.ended)
		mpirank_end(2);
}

/* MPI started; this rank's view of itself. 0 or -1. */
static int start_mpi(void)
{
	struct mpirank *me = &mpirank_me;
	int rank, size;

	if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		error("under mpirun, MPI_Init failed");
		return -1;
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	me->on = 1;
	me->rank = rank;
	me->size = (unsigned)size;
	atexit(at_exit);
	return 0;
}

/*
 * A refusal every rank reaches: rank 0 says it, and the others wait a
 * moment before their exit 2. mpirun ends the job at the first rank that
 * exits non-zero; a quiet rank first once killed rank 0 before its line
 * was out (t/046, under load). The wait ends at mpirun's SIGTERM.
 */
static int refused_exit(int rank)
{
	struct timespec ts = {2, 0};

	if (rank != 0)
		nanosleep(&ts, NULL);
	return CLI_EXIT_USAGE;
}

int mpirank_start(struct clyde_opts *o, volatile sig_atomic_t *stop)
{
	struct mpirank *me = &mpirank_me;
	const char *why, *r = env_rank(), *pattern = o->dir;
	int rank = r ? atoi(r) : 0;

	if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMIX_RANK"))
		return -1;
	me->stop = stop;
	me->timeout = o->barrier_timeout;
	short_host(me->host, sizeof(me->host));
	if ((why = refused(o)) != NULL) {
		if (rank == 0)
			error("%s", why);
		return refused_exit(rank);
	}
	if (expand_dir(o, rank))
		return refused_exit(rank);
	if (start_mpi())
		return CLI_EXIT_FAILED;
	mpirank_err_open();
	make_dir(pattern);
	runner_mpi_ranks.lead = me->rank == 0;
	runner_mpi_ranks.size = me->size;
	runner_mpi_ranks.rank = (unsigned)me->rank;
	runner_use_ranks(&runner_mpi_ranks);
	if (me->rank != 0) {
		/* Results are rank 0's to print and write. */
		int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (fd >= 0) {
			fflush(stdout);
			dup2(fd, STDOUT_FILENO);
			close(fd);
		}
		o->json = 0;
		o->json_path = NULL;
	}
	return -1;
}

int mpirank_agree(int status)
{
	struct mpirank *me = &mpirank_me;
	struct mpirank_peer mine = {.status = status};
	struct mpirank_verdict v;
	char what[256];
	int rc;

	if (!me->on || me->agreed)
		return status;
	snprintf(mine.host, sizeof(mine.host), "%.63s", me->host);
	if (!realpath(me->dir, mine.dir))
		snprintf(mine.dir, sizeof(mine.dir), "%.4095s", me->dir);
	if (me->rank == 0 && !me->peer &&
	    !(me->peer = calloc(me->size, sizeof(*me->peer))))
		rc = -ENOMEM;
	else
		rc = mpirank_exchange(&mine, me->peer, sizeof(mine), 1, &v,
				      what, sizeof(what));
	fflush(stderr);
	me->agreed = 1;
	if (rc == 0)
		return v.rc;
	if (rc != -EINTR)
		error("the ranks' checks: %s",
		      rc == -ETIME ? what : strerror(-rc));
	return status	      ? status
	       : rc == -EINTR ? CLI_EXIT_SIGNAL(*me->stop)
			      : CLI_EXIT_FAILED;
}

int mpirank_end(int status)
{
	struct mpirank *me = &mpirank_me;
	const struct timespec nap = {0, 100000000L};

	if (!me->on || me->ended)
		return status;
	if (!me->agreed)
		status = mpirank_agree(status ? status : 2) ?: status;
	me->ended = 1;
	unmake_dir();
	fflush(NULL);
	if (*me->stop)
		return status;
	if (me->broken) {
		/* Rank 0 aborts once the ranks that came are clean; the
		 * others give it that long and 5 s more, so that it says
		 * why, and only then do it themselves. */
		mpirank_farewell();
		for (int i = 0; me->rank != 0 && !*me->stop &&
				i < 10 * ((int)MPIRANK_FAREWELL_S + 5);
		     i++)
			nanosleep(&nap, NULL);
		if (*me->stop)
			return status;
		MPI_Abort(MPI_COMM_WORLD, status ? status : 1);
	}
	MPI_Finalize();
	return status;
}

unsigned mpirank_ranks(void)
{
	return mpirank_me.on ? mpirank_me.size : 0;
}

const char *mpirank_made_dir(void)
{
	return mpirank_me.on && mpirank_me.made ? mpirank_me.dir : NULL;
}
