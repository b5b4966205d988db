/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_workers: the merge of worker results (first start, last end,
 * sums, worst latency, histogram buckets, the aggregate rate); N
 * trivial workers started and merged; the start barrier holds every
 * worker until the slowest is ready; a worker that fails fails the
 * group, is named and stops the others, before the barrier or after;
 * a crash and a stop request; steps, and a step held once every
 * worker is ready; no worker is ever left behind. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "workers.h"
#include "check_main.h"

#define N_MAX 8

/* What the test's workers share with the test: one mapping. */
struct shared {
	uint64_t ready_ns[N_MAX]; /* just before the barrier */
	uint64_t start_ns[N_MAX]; /* just after it */
	int fail_at;		  /* the index that fails, -1: none */
	int late;		  /* the index that is slow to get ready */
};

static struct shared *sh;
static volatile sig_atomic_t stop;

/* The aggregate rate: work / workers_elapsed, per second; 0 without a
 * span. (The programs record the span, and lib/result the rate.) */
static double workers_rate(const struct workers_result *r)
{
	double s = workers_elapsed(r);

	return s > 0.0 ? (double)r->work / s : 0.0;
}

static void on_term(int sig)
{
	stop = sig;
}

/* SIGTERM sets stop: without SA_RESTART, as clyde's handlers, or with
 * it, so that a blocked read goes on waiting. */
static void catch_term(int restart)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigaction(SIGTERM, &sa, NULL);
}

static void setup(void)
{
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	sh->fail_at = sh->late = -1;
	stop = 0;
	/* Workers inherit the handlers: not Check's own, which would end
	 * the whole test on the SIGTERM that stops a worker. Tests that
	 * want a handler that sets stop call catch_term. */
	signal(SIGTERM, SIG_DFL);
}

static void teardown(void)
{
	munmap(sh, sizeof(*sh));
}

/* No child of this process is left, reaped or not. */
static void assert_no_children(void)
{
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}

/* Sleep ms milliseconds, or less after a stop request (looked at every
 * 10 ms: one that comes just before a long sleep would be missed). */
static void sleep_ms(long ms)
{
	for (long done = 0; done < ms && !stop; done += 10) {
		struct timespec ts = {0, 10 * 1000000L};

		nanosleep(&ts, NULL);
	}
}

/* Worker i: work (i+1)*100 in i+1 operations of (i+1) us each. */
static int trivial(struct workers_self *me, void *arg)
{
	unsigned i = me->index;
	int rc;

	(void)arg;
	if ((int)i == sh->late)
		sleep_ms(300);
	sh->ready_ns[i] = clk_now_ns();
	if ((rc = workers_barrier(me)) != 0)
		return rc;
	sh->start_ns[i] = clk_now_ns();
	for (unsigned k = 0; k <= i; k++)
		hist_add(&me->res->lat, (i + 1) * 1000);
	me->res->work = (i + 1) * 100;
	me->res->ops = i + 1;
	me->res->max_latency_ns = (i + 1) * 1000;
	return 0;
}

static struct workers_job job_of(unsigned n,
				 int (*fn)(struct workers_self *, void *))
{
	struct workers_job j = {.n = n, .fn = fn, .arg = NULL, .stop = &stop};

	return j;
}

START_TEST(merge_figures)
{
	struct workers_result a, b, sum;

	workers_result_init(&a);
	workers_result_init(&b);
	workers_result_init(&sum);
	a.work = 1000, a.ops = 10, a.start_ns = 2000000000ull;
	a.end_ns = 3000000000ull, a.user_ns = 5, a.sys_ns = 7;
	a.max_latency_ns = 300;
	hist_add(&a.lat, 100);
	hist_add(&a.lat, 300);
	b.work = 3000, b.ops = 30, b.start_ns = 1000000000ull;
	b.end_ns = 2500000000ull, b.user_ns = 1, b.sys_ns = 2;
	b.max_latency_ns = 200;
	hist_add(&b.lat, 100);
	ck_assert(sum.cache_left == -1.0);
	a.cache_left = 0.25;
	b.cache_left = 0.5;
	workers_merge(&sum, &a);
	workers_merge(&sum, &b);
	ck_assert_uint_eq(sum.work, 4000);
	ck_assert_uint_eq(sum.ops, 40);
	ck_assert_uint_eq(sum.start_ns, 1000000000ull);
	ck_assert_uint_eq(sum.end_ns, 3000000000ull);
	ck_assert_uint_eq(sum.user_ns, 6);
	ck_assert_uint_eq(sum.sys_ns, 9);
	ck_assert_uint_eq(sum.max_latency_ns, 300);
	ck_assert(sum.cache_left == 0.5);
	ck_assert_uint_eq(sum.lat.count, 3);
	ck_assert_uint_eq(sum.lat.b[hist_index(100)], 2);
	ck_assert_uint_eq(sum.lat.b[hist_index(300)], 1);
	/* Total work over last end - first start: 4000 / 2 s. */
	ck_assert(workers_elapsed(&sum) == 2.0);
	ck_assert(workers_rate(&sum) == 2000.0);
	/* A worker that never began moves neither end of the span. */
	workers_result_init(&b);
	b.work = 0;
	workers_merge(&sum, &b);
	ck_assert_uint_eq(sum.start_ns, 1000000000ull);
	workers_result_init(&sum);
	ck_assert(workers_elapsed(&sum) == 0.0);
	ck_assert(workers_rate(&sum) == 0.0);
}
END_TEST

START_TEST(spawn_and_merge)
{
	struct workers_job job = job_of(4, trivial);
	struct workers w;
	struct workers_failure fail;
	struct workers_result sum;

	ck_assert_int_eq(workers_start(&w, &job, &fail), 0);
	ck_assert_int_eq(workers_go(&w), 0);
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), 0);
	ck_assert_uint_eq(sum.work, 100 + 200 + 300 + 400);
	ck_assert_uint_eq(sum.ops, 10);
	ck_assert_uint_eq(sum.lat.count, 10);
	ck_assert_uint_eq(sum.lat.b[hist_index(4000)], 4);
	ck_assert_uint_eq(sum.max_latency_ns, 4000);
	ck_assert(sum.start_ns > 0 && sum.end_ns >= sum.start_ns);
	ck_assert(workers_elapsed(&sum) < 10.0);
	assert_no_children();
	/* workers_go is optional; one worker is a group too. */
	job.n = 1;
	ck_assert_int_eq(workers_start(&w, &job, &fail), 0);
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), 0);
	ck_assert_uint_eq(sum.work, 100);
	assert_no_children();
}
END_TEST

START_TEST(barrier_holds_everyone)
{
	struct workers_job job = job_of(N_MAX, trivial);
	struct workers w;
	struct workers_failure fail;
	struct workers_result sum;
	uint64_t last_ready = 0;

	sh->late = 5;
	ck_assert_int_eq(workers_start(&w, &job, &fail), 0);
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), 0);
	for (int i = 0; i < N_MAX; i++)
		if (sh->ready_ns[i] > last_ready)
			last_ready = sh->ready_ns[i];
	/* Nobody started before the slowest was ready, 300 ms late. */
	for (int i = 0; i < N_MAX; i++) {
		ck_assert(sh->ready_ns[i] > 0);
		ck_assert_msg(sh->start_ns[i] >= last_ready,
			      "worker %d started %lld ns before the last was "
			      "ready",
			      i, (long long)(last_ready - sh->start_ns[i]));
	}
	ck_assert(sum.start_ns >= last_ready);
	assert_no_children();
}
END_TEST

/* Fails at sh->fail_at, after the barrier; the others take their time. */
static int one_fails(struct workers_self *me, void *arg)
{
	int rc;

	(void)arg;
	if ((rc = workers_barrier(me)) != 0)
		return rc;
	if ((int)me->index == sh->fail_at) {
		snprintf(me->what, WORKERS_WHAT_MAX, "read /x/data");
		return -EIO;
	}
	sleep_ms(20000);
	me->res->work = 1;
	return stop ? -EINTR : 0;
}

START_TEST(failing_worker_is_named)
{
	struct workers_job job = job_of(5, one_fails);
	struct workers w;
	struct workers_failure fail;
	struct workers_result sum;
	uint64_t t0 = clk_now_ns();

	/* The others stop on the parent's SIGTERM, as clyde's seekers do,
	 * and what they then report is not taken for the cause. */
	catch_term(0);
	sh->fail_at = 3;
	ck_assert_int_eq(workers_start(&w, &job, &fail), 0);
	ck_assert_int_eq(workers_go(&w), 0);
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), -EIO);
	ck_assert_int_eq(fail.worker, 3);
	ck_assert_int_eq(fail.err, EIO);
	ck_assert_str_eq(fail.what, "read /x/data");
	ck_assert_int_eq(fail.signo, 0);
	/* The others were stopped, not waited for (20 s). */
	ck_assert(clk_now_ns() - t0 < 10000000000ull);
	assert_no_children();
	/* Without a handler, SIGTERM ends them: still not the cause. */
	signal(SIGTERM, SIG_DFL);
	sh->fail_at = 0;
	ck_assert_int_eq(workers_start(&w, &job, &fail), 0);
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), -EIO);
	ck_assert_int_eq(fail.worker, 0);
	assert_no_children();
}
END_TEST

/* Worker 1 cannot get ready: the rest never pass the barrier. */
static int fails_early(struct workers_self *me, void *arg)
{
	int rc;

	(void)arg;
	if (me->index == 1) {
		sleep_ms(100);
		snprintf(me->what, WORKERS_WHAT_MAX, "open /x/data");
		return -ENOENT;
	}
	if ((rc = workers_barrier(me)) != 0)
		return rc;
	sh->start_ns[me->index] = clk_now_ns(); /* must not happen */
	return 0;
}

START_TEST(failure_before_the_barrier)
{
	struct workers_job job = job_of(4, fails_early);
	struct workers w;
	struct workers_failure fail;
	struct workers_result sum;

	/* With SA_RESTART the SIGTERM alone would leave them waiting. */
	catch_term(1);
	ck_assert_int_eq(workers_start(&w, &job, &fail), 0);
	ck_assert_int_eq(workers_go(&w), -ECHILD);
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), -ENOENT);
	ck_assert_int_eq(fail.worker, 1);
	ck_assert_str_eq(fail.what, "open /x/data");
	ck_assert_uint_eq(sum.work, 0);
	for (int i = 0; i < 4; i++)
		ck_assert_msg(!sh->start_ns[i], "worker %d passed", i);
	assert_no_children();
}
END_TEST

/* Nobody gets ready. */
static int all_fail_early(struct workers_self *me, void *arg)
{
	(void)arg;
	snprintf(me->what, WORKERS_WHAT_MAX, "open %u", me->index);
	return -EACCES;
}

START_TEST(nobody_reaches_the_barrier)
{
	struct workers_job job = job_of(3, all_fail_early);
	struct workers w;
	struct workers_failure fail;
	struct workers_result sum;

	/* Calling the run off at a barrier nobody waits at must not cost
	 * the parent a SIGPIPE. */
	ck_assert_int_eq(workers_start(&w, &job, &fail), 0);
	ck_assert_int_eq(workers_go(&w), -ECHILD);
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), -EACCES);
	ck_assert(fail.worker >= 0 && fail.worker < 3);
	assert_no_children();
}
END_TEST

/* Worker 2 dies of a signal nobody in the group sent. */
static int crashes(struct workers_self *me, void *arg)
{
	int rc;

	(void)arg;
	if ((rc = workers_barrier(me)) != 0)
		return rc;
	if (me->index == 2)
		raise(SIGKILL);
	return 0;
}

START_TEST(crash_is_named)
{
	struct workers_job job = job_of(3, crashes);
	struct workers w;
	struct workers_failure fail;
	struct workers_result sum;

	ck_assert_int_eq(workers_start(&w, &job, &fail), 0);
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), -ECHILD);
	ck_assert_int_eq(fail.worker, 2);
	ck_assert_int_eq(fail.signo, SIGKILL);
	ck_assert_str_eq(fail.what, "");
	assert_no_children();
}
END_TEST

/* Runs until stopped. */
static int until_stopped(struct workers_self *me, void *arg)
{
	int rc;

	(void)arg;
	if ((rc = workers_barrier(me)) != 0)
		return rc;
	while (!stop)
		sleep_ms(10);
	return 0;
}

START_TEST(stop_ends_every_worker)
{
	struct workers_job job = job_of(3, until_stopped);
	struct workers w;
	struct workers_failure fail;
	struct workers_result sum;

	catch_term(0);
	ck_assert_int_eq(workers_start(&w, &job, &fail), 0);
	ck_assert_int_eq(workers_go(&w), 0);
	stop = SIGINT;
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), -EINTR);
	assert_no_children();
	/* A stop at the barrier: nobody is let go. */
	stop = 0;
	ck_assert_int_eq(workers_start(&w, &job, &fail), 0);
	stop = SIGINT;
	ck_assert_int_eq(workers_go(&w), -EINTR);
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), -EINTR);
	assert_no_children();
	/* workers_abort: the caller calls the run off. */
	stop = 0;
	ck_assert_int_eq(workers_start(&w, &job, &fail), 0);
	ck_assert_int_eq(workers_go(&w), 0);
	workers_abort(&w);
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), -EINTR);
	assert_no_children();
}
END_TEST

START_TEST(bad_job_is_refused)
{
	struct workers_job job = job_of(0, trivial);
	struct workers w;
	struct workers_failure fail;
	struct workers_result sum;

	ck_assert_int_eq(workers_start(&w, &job, &fail), -EINVAL);
	ck_assert_int_eq(fail.worker, -1);
	ck_assert_str_eq(fail.what, "workers");
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), -EINVAL);
	job.n = WORKERS_MAX + 1;
	ck_assert_int_eq(workers_start(&w, &job, &fail), -EINVAL);
	assert_no_children();
}
END_TEST

/* STEPS steps; in step k worker i does (i+1)*(k+1) work, worker 0
 * slow to get ready for each; fail_at fails in step 1's window. */
#define STEPS 3
static int stepper(struct workers_self *me, void *arg)
{
	int rc;

	(void)arg;
	for (unsigned k = 0; k < STEPS; k++) {
		if (me->index == 0)
			sleep_ms(50);
		if ((rc = workers_step(me)) != 0)
			return rc;
		sh->start_ns[me->index] = clk_now_ns();
		if (k == 1 && (int)me->index == sh->fail_at) {
			snprintf(me->what, WORKERS_WHAT_MAX, "write /x/data.1");
			return -ENOSPC;
		}
		if (k == 1 && (int)me->index == sh->late)
			raise(SIGKILL);
		hist_add(&me->res->lat, 1000);
		me->res->work = (me->index + 1) * (k + 1);
		workers_step_end(me);
		if ((rc = workers_step_done(me)) != 0)
			return rc;
	}
	return 0;
}

START_TEST(steps_run_together)
{
	struct workers_job job = job_of(4, stepper);
	struct workers w;
	struct workers_failure fail;
	struct workers_result sum;

	ck_assert_int_eq(workers_start(&w, &job, &fail), 0);
	for (unsigned k = 0; k < STEPS; k++) {
		uint64_t first = UINT64_MAX, last = 0;

		ck_assert_int_eq(workers_step_go(&w), 0);
		ck_assert_int_eq(workers_step_wait(&w, &sum), 0);
		/* 1+2+3+4 per unit, each step its own figures only. */
		ck_assert_uint_eq(sum.work, 10 * (k + 1));
		ck_assert_uint_eq(sum.lat.count, 4);
		for (unsigned i = 0; i < 4; i++) {
			const struct workers_result *one =
			    workers_step_result(&w, i);

			ck_assert_uint_eq(one->work, (i + 1) * (k + 1));
			ck_assert(one->start_ns &&
				  one->end_ns >= one->start_ns);
			if (sh->start_ns[i] < first)
				first = sh->start_ns[i];
			if (sh->start_ns[i] > last)
				last = sh->start_ns[i];
		}
		/* Released together, although worker 0 was late. */
		ck_assert(last - first < 40000000ull);
		ck_assert_uint_le(sum.start_ns, first);
	}
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), 0);
	assert_no_children();
}
END_TEST

/* workers_step_ready: every worker ready and none released until
 * workers_step_go; or, given up there, every worker stopped. */
START_TEST(ready_holds_the_step)
{
	struct workers_job job = job_of(3, stepper);
	struct workers w;
	struct workers_failure fail;
	struct workers_result sum;

	ck_assert_int_eq(workers_start(&w, &job, &fail), 0);
	ck_assert_int_eq(workers_step_ready(&w), 0);
	sleep_ms(100);
	for (unsigned i = 0; i < 3; i++)
		ck_assert_uint_eq(sh->start_ns[i], 0);
	ck_assert_int_eq(workers_step_go(&w), 0);
	ck_assert_int_eq(workers_step_wait(&w, &sum), 0);
	ck_assert_uint_eq(sum.work, 6);
	ck_assert_int_eq(workers_step_ready(&w), 0);
	workers_abort(&w);
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), -EINTR);
	assert_no_children();
}
END_TEST

START_TEST(step_failure_is_named)
{
	struct workers_job job = job_of(3, stepper);
	struct workers w;
	struct workers_failure fail;
	struct workers_result sum;

	sh->fail_at = 2;
	ck_assert_int_eq(workers_start(&w, &job, &fail), 0);
	ck_assert_int_eq(workers_step_go(&w), 0);
	ck_assert_int_eq(workers_step_wait(&w, &sum), 0);
	ck_assert_int_eq(workers_step_go(&w), 0);
	ck_assert_int_eq(workers_step_wait(&w, &sum), -ECHILD);
	/* Called off: the next step is not released. */
	ck_assert_int_eq(workers_step_go(&w), -EINTR);
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), -ENOSPC);
	ck_assert_int_eq(fail.worker, 2);
	ck_assert_str_eq(fail.what, "write /x/data.1");
	assert_no_children();
	/* A worker killed in a step is found too. */
	sh->fail_at = -1;
	sh->late = 1;
	ck_assert_int_eq(workers_start(&w, &job, &fail), 0);
	ck_assert_int_eq(workers_step_go(&w), 0);
	ck_assert_int_eq(workers_step_wait(&w, &sum), 0);
	ck_assert_int_eq(workers_step_go(&w), 0);
	ck_assert_int_eq(workers_step_wait(&w, &sum), -ECHILD);
	ck_assert_int_eq(workers_finish(&w, &sum, &fail), -ECHILD);
	ck_assert_int_eq(fail.worker, 1);
	ck_assert_int_eq(fail.signo, SIGKILL);
	assert_no_children();
}
END_TEST

static Suite *workers_suite(void)
{
	Suite *s = suite_create("workers");
	TCase *tc = tcase_create("workers");

	tcase_set_timeout(tc, 30);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, merge_figures);
	tcase_add_test(tc, spawn_and_merge);
	tcase_add_test(tc, barrier_holds_everyone);
	tcase_add_test(tc, failing_worker_is_named);
	tcase_add_test(tc, failure_before_the_barrier);
	tcase_add_test(tc, nobody_reaches_the_barrier);
	tcase_add_test(tc, crash_is_named);
	tcase_add_test(tc, stop_ends_every_worker);
	tcase_add_test(tc, bad_job_is_refused);
	tcase_add_test(tc, steps_run_together);
	tcase_add_test(tc, ready_holds_the_step);
	tcase_add_test(tc, step_failure_is_named);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(workers_suite)
