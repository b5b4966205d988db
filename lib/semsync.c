/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * semsync: see semsync.h. The calls are the ones bonnie++ 2.00 makes
 * (semget, semctl SETVAL and IPC_RMID, semop), so a set one program made
 * serves the other; the wait for zero is a semtimedop, bounded.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <time.h>

#include "semsync.h"

/* bonnie++'s twelve figures are the ones with a 1.03 field (rate, %CP). */
_Static_assert(FIG_N03 == 2 * SEMSYNC_SEMS,
	       "one semaphore per figure with a bonnie++ field");

/* semctl's fourth argument; the caller defines it (semctl(2)). */
union semsync_arg {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

int semsync_create(key_t key, unsigned n)
{
	union semsync_arg arg = {.val = (int)n};
	int id;

	if (n < 1 || n > SEMSYNC_PROCS_MAX)
		return -ERANGE;
	id = semget(key, SEMSYNC_SEMS, IPC_CREAT | 0666);
	if (id < 0)
		return -errno;
	for (int k = 0; k < SEMSYNC_SEMS; k++)
		if (semctl(id, k, SETVAL, arg) != 0)
			return -errno;
	return 0;
}

int semsync_remove(key_t key)
{
	int id = semget(key, 1, 0666);

	if (id < 0)
		return -errno;
	return semctl(id, 0, IPC_RMID) == 0 ? 0 : -errno;
}

int semsync_open(key_t key, int *id)
{
	*id = semget(key, SEMSYNC_SEMS, 0666);
	return *id < 0 ? -errno : 0;
}

int semsync_slot(enum result_test t)
{
	int slot = 0;

	if ((unsigned)t >= RT_COUNT || !figure_bonnie(t))
		return -1;
	for (enum result_test k = 0; k < t; k++)
		slot += !!figure_bonnie(k);
	return slot;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int semsync_wait(int id, unsigned slot, unsigned timeout_s,
		 const volatile sig_atomic_t *stop)
{
	struct sembuf take = {.sem_num = (unsigned short)slot,
			      .sem_op = -1,
			      .sem_flg = IPC_NOWAIT};
	struct sembuf zero = {
	    .sem_num = (unsigned short)slot, .sem_op = 0, .sem_flg = SEM_UNDO};
	uint64_t end = now_ns() + (uint64_t)timeout_s * 1000000000u;

	if (slot >= SEMSYNC_SEMS)
		return -EINVAL;
	if (semop(id, &take, 1) != 0)
		return -errno;
	for (;;) {
		uint64_t t = now_ns(), left = t < end ? end - t : 0;
		struct timespec ts = {.tv_sec = (time_t)(left / 1000000000u),
				      .tv_nsec = (long)(left % 1000000000u)};

		if (!left)
			return -ETIMEDOUT;
		if (semtimedop(id, &zero, 1, &ts) == 0)
			return 0;
		if (errno == EAGAIN)
			return -ETIMEDOUT;
		if (errno != EINTR || (stop && *stop))
			return -errno;
	}
}
