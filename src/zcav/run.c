/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run: clyde-zcav's work, one thread per target. Each pass reads (or,
 * with -w, writes and fsyncs) the range block by block in chunks, timing
 * each block; a single pass prints each block's line as it is read, with
 * -c the times are kept per block and pass and the trimmed means printed
 * at the end. Without -b, a read's lines grow (more blocks each) until
 * each takes 0.5 s, the first pass laying them out for the others. A
 * stream (pipe or "-") is read strictly in order: skipped blocks and -r's
 * start are read and dropped. Stops are seen after every transfer (xfer),
 * and a blocked read is woken by ZCAV_WAKE.
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

/* The most a line grows to without -b (a power of two times the block). */
#define MAX_LINE (UINT64_C(1) << 40)
/* A grown line is meant to take this many times the minimum (a second),
 * so that the lines after it, a little faster or slower, are still timed,
 * and a run of one line has a second in its summary. */
#define GROW_MARGIN 2.0

/*
 * The bytes of the line at off: the line, less at the range's end; once
 * lines grew (and none are skipped), the rest of the range when less than
 * a line would be left after this one, since so short a last line would
 * be too fast to time.
 */
static uint64_t line_len(const struct zcav_target *t, uint64_t off)
{
	uint64_t len = t->line, left;

	if (!t->end)
		return len;
	left = t->end - off;
	if (left <= len || (t->grown && t->opt->skip == 1 && left - len < len))
		return left;
	return len;
}

/* The line after one of len bytes read in secs, under the minimum: the
 * line doubled until it should take GROW_MARGIN times the minimum. */
static uint64_t grow(const struct zcav_target *t, uint64_t len, double secs)
{
	double need = (double)len * ZCAV_MIN_SECONDS * GROW_MARGIN /
		      (secs > 1e-6 ? secs : 1e-6);
	uint64_t line = t->line * 2;

	while ((double)line < need && line < MAX_LINE)
		line *= 2;
	return line;
}

/*
 * Read (or write and fsync) len bytes at off in chunks, timed into *secs:
 * the bytes done, fewer only at the end of the data (*eof set), or -1
 * after fail().
 */
static int64_t time_line(struct zcav_target *t, unsigned char *buf,
			 uint64_t off, uint64_t len, double *secs, int *eof)
{
	const struct zcav_opts *opt = t->opt;
	uint64_t got = 0, t0 = clk_now_ns();

	while (got < len) {
		uint64_t n = len - got < opt->chunk ? len - got : opt->chunk;
		int64_t r = transfer(t, buf, off + got, n);

		if (r < 0)
			return fail(t, (int)-r, opt->write ? "write" : "read",
				    off + got);
		got += (uint64_t)r;
		if ((uint64_t)r < n) {
			*eof = 1;
			break;
		}
	}
	/* A written block counts once it is on the device. */
	if (opt->write && got && fsync(t->fd) != 0)
		return fail(t, errno, "fsync", off);
	*secs = (double)(clk_now_ns() - t0) / 1e9;
	return (int64_t)got;
}

/* Line k of pass loop kept (the first pass adds it) and, when there is
 * one pass, printed. 0, or -1 after fail(). */
static int keep(struct zcav_target *t, unsigned loop, uint64_t k, uint64_t off,
		uint64_t got, double secs)
{
	const struct zcav_opts *opt = t->opt;

	if (loop == 0) {
		if (zcav_series_add(t->res, off, got))
			return fail(t, ENOMEM, "results for", off);
		/* The series' block is its longest line. */
		if (got > t->res->block)
			t->res->block = got;
	}
	t->res->secs[k * opt->loops + loop] = secs;
	if (opt->loops == 1) {
		zcav_print_block(t->out, off, got, secs);
		if (flush_lines(t))
			return -1;
	}
	return 0;
}

/*
 * The first pass, which lays the lines out. Without -b, a read line that
 * took under 0.5 s with more of the range after it makes the lines grow:
 * a file or device is then read again from that line's start, so only
 * lines of the grown size are kept; a pipe cannot be read again, so
 * there the fast line is kept and the next ones grow. Writes keep their
 * block, each the write-cache cliff's interval (run_note() says which -b
 * times them).
 */
static int lay_out(struct zcav_target *t, unsigned char *buf, uint64_t *bytes,
		   double *secs)
{
	const struct zcav_opts *opt = t->opt;
	uint64_t off = t->start, k = 0;
	int eof = 0;

	if (t->stream && t->start && discard(t, buf, t->start, 0))
		return -1;
	while (!eof && !(t->end && off >= t->end)) {
		uint64_t len = line_len(t, off), line = t->line, gap;
		double s = 0;
		int64_t got = time_line(t, buf, off, len, &s, &eof);

		if (got < 0)
			return -1;
		if (got == 0)
			break;
		if (s < ZCAV_MIN_SECONDS && !opt->block_given && !opt->write &&
		    !eof && (!t->end || off + len < t->end) &&
		    t->line < MAX_LINE) {
			t->line = grow(t, (uint64_t)got, s);
			t->grown = 1;
			if (!t->stream) {
				/* What this read cached must not make the
				 * second one faster. */
				if (!t->direct)
					posix_fadvise(t->fd, (off_t)off,
						      (off_t)got,
						      POSIX_FADV_DONTNEED);
				continue;
			}
		}
		if (keep(t, 0, k++, off, (uint64_t)got, s))
			return -1;
		*bytes += (uint64_t)got;
		*secs += s;
		off += (uint64_t)got;
		/* -s: the skip - 1 lines after it, of its size. */
		gap = (opt->skip - 1) * line;
		if (gap && t->end && gap > t->end - off)
			gap = t->end - off;
		if (gap && t->stream && discard(t, buf, gap, off))
			return -1;
		off += gap;
	}
	return 0;
}

/* A later pass: the first pass's lines again, in order. */
static int replay(struct zcav_target *t, unsigned loop, unsigned char *buf,
		  uint64_t *bytes, double *secs)
{
	const struct zcav_series *r = t->res;

	for (uint64_t k = 0; k < r->nblocks; k++) {
		uint64_t off = r->offset[k], len = r->bytes[k];
		double s = 0;
		int eof = 0;
		int64_t got = time_line(t, buf, off, len, &s, &eof);

		if (got < 0)
			return -1;
		if ((uint64_t)got != len)
			return fail(t, EIO,
				    "the size changed:", off + (uint64_t)got);
		if (keep(t, loop, k, off, len, s))
			return -1;
		*bytes += len;
		*secs += s;
	}
	return 0;
}

/* One pass; lines printed as they come when there is one pass. */
static int pass(struct zcav_target *t, unsigned loop, unsigned char *buf)
{
	const struct zcav_opts *opt = t->opt;
	uint64_t pass_bytes = 0;
	double pass_secs = 0.0;

	if (!t->stream && !t->direct && !opt->write) {
		/* Buffered: what an earlier pass (or anyone) cached must
		 * not be what this pass reads. */
		posix_fadvise(t->fd, 0, 0, POSIX_FADV_DONTNEED);
#ifdef BLKFLSBUF
		ioctl(t->fd, BLKFLSBUF, 0);
#endif
	}
	if (loop == 0 ? lay_out(t, buf, &pass_bytes, &pass_secs)
		      : replay(t, loop, buf, &pass_bytes, &pass_secs))
		return -1;
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

/* A size as -b takes it and a person reads it: "N MiB", "N KiB" or
 * "N bytes" (bare: "N" for MiB, "Nk" for KiB). */
static const char *size_text(char *buf, size_t len, uint64_t v, int bare)
{
	if (v % UNITS_MIB == 0)
		snprintf(buf, len, bare ? "%llu" : "%llu MiB",
			 (unsigned long long)(v / UNITS_MIB));
	else if (v % 1024 == 0)
		snprintf(buf, len, bare ? "%lluk" : "%llu KiB",
			 (unsigned long long)(v / 1024));
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)v);
	return buf;
}

static int cmp_rate(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void run_note(const struct zcav_target *t)
{
	const struct zcav_opts *opt = t->opt;
	const struct zcav_series *s = t->res;
	uint64_t untimed = 0, lines = s->nblocks, b;
	double *rate = calloc(s->nblocks ? s->nblocks : 1, sizeof(*rate));
	double mid, need;
	char a[40], c[40];

	if (!rate)
		return;
	for (uint64_t k = 0; k < s->nblocks; k++) {
		double secs = zcav_series_seconds(s, k);

		/* A last line shorter than the others is too short at any
		 * size: not counted. */
		if (k && k == s->nblocks - 1 && s->bytes[k] < s->bytes[k - 1]) {
			lines--;
			continue;
		}
		if (secs >= ZCAV_MIN_SECONDS)
			continue;
		secs = secs > 1e-6 ? secs : 1e-6;
		rate[untimed++] = (double)s->bytes[k] / secs;
	}
	/* The untimed lines' median rate, and the bytes a line needs at
	 * it (a single short read can be far faster than the rest). */
	qsort(rate, untimed, sizeof(*rate), cmp_rate);
	mid = untimed ? (rate[(untimed - 1) / 2] + rate[untimed / 2]) / 2 : 0;
	need = mid * ZCAV_MIN_SECONDS;
	free(rate);
	if (untimed && !t->stream && t->end &&
	    need > (double)(t->end - t->start)) {
		warning("%s: %s at %.0f MiB/s, its %s take under 0.5 s: too "
			"fast to time, even as one line",
			t->path, opt->write ? "written" : "read",
			mid / (double)UNITS_MIB,
			size_text(a, sizeof(a), t->end - t->start, 0));
	} else if (untimed && (opt->block_given || opt->write)) {
		for (b = opt->block;
		     (double)b < need * GROW_MARGIN && b < MAX_LINE; b *= 2)
			;
		/* No more than the range: one line over all of it. */
		if (!t->stream && t->end && b > t->end - t->start)
			b = (t->end - t->start + ZCAV_ALIGN - 1) / ZCAV_ALIGN *
			    ZCAV_ALIGN;
		size_text(a, sizeof(a), b, 1);
		if (opt->chunk_given)
			snprintf(a + strlen(a), sizeof(a) - strlen(a), ":%s",
				 size_text(c, sizeof(c), opt->chunk, 1));
		warning("%s: %llu of %llu lines under 0.5 s, untimed (%.0f "
			"MiB/s): give -b %s to time them",
			t->path, (unsigned long long)untimed,
			(unsigned long long)lines, mid / (double)UNITS_MIB, a);
	} else if (t->grown) {
		warning("%s: lines cover %s: each %s block read in under 0.5 s",
			t->path, size_text(a, sizeof(a), t->line, 0),
			size_text(c, sizeof(c), opt->block, 0));
	}
}

static void *run_target(void *arg)
{
	struct zcav_target *t = arg;
	const struct zcav_opts *opt = t->opt;
	unsigned char *buf = NULL;
	sigset_t wake;

	/* Stops arrive at main; a wake-up only interrupts a blocked read. */
	sigemptyset(&wake);
	sigaddset(&wake, ZCAV_WAKE);
	pthread_sigmask(SIG_UNBLOCK, &wake, NULL);
	if (posix_memalign((void **)&buf, ZCAV_ALIGN,
			   (size_t)opt->chunk + ZCAV_ALIGN) != 0) {
		fail(t, ENOMEM, "a buffer for", 0);
		goto out;
	}
	if (opt->write)
		fill_random(buf, (size_t)opt->chunk + ZCAV_ALIGN, t->seed);
	t->line = opt->block;
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
					pthread_kill(t[i].thread, ZCAV_WAKE);
		nanosleep(&tick, NULL);
	}
	for (int i = 0; i < n; i++)
		if (t[i].started)
			pthread_join(t[i].thread, NULL);
	return status;
}
