/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpirank_xchg: the one exchange the ranks' steps are made of (see
 * mpirank.h): every rank sends its record to rank 0, which answers each
 * with its verdict. The answer is the barrier: no rank goes on before
 * rank 0 has every record. It is made of point-to-point messages rather
 * than MPI_Ibarrier, MPI_Igather and MPI_Ibcast because a collective can
 * neither say which ranks did not come nor reach the ranks that did once
 * one is missing (a broadcast tree may pass through it), and because a
 * rank whose setup failed must still come, with its failure. Every wait
 * is MPI_Testall in a loop with a short sleep that watches the stop flag
 * (SIGINT, SIGTERM: mpirun sends SIGTERM to every rank when one dies)
 * and the timeout, so no rank is ever left inside MPI.
 *
 * Records are sent as bytes: every host of a job runs the same clyde on
 * the same architecture.
 */
#include "config.h"

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "mpirank.h"

enum { TAG_RECORD = 1300, TAG_VERDICT, TAG_DONE };

/* Seconds the others wait beyond rank 0's timeout: they wait for it. */
#define XCHG_GRACE 10u

/* How long a wait sleeps between two tests of its requests. */
#define XCHG_POLL_NS 500000L

/*
 * Test reqs (n of them) until all are done: 0; -EINTR on a stop, -ETIME
 * at the deadline (monotonic ns; 0: none), -EPROTO on an MPI error.
 */
static int wait_reqs(int n, MPI_Request *reqs, uint64_t deadline)
{
	const struct timespec nap = {0, XCHG_POLL_NS};

	for (;;) {
		int done = 0;

		if (MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE) !=
		    MPI_SUCCESS)
			return -EPROTO;
		if (done)
			return 0;
		if (*mpirank_me.stop)
			return -EINTR;
		if (deadline && clk_now_ns() >= deadline)
			return -ETIME;
		nanosleep(&nap, NULL);
	}
}

static uint64_t deadline_in(unsigned seconds)
{
	return seconds ? clk_now_ns() + (uint64_t)seconds * 1000000000u : 0;
}

/* "rank 2 (host), rank 3 (host)": the ranks whose record is missing. */
static void name_missing(MPI_Request *reqs, char *what, size_t wlen)
{
	const struct mpirank *me = &mpirank_me;
	size_t at = 0;

	what[0] = '\0';
	for (unsigned r = 1; r < me->size && at + 1 < wlen; r++) {
		int done = 0;

		MPI_Test(&reqs[r], &done, MPI_STATUS_IGNORE);
		if (done)
			continue;
		at += (size_t)snprintf(what + at, wlen - at, "%srank %u (%s)",
				       at ? ", " : "", r,
				       me->peer ? me->peer[r].host : "?");
	}
	if (at < wlen)
		snprintf(what + at, wlen - at,
			 " did not come within %u s "
			 "(--barrier-timeout)",
			 me->timeout);
}

/* Rank 0's verdict on every record. */
static void judge(const char *all, size_t len, int worst,
		  struct mpirank_verdict *v)
{
	v->rc = 0;
	v->rank = -1;
	v->broken = 0;
	for (unsigned r = 0; r < mpirank_me.size; r++) {
		int rc;

		memcpy(&rc, all + r * len, sizeof(rc));
		if (rc && (v->rank < 0 || (worst && rc > v->rc))) {
			v->rc = rc;
			v->rank = (int)r;
		}
	}
}

/* Rank 0: every record in, the verdict out to each rank that sent one. */
static int lead(const void *mine, char *all, size_t len, int worst,
		struct mpirank_verdict *v, char *what, size_t wlen)
{
	unsigned n = mpirank_me.size;
	MPI_Request *reqs = calloc(2 * (size_t)n, sizeof(*reqs));
	int rc = 0;

	if (!reqs)
		return -ENOMEM;
	memcpy(all, mine, len);
	reqs[0] = reqs[n] = MPI_REQUEST_NULL;
	for (unsigned r = 1; r < n && rc == 0; r++)
		if (MPI_Irecv(all + r * len, (int)len, MPI_BYTE, (int)r,
			      TAG_RECORD, MPI_COMM_WORLD,
			      &reqs[r]) != MPI_SUCCESS)
			rc = -EPROTO;
	if (rc == 0)
		rc = wait_reqs((int)n, reqs, deadline_in(mpirank_me.timeout));
	if (rc == -ETIME)
		name_missing(reqs, what, wlen);
	if (rc == 0)
		judge(all, len, worst, v);
	else
		*v = (struct mpirank_verdict){.rc = rc, .rank = 0, .broken = 1};
	/* Those that came hear the verdict (a failed one too, so that
	 * they stop at once rather than at their own timeout). */
	if (rc && !mpirank_me.came)
		mpirank_me.came = calloc(n, 1);
	for (unsigned r = 1; r < n; r++) {
		int done = rc == 0 || reqs[r] == MPI_REQUEST_NULL;

		reqs[n + r] = MPI_REQUEST_NULL;
		if (!done)
			MPI_Test(&reqs[r], &done, MPI_STATUS_IGNORE);
		if (rc && mpirank_me.came)
			mpirank_me.came[r] = done && rc != -EPROTO;
		if (done && rc != -EPROTO)
			MPI_Isend(v, sizeof(*v), MPI_BYTE, (int)r, TAG_VERDICT,
				  MPI_COMM_WORLD, &reqs[n + r]);
	}
	if (wait_reqs((int)n - 1, reqs + n + 1, deadline_in(XCHG_GRACE)) &&
	    rc == 0)
		rc = -EPROTO;
	free(reqs);
	return rc;
}

/* Any other rank: its record out, the verdict in. */
static int other(const void *mine, size_t len, struct mpirank_verdict *v,
		 char *what, size_t wlen)
{
	unsigned t = mpirank_me.timeout;
	uint64_t deadline = deadline_in(t ? t + XCHG_GRACE : 0);
	MPI_Request reqs[2];
	int rc;

	if (MPI_Isend(mine, (int)len, MPI_BYTE, 0, TAG_RECORD, MPI_COMM_WORLD,
		      &reqs[0]) != MPI_SUCCESS ||
	    MPI_Irecv(v, sizeof(*v), MPI_BYTE, 0, TAG_VERDICT, MPI_COMM_WORLD,
		      &reqs[1]) != MPI_SUCCESS)
		return -EPROTO;
	rc = wait_reqs(2, reqs, deadline);
	if (rc == -ETIME)
		snprintf(what, wlen,
			 "rank 0 did not answer within %u s "
			 "(--barrier-timeout, and %u s more)",
			 t, XCHG_GRACE);
	/* Rank 0's own failure to gather is the run's end for all. */
	if (rc == 0 && v->broken) {
		rc = v->rc;
		mpirank_me.told = 1;
	}
	return rc;
}

int mpirank_exchange(const void *mine, void *all, size_t len, int worst,
		     struct mpirank_verdict *v, char *what, size_t wlen)
{
	int rc = mpirank_me.rank == 0
		     ? lead(mine, all, len, worst, v, what, wlen)
		     : other(mine, len, v, what, wlen);

	if (rc)
		mpirank_me.broken = 1;
	return rc;
}

void mpirank_farewell(void)
{
	struct mpirank *me = &mpirank_me;
	unsigned n = me->size, k = 0;
	MPI_Request *reqs;
	char *got, said = 1;

	if (me->rank != 0) {
		MPI_Request req;

		if (me->told && MPI_Isend(&said, 1, MPI_BYTE, 0, TAG_DONE,
					  MPI_COMM_WORLD, &req) == MPI_SUCCESS)
			wait_reqs(1, &req, deadline_in(XCHG_GRACE));
		return;
	}
	if (!me->came || !(reqs = calloc(n, sizeof(*reqs) + 1)))
		return;
	got = (char *)(reqs + n);
	for (unsigned r = 1; r < n; r++)
		if (me->came[r] &&
		    MPI_Irecv(&got[r], 1, MPI_BYTE, (int)r, TAG_DONE,
			      MPI_COMM_WORLD, &reqs[k]) == MPI_SUCCESS)
			k++;
	if (k)
		wait_reqs((int)k, reqs, deadline_in(MPIRANK_FAREWELL_S));
	free(reqs);
}
