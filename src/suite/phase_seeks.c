/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_seeks: random seeks. N seeker processes (default 5) share S
 * seeks (default 8192). The parent makes one ticket per seek from the
 * run's seed (seek.h: no chunk twice until all were read) and hands them
 * out through a pipe, so the set of seeks is fixed by the seed whichever
 * seeker takes which. Each seek is
 * an lseek to a random chunk and a read of it; one in ten also changes a
 * byte, seeks back and writes the chunk (-b: fsync after it).
 *
 * The seekers open the data file themselves, then wait on a barrier (a
 * pipe the parent closes) so they start together. The figure runs from
 * the first seeker's start to the last one's end, and %CP is the sum of
 * the seekers' own CPU time: bonnie++ 1.97+ adds whole-process figures
 * once per seeker, which inflates it. Each seeker's latencies go into
 * its own histogram in a shared mapping; the parent merges them, so the
 * percentiles are exact over all seeks.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "phase.h"
#include "rng.h"
#include "seek.h"

/* Salt for the tickets' stream of the run's seed. */
#define SEEK_SALT 0x7365656b73ull

/*
 * What a seeker tells the parent, in a shared mapping (a histogram is
 * too big for an atomic pipe write); done is set last.
 */
struct seek_report {
	uint64_t start_ns, end_ns, user_ns, sys_ns;
	struct phase_out out; /* seeks done, worst and every latency */
	int err;
	int done;
	char what[256];
};

/* This process's user and system CPU so far, in ns. */
static void cpu_now_ns(uint64_t *user, uint64_t *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user = (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
		(uint64_t)ru.ru_utime.tv_usec * 1000u;
	*sys = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
	       (uint64_t)ru.ru_stime.tv_usec * 1000u;
}

/* One seek: read the chunk a ticket names, and maybe write it back. */
static int seek_once(struct phase_ctx *ctx, uint64_t ticket, uint64_t nchunks)
{
	off_t off = (off_t)(seek_ticket_chunk(ticket, nchunks) * ctx->chunk);
	int rc;

	if (lseek(ctx->fd, off, SEEK_SET) < 0)
		return phase_fail(ctx, "lseek", errno);
	if ((rc = phase_read_all(ctx, ctx->buf, ctx->chunk)) != 0)
		return rc;
	if (!seek_ticket_writes(ticket))
		return 0;
	ctx->buf[ticket % ctx->chunk]++;
	if (lseek(ctx->fd, off, SEEK_SET) < 0)
		return phase_fail(ctx, "lseek", errno);
	if ((rc = phase_write_all(ctx, ctx->buf, ctx->chunk)) != 0)
		return rc;
	if (ctx->opt->sync_each)
		return phase_fsync(ctx);
	return 0;
}

/* The body of one seeker process; never returns. */
static void seeker(struct phase_ctx *ctx, int tickets, int ready, int go,
		   struct seek_report *rep, int record)
{
	uint64_t nchunks = ctx->size / ctx->chunk, ticket, t0, user0, sys0;
	unsigned char *buf;
	char c = 'r';
	int rc = 0, wrote = 0;

	memset(rep, 0, sizeof(*rep));
	hist_init(&rep->out.lat);
	rep->out.record = record;
	/* Its own buffer and file offset: nothing shared with the others. */
	if (posix_memalign((void **)&buf, 4096, ctx->chunk) != 0) {
		rc = -ENOMEM;
		goto report;
	}
	memcpy(buf, ctx->buf, ctx->chunk);
	ctx->buf = buf;
	ctx->fd = -1;
	if ((rc = phase_open(ctx, O_RDWR, "open")) < 0)
		goto report;
	rc = 0;
	/* Readahead around random offsets would turn later seeks into cache
	 * hits: the figure is the device's random reads. */
	if (!ctx->opt->direct)
		posix_fadvise(ctx->fd, 0, 0, POSIX_FADV_RANDOM);
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 0) {
		rc = phase_fail_call(ctx, "seeker start (pipe)",
				     errno ? errno : EPIPE);
		goto report;
	}
	cpu_now_ns(&user0, &sys0);
	t0 = rep->start_ns = clk_now_ns();
	while (!*ctx->stop) {
		ssize_t n = read(tickets, &ticket, sizeof(ticket));

		if (n == 0)
			break;
		if (n != (ssize_t)sizeof(ticket)) {
			if (n < 0 && errno == EINTR)
				continue;
			rc = phase_fail_call(ctx, "read tickets (pipe)",
					     n < 0 ? errno : EIO);
			break;
		}
		if ((rc = seek_once(ctx, ticket, nchunks)) != 0)
			break;
		wrote |= seek_ticket_writes(ticket);
		rep->out.work++;
		phase_op_done(&rep->out, &t0);
	}
	/* The writes reach the device before this seeker's clock stops. */
	if (!rc && wrote && !*ctx->stop)
		rc = phase_fsync(ctx);
	rep->end_ns = clk_now_ns();
	cpu_now_ns(&rep->user_ns, &rep->sys_ns);
	rep->user_ns -= user0;
	rep->sys_ns -= sys0;
report:
	rep->err = -rc;
	snprintf(rep->what, sizeof(rep->what), "%.*s",
		 (int)sizeof(rep->what) - 1, ctx->what);
	__atomic_store_n(&rep->done, 1, __ATOMIC_RELEASE);
	_exit(rc ? 1 : 0);
}

/*
 * Write tickets *next.. up to the seek count, blocking as the seekers
 * drain the pipe (or, nonblock, until it is full). A batch is PIPE_BUF
 * bytes at most, so a write is all or nothing and no ticket is split.
 */
static int feed(struct phase_ctx *ctx, int fd, uint64_t *next, int nonblock)
{
	uint64_t batch[512], total = ctx->opt->seeks;
	uint64_t nchunks = ctx->size / ctx->chunk;

	while (*next < total) {
		size_t n = total - *next < 512 ? (size_t)(total - *next) : 512,
		       done = 0;

		for (size_t i = 0; i < n; i++)
			batch[i] = seek_ticket(ctx->seed ^ SEEK_SALT, *next + i,
					       nchunks);
		while (done < n * sizeof(uint64_t)) {
			ssize_t w = write(fd, (char *)batch + done,
					  n * sizeof(uint64_t) - done);

			if (w < 0 && errno == EINTR && !*ctx->stop)
				continue;
			if (w < 0 && errno == EAGAIN && nonblock)
				return -EAGAIN; /* full; nothing of it written */
			if (w < 0)
				return phase_fail_call(
				    ctx, "write tickets (pipe)", errno);
			done += (size_t)w;
		}
		*next += n;
	}
	return 0;
}

static int seeks_run(struct phase_ctx *ctx, struct phase_out *out)
{
	unsigned procs = ctx->opt->procs, started = 0;
	uint64_t next = 0, left = ctx->opt->seeks, first = UINT64_MAX, last = 0;
	uint64_t user = 0, sys = 0;
	int tk[2] = {-1, -1}, rd[2] = {-1, -1}, go[2] = {-1, -1};
	size_t reps_len = procs * sizeof(struct seek_report);
	pid_t *pids = calloc(procs, sizeof(*pids));
	struct seek_report *reps;
	int rc = 0, feed_rc = 0;
	char c;

	reps = mmap(NULL, reps_len, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!pids || reps == MAP_FAILED) {
		free(pids);
		if (reps != MAP_FAILED)
			munmap(reps, reps_len);
		return phase_fail_call(ctx, "mmap", ENOMEM);
	}
	if (pipe2(tk, O_CLOEXEC) || pipe2(rd, O_CLOEXEC) ||
	    pipe2(go, O_CLOEXEC)) {
		rc = phase_fail_call(ctx, "pipe", errno);
		goto out;
	}
	/* Room for all tickets where the kernel allows, so the parent
	 * rarely has to run while the seekers do. */
	fcntl(tk[1], F_SETPIPE_SZ,
	      (int)(left * 8 < (1u << 20) ? left * 8 : (1u << 20)));
	fcntl(tk[1], F_SETFL, O_NONBLOCK);
	rc = feed(ctx, tk[1], &next, 1);
	fcntl(tk[1], F_SETFL, 0);
	if (rc && rc != -EAGAIN)
		goto out;
	rc = 0;
	fflush(NULL);
	for (; started < procs; started++) {
		pid_t pid = fork();

		if (pid < 0) {
			rc = phase_fail_call(ctx, "fork", errno);
			goto out;
		}
		if (pid == 0) {
			close(tk[1]);
			close(rd[0]);
			close(go[1]);
			seeker(ctx, tk[0], rd[1], go[0], &reps[started],
			       out->record);
		}
		pids[started] = pid;
	}
	close(tk[0]);
	close(rd[1]);
	close(go[0]);
	tk[0] = rd[1] = go[0] = -1;
	/* The barrier: every seeker has its file open, then all go. */
	for (unsigned i = 0; i < procs; i++)
		if (read(rd[0], &c, 1) != 1)
			break; /* a seeker failed early: its report says why */
	close(go[1]);
	go[1] = -1;
	/* A failed feed (EPIPE: every seeker gone) yields to their reasons. */
	feed_rc = feed(ctx, tk[1], &next, 0);
	close(tk[1]);
	tk[1] = -1;
out:
	if (rc || *ctx->stop)
		for (unsigned i = 0; i < started; i++)
			kill(pids[i], SIGTERM);
	for (unsigned i = 0; i < started; i++)
		while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	/* Merge: first start, last end, summed CPU, the union of latencies. */
	for (unsigned i = 0; i < started && !*ctx->stop; i++) {
		const struct seek_report *rep = &reps[i];

		if (!__atomic_load_n(&rep->done, __ATOMIC_ACQUIRE)) {
			if (!rc)
				rc = phase_fail_call(ctx, "seeker", ECHILD);
			continue;
		}
		if (rep->err && !rc) {
			rc = -rep->err;
			snprintf(ctx->what, sizeof(ctx->what), "%s", rep->what);
		}
		out->work += rep->out.work;
		if (rep->out.max_latency_ns > out->max_latency_ns)
			out->max_latency_ns = rep->out.max_latency_ns;
		hist_merge(&out->lat, &rep->out.lat);
		if (rep->start_ns && rep->start_ns < first)
			first = rep->start_ns;
		if (rep->end_ns > last)
			last = rep->end_ns;
		user += rep->user_ns;
		sys += rep->sys_ns;
	}
	if (!rc)
		rc = feed_rc;
	for (int i = 0; i < 2; i++) {
		if (tk[i] >= 0)
			close(tk[i]);
		if (rd[i] >= 0)
			close(rd[i]);
		if (go[i] >= 0)
			close(go[i]);
	}
	munmap(reps, reps_len);
	free(pids);
	out->self_timed = 1;
	out->elapsed = last > first ? (double)(last - first) / 1e9 : 0.0;
	out->user = (double)user / 1e9;
	out->sys = (double)sys / 1e9;
	return rc;
}

const struct phase_ops phase_seeks_ops = {
	.name = "seeks",
	.title = "random seeks",
	.test = RT_seeks,
	.flags = PHASE_DATA | PHASE_FORKS | PHASE_READS,
	.progress = "Seeking randomly",
	.run = seeks_run,
};
