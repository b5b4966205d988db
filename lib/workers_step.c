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

uint64_t *workers_live(struct workers_self *me)
{
	return &me->sh->slot[me->index].live_ops;
}

uint64_t *workers_live_ahead(struct workers_self *me)
{
	return &me->sh->slot[me->index].live_ahead;
}

/* The first worker to end the step: every worker's count now, less
 * what it has written and the device not yet. */
static void first_ended(struct workers_shared *sh, unsigned n, uint64_t end)
{
	for (unsigned i = 0; i < n; i++) {
		struct workers_slot *s = &sh->slot[i];
		uint64_t ops = __atomic_load_n(&s->live_ops, __ATOMIC_RELAXED);
		uint64_t ahead =
		    __atomic_load_n(&s->live_ahead, __ATOMIC_RELAXED);

		s->ops_at_first = ops > ahead ? ops - ahead : 0;
	}
	sh->first_end_ns = end;
}

void workers_step_end(struct workers_self *me)
{
	struct clk_mark end;

	if (!me->started)
		return;
	clk_mark(&end);
	if (__atomic_fetch_add(&me->sh->ended, 1, __ATOMIC_ACQ_REL) == 0)
		first_ended(me->sh, me->n, end.wall_ns);
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
		unsigned c =
		    __atomic_load_n((const unsigned *)((const char *)s + off),
				    __ATOMIC_ACQUIRE);

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

/* The first worker whose counter at off is short of want, or -1. */
static int first_short(const struct workers *w, size_t off, unsigned want)
{
	for (unsigned i = 0; i < w->started; i++) {
		const struct workers_slot *s = &w->sh->slot[i];

		if (__atomic_load_n((const unsigned *)((const char *)s + off),
				    __ATOMIC_ACQUIRE) < want)
			return (int)i;
	}
	return -1;
}

int workers_late(const struct workers *w)
{
	return w->late;
}

uint64_t workers_live_sum(const struct workers *w)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < w->started; i++)
		sum +=
		    __atomic_load_n(&w->sh->slot[i].live_ops, __ATOMIC_RELAXED);
	return sum;
}

/*
 * Whether the step's work has stalled: no worker counted an operation
 * for longer than limit_ms (0: never).
 */
static int stalled(struct workers *w, unsigned limit_ms, uint64_t *seen,
		   uint64_t *since)
{
	uint64_t now = clk_now_ns(), sum = workers_live_sum(w);

	if (!limit_ms || !*since || sum != *seen) {
		*seen = sum;
		*since = now;
		return 0;
	}
	return now - *since > limit_ms * 1000000ull;
}

/*
 * Wait until every worker's counter at off reaches want; with a limit
 * (ms, 0: none), at most that long once one of them has (the barrier),
 * or (stall) as long as no worker counts an operation (the timed work).
 */
static int wait_for(struct workers *w, size_t off, unsigned want,
		    unsigned limit_ms, int stall)
{
	struct pollfd pfd[2] = {{.fd = w->ready_fd, .events = POLLIN},
				{.fd = w->done_fd, .events = POLLIN}};
	uint64_t since = 0, seen = 0, quiet = 0;
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
		if (have && limit_ms && !stall && !since)
			since = clk_now_ns();
		if ((since && clk_now_ns() - since > limit_ms * 1000000ull) ||
		    (stall && stalled(w, limit_ms, &seen, &quiet))) {
			w->late = first_short(w, off, want);
			workers_abort(w);
			return -ETIMEDOUT;
		}
		if (stall && w->watch)
			w->watch(w->watch_arg, workers_live_sum(w));
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
			w->step + 1, w->barrier_timeout_ms, 0);
}

int workers_step_go(struct workers *w)
{
	int rc = workers_step_ready(w);

	if (rc)
		return rc;
	w->step++;
	/* Every worker waits at the barrier: the counts start afresh. */
	for (unsigned i = 0; i < w->started; i++) {
		w->sh->slot[i].live_ops = 0;
		w->sh->slot[i].ops_at_first = 0;
		w->sh->slot[i].live_ahead = 0;
	}
	w->sh->ended = 0;
	w->sh->first_end_ns = 0;
	/* workers_finish must not wait at the one-time barrier. */
	w->released = 1;
	__atomic_store_n(&w->sh->gen, w->step, __ATOMIC_RELEASE);
	workers_wake(&w->sh->gen);
	return 0;
}

int workers_step_wait(struct workers *w, struct workers_result *sum)
{
	int rc = wait_for(w, offsetof(struct workers_slot, done_step), w->step,
			  w->barrier_timeout_ms, 1);

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

/* part of whole, as a share 0..1 */
static double share(uint64_t part, uint64_t whole)
{
	if (!whole)
		return 1.0;
	return part >= whole ? 1.0 : (double)part / (double)whole;
}

void workers_step_first(const struct workers *w, unsigned lo, unsigned hi,
			struct workers_first *f, double *cpu_share)
{
	const uint64_t end = w->sh->first_end_ns;

	memset(f, 0, sizeof(*f));
	f->exact = 1;
	f->end_ns = end;
	for (unsigned i = lo; i < hi && i < w->started; i++) {
		const struct workers_slot *s = &w->sh->slot[i];
		const struct workers_result *r = &s->res;
		uint64_t span = r->end_ns - r->start_ns;
		double by_time =
		    share(end > r->start_ns ? end - r->start_ns : 0, span);

		if (!r->start_ns)
			continue;
		if (!f->start_ns || r->start_ns < f->start_ns)
			f->start_ns = r->start_ns;
		if (cpu_share)
			cpu_share[i - lo] = by_time;
		if (s->live_ops) {
			f->work += (uint64_t)((unsigned __int128)r->work *
					      s->ops_at_first / s->live_ops);
		} else if (r->work) {
			f->exact = 0;
			f->work += (uint64_t)((double)r->work * by_time);
		}
	}
}
