/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run: clyde-zcav's work, one thread per target. Each pass reads (or,
 * with -w, writes and fsyncs) the range block by block in chunks, timing
 * each block; a single pass prints each block's line as it is read, with
 * -c the times are kept per block and pass and the trimmed means printed
 * at the end. A stream (pipe or "-") is read strictly in order: skipped
 * blocks and -r's start are read and dropped. Stops are seen after every
 * transfer (xfer), and a blocked read is woken by SIGUSR1.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_LINUX_FS_H
#include <linux/fs.h>
#endif

#include "cli.h"
#include "clock.h"
#include "fill.h"
#include "units.h"
#include "xfer.h"
#include "zcav_prog.h"
#include "zcav_result.h"

/* Read up to len bytes at off (or the stream's next bytes); short only
 * at end of data. Returns bytes, or -errno. */
static int64_t transfer(struct zcav_target *t, unsigned char *buf, uint64_t off,
			uint64_t len)
{
	const struct zcav_opts *opt = t->opt;
	size_t want = (size_t)len;
	ssize_t n;

	if (opt->write) {
		fill_stamp(buf, want, off, t->seed);
		n = xfer_pwrite_all(t->fd, buf, want, (off_t)off, t->stop);
	} else if (t->stream) {
		n = xfer_read_all(t->fd, buf, want, t->stop);
	} else {
		/* O_DIRECT needs an aligned length even at the end of a
		 * file; the file's end shortens it. */
		if (t->direct && want % t->align)
			want += t->align - want % t->align;
		n = xfer_pread_all(t->fd, buf, want, (off_t)off, t->stop);
	}
	if (n < 0 || *t->stop)
		return *t->stop ? -EINTR : n;
	return (uint64_t)n > len ? (int64_t)len : n;
}

static int fail(struct zcav_target *t, int err, const char *call, uint64_t off)
{
	t->err = err;
	snprintf(t->what, sizeof(t->what), "%s %s at %.2f GiB", call, t->path,
		 (double)off / (double)UNITS_GIB);
	return -1;
}

/* The lines so far written out; a failure is the target's failure. */
static int flush_lines(struct zcav_target *t)
{
	errno = 0;
	if (fflush(t->out) == 0 && !ferror(t->out))
		return 0;
	t->err = errno ? errno : EIO;
	t->out_failed = 1;
	snprintf(t->what, sizeof(t->what), "-l '%s': writing",
		 t->log ? t->log : "");
	return -1;
}

/* Throw away len bytes of a stream (a skipped block, -r's start). */
static int discard(struct zcav_target *t, unsigned char *buf, uint64_t len,
		   uint64_t off)
{
	const struct zcav_opts *opt = t->opt;

	while (len) {
		uint64_t n = len < opt->chunk ? len : opt->chunk;
		int64_t got = transfer(t, buf, off, n);

		if (got < 0)
			return fail(t, (int)-got, "read", off);
		if (got == 0)
			break;
		len -= (uint64_t)got;
		off += (uint64_t)got;
	}
	return 0;
}

/* One pass; lines printed as they come when there is one pass. */
static int pass(struct zcav_target *t, unsigned loop, unsigned char *buf)
{
	const struct zcav_opts *opt = t->opt;
	uint64_t pass_bytes = 0, i = 0, k = 0;
	double pass_secs = 0.0;
	int eof = 0;

	if (!t->stream && !t->direct && !opt->write) {
		/* Buffered: what an earlier pass (or anyone) cached must
		 * not be what this pass reads. */
		posix_fadvise(t->fd, 0, 0, POSIX_FADV_DONTNEED);
#ifdef BLKFLSBUF
		ioctl(t->fd, BLKFLSBUF, 0);
#endif
	}
	if (t->stream && t->start && discard(t, buf, t->start, 0))
		return -1;
	for (i = 0; !eof; i++) {
		uint64_t off = t->start + i * opt->block, len = opt->block;
		uint64_t got = 0, t0, t1;

		if (t->end && off >= t->end)
			break;
		if (t->end && t->end - off < len)
			len = t->end - off;
		if (i % opt->skip) {
			if (t->stream) {
				if (discard(t, buf, len, off))
					return -1;
			}
			continue;
		}
		t0 = clk_now_ns();
		while (got < len) {
			uint64_t n =
			    len - got < opt->chunk ? len - got : opt->chunk;
			int64_t r = transfer(t, buf, off + got, n);

			if (r < 0)
				return fail(t, (int)-r,
					    opt->write ? "write" : "read",
					    off + got);
			got += (uint64_t)r;
			if ((uint64_t)r < n) {
				eof = 1;
				break;
			}
		}
		/* A written block counts once it is on the device. */
		if (opt->write && got && fsync(t->fd) != 0)
			return fail(t, errno, "fsync", off);
		t1 = clk_now_ns();
		if (got == 0)
			break;
		if (loop == 0 && zcav_series_add(t->res, off, got))
			return fail(t, ENOMEM, "results for", off);
		/* Every pass reads the same blocks in the same order. */
		if (loop > 0 &&
		    (k >= t->res->nblocks || t->res->offset[k] != off))
			return fail(t, EIO, "the size changed:", off);
		t->res->secs[k * opt->loops + loop] = (double)(t1 - t0) / 1e9;
		k++;
		if (opt->loops == 1) {
			zcav_print_block(t->out, off, got,
					 (double)(t1 - t0) / 1e9);
			if (flush_lines(t))
				return -1;
		}
		pass_bytes += got;
		pass_secs += (double)(t1 - t0) / 1e9;
	}
	if (pass_bytes == 0)
		return fail(t, ENODATA, "nothing to read in", t->start);
	t->res->pass_bytes[loop] = pass_bytes;
	t->res->pass_secs[loop] = pass_secs;
	t->res->done = loop + 1;
	zcav_print_pass(t->out, t->res, loop, opt->write);
	if (flush_lines(t))
		return -1;
	if (opt->loops > 1) {
		time_t now = time(NULL);
		struct tm tm;

		localtime_r(&now, &tm);
		say("# Finished loop %u, on device %s at %d:%02d:%02d",
		    loop + 1, t->path, tm.tm_hour, tm.tm_min, tm.tm_sec);
	}
	return 0;
}

static void *run_target(void *arg)
{
	struct zcav_target *t = arg;
	const struct zcav_opts *opt = t->opt;
	unsigned char *buf = NULL;
	sigset_t wake;

	/* Stops arrive at main; a wake-up only interrupts a blocked read. */
	sigemptyset(&wake);
	sigaddset(&wake, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &wake, NULL);
	if (posix_memalign((void **)&buf, ZCAV_ALIGN,
			   (size_t)opt->chunk + ZCAV_ALIGN) != 0) {
		fail(t, ENOMEM, "a buffer for", 0);
		goto out;
	}
	if (opt->write)
		fill_random(buf, (size_t)opt->chunk + ZCAV_ALIGN, t->seed);
	zcav_print_head(t->out, t->res, "clyde-" PACKAGE_VERSION);
	if (flush_lines(t))
		goto out;
	for (unsigned loop = 0; loop < opt->loops && !*t->stop; loop++)
		if (pass(t, loop, buf))
			break;
	if (!t->err && !*t->stop && opt->write)
		zcav_print_cliff(t->out, t->res, opt->skip);
	if (!t->err && !*t->stop && opt->loops > 1)
		zcav_print_means(t->out, t->res);
	if (!t->err)
		flush_lines(t);
out:
	free(buf);
	__atomic_store_n(&t->finished, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

int run_all(struct zcav_target *t, int n, volatile sig_atomic_t *stop)
{
	int status = 0;

	for (int i = 0; i < n && !*stop; i++) {
		int e = pthread_create(&t[i].thread, NULL, run_target, &t[i]);

		if (e) {
			error("cannot start a thread for %s: %s", t[i].path,
			      strerror(e));
			cli_stop_first(stop, SIGTERM);
			status = CLI_EXIT_FAILED;
			break;
		}
		t[i].started = 1;
	}
	for (;;) {
		struct timespec tick = {0, 50 * 1000 * 1000};
		int all = 1;

		for (int i = 0; i < n; i++) {
			if (!t[i].started)
				continue;
			if (!__atomic_load_n(&t[i].finished, __ATOMIC_SEQ_CST))
				all = 0;
			/* Nobody reads the lines any more: the run is over. */
			else if (t[i].out == stdout && t[i].out_failed &&
				 t[i].err == EPIPE)
				cli_stop_first(stop, SIGPIPE);
		}
		if (all)
			break;
		if (*stop)
			for (int i = 0; i < n; i++)
				if (t[i].started &&
				    !__atomic_load_n(&t[i].finished,
						     __ATOMIC_SEQ_CST))
					pthread_kill(t[i].thread, SIGUSR1);
		nanosleep(&tick, NULL);
	}
	for (int i = 0; i < n; i++)
		if (t[i].started)
			pthread_join(t[i].thread, NULL);
	return status;
}
