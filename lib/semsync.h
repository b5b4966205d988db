/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * semsync: bonnie++'s semaphores for running several processes in step
 * (bonnie++ -p N, -y s), so that clyde processes and bonnie++ 2.00
 * processes started together begin each test together.
 *
 * The protocol, as bonnie++ 2.00 speaks it: one System V semaphore set
 * of key SEMSYNC_KEY (0x1267) holding SEMSYNC_SEMS (12) semaphores, one
 * per bonnie++ test in bonnie++'s order (0 putc, 1 put_block, 2 rewrite,
 * 3 getc, 4 get_block, 5 seeks, 6 seq_create, 7 seq_stat, 8 seq_del,
 * 9 ran_create, 10 ran_stat, 11 ran_del: the registry's figures with a
 * bonnie++ CSV field, in the registry's order). "-p N" makes the set
 * (IPC_CREAT, mode 0666) and sets every semaphore to N; "-p -1" removes
 * it. Before test t each process takes one from semaphore t without
 * waiting (IPC_NOWAIT: at 0 the set has no room for it) and then waits
 * until semaphore t is 0 (the flags bonnie++ gives: SEM_UNDO): when the
 * N-th process arrives, all N go. A test that does not run takes
 * nothing, so the processes must run the same tests; a set serves one
 * pass of them, and is made again for the next.
 *
 * Waiting is bounded: semsync_wait gives up after a timeout, so a
 * process whose partners never come ends instead of hanging. The key is
 * a parameter so the tests can use a set of their own. Never prints,
 * never exits.
 */
#ifndef CLYDE_SEMSYNC_H
#define CLYDE_SEMSYNC_H

#include <signal.h>
#include <sys/types.h>

#include "figures.h"

/* bonnie++'s key and the number of semaphores in its set. */
#define SEMSYNC_KEY  0x1267
#define SEMSYNC_SEMS 12
/* The largest value a semaphore takes (Linux's SEMVMX): -p's limit. */
#define SEMSYNC_PROCS_MAX 32767

/*
 * Make the set of key for n processes (1..SEMSYNC_PROCS_MAX), or take
 * the one there and set it afresh, as bonnie++ -p does. 0 or -errno
 * (-EINVAL: a set of key with fewer than SEMSYNC_SEMS semaphores).
 */
int semsync_create(key_t key, unsigned n);

/* Remove the set of key: 0, -ENOENT when there is none, or -errno. */
int semsync_remove(key_t key);

/*
 * The id of the set of key into *id: 0, -ENOENT when there is none,
 * -EINVAL when it has fewer than SEMSYNC_SEMS semaphores, or -errno.
 */
int semsync_open(key_t key, int *id);

/* The semaphore of figure t, or -1 for a figure bonnie++ does not have. */
int semsync_slot(enum result_test t);

/*
 * Wait at semaphore slot of set id: take one, then wait until it is 0,
 * for at most timeout_s seconds in all. An interrupted wait goes on
 * unless *stop (NULL: never) is set. Returns 0 once every process has
 * come, -EAGAIN when the semaphore was already 0 (more processes than
 * the set was made for, or a set already used), -ETIMEDOUT when the
 * others did not all come in time, -EINTR on a stop, -EIDRM when the
 * set was removed, or another -errno. Only a return of 0 leaves the
 * semaphore as the protocol wants it.
 */
int semsync_wait(int id, unsigned slot, unsigned timeout_s,
		 const volatile sig_atomic_t *stop);

#endif
