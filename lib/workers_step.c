/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workers_step: see workers.h (Steps). A worker says it is ready for
 * step k by storing k in its slot and writing a byte to the ready pipe;
 * the parent, once every slot says k, stores k in the shared generation
 * word and wakes every worker waiting on it (a futex: one word, however
 * many workers, and a worker that reaches step k+1 early cannot take
 * another's release, as it could with bytes on a pipe). The end of a
 * step is the same with the done counter and the done pipe. The pipes
 * only wake the parent; the slots say what happened. A worker that
 * dies without a word is found by waitid(WNOWAIT) every poll timeout,
 * and left for workers_finish to reap.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <string.h>
#include <sys/wait.h>

#include "clock.h"
#include "workers.h"
#include "workers_impl.h"

/* How often the parent looks for a worker that died without a word. */
#define STEP_POLL_MS 200

static int say(int fd, char c)
{
	ssize_t n;

	while ((n = write(fd, &c, 1)) < 0 && errno == EINTR)
		;
	return n == 1 ? 0 : n < 0 ? -errno : -EPIPE;
}

int workers_step(struct workers_self *me)
{
	struct workers_shared *sh = me->sh;
	struct workers_slot *s = &sh->slot[me->index];
	unsigned want = me->step + 1;
	uint32_t g;
	int rc;

	__atomic_store_n(&s->ready_step, want, __ATOMIC_RELEASE);
	if ((rc = say(me->ready_fd, 'r')) != 0)
		return rc;
	while ((g = __atomic_load_n(&sh->gen, __ATOMIC_ACQUIRE)) < want) {
		if (__atomic_load_n(&sh->cancel, __ATOMIC_ACQUIRE))
			return -ECANCELED;
		if (stopped(me->stop))
			return -EINTR;
		workers_sleep(&sh->gen, g);
	}
	if (__atomic_load_n(&sh->cancel, __ATOMIC_ACQUIRE))
		return -ECANCELED;
	me->step = want;
	/* The parent has read the last step's figures: released steps
	 * follow the merge of the one before. */
	workers_result_init(me->res);
	workers_stamp_start(me->res);
	me->started = 1;
	return 0;
}

void workers_step_end(struct workers_self *me)
{
	struct clk_mark end;

	if (!me->started)
		return;
	clk_mark(&end);
	me->res->end_ns = end.wall_ns;
	me->res->user_ns = end.user_ns - me->res->user_ns;
	me->res->sys_ns = end.sys_ns - me->res->sys_ns;
	/* worker_main must not stamp the step a second time. */
	me->started = 0;
}

int workers_step_done(struct workers_self *me)
{
	struct workers_slot *s = &me->sh->slot[me->index];

	__atomic_store_n(&s->done_step, me->step, __ATOMIC_RELEASE);
	return say(me->done_fd, 'd');
}

/* A worker that ended (by a signal, or its exit) without a word. */
static int died(const struct workers *w, unsigned i)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)w->pid[i], &si, WEXITED | WNOHANG | WNOWAIT))
		return 0;
	return si.si_pid != 0;
}

/* How many workers have counter (at off in a slot) >= want; -1 when one
 * failed or ended before it. */
static int count_at(const struct workers *w, size_t off, unsigned want,
		    int look)
{
	int have = 0;

	for (unsigned i = 0; i < w->started; i++) {
		const struct workers_slot *s = &w->sh->slot[i];
		unsigned c = __atomic_load_n(
		    (const unsigned *)((const char *)s + off), __ATOMIC_ACQUIRE);

		if (c >= want)
			have++;
		else if (__atomic_load_n(&s->done, __ATOMIC_ACQUIRE) ||
			 (look && died(w, i)))
			return -1;
	}
	return have;
}

/* Drain the wake-up bytes of whichever pipe has some. */
static void drain(struct pollfd *pfd, int n)
{
	char buf[256];

	for (int i = 0; i < n; i++)
		if (pfd[i].revents & POLLIN)
			(void)!read(pfd[i].fd, buf, sizeof(buf));
}

/* Wait until every worker's counter at off reaches want. */
static int wait_for(struct workers *w, size_t off, unsigned want)
{
	struct pollfd pfd[2] = {{.fd = w->ready_fd, .events = POLLIN},
				{.fd = w->done_fd, .events = POLLIN}};
	int look = 0;

	if (w->killed)
		return -EINTR;
	for (;;) {
		int have, n;

		if (stopped(w->stop)) {
			workers_abort(w);
			return -EINTR;
		}
		have = count_at(w, off, want, look);
		if (have < 0) {
			workers_abort(w);
			return -ECHILD;
		}
		if ((unsigned)have == w->started)
			return 0;
		n = poll(pfd, 2, STEP_POLL_MS);
		if (n < 0 && errno != EINTR) {
			workers_abort(w);
			return -errno;
		}
		look = n == 0 || (pfd[0].revents | pfd[1].revents) & POLLHUP;
		if (n > 0)
			drain(pfd, 2);
	}
}

int workers_step_ready(struct workers *w)
{
	return wait_for(w, offsetof(struct workers_slot, ready_step),
			w->step + 1);
}

int workers_step_go(struct workers *w)
{
	int rc = workers_step_ready(w);

	if (rc)
		return rc;
	w->step++;
	/* workers_finish must not wait at the one-time barrier. */
	w->released = 1;
	__atomic_store_n(&w->sh->gen, w->step, __ATOMIC_RELEASE);
	workers_wake(&w->sh->gen);
	return 0;
}

int workers_step_wait(struct workers *w, struct workers_result *sum)
{
	int rc = wait_for(w, offsetof(struct workers_slot, done_step), w->step);

	workers_result_init(sum);
	if (rc)
		return rc;
	for (unsigned i = 0; i < w->started; i++)
		workers_merge(sum, &w->sh->slot[i].res);
	return 0;
}

const struct workers_result *workers_step_result(const struct workers *w,
						 unsigned i)
{
	return &w->sh->slot[i].res;
}
