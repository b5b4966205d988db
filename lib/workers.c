/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workers: see workers.h. Three pipes and one shared mapping:
 *
 * - ready: each worker writes one byte at the barrier and closes its
 *   end, so the parent reads n bytes when all are ready, or end of file
 *   early when one ended (or crashed) before it;
 * - go: the parent closes its end to let everyone go; the workers read
 *   end of file (nobody else holds a write end), or a byte each when
 *   the parent called the run off (the parent keeps a read end, so
 *   those bytes never meet a pipe without a reader: SIGPIPE);
 * - done: each worker writes one byte when it has filled its slot, and
 *   the parent wakes to look for a failure; end of file when all ended.
 *
 * Each worker has a slot in a MAP_SHARED mapping (a histogram is too
 * big for an atomic pipe write): its result, its errno, its failing
 * call and the order of its failure, taken from a shared counter so
 * that the first failure is told from the ones it caused.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "workers.h"
#include "workers_impl.h"

void workers_result_init(struct workers_result *r)
{
	memset(r, 0, sizeof(*r));
	hist_init(&r->lat);
	workers_io_init(&r->io);
	r->cache_left = -1.0;
}

void workers_io_init(struct workers_io *io)
{
	memset(io, 0, sizeof(*io));
	hist_init(&io->svc);
	for (int k = 0; k < RESULT_KINDS; k++)
		hist_init(&io->lat[k]);
}

void workers_io_merge(struct workers_io *sum, const struct workers_io *one)
{
	if (!one->on)
		return;
	sum->on = 1;
	hist_merge(&sum->svc, &one->svc);
	for (int k = 0; k < RESULT_KINDS; k++) {
		sum->ops[k] += one->ops[k];
		sum->bytes[k] += one->bytes[k];
		hist_merge(&sum->lat[k], &one->lat[k]);
	}
	result_sched_add(&sum->sched, &one->sched);
}

void workers_merge(struct workers_result *sum, const struct workers_result *one)
{
	sum->work += one->work;
	sum->ops += one->ops;
	if (one->start_ns && (!sum->start_ns || one->start_ns < sum->start_ns))
		sum->start_ns = one->start_ns;
	if (one->end_ns > sum->end_ns)
		sum->end_ns = one->end_ns;
	sum->user_ns += one->user_ns;
	sum->sys_ns += one->sys_ns;
	if (one->max_latency_ns > sum->max_latency_ns)
		sum->max_latency_ns = one->max_latency_ns;
	hist_merge(&sum->lat, &one->lat);
	workers_io_merge(&sum->io, &one->io);
	if (one->cache_left > sum->cache_left)
		sum->cache_left = one->cache_left;
}

double workers_elapsed(const struct workers_result *r)
{
	if (!r->start_ns || r->end_ns <= r->start_ns)
		return 0.0;
	return (double)(r->end_ns - r->start_ns) / 1e9;
}

/* The body of worker i; never returns. */
static void worker_main(const struct workers_job *job,
			struct workers_shared *sh, unsigned i, int ready_fd,
			int go_fd, int done_fd)
{
	struct workers_slot *s = &sh->slot[i];
	struct workers_self me = {
	    .index = i,
	    .n = job->n,
	    .res = &s->res,
	    .what = s->what,
	    .ready_fd = ready_fd,
	    .go_fd = go_fd,
	    .done_fd = done_fd,
	    .stop = job->stop,
	    .sh = sh,
	};
	struct clk_mark end;
	char c = 'd';
	int rc;

	rc = job->fn(&me, job->arg);
	if (me.started) {
		clk_mark(&end);
		s->res.end_ns = end.wall_ns;
		s->res.user_ns = end.user_ns - s->res.user_ns;
		s->res.sys_ns = end.sys_ns - s->res.sys_ns;
	}
	s->err = rc < 0 ? -rc : rc ? EIO : 0;
	if (s->err)
		s->fail_seq = __atomic_add_fetch(&sh->seq, 1, __ATOMIC_ACQ_REL);
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	/* Ready or not, the parent need not wait for this one any more. */
	close_fd(&me.ready_fd);
	close_fd(&me.go_fd);
	while (write(done_fd, &c, 1) < 0 && errno == EINTR)
		;
	_exit(s->err ? 1 : 0);
}

int workers_barrier(struct workers_self *me)
{
	char c = 'r';
	ssize_t n;
	int e = 0;

	if (me->ready_fd < 0 || me->go_fd < 0)
		return -EINVAL; /* the second call */
	while ((n = write(me->ready_fd, &c, 1)) < 0 && errno == EINTR &&
	       !stopped(me->stop))
		;
	if (n != 1)
		e = n < 0 ? errno : EPIPE;
	close_fd(&me->ready_fd);
	while (!e && (n = read(me->go_fd, &c, 1)) != 0)
		if (n > 0 || errno != EINTR || stopped(me->stop))
			e = n < 0 ? errno : ECANCELED;
	close_fd(&me->go_fd);
	if (e)
		return -e;
	workers_stamp_start(me->res);
	me->started = 1;
	return 0;
}

void workers_abort(struct workers *w)
{
	static const char off[256] = {0};

	if (w->killed)
		return;
	w->killed = 1;
	/* Failures counted so far happened before this; later ones may be
	 * its consequence. */
	if (w->sh) {
		w->kill_seq = __atomic_load_n(&w->sh->seq, __ATOMIC_ACQUIRE);
		/* Those waiting for a step are called off too. */
		__atomic_store_n(&w->sh->cancel, 1, __ATOMIC_RELEASE);
		workers_wake(&w->sh->gen);
	}
	/* A byte each at the barrier calls the run off there, whatever
	 * their signal handlers do (one with SA_RESTART would go on
	 * waiting); the others are past it and have to be signalled. */
	for (unsigned left = w->started; w->go_fd >= 0 && left;) {
		ssize_t n = write(w->go_fd, off,
				  left < sizeof(off) ? left : sizeof(off));

		if (n > 0)
			left -= (unsigned)n;
		else if (n < 0 && errno != EINTR)
			break;
	}
	/* A stopped worker (SIGSTOP, a debugger's) takes the SIGTERM only
	 * once it runs again. */
	for (unsigned i = 0; i < w->started; i++) {
		kill(w->pid[i], SIGTERM);
		kill(w->pid[i], SIGCONT);
	}
}

/* Reap every worker started (how each ended goes to its slot), close
 * what is open and free the pids. */
static void reap(struct workers *w)
{
	close_fd(&w->ready_fd);
	close_fd(&w->go_fd);
	close_fd(&w->go_rd);
	close_fd(&w->done_fd);
	for (unsigned i = 0; i < w->started; i++) {
		int st = 0;

		while (waitpid(w->pid[i], &st, 0) < 0 && errno == EINTR)
			;
		w->sh->slot[i].wstatus = st;
	}
	free(w->pid);
	w->pid = NULL;
}

static void unmap(struct workers *w)
{
	if (w->sh)
		munmap(w->sh, w->map_len);
	w->sh = NULL;
	w->started = 0;
}

static int start_failed(struct workers *w, struct workers_failure *fail,
			const char *call, int err, int *fds)
{
	for (int i = 0; i < 6; i++)
		close_fd(&fds[i]);
	workers_abort(w);
	reap(w);
	unmap(w);
	fail->worker = -1;
	fail->err = err;
	snprintf(fail->what, sizeof(fail->what), "%s", call);
	return -err;
}

int workers_start(struct workers *w, const struct workers_job *job,
		  struct workers_failure *fail)
{
	/* ready, go, done: [0] read, [1] write */
	int fds[6] = {-1, -1, -1, -1, -1, -1};
	pid_t parent = getpid();
	void *map;

	memset(w, 0, sizeof(*w));
	memset(fail, 0, sizeof(*fail));
	w->ready_fd = w->go_fd = w->go_rd = w->done_fd = -1;
	if (!job->fn || job->n == 0 || job->n > WORKERS_MAX)
		return start_failed(w, fail, "workers", EINVAL, fds);
	w->n = job->n;
	w->stop = job->stop;
	w->barrier_timeout_ms = job->barrier_timeout_ms;
	w->late = -1;
	w->map_len = sizeof(struct workers_shared) +
		     job->n * sizeof(struct workers_slot);
	w->pid = calloc(job->n, sizeof(*w->pid));
	map = mmap(NULL, w->map_len, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (map != MAP_FAILED)
		w->sh = map;
	if (!w->pid || !w->sh)
		return start_failed(w, fail, "mmap", ENOMEM, fds);
	/* Zeroed by the kernel; each histogram needs its empty minimum. */
	for (unsigned i = 0; i < job->n; i++) {
		hist_init(&w->sh->slot[i].res.lat);
		workers_io_init(&w->sh->slot[i].res.io);
	}
	for (int i = 0; i < 6; i += 2)
		if (pipe2(&fds[i], O_CLOEXEC))
			return start_failed(w, fail, "pipe", errno, fds);
	for (unsigned i = 0; i < job->n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return start_failed(w, fail, "fork", errno, fds);
		if (pid == 0) {
			/* Gone with the parent, whatever ends it. */
			prctl(PR_SET_PDEATHSIG, SIGTERM);
			if (getppid() != parent)
				_exit(1);
			close(fds[0]);
			close(fds[3]);
			close(fds[4]);
			worker_main(job, w->sh, i, fds[1], fds[2], fds[5]);
		}
		w->pid[i] = pid;
		w->started++;
	}
	close_fd(&fds[1]);
	close_fd(&fds[5]);
	w->ready_fd = fds[0];
	w->go_rd = fds[2];
	w->go_fd = fds[3];
	w->done_fd = fds[4];
	return 0;
}

/* Workers that ended without reaching the barrier, and did not fail. */
static unsigned ended_ok(const struct workers *w)
{
	unsigned n = 0;

	for (unsigned i = 0; i < w->started; i++) {
		const struct workers_slot *s = &w->sh->slot[i];

		if (__atomic_load_n(&s->done, __ATOMIC_ACQUIRE) && !s->err &&
		    !s->res.start_ns)
			n++;
	}
	return n;
}

int workers_go(struct workers *w)
{
	char buf[256];
	unsigned ready = 0;
	int rc;

	if (w->released)
		return 0;
	if (w->killed)
		return -EINTR;
	while (ready < w->started && !stopped(w->stop)) {
		ssize_t n = read(w->ready_fd, buf, sizeof(buf));

		if (n > 0)
			ready += (unsigned)n;
		else if (n == 0 || errno != EINTR)
			break;
	}
	/* End of file: every worker wrote or ended. */
	if (ready < w->started && ready + ended_ok(w) == w->started)
		ready = w->started;
	/* ready_fd stays open until the reaping: a late worker's byte must
	 * not meet a pipe without a reader (SIGPIPE). */
	if (ready == w->started && !stopped(w->stop)) {
		close_fd(&w->go_fd);
		w->released = 1;
		return 0;
	}
	rc = stopped(w->stop) ? -EINTR : -ECHILD;
	/* Those waiting at the barrier are stopped, not let go. */
	workers_abort(w);
	return rc;
}

/* With a watch: its call, then a wait until a worker ends or the
 * next call is due. 0: due (nothing to read). */
static int watch_wait(struct workers *w)
{
	struct pollfd pfd = {.fd = w->done_fd, .events = POLLIN};
	int n;

	w->watch(w->watch_arg, workers_live_sum(w));
	n = poll(&pfd, 1, WORKERS_WATCH_MS);
	/* A signal: 0 too, so the loop sees a stop first. */
	return n > 0 || (n < 0 && errno != EINTR);
}

/* Wait until every worker has ended, stopping them all on a failure or
 * a stop request. */
static void wait_all(struct workers *w)
{
	char buf[256];

	for (;;) {
		ssize_t n;

		if (stopped(w->stop))
			workers_abort(w);
		if (w->watch && !watch_wait(w))
			continue;
		n = read(w->done_fd, buf, sizeof(buf));
		if (n == 0 || (n < 0 && errno != EINTR))
			break;
		for (unsigned i = 0; n > 0 && i < w->started; i++)
			if (__atomic_load_n(&w->sh->slot[i].done,
					    __ATOMIC_ACQUIRE) &&
			    w->sh->slot[i].err)
				workers_abort(w);
	}
}

/*
 * The first failure: the earliest counted among those that failed
 * before the parent stopped them all; else a worker that ended without
 * a word (a crash, or a kill not ours). -1: none.
 */
static int first_failure(const struct workers *w, struct workers_failure *fail)
{
	const struct workers_slot *slot = w->sh->slot;
	uint64_t best = 0;
	int who = -1;

	for (unsigned i = 0; i < w->started; i++) {
		const struct workers_slot *s = &slot[i];

		if (!s->done || !s->err)
			continue;
		if (w->killed && s->fail_seq > w->kill_seq)
			continue;
		if (who < 0 || s->fail_seq < best) {
			best = s->fail_seq;
			who = (int)i;
		}
	}
	if (who >= 0) {
		fail->worker = who;
		fail->err = slot[who].err;
		memcpy(fail->what, slot[who].what, sizeof(fail->what));
		fail->what[sizeof(fail->what) - 1] = '\0';
		return who;
	}
	for (unsigned i = 0; i < w->started; i++) {
		int st = slot[i].wstatus;
		int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;

		if (slot[i].done || (w->killed && sig == SIGTERM))
			continue;
		fail->worker = (int)i;
		fail->err = ECHILD;
		fail->signo = sig;
		fail->status = WIFEXITED(st) ? WEXITSTATUS(st) : 0;
		return (int)i;
	}
	return -1;
}

int workers_finish(struct workers *w, struct workers_result *sum,
		   struct workers_failure *fail)
{
	int rc = 0;

	memset(fail, 0, sizeof(*fail));
	workers_result_init(sum);
	if (!w->sh)
		return -EINVAL; /* not started, or finished already */
	if (!w->released && !w->killed)
		workers_go(w);
	wait_all(w);
	reap(w);
	if (first_failure(w, fail) >= 0)
		rc = -fail->err;
	else if (w->killed || stopped(w->stop))
		rc = -EINTR;
	for (unsigned i = 0; !rc && i < w->started; i++)
		workers_merge(sum, &w->sh->slot[i].res);
	unmap(w);
	return rc;
}
