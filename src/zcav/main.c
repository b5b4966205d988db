/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clyde-zcav: throughput by position. Reads (or, with -w and the device
 * named twice, writes) a block device, a file or a pipe end to end in
 * blocks, timing each, and prints bonnie++ zcav's gnuplot-ready lines.
 * Devices are read with O_DIRECT so the page cache cannot flatter the
 * curve; files have their cached pages dropped before each pass; a pipe
 * or "-" is read strictly in order (nothing is ever seeked there, which
 * is where bonnie++ 2.00's zcav fails). Several targets run at once, one
 * thread each, each to its own log.
 *
 * Nothing read is ever opened for writing: a log or plot that is a
 * target is refused, and every output is made under a temporary name
 * before the first read and renamed only when complete.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_LINUX_FS_H
#include <linux/fs.h>
#endif

#include "cli.h"
#include "clock.h"
#include "dio.h"
#include "fill.h"
#include "guard.h"
#include "gnuplot.h"
#include "privs.h"
#include "rng.h"
#include "outfile.h"
#include "units.h"
#include "zcav.h"
#include "zcav_opts.h"

#define PROG	   "clyde-zcav"
#define EXIT_USAGE 2
#define ALIGN	   4096u

/* One target and its thread. */
struct target {
	const char *path;
	const char *log;   /* NULL: stdout */
	struct outfile of; /* the log, under its temporary name */
	int have_of;
	FILE *out;
	int fd;
	struct stat id; /* the open target: what no output may be */
	int stream;	/* pipe or "-": read in order, never seeked */
	int direct;
	unsigned align;
	uint64_t start, end; /* end 0 on a stream: to EOF */
	uint64_t seed;
	/* Results: per block, its offset, bytes and per-pass seconds. */
	uint64_t nblocks, cap;
	uint64_t *offset, *bytes;
	double *secs; /* nblocks x loops */
	/* Outcome. */
	int err;	/* errno of the failure, 0 ok */
	int out_failed; /* err is from writing the lines, not the target */
	char what[256];
	pthread_t thread;
	int started;
	volatile int finished;
};

static const struct zcav_opts *opt;

/*
 * The first stop: a signal (SIGINT, SIGTERM, SIGHUP, taken by a thread
 * of its own as it arrives, so a later one cannot replace it), or
 * SIGPIPE for standard output closed by its reader. 0 while running.
 */
static int stop_signal;

static void stop_set(int sig)
{
	int none = 0;

	__atomic_compare_exchange_n(&stop_signal, &none, sig, 0,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

static int stopped(void)
{
	return __atomic_load_n(&stop_signal, __ATOMIC_SEQ_CST);
}

/* Only interrupts a blocked read in a worker; the flag is already set. */
static void on_wake(int sig)
{
	(void)sig;
}

static int bad(const char *o, const char *val, const char *why)
{
	fprintf(stderr, "%s: %s '%s': %s\n", PROG, o, val, why);
	return -1;
}

/* The O_DIRECT alignment of an open target. */
static unsigned direct_align(struct target *t, const struct stat *st)
{
	if (S_ISBLK(st->st_mode)) {
#ifdef BLKSSZGET
		int ssz = 0;

		if (ioctl(t->fd, BLKSSZGET, &ssz) == 0 && ssz > 0)
			return (unsigned)ssz;
#endif
		return 512;
	} else {
		struct dio_align a;

		dio_alignment(AT_FDCWD, t->path, &a);
		return a.offset;
	}
}

/* Open one target and settle its range; a refusal is one line, -1. */
static int open_target(struct target *t)
{
	struct stat st;
	uint64_t size = 0;
	int flags = O_RDONLY | O_CLOEXEC;
	char why[1024], a[32];

	if (!strcmp(t->path, "-")) {
		if (opt->write)
			return bad("-w", t->path,
				   "writes need a device or file");
		if (isatty(0))
			return bad("target", t->path,
				   "standard input is a terminal");
		t->fd = 0;
		t->stream = 1;
	} else {
		if (stat(t->path, &st) != 0)
			return bad("target", t->path, strerror(errno));
		if (S_ISDIR(st.st_mode))
			return bad("target", t->path,
				   "is a directory, not a block device, file "
				   "or pipe");
		if (S_ISCHR(st.st_mode))
			return bad("target", t->path,
				   "is a character device, not a block "
				   "device, file or pipe");
		if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
			if (opt->write)
				return bad("-w", t->path,
					   "writes need a device or file");
			t->stream = 1;
		}
		t->direct = opt->direct == 1 ||
			    (opt->direct == -1 && S_ISBLK(st.st_mode));
		if (t->stream) {
			t->direct = 0;
			t->fd = open(t->path, flags);
		} else if (opt->write) {
			struct guard_req r = {t->path, opt->destroy, opt->force,
					      1, 0};

			t->fd = guard_open_write(&r, why, sizeof(why));
			if (t->fd < 0) {
				fprintf(stderr, "%s: %s\n", PROG, why);
				return -1;
			}
		} else {
			/* Read-only work opens read-only, nothing more. */
			t->fd = open(t->path, flags);
		}
		if (t->fd < 0)
			return bad("target", t->path, strerror(errno));
	}
	if (fstat(t->fd, &st) != 0)
		return bad("target", t->path, strerror(errno));
	t->id = st;
	if (t->stream) {
		if (opt->loops > 1)
			return bad("-c", t->path,
				   "a pipe can be read only once");
		t->start = opt->start;
		t->end = opt->end;
		return 0;
	}
	size = guard_size(t->fd);
	if (size == 0)
		return bad("target", t->path,
			   errno ? strerror(errno) : "is empty");
	if (opt->end > size) {
		units_fmt_size(a, sizeof(a), size);
		snprintf(why, sizeof(why),
			 "past the end of %s (%s, %llu "
			 "bytes)",
			 t->path, a, (unsigned long long)size);
		return bad("-r", opt->range, why);
	}
	t->start = opt->start;
	t->end = opt->end ? opt->end : size;
	if (t->direct) {
		t->align = direct_align(t, &st);
		if (opt->chunk % t->align || opt->block % t->align ||
		    t->start % t->align || ALIGN % t->align) {
			snprintf(why, sizeof(why),
				 "O_DIRECT needs %u-byte alignment of the "
				 "block, chunk and range",
				 t->align);
			return bad("target", t->path, why);
		}
		if (opt->write && t->end % t->align)
			return bad("-w", t->path,
				   "its size is not a multiple of the O_DIRECT "
				   "alignment; use --buffered");
		if (fcntl(t->fd, F_SETFL, fcntl(t->fd, F_GETFL) | O_DIRECT)) {
			snprintf(why, sizeof(why), "O_DIRECT refused: %s",
				 strerror(errno));
			return bad("target", t->path, why);
		}
	}
	return 0;
}

/* Read up to len bytes at off (or the stream's next bytes); short only
 * at end of data. Returns bytes, or -errno. */
static int64_t transfer(struct target *t, unsigned char *buf, uint64_t off,
			uint64_t len)
{
	uint64_t done = 0;

	while (done < len) {
		size_t want = (size_t)(len - done);
		ssize_t n;

		if (opt->write) {
			fill_stamp(buf, want, off + done, t->seed);
			n = pwrite(t->fd, buf, want, (off_t)(off + done));
		} else if (t->stream) {
			n = read(t->fd, buf, want);
		} else {
			/* O_DIRECT needs an aligned length even at the
			 * end of a file; the file's end shortens it. */
			if (t->direct && want % t->align)
				want += t->align - want % t->align;
			n = pread(t->fd, buf, want, (off_t)(off + done));
		}
		if (n < 0) {
			if (errno == EINTR && !stopped())
				continue;
			return stopped() ? -EINTR : -errno;
		}
		if (n == 0) {
			if (opt->write)
				return -ENOSPC;
			break;
		}
		done += (uint64_t)n > len - done ? len - done : (uint64_t)n;
		if (stopped())
			return -EINTR;
	}
	return (int64_t)done;
}

static int fail(struct target *t, int err, const char *call, uint64_t off)
{
	t->err = err;
	snprintf(t->what, sizeof(t->what), "%s %s at %.2f GiB", call, t->path,
		 (double)off / (double)UNITS_GIB);
	return -1;
}

/* The lines so far written out; a failure is the target's failure. */
static int flush_lines(struct target *t)
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

/* Room for one more block's results. */
static int grow(struct target *t)
{
	uint64_t cap = t->cap ? t->cap * 2 : 256;
	uint64_t *o, *b;
	double *s;

	o = realloc(t->offset, cap * sizeof(*o));
	if (o)
		t->offset = o;
	b = realloc(t->bytes, cap * sizeof(*b));
	if (b)
		t->bytes = b;
	s = realloc(t->secs, cap * opt->loops * sizeof(*s));
	if (s)
		t->secs = s;
	if (!o || !b || !s)
		return -1;
	t->cap = cap;
	return 0;
}

/* Throw away len bytes of a stream (a skipped block, -r's start). */
static int discard(struct target *t, unsigned char *buf, uint64_t len,
		   uint64_t off)
{
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
static int pass(struct target *t, unsigned loop, unsigned char *buf)
{
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
		if (loop == 0) {
			if (t->nblocks == t->cap && grow(t))
				return fail(t, ENOMEM, "results for", off);
			t->offset[t->nblocks] = off;
			t->bytes[t->nblocks] = got;
			t->nblocks++;
		}
		/* Every pass reads the same blocks in the same order. */
		if (loop > 0 && (k >= t->nblocks || t->offset[k] != off))
			return fail(t, EIO, "the size changed:", off);
		t->secs[k * opt->loops + loop] = (double)(t1 - t0) / 1e9;
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
	zcav_print_summary(t->out, opt->write ? "Wrote" : "Read", pass_bytes,
			   pass_secs);
	if (flush_lines(t))
		return -1;
	if (opt->loops > 1) {
		time_t now = time(NULL);
		struct tm tm;

		localtime_r(&now, &tm);
		fprintf(stderr,
			"# Finished loop %u, on device %s at %d:%02d:%02d\n",
			loop + 1, t->path, tm.tm_hour, tm.tm_min, tm.tm_sec);
	}
	return 0;
}

static void *run_target(void *arg)
{
	struct target *t = arg;
	unsigned char *buf = NULL;
	sigset_t wake;

	/* Stops arrive at main; a wake-up only interrupts a blocked read. */
	sigemptyset(&wake);
	sigaddset(&wake, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &wake, NULL);
	if (posix_memalign((void **)&buf, ALIGN, (size_t)opt->chunk + ALIGN) !=
	    0) {
		fail(t, ENOMEM, "a buffer for", 0);
		goto out;
	}
	if (opt->write)
		fill_random(buf, (size_t)opt->chunk + ALIGN, t->seed);
	zcav_print_loops(t->out, opt->loops, "clyde-" PACKAGE_VERSION);
	if (opt->loops == 1)
		zcav_print_columns(t->out);
	if (flush_lines(t))
		goto out;
	for (unsigned loop = 0; loop < opt->loops && !stopped(); loop++)
		if (pass(t, loop, buf))
			break;
	if (!t->err && !stopped() && opt->loops > 1) {
		fputs("#\n", t->out);
		zcav_print_columns(t->out);
		for (uint64_t k = 0; k < t->nblocks; k++)
			zcav_print_block(
			    t->out, t->offset[k], t->bytes[k],
			    zcav_trimmed_mean(t->secs + k * opt->loops,
					      opt->loops));
	}
	if (!t->err)
		flush_lines(t);
out:
	free(buf);
	__atomic_store_n(&t->finished, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/* The curves: counted blocks as lines, blocks under 0.5 s as points. */
static int draw(struct target *t, int n, const char *tmp)
{
	char *script = NULL, why[512];
	size_t len = 0;
	FILE *f = open_memstream(&script, &len);
	int any = 0, rc;

	if (!f) {
		fprintf(stderr, "%s: --plot: %s\n", PROG, strerror(errno));
		return -1;
	}
	plot_begin(f, tmp, opt->plot_fmt, 1000, 600);
	fprintf(f,
		"set title 'clyde-zcav: %s throughput by position "
		"(%llu MiB blocks%s)'\n",
		opt->write ? "write" : "read",
		(unsigned long long)(opt->block / UNITS_MIB),
		opt->loops > 1 ? ", trimmed mean of passes" : "");
	fputs("set xlabel 'offset (GiB)'\nset ylabel 'MiB/s'\n"
	      "set grid\nset yrange [0:*]\nset key below\n",
	      f);
	for (int i = 0; i < n; i++) {
		for (int fast = 0; fast < 2; fast++) {
			fprintf(f, "$d%d%c << EOD\n", i, fast ? 'f' : 'c');
			for (uint64_t k = 0; k < t[i].nblocks; k++) {
				double s = t[i].secs[k * opt->loops];

				if (opt->loops > 1)
					s = zcav_trimmed_mean(
					    t[i].secs + k * opt->loops,
					    opt->loops);
				if ((s < ZCAV_MIN_SECONDS) != fast || s <= 0)
					continue;
				fprintf(f, "%.4f %.2f\n",
					(double)t[i].offset[k] /
					    (double)UNITS_GIB,
					(double)t[i].bytes[k] /
					    (double)UNITS_MIB / s);
			}
			fputs("EOD\n", f);
		}
	}
	fputs("plot", f);
	for (int i = 0; i < n; i++) {
		for (int fast = 0; fast < 2; fast++) {
			int have = 0;

			for (uint64_t k = 0; k < t[i].nblocks; k++) {
				double s = opt->loops > 1
					       ? zcav_trimmed_mean(
						     t[i].secs + k * opt->loops,
						     opt->loops)
					       : t[i].secs[k];

				have |= (s < ZCAV_MIN_SECONDS) == fast;
			}
			if (!have)
				continue;
			fprintf(f, "%s $d%d%c using 1:2 with %s lc %d title ",
				any ? "," : "", i, fast ? 'f' : 'c',
				fast ? "points pt 6"
				     : "linespoints pt 7 ps 0.6",
				i + 1);
			if (fast) {
				char title[PATH_MAX + 64];

				snprintf(title, sizeof(title),
					 "%s: blocks under 0.5 s (not counted)",
					 t[i].path);
				plot_quote(f, title);
			} else {
				plot_quote(f, t[i].path);
			}
			any = 1;
		}
	}
	fputc('\n', f);
	if (fclose(f) != 0) {
		free(script);
		fprintf(stderr, "%s: --plot: %s\n", PROG, strerror(errno));
		return -1;
	}
	rc = any ? plot_run(script, len, why, sizeof(why)) : 0;
	free(script);
	if (rc && !stopped()) {
		fprintf(stderr, "%s: --plot '%s': %s\n", PROG, opt->plot, why);
		return -1;
	}
	return 0;
}

/*
 * Two targets that are one pipe ("-" and /dev/stdin, a FIFO twice)
 * would each get part of what it delivers: refused.
 */
static int check_streams(const struct target *t, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++) {
			if (!t[i].stream && !t[j].stream)
				continue;
			if (t[i].id.st_dev != t[j].id.st_dev ||
			    t[i].id.st_ino != t[j].id.st_ino)
				continue;
			if (!strcmp(t[i].path, "-") || !strcmp(t[j].path, "-"))
				return bad("target", t[i].path,
					   "standard input named twice (one "
					   "pipe read by two targets)");
			return bad("target", t[i].path,
				   "the same pipe as an earlier target; a "
				   "pipe can be read by one target only");
		}
	return 0;
}

/* An output as named on the command line. */
struct output {
	const char *opt; /* "-l", "--plot" */
	const char *path;
};

/* Is the file at path (links followed) the open target t? */
static int is_target(const char *path, const struct target *t)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return 0;
	if (S_ISBLK(st.st_mode) || S_ISBLK(t->id.st_mode))
		return S_ISBLK(st.st_mode) && S_ISBLK(t->id.st_mode) &&
		       st.st_rdev == t->id.st_rdev;
	return st.st_dev == t->id.st_dev && st.st_ino == t->id.st_ino;
}

/*
 * Do a and b name one final file: the same directory (by device and
 * inode) and the same last part? A name that is not there yet is
 * compared too, so "log" and "./log" are one output.
 */
static int same_final_name(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	const char *ba = sa ? sa + 1 : a, *bb = sb ? sb + 1 : b;
	char da[PATH_MAX], db[PATH_MAX];
	struct stat xa, xb;

	if (strcmp(ba, bb) || !*ba)
		return 0;
	snprintf(da, sizeof(da), "%.*s", sa ? (int)(sa - a) + 1 : 1,
		 sa ? a : ".");
	snprintf(db, sizeof(db), "%.*s", sb ? (int)(sb - b) + 1 : 1,
		 sb ? b : ".");
	return stat(da, &xa) == 0 && stat(db, &xb) == 0 &&
	       xa.st_dev == xb.st_dev && xa.st_ino == xb.st_ino;
}

/*
 * No output may be a target (it would be replaced by the lines about
 * it, or the target read as a log), and no two outputs one file.
 */
static int check_outputs(const struct target *t, int n)
{
	struct output out[ZCAV_MAX_TARGETS + 1];
	int k = 0;
	char why[PATH_MAX + 64];

	for (int i = 0; i < n; i++)
		if (t[i].log)
			out[k++] = (struct output){"-l", t[i].log};
	if (opt->plot)
		out[k++] = (struct output){"--plot", opt->plot};
	for (int i = 0; i < k; i++) {
		for (int j = 0; j < n; j++) {
			if (!is_target(out[i].path, &t[j]))
				continue;
			snprintf(why, sizeof(why),
				 "is the target '%s'; not overwritten",
				 t[j].path);
			return bad(out[i].opt, out[i].path, why);
		}
		for (int j = 0; j < i; j++) {
			if (!same_final_name(out[i].path, out[j].path))
				continue;
			snprintf(why, sizeof(why), "the same file as %s '%s'",
				 out[j].opt, out[j].path);
			return bad(out[i].opt, out[i].path, why);
		}
	}
	return 0;
}

/* The logs and the plot as temporary files, before the first read. */
static int open_outputs(struct target *t, int n, struct outfile *plot)
{
	char why[PATH_MAX + 256];

	for (int i = 0; i < n; i++) {
		t[i].out = stdout;
		if (!t[i].log)
			continue;
		if (outfile_open(&t[i].of, t[i].log, why, sizeof(why)) != 0) {
			fprintf(stderr, "%s: -l %s\n", PROG, why);
			return -1;
		}
		t[i].have_of = 1;
		t[i].out = outfile_stream(&t[i].of);
		if (!t[i].out)
			return bad("-l", t[i].log, strerror(errno));
	}
	if (opt->plot && outfile_open(plot, opt->plot, why, sizeof(why))) {
		fprintf(stderr, "%s: --plot %s\n", PROG, why);
		return -1;
	}
	return 0;
}

/* Every temporary output removed: a refusal, a failure or a stop. */
static void abort_outputs(struct target *t, int n, struct outfile *plot)
{
	for (int i = 0; i < n; i++)
		if (t[i].have_of) {
			outfile_abort(&t[i].of);
			t[i].have_of = 0;
		}
	outfile_abort(plot);
}

/*
 * Stops go to a thread of their own that waits for them as they come
 * (SIGINT, SIGTERM, SIGHUP are blocked everywhere else), so the first
 * one decides the exit status whatever follows.
 */
static sigset_t stop_set_mask;

static void *signal_thread(void *arg)
{
	(void)arg;
	for (;;) {
		int sig = sigwaitinfo(&stop_set_mask, NULL);

		if (sig > 0) {
			stop_set(sig);
			/* A gnuplot still drawing is stopped, not waited for. */
			plot_signal_cleanup();
		}
	}
	return NULL;
}

/* Stops blocked and taken by their thread; SIGUSR1 wakes a worker. */
static int catch_stops(void)
{
	struct sigaction sa;
	sigset_t block;
	pthread_t th;
	int e;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_wake; /* no SA_RESTART: a blocked read returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&stop_set_mask);
	sigaddset(&stop_set_mask, SIGINT);
	sigaddset(&stop_set_mask, SIGTERM);
	sigaddset(&stop_set_mask, SIGHUP);
	block = stop_set_mask;
	sigaddset(&block, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &block, NULL);
	e = pthread_create(&th, NULL, signal_thread, NULL);
	if (e) {
		fprintf(stderr, "%s: cannot start a thread for signals: %s\n",
			PROG, strerror(e));
		return -1;
	}
	pthread_detach(th);
	return 0;
}

/* Start the workers and wait for all; a stop wakes each blocked read. */
static int run_all(struct target *t, int n)
{
	int status = 0;

	for (int i = 0; i < n && !stopped(); i++) {
		int e = pthread_create(&t[i].thread, NULL, run_target, &t[i]);

		if (e) {
			fprintf(stderr,
				"%s: cannot start a thread for %s: %s\n", PROG,
				t[i].path, strerror(e));
			stop_set(SIGTERM);
			status = 1;
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
				stop_set(SIGPIPE);
		}
		if (all)
			break;
		if (stopped())
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

/* Each target's outcome said, its log kept only when it succeeded. */
static int finish_targets(struct target *t, int n, int *stdout_bad)
{
	int status = 0, e;

	for (int i = 0; i < n; i++) {
		if (t[i].fd > 0)
			close(t[i].fd);
		t[i].fd = -1;
		if (t[i].err && t[i].out_failed && !t[i].log) {
			status |= cli_stdout_failed(PROG, t[i].err) != 0;
			*stdout_bad = 1;
		} else if (t[i].err) {
			fprintf(stderr, "%s: %s: %s\n", PROG, t[i].what,
				strerror(t[i].err));
			status = 1;
		}
		if (!t[i].have_of)
			continue;
		t[i].have_of = 0;
		if (t[i].err) {
			outfile_abort(&t[i].of);
		} else if ((e = outfile_commit(&t[i].of)) != 0) {
			bad("-l", t[i].log, strerror(-e));
			status = 1;
		}
	}
	return status;
}

static void free_results(struct target *t, int n)
{
	for (int i = 0; i < n; i++) {
		free(t[i].offset);
		free(t[i].bytes);
		free(t[i].secs);
	}
}

/* The exit status of a stop, after cleanup. */
static int stop_status(int sig)
{
	return sig == SIGPIPE ? CLI_EXIT_PIPE : 128 + sig;
}

/*
 * The plot drawn (only after a run without failures) into its temporary
 * file and renamed over its name; removed on a failure or a stop.
 * Returns the exit status so far.
 */
static int finish_plot(struct target *t, int n, struct outfile *plot,
		       int status)
{
	int e;
	int bad_draw = status || draw(t, n, plot->tmp);

	if (stopped()) {
		/* A stop while gnuplot drew: it was killed, nothing kept. */
		outfile_abort(plot);
		return stop_status(stopped());
	}
	if (bad_draw) {
		outfile_abort(plot);
		return 1;
	}
	e = outfile_commit(plot);
	if (e) {
		bad("--plot", opt->plot, strerror(-e));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct target t[ZCAV_MAX_TARGETS];
	static struct zcav_opts o;
	struct outfile plot = {.fd = -1, .slot = -1};
	int n, status, sig, stdout_bad = 0;
	char why[300];

	cli_ignore_sigpipe();
	switch (zcav_opts_parse(argc, argv, &o)) {
	case ZCAV_PARSE_RUN:
		break;
	case ZCAV_PARSE_DONE:
		return cli_stdout_close(PROG);
	default:
		return EXIT_USAGE;
	}
	opt = &o;
	n = o.ntargets;
	for (int i = 0; i < n; i++) {
		t[i].path = o.target[i].path;
		t[i].log = o.target[i].log;
		t[i].fd = -1;
		t[i].seed = rng_fresh_seed() + (uint64_t)i;
		if (open_target(&t[i]))
			return EXIT_USAGE;
	}
	if (check_streams(t, n) || check_outputs(t, n))
		return EXIT_USAGE;
	/* Devices are open: the rest (logs, the plot) as the -u user. */
	if (privs_drop(&o.privs, why, sizeof(why))) {
		fprintf(stderr, "%s: -u/-g: %s\n", PROG, why);
		return EXIT_USAGE;
	}
	if (catch_stops())
		return 1;
	if (open_outputs(t, n, &plot)) {
		abort_outputs(t, n, &plot);
		return EXIT_USAGE;
	}
	status = run_all(t, n);
	sig = stopped();
	if (sig) {
		/* What failed before the stop is still said. */
		for (int i = 0; i < n; i++)
			if (t[i].err && t[i].err != EINTR &&
			    !(t[i].out_failed && t[i].err == EPIPE))
				fprintf(stderr, "%s: %s: %s\n", PROG, t[i].what,
					strerror(t[i].err));
		abort_outputs(t, n, &plot);
		free_results(t, n);
		return stop_status(sig);
	}
	status |= finish_targets(t, n, &stdout_bad);
	if (o.plot)
		status = finish_plot(t, n, &plot, status);
	free_results(t, n);
	if (!status && !stdout_bad)
		status = cli_stdout_close(PROG);
	return status;
}
