/*
 * clyde-zcav: throughput by position. Reads (or, with -w and the device
 * named twice, writes) a block device, a file or a pipe end to end in
 * blocks, timing each, and prints bonnie++ zcav's gnuplot-ready lines.
 * Devices are read with O_DIRECT so the page cache cannot flatter the
 * curve; files have their cached pages dropped before each pass; a pipe
 * or "-" is read strictly in order (nothing is ever seeked there, which
 * is where bonnie++ 2.00's zcav fails). Several targets run at once, one
 * thread each, each to its own log.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
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
#include "plot.h"
#include "privs.h"
#include "rng.h"
#include "units.h"
#include "zcav.h"

#define PROG	    "clyde-zcav"
#define EXIT_USAGE  2
#define MAX_TARGETS 64
#define MAX_CHUNK   (256 * UNITS_MIB)
#define ALIGN	    4096u

static const char usage_text[] =
    "usage: clyde-zcav [-b block[:chunk]] [-c count] [-r [start:]end]\n"
    "                  [-s skip] [--direct|--buffered] [--plot FILE]\n"
    "                  [-w --destroy-data=TARGET [--force]]\n"
    "                  [-u user[:group]] [-g group]\n"
    "                  [-l log] [-f] target [[-l log] [-f] target]...\n"
    "\n"
    "Throughput by position: reads a block device, a file, a pipe or \"-\"\n"
    "(standard input) end to end in blocks and prints, per block, its offset\n"
    "(GiB), MiB/s and seconds, in bonnie++ zcav's gnuplot-ready format.\n"
    "\n"
    "  -b block[:chunk] block timed per line and the size of each read\n"
    "                  (bare numbers are MiB; default 512:1)\n"
    "  -c count        passes; each block's figure is the mean after\n"
    "                  dropping the top and bottom thirds (default 1)\n"
    "  -r [start:]end  only this range (bare numbers are MiB)\n"
    "  -s skip         read one block in skip (default 1: every block)\n"
    "  -l log          the next target's lines go to log, not stdout\n"
    "  -f target       a target (the -f may be left out); several run at\n"
    "                  once, one thread each\n"
    "  -u user[:group] after opening the targets, run as this user (and\n"
    "                  group): logs and the plot are made as that user\n"
    "  -g group        the same for the group alone\n"
    "  --direct        O_DIRECT on files too (devices: the default)\n"
    "  --buffered      through the page cache, devices too (evicted\n"
    "                  before each pass)\n"
    "  --plot FILE     draw the curves with gnuplot (FILE.png or .svg)\n"
    "  -w              write seeded random data instead of reading:\n"
    "                  DESTROYS the target's data; needs\n"
    "                  --destroy-data=TARGET naming the same device or file\n"
    "  --force         with -w: write over a filesystem, RAID or\n"
    "                  partition-table signature\n"
    "  --help          this text;  --version  the version\n"
    "\n"
    "Blocks faster than 0.5 s are commented out (\"#0.50 ++++ 0.412\").\n"
    "Exit status: 0 ok, 1 a run failed, 2 bad usage or a refusal,\n"
    "130/143 stopped by SIGINT/SIGTERM.\n";

enum {
	OPT_DIRECT = 256,
	OPT_BUFFERED,
	OPT_PLOT,
	OPT_DESTROY,
	OPT_FORCE,
	OPT_HELP,
	OPT_VERSION
};

struct opts {
	uint64_t block, chunk, start, end; /* end 0: to the end */
	unsigned loops;
	uint64_t skip;
	int direct; /* -1 default, 0 --buffered, 1 --direct */
	int write;
	int force;
	const char *destroy;
	const char *plot;
	enum plot_format plot_fmt;
	const char *range;  /* -r as given, for messages */
	struct privs privs; /* -u, -g: whom to read as, once targets are open */
};

/* One target and its thread. */
struct target {
	const char *path;
	const char *log; /* NULL: stdout */
	FILE *out;
	int fd;
	int stream; /* pipe or "-": read in order, never seeked */
	int direct;
	unsigned align;
	uint64_t start, end; /* end 0 on a stream: to EOF */
	uint64_t seed;
	/* Results: per block, its offset, bytes and per-pass seconds. */
	uint64_t nblocks, cap;
	uint64_t *offset, *bytes;
	double *secs; /* nblocks x loops */
	/* Outcome. */
	int err; /* errno of the failure, 0 ok */
	char what[256];
	pthread_t thread;
	int started;
	volatile int finished;
};

static const struct opts *opt;
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

/* Only interrupts a blocked read in a worker; the flag is set by main. */
static void on_wake(int sig)
{
	(void)sig;
}

static int bad(const char *o, const char *val, const char *why)
{
	fprintf(stderr, "%s: %s '%s': %s\n", PROG, o, val, why);
	return -1;
}

/* A size as bare MiB or with a suffix, a multiple of 4 KiB. */
static int parse_mib(const char *o, const char *s, uint64_t *out, int zero_ok)
{
	char why[96];

	if (units_parse_size(s, UNITS_MIB, out, why, sizeof(why)))
		return bad(o, s, why);
	if (!zero_ok && *out == 0)
		return bad(o, s, "must be more than 0");
	if (*out % ALIGN)
		return bad(o, s, "must be a multiple of 4 KiB");
	return 0;
}

static int parse_block(const char *arg, struct opts *o)
{
	char buf[128], *colon;

	if (strlen(arg) >= sizeof(buf))
		return bad("-b", arg, "too long");
	strcpy(buf, arg);
	colon = strchr(buf, ':');
	if (colon)
		*colon++ = '\0';
	if (parse_mib("-b", buf, &o->block, 0))
		return -1;
	if (colon && parse_mib("-b", colon, &o->chunk, 0))
		return -1;
	/* A block below the default chunk is read in one piece. */
	if (!colon && o->block < o->chunk)
		o->chunk = o->block;
	if (o->chunk > MAX_CHUNK)
		return bad("-b", arg, "chunk must be at most 256 MiB");
	if (o->chunk > o->block)
		return bad("-b", arg, "chunk must not exceed the block");
	return 0;
}

static int parse_range(const char *arg, struct opts *o)
{
	char buf[128], *colon;

	if (strlen(arg) >= sizeof(buf))
		return bad("-r", arg, "too long");
	strcpy(buf, arg);
	colon = strchr(buf, ':');
	if (colon) {
		*colon++ = '\0';
		if (parse_mib("-r", buf, &o->start, 1) ||
		    parse_mib("-r", colon, &o->end, 0))
			return -1;
	} else if (parse_mib("-r", buf, &o->end, 0)) {
		return -1;
	}
	if (o->end <= o->start)
		return bad("-r", arg, "the end must be past the start");
	return 0;
}

static int parse_uint(const char *o, const char *s, uint64_t min, uint64_t max,
		      uint64_t *out)
{
	char why[96];

	if (units_parse_uint(s, max, out, why, sizeof(why)))
		return bad(o, s, why);
	if (*out < min) {
		snprintf(why, sizeof(why), "must be %llu..%llu",
			 (unsigned long long)min, (unsigned long long)max);
		return bad(o, s, why);
	}
	return 0;
}

/* Parse argv; targets in order, each with the -l before it. Returns
 * the number of targets, 0 after --help/--version, -1 on bad usage. */
static int parse_args(int argc, char **argv, struct opts *o, struct target *t)
{
	static const struct option longs[] = {
	    {"direct", no_argument, NULL, OPT_DIRECT},
	    {"buffered", no_argument, NULL, OPT_BUFFERED},
	    {"plot", required_argument, NULL, OPT_PLOT},
	    {"destroy-data", required_argument, NULL, OPT_DESTROY},
	    {"force", no_argument, NULL, OPT_FORCE},
	    {"help", no_argument, NULL, OPT_HELP},
	    {"version", no_argument, NULL, OPT_VERSION},
	    {NULL, 0, NULL, 0},
	};
	const char *log = NULL;
	int n = 0, c, stdout_users = 0;
	uint64_t v;

	memset(o, 0, sizeof(*o));
	o->block = 512 * UNITS_MIB;
	o->chunk = UNITS_MIB;
	o->loops = 1;
	o->skip = 1;
	o->direct = -1;
	opterr = 0;
	/* "-" first: targets come back in order, as code 1. */
	while ((c = getopt_long(argc, argv, "-:b:c:r:s:l:f:wu:g:", longs,
				NULL)) != -1) {
		switch (c) {
		case 'b':
			if (parse_block(optarg, o))
				return -1;
			break;
		case 'c':
			if (parse_uint("-c", optarg, 1, 1000, &v))
				return -1;
			o->loops = (unsigned)v;
			break;
		case 'r':
			o->range = optarg;
			if (parse_range(optarg, o))
				return -1;
			break;
		case 's':
			if (parse_uint("-s", optarg, 1, 1000000, &o->skip))
				return -1;
			break;
		case 'l':
			if (log)
				return bad("-l", optarg,
					   "two -l without a target between");
			log = optarg;
			break;
		case 'f':
		case 1:
			if (n == MAX_TARGETS)
				return bad("-f", optarg, "at most 64 targets");
			memset(&t[n], 0, sizeof(t[n]));
			t[n].path = optarg;
			t[n].log = log;
			t[n].fd = -1;
			if (!log)
				stdout_users++;
			for (int i = 0; log && i < n; i++)
				if (t[i].log && !strcmp(t[i].log, log))
					return bad("-l", log,
						   "two targets log to one "
						   "file");
			log = NULL;
			n++;
			break;
		case 'w':
			o->write = 1;
			break;
		case 'u':
		case 'g': {
			char why[300];

			if ((c == 'u' ? privs_parse_user : privs_parse_group)(
				optarg, &o->privs, why, sizeof(why))) {
				fprintf(stderr, "%s: -%c %s\n", PROG, c, why);
				return -1;
			}
			break;
		}
		case OPT_DIRECT:
			o->direct = 1;
			break;
		case OPT_BUFFERED:
			o->direct = 0;
			break;
		case OPT_PLOT:
			o->plot = optarg;
			break;
		case OPT_DESTROY:
			o->destroy = optarg;
			break;
		case OPT_FORCE:
			o->force = 1;
			break;
		case OPT_HELP:
			fputs(usage_text, stdout);
			return 0;
		case OPT_VERSION:
			printf("clyde-zcav %s\n", PACKAGE_VERSION);
			return 0;
		case ':':
		default:
			cli_getopt_error(PROG, c, argv);
			return -1;
		}
	}
	if (log)
		return bad("-l", log, "no target after it");
	if (n == 0) {
		fprintf(stderr,
			"%s: no target given (a device, file, pipe "
			"or -)\n",
			PROG);
		return -1;
	}
	if (stdout_users > 1) {
		fprintf(stderr,
			"%s: %d targets write to stdout; give all "
			"but one a -l log\n",
			PROG, stdout_users);
		return -1;
	}
	if ((o->destroy || o->force) && !o->write) {
		fprintf(stderr,
			"%s: --destroy-data and --force only go with "
			"-w (reading needs neither)\n",
			PROG);
		return -1;
	}
	if (o->write && n > 1) {
		fprintf(stderr, "%s: -w: one target at a time\n", PROG);
		return -1;
	}
	if (o->plot) {
		char why[512];

		if (plot_prepare(o->plot, &o->plot_fmt, why, sizeof(why))) {
			fprintf(stderr, "%s: %s\n", PROG, why);
			return -1;
		}
	}
	return n;
}

/* A log or plot file must not be a device: "-l /dev/sdb" would write
 * to it. Anything else the user names is theirs to overwrite. */
static int output_ok(const char *o, const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		return bad(o, path, "is a block device; not written");
	return 0;
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

	if (t->log && output_ok("-l", t->log))
		return -1;
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
			if (errno == EINTR && !stop_signal)
				continue;
			return stop_signal ? -EINTR : -errno;
		}
		if (n == 0) {
			if (opt->write)
				return -ENOSPC;
			break;
		}
		done += (uint64_t)n > len - done ? len - done : (uint64_t)n;
		if (stop_signal)
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
			fflush(t->out);
		}
		pass_bytes += got;
		pass_secs += (double)(t1 - t0) / 1e9;
	}
	if (pass_bytes == 0)
		return fail(t, ENODATA, "nothing to read in", t->start);
	zcav_print_summary(t->out, opt->write ? "Wrote" : "Read", pass_bytes,
			   pass_secs);
	fflush(t->out);
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
	for (unsigned loop = 0; loop < opt->loops && !stop_signal; loop++)
		if (pass(t, loop, buf))
			break;
	if (!t->err && !stop_signal && opt->loops > 1) {
		fputs("#\n", t->out);
		zcav_print_columns(t->out);
		for (uint64_t k = 0; k < t->nblocks; k++)
			zcav_print_block(
			    t->out, t->offset[k], t->bytes[k],
			    zcav_trimmed_mean(t->secs + k * opt->loops,
					      opt->loops));
	}
	if (fflush(t->out) != 0 || ferror(t->out))
		if (!t->err)
			fail(t, errno ? errno : EIO, "writing the lines of", 0);
out:
	free(buf);
	__atomic_store_n(&t->finished, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/* The curves: counted blocks as lines, blocks under 0.5 s as points. */
static int draw(struct target *t, int n)
{
	char *script = NULL, why[512];
	size_t len = 0;
	FILE *f = open_memstream(&script, &len);
	int any = 0, rc;

	if (!f) {
		fprintf(stderr, "%s: --plot: %s\n", PROG, strerror(errno));
		return -1;
	}
	plot_begin(f, opt->plot, opt->plot_fmt, 1000, 600);
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
	if (rc) {
		fprintf(stderr, "%s: --plot '%s': %s\n", PROG, opt->plot, why);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct target t[MAX_TARGETS];
	static struct opts o;
	struct sigaction sa;
	sigset_t stops;
	int n, status = 0;

	n = parse_args(argc, argv, &o, t);
	if (n <= 0)
		return n == 0 ? 0 : EXIT_USAGE;
	opt = &o;
	if (o.plot && output_ok("--plot", o.plot))
		return EXIT_USAGE;
	for (int i = 0; i < n; i++) {
		t[i].seed = rng_fresh_seed() + (uint64_t)i;
		if (open_target(&t[i]))
			return EXIT_USAGE;
	}
	/* Devices are open: the rest (logs, the plot) as the -u user. */
	{
		char why[300];

		if (privs_drop(&o.privs, why, sizeof(why))) {
			fprintf(stderr, "%s: -u/-g: %s\n", PROG, why);
			return EXIT_USAGE;
		}
	}
	for (int i = 0; i < n; i++) {
		t[i].out = stdout;
		if (t[i].log) {
			t[i].out = fopen(t[i].log, "we");
			if (!t[i].out) {
				bad("-l", t[i].log, strerror(errno));
				return EXIT_USAGE;
			}
		}
	}

	/* Stops are taken by main alone (sigtimedwait below); workers are
	 * woken with SIGUSR1, without SA_RESTART, so a read from a pipe that
	 * never delivers still returns. */
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_wake;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	sigaddset(&stops, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &stops, NULL);
	sigdelset(&stops, SIGUSR1);

	for (int i = 0; i < n; i++) {
		int e = pthread_create(&t[i].thread, NULL, run_target, &t[i]);

		if (e) {
			fprintf(stderr,
				"%s: cannot start a thread for %s: %s\n", PROG,
				t[i].path, strerror(e));
			stop_signal = SIGTERM;
			status = 1;
			break;
		}
		t[i].started = 1;
	}
	for (;;) {
		struct timespec tick = {0, 100 * 1000 * 1000};
		int all = 1, sig;

		for (int i = 0; i < n; i++)
			if (t[i].started &&
			    !__atomic_load_n(&t[i].finished, __ATOMIC_SEQ_CST))
				all = 0;
		if (all)
			break;
		sig = sigtimedwait(&stops, NULL, &tick);
		if (sig > 0 && !stop_signal)
			stop_signal = sig;
		if (stop_signal)
			for (int i = 0; i < n; i++)
				if (t[i].started &&
				    !__atomic_load_n(&t[i].finished,
						     __ATOMIC_SEQ_CST))
					pthread_kill(t[i].thread, SIGUSR1);
	}
	for (int i = 0; i < n; i++)
		if (t[i].started)
			pthread_join(t[i].thread, NULL);
	for (int i = 0; i < n; i++) {
		if (t[i].out && t[i].out != stdout && fclose(t[i].out) != 0 &&
		    !t[i].err) {
			t[i].err = errno;
			snprintf(t[i].what, sizeof(t[i].what), "writing %s",
				 t[i].log);
		}
		if (t[i].fd > 0)
			close(t[i].fd);
		if (t[i].err && !(stop_signal && t[i].err == EINTR)) {
			fprintf(stderr, "%s: %s: %s\n", PROG, t[i].what,
				strerror(t[i].err));
			status = 1;
		}
	}
	if (stop_signal)
		return 128 + stop_signal;
	if (!status && o.plot && draw(t, n))
		status = 1;
	for (int i = 0; i < n; i++) {
		free(t[i].offset);
		free(t[i].bytes);
		free(t[i].secs);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: writing stdout: %s\n", PROG,
			strerror(errno));
		status = 1;
	}
	return status;
}
