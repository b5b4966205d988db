/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_semsync: bonnie++'s semaphore protocol on a set of the test's
 * own key (never bonnie++'s 0x1267): the semaphore of each figure, a set
 * made for N and removed, a missing or too small set, two processes
 * going through one semaphore together, a process alone giving up at
 * its timeout, a spent semaphore and a stop during the wait. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "semsync.h"
#include "check_main.h"

static key_t key;

/* The semaphores' values into v: 0 or -errno. (semctl's fourth argument
 * is the caller's to define, semctl(2).) */
static int semsync_values(int id, unsigned short v[SEMSYNC_SEMS])
{
	union {
		int val;
		struct semid_ds *buf;
		unsigned short *array;
	} arg = {.array = v};

	return semctl(id, 0, GETALL, arg) < 0 ? -errno : 0;
}

/* A key no set has: the test's own, removed again by teardown. */
static void setup(void)
{
	for (key = 0x636c0000 | (getpid() & 0xffff);; key += 0x10000)
		if (semget(key, 0, 0) < 0 && errno == ENOENT)
			break;
}

static void teardown(void)
{
	semsync_remove(key);
}

START_TEST(slots_are_bonnie_order)
{
	static const enum result_test order[SEMSYNC_SEMS] = {
	    RT_putc,	  RT_put_block,	 RT_rewrite,	RT_getc,
	    RT_get_block, RT_seeks,	 RT_seq_create, RT_seq_stat,
	    RT_seq_del,	  RT_ran_create, RT_ran_stat,	RT_ran_del};
	int seen = 0;

	for (int k = 0; k < SEMSYNC_SEMS; k++)
		ck_assert_int_eq(semsync_slot(order[k]), k);
	for (enum result_test t = 0; t < RT_COUNT; t++)
		seen += semsync_slot(t) >= 0;
	ck_assert_int_eq(seen, SEMSYNC_SEMS);
	ck_assert_int_eq(semsync_slot(RT_COUNT), -1);
}
END_TEST

START_TEST(create_open_remove)
{
	unsigned short v[SEMSYNC_SEMS];
	int id;

	ck_assert_int_eq(semsync_open(key, &id), -ENOENT);
	ck_assert_int_eq(semsync_remove(key), -ENOENT);
	ck_assert_int_eq(semsync_create(key, 0), -ERANGE);
	ck_assert_int_eq(semsync_create(key, SEMSYNC_PROCS_MAX + 1), -ERANGE);
	ck_assert_int_eq(semsync_create(key, 3), 0);
	ck_assert_int_eq(semsync_open(key, &id), 0);
	ck_assert_int_eq(semsync_values(id, v), 0);
	for (int k = 0; k < SEMSYNC_SEMS; k++)
		ck_assert_uint_eq(v[k], 3);
	/* Made again (bonnie++ -p twice): the same set, set afresh. */
	ck_assert_int_eq(semsync_create(key, SEMSYNC_PROCS_MAX), 0);
	ck_assert_int_eq(semsync_values(id, v), 0);
	ck_assert_uint_eq(v[11], SEMSYNC_PROCS_MAX);
	ck_assert_int_eq(semsync_remove(key), 0);
	ck_assert_int_eq(semsync_open(key, &id), -ENOENT);
}
END_TEST

/* A set of the key with fewer semaphores is not bonnie++'s. */
START_TEST(too_small_a_set)
{
	int id = semget(key, 3, IPC_CREAT | 0600);

	ck_assert_int_ge(id, 0);
	ck_assert_int_eq(semsync_open(key, &id), -EINVAL);
	ck_assert_int_eq(semsync_create(key, 2), -EINVAL);
	ck_assert_int_eq(semsync_remove(key), 0);
}
END_TEST

/* Two processes: neither goes on before both came; then it is 0. */
START_TEST(two_go_together)
{
	unsigned short v[SEMSYNC_SEMS];
	uint64_t t0, child_at;
	int id, st;
	pid_t pid;

	ck_assert_int_eq(semsync_create(key, 2), 0);
	ck_assert_int_eq(semsync_open(key, &id), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(semsync_wait(id, 4, 10, NULL) == 0 ? 0 : 1);
	t0 = clk_now_ns();
	/* The child is there first; its take leaves 1. */
	do {
		ck_assert_int_eq(semsync_values(id, v), 0);
		ck_assert_msg(clk_now_ns() - t0 < 10000000000ull,
			      "the child never took one");
	} while (v[4] != 1);
	child_at = clk_now_ns();
	ck_assert_int_eq(semsync_wait(id, 4, 10, NULL), 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ck_assert_int_eq(semsync_values(id, v), 0);
	ck_assert_uint_eq(v[4], 0);
	ck_assert_uint_eq(v[3], 2);
	ck_assert_uint_lt(clk_now_ns() - child_at, 5000000000ull);
	/* Spent: a third process finds no room. */
	ck_assert_int_eq(semsync_wait(id, 4, 10, NULL), -EAGAIN);
	ck_assert_int_eq(semsync_wait(id, SEMSYNC_SEMS, 10, NULL), -EINVAL);
}
END_TEST

/* Alone in a set for two: the timeout, and not much more. */
START_TEST(alone_times_out)
{
	unsigned short v[SEMSYNC_SEMS];
	uint64_t t0;
	int id;

	ck_assert_int_eq(semsync_create(key, 2), 0);
	ck_assert_int_eq(semsync_open(key, &id), 0);
	t0 = clk_now_ns();
	ck_assert_int_eq(semsync_wait(id, 0, 1, NULL), -ETIMEDOUT);
	ck_assert_uint_ge(clk_now_ns() - t0, 1000000000ull);
	ck_assert_uint_lt(clk_now_ns() - t0, 3000000000ull);
	ck_assert_int_eq(semsync_values(id, v), 0);
	ck_assert_uint_eq(v[0], 1);
}
END_TEST

static volatile sig_atomic_t stop;

static void on_alarm(int sig)
{
	stop = sig;
}

/* A signal that asks for a stop ends the wait; one that does not, not. */
START_TEST(stop_ends_the_wait)
{
	struct sigaction sa;
	struct itimerspec its = {.it_value = {0, 200000000}};
	uint64_t t0;
	timer_t tm;
	int id;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	ck_assert_int_eq(semsync_create(key, 2), 0);
	ck_assert_int_eq(semsync_open(key, &id), 0);
	ck_assert_int_eq(timer_create(CLOCK_MONOTONIC, NULL, &tm), 0);
	/* Without the stop flag looked at, the wait outlasts the signal. */
	ck_assert_int_eq(timer_settime(tm, 0, &its, NULL), 0);
	t0 = clk_now_ns();
	ck_assert_int_eq(semsync_wait(id, 1, 1, NULL), -ETIMEDOUT);
	ck_assert_uint_ge(clk_now_ns() - t0, 1000000000ull);
	stop = 0;
	ck_assert_int_eq(timer_settime(tm, 0, &its, NULL), 0);
	t0 = clk_now_ns();
	ck_assert_int_eq(semsync_wait(id, 2, 10, &stop), -EINTR);
	ck_assert_uint_lt(clk_now_ns() - t0, 5000000000ull);
	ck_assert_int_eq(stop, SIGALRM);
	timer_delete(tm);
}
END_TEST

/* The set removed under a waiter (or between its take and its wait,
 * when the id is no longer one). */
START_TEST(removed_while_waiting)
{
	unsigned short v[SEMSYNC_SEMS];
	int id, st, rc;
	pid_t pid;

	ck_assert_int_eq(semsync_create(key, 2), 0);
	ck_assert_int_eq(semsync_open(key, &id), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		rc = semsync_wait(id, 7, 10, NULL);
		_exit(rc == -EIDRM || rc == -EINVAL ? 0 : 1);
	}
	do
		ck_assert_int_eq(semsync_values(id, v), 0);
	while (v[7] != 1);
	usleep(100000);
	ck_assert_int_eq(semsync_remove(key), 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}
END_TEST

static Suite *semsync_suite(void)
{
	Suite *s = suite_create("semsync");
	TCase *tc = tcase_create("semsync");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, slots_are_bonnie_order);
	tcase_add_test(tc, create_open_remove);
	tcase_add_test(tc, too_small_a_set);
	tcase_add_test(tc, two_go_together);
	tcase_add_test(tc, alone_times_out);
	tcase_add_test(tc, stop_ends_the_wait);
	tcase_add_test(tc, removed_while_waiting);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(semsync_suite)
