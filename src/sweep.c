/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clyde-sweep: the dd matrix in one command. For a target (a directory,
 * whose filesystem is measured through a file clyde makes in a private
 * directory there, or a raw block device named twice), every mode
 * (buffered, O_DIRECT) and block size, it writes a fixed amount of
 * seeded random data with fsync inside the timed window, evicts the
 * cache, and reads it back. With --filesystems it does so on the raw
 * device, then makes each filesystem on it, mounts it on a private mount
 * point, runs the same matrix on a file there and unmounts it. The mount
 * is undone on every path out, SIGINT, SIGTERM and SIGHUP included.
 *
 * Those signals are blocked in the working thread and taken, one by one
 * as they arrive, by a thread that only waits for them: a process that
 * is in the kernel (a write held back by writeback, an unmount) when
 * INT, TERM and HUP come in a row would otherwise receive them together,
 * in an order the kernel chooses, and the first one must decide the exit
 * status. The waiter sets a flag, which the I/O loops check after every
 * call, and stops a running mkfs.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_LINUX_FS_H
#include <linux/fs.h>
#endif

#include "cache.h"
#include "cli.h"
#include "clock.h"
#include "dio.h"
#include "fill.h"
#include "guard.h"
#include "mounts.h"
#include "outfile.h"
#include "plot.h"
#include "rng.h"
#include "scratch.h"
#include "sweep.h"
#include "sweep_opts.h"
#include "units.h"

#define PROG	   "clyde-sweep"
#define EXIT_USAGE 2
#define DATA_NAME  "sweep.data"
/* A filesystem needs room of its own: -s at most this share of the
 * device when filesystems are made on it. */
#define FS_SHARE 0.85

/* Everything that must be undone on the way out. */
static struct {
	int dev_fd;		/* the guard's O_EXCL descriptor */
	struct scratch scratch; /* the private directory of a file run */
	char mnt[PATH_MAX];	/* the private mount point, "" if none */
	int mounted;
} live = {-1, {"", -1}, "", 0};

/* A running mkfs (0 if none): stopped by the signal waiter. It is not
 * reaped before this is cleared (under child_lock, which the waiter
 * holds while it signals), so its pid cannot be someone else's. */
static _Atomic pid_t mkfs_child;
static pthread_mutex_t child_lock = PTHREAD_MUTEX_INITIALIZER;

/* The signal that stops the run: the first one received, 0 if none. */
static _Atomic int stop_signal;
static sigset_t stop_set; /* SIGINT, SIGTERM, SIGHUP */

/* The first signal decides the exit status; later ones only repeat
 * the request to stop. Also the handler where they are not blocked. */
static void on_signal(int sig)
{
	int none = 0;
	pid_t child;

	atomic_compare_exchange_strong(&stop_signal, &none, sig);
	child = atomic_load(&mkfs_child);
	if (child > 0)
		kill(child, SIGTERM);
	/* A gnuplot still drawing is stopped, not waited for. */
	plot_signal_cleanup();
}

/* The signal waiter: every stop, in the order they come. */
static void *take_signals(void *unused)
{
	(void)unused;
	for (;;) {
		int sig = sigwaitinfo(&stop_set, NULL);

		if (sig <= 0)
			continue;
		pthread_mutex_lock(&child_lock);
		on_signal(sig);
		pthread_mutex_unlock(&child_lock);
	}
	return NULL;
}

static int bad(const char *o, const char *val, const char *why)
{
	fprintf(stderr, "%s: %s '%s': %s\n", PROG, o, val, why);
	return -1;
}

/* ---- the I/O of one cell ---- */

/* Where a stage's cells write and read. */
struct place {
	int is_dev;
	const char *dev; /* the device path (raw stage) */
	int dirfd;	 /* a file run: the private directory */
	unsigned align;	 /* O_DIRECT alignment */
};

static int set_direct(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1;
	fl = on ? fl | O_DIRECT : fl & ~O_DIRECT;
	return fcntl(fd, F_SETFL, fl);
}

static int cell_fail(char *what, size_t len, const char *call, int err)
{
	snprintf(what, len, "%s: %s", call, strerror(err));
	return -err;
}

/* Write the cell's bytes in bs-sized writes, then fsync; all timed. */
static int cell_write(const struct sweep_opts *o, const struct place *p,
		      int direct, uint64_t bs, unsigned char *buf,
		      struct sweep_cell *c, char *what, size_t wlen)
{
	struct clk_mark a, b;
	int fd, rc = 0;

	if (p->is_dev) {
		fd = live.dev_fd;
		if (set_direct(fd, direct))
			return cell_fail(what, wlen, "O_DIRECT", errno);
	} else {
		/* A fresh file each time, as dd of=FILE makes one. */
		if (unlinkat(p->dirfd, DATA_NAME, 0) && errno != ENOENT)
			return cell_fail(what, wlen, "unlink", errno);
		fd = openat(p->dirfd, DATA_NAME,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				O_CLOEXEC | (direct ? O_DIRECT : 0),
			    0600);
		if (fd < 0)
			return cell_fail(what, wlen, "create", errno);
	}
	clk_mark(&a);
	for (uint64_t off = 0; off < o->size && !rc;) {
		ssize_t n;

		fill_stamp(buf, (size_t)bs, off, o->seed);
		n = pwrite(fd, buf, (size_t)bs, (off_t)off);
		if (n < 0 && errno == EINTR && !stop_signal)
			continue;
		if (n < 0)
			rc = stop_signal
				 ? -EINTR
				 : cell_fail(what, wlen, "write", errno);
		else if (n == 0)
			rc = cell_fail(what, wlen, "write", ENOSPC);
		else
			off += (uint64_t)n;
		if (stop_signal)
			rc = -EINTR;
	}
	if (!rc && fsync(fd) != 0)
		rc = stop_signal ? -EINTR
				 : cell_fail(what, wlen, "fsync", errno);
	clk_mark(&b);
	if (!p->is_dev)
		close(fd);
	if (rc)
		return rc;
	c->done = 1;
	c->bytes = o->size;
	c->seconds = clk_elapsed(&a, &b);
	c->cpu = clk_cpu(&a, &b);
	return 0;
}

/* Evict what the write left cached, then read it back, timed. */
static int cell_read(const struct sweep_opts *o, const struct place *p,
		     int direct, uint64_t bs, unsigned char *buf,
		     struct sweep_cell *c, char *what, size_t wlen)
{
	struct clk_mark a, b;
	int fd, rc = 0;

	/* Read-only work opens read-only. */
	if (p->is_dev)
		fd = open(p->dev, O_RDONLY | O_CLOEXEC);
	else
		fd = openat(p->dirfd, DATA_NAME,
			    O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return cell_fail(what, wlen, "open", errno);
	if (p->is_dev) {
		/* The device's own cache: written back by the write's
		 * fsync; dropped here. */
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
#ifdef BLKFLSBUF
		ioctl(fd, BLKFLSBUF, 0);
#endif
	} else if ((rc = cache_evict_fd(fd)) != 0) {
		close(fd);
		return cell_fail(what, wlen, "evicting the cache", -rc);
	}
	if (direct && set_direct(fd, 1)) {
		rc = cell_fail(what, wlen, "O_DIRECT", errno);
		close(fd);
		return rc;
	}
	clk_mark(&a);
	for (uint64_t off = 0; off < o->size && !rc;) {
		ssize_t n = pread(fd, buf, (size_t)bs, (off_t)off);

		if (n < 0 && errno == EINTR && !stop_signal)
			continue;
		if (n < 0)
			rc = stop_signal ? -EINTR
					 : cell_fail(what, wlen, "read", errno);
		else if (n == 0)
			rc = cell_fail(what, wlen, "read", ENODATA);
		else
			off += (uint64_t)n;
		if (stop_signal)
			rc = -EINTR;
	}
	clk_mark(&b);
	close(fd);
	if (rc)
		return rc;
	c->done = 1;
	c->bytes = o->size;
	c->seconds = clk_elapsed(&a, &b);
	c->cpu = clk_cpu(&a, &b);
	return 0;
}

/* The whole matrix on one place. Returns 0 or -errno (what[] set). */
static int run_matrix(const struct sweep_opts *o, const struct place *p,
		      struct sweep_stage *st, unsigned char *buf, char *what,
		      size_t wlen)
{
	for (int m = 0; m < SWEEP_MODES; m++) {
		for (unsigned b = 0; b < o->nbs; b++) {
			char bs[32];
			int rc;

			sweep_fmt_bs(bs, sizeof(bs), o->bs[b]);
			for (int op = 0; op < SWEEP_OPS; op++) {
				struct sweep_cell *c = &st->cell[m][b][op];

				rc = op == SWEEP_WRITE
					 ? cell_write(o, p, m, o->bs[b], buf, c,
						      what, wlen)
					 : cell_read(o, p, m, o->bs[b], buf, c,
						     what, wlen);
				if (rc) {
					char tmp[256];

					snprintf(tmp, sizeof(tmp), "%.200s",
						 what);
					snprintf(what, wlen, "%s: %s %s %s: %s",
						 st->label, sweep_mode_name(m),
						 bs, sweep_op_name(op), tmp);
					return rc;
				}
				fprintf(stderr,
					"%s: %s: %s %s %s: %.1f MB/s, %d%% "
					"CPU, %.2f s\n",
					PROG, st->label, sweep_mode_name(m), bs,
					sweep_op_name(op), sweep_mb_s(c),
					sweep_pcp(c), c->seconds);
			}
		}
	}
	return 0;
}

/* ---- filesystems: make, mount, unmount ---- */

/* Run argv, its stderr kept for the message. Returns 0 or -1. */
static int run_cmd(const char *const *argv, char *what, size_t wlen)
{
	/* stderr of the child into an anonymous memory file. */
	int err_fd = memfd_create("clyde-sweep-mkfs", MFD_CLOEXEC), status = 0;
	siginfo_t info;
	pid_t child = fork();

	if (child < 0) {
		snprintf(what, wlen, "fork: %s", strerror(errno));
		if (err_fd >= 0)
			close(err_fd);
		return -1;
	}
	if (child == 0) {
		int null = open("/dev/null", O_RDWR);

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		sigprocmask(SIG_UNBLOCK, &stop_set, NULL);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
		}
		if (err_fd >= 0)
			dup2(err_fd, 2);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	/* A stop for us is a stop for mkfs too: the waiter stops it from
	 * now on, and a stop that came before is passed on here. */
	atomic_store(&mkfs_child, child);
	if (stop_signal)
		kill(child, SIGTERM);
	/* Waited for without reaping, so the pid stays its own until the
	 * waiter can no longer signal it. */
	while (waitid(P_PID, (id_t)child, &info, WEXITED | WNOWAIT) != 0 &&
	       errno == EINTR)
		;
	pthread_mutex_lock(&child_lock);
	atomic_store(&mkfs_child, 0);
	pthread_mutex_unlock(&child_lock);
	if (waitpid(child, &status, 0) < 0) {
		snprintf(what, wlen, "waitpid: %s", strerror(errno));
		if (err_fd >= 0)
			close(err_fd);
		return -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		if (err_fd >= 0)
			close(err_fd);
		return 0;
	}
	{
		char msg[256] = "";
		ssize_t n =
		    err_fd >= 0 ? pread(err_fd, msg, sizeof(msg) - 1, 0) : -1;
		char *nl;

		if (n > 0) {
			msg[n] = '\0';
			nl = strchr(msg, '\n');
			if (nl)
				*nl = '\0';
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			snprintf(what, wlen, "%s: cannot run it", argv[0]);
		else
			snprintf(what, wlen, "%s failed%s%s", argv[0],
				 n > 0 ? ": " : "", n > 0 ? msg : "");
	}
	if (err_fd >= 0)
		close(err_fd);
	return -1;
}

static int make_fs(const struct sweep_fs_kind *k, const char *dev, char *what,
		   size_t wlen)
{
	const char *argv[8];
	int n = 0;

	argv[n++] = k->mkfs;
	for (int i = 0; i < 4 && k->args[i]; i++)
		argv[n++] = k->args[i];
	argv[n++] = dev;
	argv[n] = NULL;
	return run_cmd(argv, what, wlen);
}

/*
 * Unmount the private mount point and remove it. 0, or -1 after printing
 * each thing that could not be undone: what is left, and why.
 */
static int unmount_private(void)
{
	int rc = 0;

	if (live.mounted) {
		int tries = 0;

		/* Something may still hold it briefly (writeback). */
		while (umount2(live.mnt, 0) != 0) {
			int e = errno;

			if (e == EBUSY && ++tries < 50) {
				usleep(100 * 1000);
				continue;
			}
			if (umount2(live.mnt, MNT_DETACH) != 0) {
				fprintf(stderr,
					"%s: cannot unmount %s: %s; it is "
					"left mounted\n",
					PROG, live.mnt, strerror(e));
				/* Nothing more to try: not again. */
				live.mounted = 0;
				live.mnt[0] = '\0';
				return -1;
			}
			fprintf(stderr,
				"%s: cannot unmount %s: %s; detached it "
				"(unmounted when no longer busy)\n",
				PROG, live.mnt, strerror(e));
			rc = -1;
			break;
		}
		live.mounted = 0;
	}
	if (live.mnt[0]) {
		if (rmdir(live.mnt) != 0) {
			fprintf(stderr,
				"%s: cannot remove the mount point %s: %s\n",
				PROG, live.mnt, strerror(errno));
			rc = -1;
		}
		live.mnt[0] = '\0';
	}
	return rc;
}

/*
 * Remove the private directory: the data file, then the directory.
 * 0, or -1 after naming what is left and why.
 */
static int remove_scratch(void)
{
	char why[PATH_MAX + 64];

	if (!live.scratch.path[0])
		return 0;
	if (scratch_remove_why(&live.scratch, why, sizeof(why)) == 0)
		return 0;
	fprintf(stderr, "%s: cannot remove %s: %s\n", PROG,
		live.scratch.path, why);
	/* Said once: a later cleanup does not try again behind the
	 * message's back. */
	if (live.scratch.dirfd >= 0)
		close(live.scratch.dirfd);
	live.scratch.dirfd = -1;
	live.scratch.path[0] = '\0';
	return -1;
}

/*
 * Undo everything: the scratch directory, the mount, the mount point,
 * the device. Returns 0, or -1 after printing what could not be undone.
 */
static int cleanup(void)
{
	int rc = 0;

	if (remove_scratch())
		rc = -1;
	if (unmount_private())
		rc = -1;
	if (live.dev_fd >= 0) {
		close(live.dev_fd);
		live.dev_fd = -1;
	}
	return rc;
}

/* A private mount namespace: the filesystems clyde mounts are seen by
 * no one else and cannot outlive it even if it is killed. Where that is
 * not allowed, mounts are made in the shared namespace and removed as
 * usual. The namespace starts as a copy of every mount; as a slave of
 * them, not a private copy, an umount made outside reaches it too, so a
 * filesystem someone else unmounts while the sweep runs is let go at
 * once instead of staying pinned (its device busy) until the sweep ends.
 * (Only mounts that are shared propagate, as systemd makes them; where
 * none are, slave and private are the same.) */
static void private_mounts(void)
{
	if (unshare(CLONE_NEWNS) != 0)
		return;
	mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL);
}

static int mount_private(const struct sweep_fs_kind *k, const char *dev,
			 char *what, size_t wlen)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(live.mnt, sizeof(live.mnt), "%s/clyde-sweep.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(live.mnt)) {
		snprintf(what, wlen, "mkdtemp %s: %s", live.mnt,
			 strerror(errno));
		live.mnt[0] = '\0';
		return -1;
	}
	if (mount(dev, live.mnt, k->name, 0, NULL) != 0) {
		snprintf(what, wlen, "mount %s (%s) on %s: %s", dev, k->name,
			 live.mnt, strerror(errno));
		return -1;
	}
	live.mounted = 1;
	return 0;
}

/* ---- the plot ---- */

static void plot_block(FILE *f, const char *name, const struct sweep_opts *o,
		       const struct sweep_result *r, int op)
{
	fprintf(f, "$%s << EOD\n", name);
	for (int m = 0; m < SWEEP_MODES; m++)
		for (unsigned b = 0; b < o->nbs; b++) {
			char bs[32];

			sweep_fmt_bs(bs, sizeof(bs), o->bs[b]);
			fprintf(f, "\"%s %s\"", sweep_mode_name(m), bs);
			for (unsigned s = 0; s < r->nstages; s++) {
				const struct sweep_cell *c =
				    &r->stage[s].cell[m][b][op];

				if (c->done)
					fprintf(f, " %.2f", sweep_mb_s(c));
				else
					fputs(" ?", f);
			}
			fputc('\n', f);
		}
	fputs("EOD\n", f);
}

/* The chart into out, the temporary name of --plot's file. */
static int draw(const struct sweep_opts *o, const struct sweep_result *r,
		const char *out)
{
	char *script = NULL, why[512], size[32];
	size_t len = 0;
	FILE *f = open_memstream(&script, &len);
	unsigned fast = 0;
	int rc;

	if (!f) {
		fprintf(stderr, "%s: --plot '%s': %s\n", PROG, o->plot,
			strerror(errno));
		return -1;
	}
	for (unsigned s = 0; s < r->nstages; s++)
		for (int m = 0; m < SWEEP_MODES; m++)
			for (unsigned b = 0; b < o->nbs; b++)
				for (int op = 0; op < SWEEP_OPS; op++) {
					const struct sweep_cell *c =
					    &r->stage[s].cell[m][b][op];

					fast +=
					    c->done && clk_too_fast(c->seconds);
				}
	units_fmt_size(size, sizeof(size), r->size);
	plot_begin(f, out, o->plot_fmt, 1100, 850);
	plot_block(f, "w", o, r, SWEEP_WRITE);
	plot_block(f, "r", o, r, SWEEP_READ);
	fputs("set datafile missing '?'\n"
	      "set style data histograms\n"
	      "set style histogram clustered gap 1\n"
	      "set style fill solid 0.85 border -1\n"
	      "set ylabel 'MB/s (10^6 bytes/s)'\n"
	      "set yrange [0:*]\nset grid ytics\n"
	      "set key outside right top\nset xtics nomirror\n",
	      f);
	fputs("set multiplot layout 2,1 title ", f);
	{
		char title[512];

		snprintf(title, sizeof(title), "clyde-sweep: %s, %s per cell%s",
			 o->target, size,
			 fast ? " (some cells under 0.5 s: see the table)"
			      : "");
		plot_quote(f, title);
	}
	fputc('\n', f);
	for (int op = 0; op < SWEEP_OPS; op++) {
		fprintf(f, "set title '%s'\nplot",
			op == SWEEP_WRITE ? "write (fsync included)"
					  : "read (cache evicted first)");
		for (unsigned s = 0; s < r->nstages; s++) {
			fprintf(f, "%s $%c using %u%s title ", s ? "," : "",
				op == SWEEP_WRITE ? 'w' : 'r', s + 2,
				s ? "" : ":xtic(1)");
			plot_quote(f, r->stage[s].label);
		}
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
	if (fclose(f) != 0) {
		free(script);
		fprintf(stderr, "%s: --plot '%s': %s\n", PROG, o->plot,
			strerror(errno));
		return -1;
	}
	rc = plot_run(script, len, why, sizeof(why));
	free(script);
	if (rc && !stop_signal) {
		fprintf(stderr, "%s: --plot '%s': %s\n", PROG, o->plot, why);
		return -1;
	}
	return 0;
}

/* ---- checks before anything is written ---- */

/* Is name an executable on PATH (or a path to one)? */
static int have_program(const char *name)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (!path)
		path = "/usr/sbin:/usr/bin:/sbin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, name);
		if (n && access(buf, X_OK) == 0)
			return 1;
		path += n;
		if (*path)
			path++;
	}
	/* mkfs.* live in sbin, which a user's PATH may lack. */
	for (const char *const *d =
		 (const char *const[]){"/usr/sbin", "/sbin", NULL};
	     *d; d++) {
		snprintf(buf, sizeof(buf), "%s/%s", *d, name);
		if (access(buf, X_OK) == 0)
			return 1;
	}
	return 0;
}

static void stage_names(struct sweep_stage *st, const char *label,
			const char *fs, const char *target)
{
	/* A long filesystem type is cut to fit. */
	snprintf(st->label, sizeof(st->label), "%.*s",
		 (int)sizeof(st->label) - 1, label);
	snprintf(st->fs, sizeof(st->fs), "%.*s", (int)sizeof(st->fs) - 1, fs);
	snprintf(st->target, sizeof(st->target), "%s", target);
}

/* The O_DIRECT alignment of the file just made in the private dir. */
static int file_alignment(struct place *p, const struct sweep_opts *o,
			  char *what, size_t wlen)
{
	struct dio_align a;
	int fd =
	    openat(p->dirfd, DATA_NAME,
		   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0) {
		snprintf(what, wlen, "create %s/%s: %s", live.scratch.path,
			 DATA_NAME, strerror(errno));
		return -1;
	}
	close(fd);
	dio_alignment(p->dirfd, DATA_NAME, &a);
	fd = a.refused ? -1
		       : openat(p->dirfd, DATA_NAME,
				O_WRONLY | O_DIRECT | O_NOFOLLOW | O_CLOEXEC);
	unlinkat(p->dirfd, DATA_NAME, 0);
	if (fd < 0) {
		snprintf(what, wlen, "%s does not take O_DIRECT: %s",
			 live.scratch.path,
			 a.refused ? "statx says so" : strerror(errno));
		return -1;
	}
	close(fd);
	p->align = a.offset;
	/* The buffer is 4k-aligned. */
	if (4096 % a.mem) {
		snprintf(what, wlen,
			 "O_DIRECT on %s needs %u-byte memory alignment "
			 "(from %s)",
			 live.scratch.path, a.mem, a.source);
		return -1;
	}
	for (unsigned i = 0; i < o->nbs; i++)
		if (o->bs[i] % p->align) {
			char bs[32];

			sweep_fmt_bs(bs, sizeof(bs), o->bs[i]);
			snprintf(what, wlen,
				 "-B '%s': O_DIRECT on %s needs %u-byte "
				 "alignment (from %s)",
				 bs, live.scratch.path, p->align, a.source);
			return -1;
		}
	return 0;
}

/* A file run in dir: the private directory, room, O_DIRECT. Refusals
 * return -1 with what[] set. */
static int file_place(const struct sweep_opts *o, const char *dir,
		      struct place *p, char *what, size_t wlen)
{
	struct statvfs vfs;
	char b[32];
	int rc = scratch_create(&live.scratch, dir);

	if (rc) {
		snprintf(what, wlen,
			 "cannot make a private directory in %s: "
			 "%s",
			 dir, strerror(-rc));
		live.scratch.path[0] = '\0';
		return -1;
	}
	memset(p, 0, sizeof(*p));
	p->dirfd = live.scratch.dirfd;
	if (fstatvfs(p->dirfd, &vfs) == 0 && vfs.f_blocks &&
	    (uint64_t)vfs.f_bavail * vfs.f_frsize < o->size + 16 * UNITS_MIB) {
		units_fmt_size(b, sizeof(b),
			       (uint64_t)vfs.f_bavail * vfs.f_frsize);
		snprintf(what, wlen, "-s '%s': only %s free in %s", o->size_arg,
			 b, dir);
		return -1;
	}
	return file_alignment(p, o, what, wlen);
}

static int check_device(const struct sweep_opts *o, uint64_t *dev_size)
{
	char why[1024], b[32];
	struct guard_req r = {o->target, o->destroy, o->force, 0, 0};
	int ssz = 0;

	live.dev_fd = guard_open_write(&r, why, sizeof(why));
	if (live.dev_fd < 0) {
		fprintf(stderr, "%s: %s\n", PROG, why);
		return -1;
	}
	*dev_size = guard_size(live.dev_fd);
	if (o->size > *dev_size ||
	    (o->nfs && (o->fs[0]->mkfs || o->nfs > 1) &&
	     (double)o->size > FS_SHARE * (double)*dev_size)) {
		units_fmt_size(b, sizeof(b), *dev_size);
		fprintf(stderr, "%s: -s '%s': %s holds %s%s\n", PROG,
			o->size_arg, o->target, b,
			o->size > *dev_size
			    ? ""
			    : "; leave the filesystems room (at most 85%)");
		return -1;
	}
#ifdef BLKSSZGET
	/* Block sizes are multiples of 4k; a larger sector needs more. */
	if (ioctl(live.dev_fd, BLKSSZGET, &ssz) == 0 && ssz > 4096)
		for (unsigned i = 0; i < o->nbs; i++)
			if (o->bs[i] % (unsigned)ssz) {
				char bs[32];

				sweep_fmt_bs(bs, sizeof(bs), o->bs[i]);
				fprintf(stderr,
					"%s: -B '%s': %s has %d-byte sectors; "
					"O_DIRECT needs block sizes that are "
					"multiples of it\n",
					PROG, bs, o->target, ssz);
				return -1;
			}
#endif
	return 0;
}

/* Did any cell run? */
static int any_done(const struct sweep_result *r)
{
	for (unsigned s = 0; s < r->nstages; s++)
		for (int m = 0; m < SWEEP_MODES; m++)
			for (unsigned b = 0; b < r->nbs; b++)
				for (int op = 0; op < SWEEP_OPS; op++)
					if (r->stage[s].cell[m][b][op].done)
						return 1;
	return 0;
}

/*
 * SIGINT, SIGTERM and SIGHUP: blocked here (and in every thread made
 * later) and taken by the waiter. The handler stays the disposition: a
 * signal ignored (a background job's SIGINT) would be discarded rather
 * than waited for, and it takes them where they are not blocked (no
 * waiter thread, or while gnuplot runs).
 */
static void catch_signals(void)
{
	struct sigaction sa;
	pthread_t t;

	sigemptyset(&stop_set);
	sigaddset(&stop_set, SIGINT);
	sigaddset(&stop_set, SIGTERM);
	sigaddset(&stop_set, SIGHUP);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* One handler at a time. */
	sa.sa_mask = stop_set;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGXFSZ, SIG_IGN);
	pthread_sigmask(SIG_BLOCK, &stop_set, NULL);
	if (pthread_create(&t, NULL, take_signals, NULL) != 0) {
		pthread_sigmask(SIG_UNBLOCK, &stop_set, NULL);
		return;
	}
	pthread_detach(t);
}

/*
 * The target: a directory, or a block device with the options that go
 * with one; mkfs and root for the filesystems asked for. 0, or -1 after
 * one line naming the value at fault.
 */
static int check_target(struct sweep_opts *o, int *is_dev)
{
	char why[PATH_MAX + 128];
	struct stat st;

	if (stat(o->target, &st) != 0)
		return bad("target", o->target, strerror(errno));
	*is_dev = S_ISBLK(st.st_mode);
	if (!*is_dev && !S_ISDIR(st.st_mode))
		return bad("target", o->target,
			   "not a directory or block device (clyde-sweep "
			   "writes its own file in a directory it is given)");
	if (!*is_dev && (o->destroy || o->fs_arg)) {
		snprintf(why, sizeof(why),
			 "goes with a block device target; '%s' is a "
			 "directory, which needs neither",
			 o->target);
		return o->destroy ? bad("--destroy-data", o->destroy, why)
				  : bad("--filesystems", o->fs_arg, why);
	}
	if (*is_dev && o->nfs == 0) {
		o->fs[0] = &sweep_fs_kinds[0];
		o->nfs = 1;
	}
	for (unsigned i = 0; *is_dev && i < o->nfs; i++) {
		if (!o->fs[i]->mkfs)
			continue;
		if (geteuid() != 0)
			return bad("--filesystems", o->fs[i]->name,
				   "making and mounting filesystems needs "
				   "root");
		if (!have_program(o->fs[i]->mkfs)) {
			snprintf(why, sizeof(why),
				 "%s not found (Debian: apt-get install %s)",
				 o->fs[i]->mkfs, o->fs[i]->package);
			return bad("--filesystems", o->fs[i]->name, why);
		}
	}
	return 0;
}

/* The header line and the one stage of a directory run. */
static void describe_dir(struct sweep_opts *o, struct sweep_result *r)
{
	struct mounts_entry e;
	char real[PATH_MAX];
	FILE *mi = mounts_open();
	int found = 0;

	if (mi && realpath(o->target, real))
		found = mounts_find_path(mi, real, &e);
	if (mi)
		fclose(mi);
	snprintf(r->what, sizeof(r->what),
		 "clyde-sweep %s: %.150s (%.40s on %.100s)", PACKAGE_VERSION,
		 o->target, found ? e.fstype : "?", found ? e.source : "?");
	o->fs[0] = NULL;
	o->nfs = 1;
	stage_names(&r->stage[0], found ? e.fstype : "file",
		    found ? e.fstype : "?", o->target);
}

/*
 * Make stage s's place: the private directory, the raw device taken
 * back, or a filesystem made and mounted. 0, or the exit status after
 * the message (none when a signal stopped it).
 */
static int stage_place(const struct sweep_opts *o, unsigned s, int is_dev,
		       struct sweep_stage *stage, struct place *p)
{
	char what[PATH_MAX + 512];

	memset(p, 0, sizeof(*p));
	if (!is_dev) {
		if (file_place(o, o->target, p, what, sizeof(what))) {
			fprintf(stderr, "%s: %s\n", PROG, what);
			return EXIT_USAGE;
		}
		return 0;
	}
	if (!o->fs[s]->mkfs) {
		stage_names(stage, "raw device", "raw", o->target);
		p->is_dev = 1;
		p->dev = o->target;
		if (live.dev_fd < 0) {
			/* After a filesystem: take the device back. */
			struct guard_req g = {o->target, o->destroy, 1, 0, 0};

			live.dev_fd = guard_open_write(&g, what, sizeof(what));
			if (live.dev_fd < 0) {
				fprintf(stderr, "%s: %s\n", PROG, what);
				return 1;
			}
		}
		return 0;
	}
	stage_names(stage, o->fs[s]->name, o->fs[s]->name, o->target);
	/* mkfs wants the device to itself. */
	if (live.dev_fd >= 0) {
		close(live.dev_fd);
		live.dev_fd = -1;
	}
	fprintf(stderr, "%s: making %s on %s\n", PROG, o->fs[s]->name,
		o->target);
	if (make_fs(o->fs[s], o->target, what, sizeof(what)) || stop_signal) {
		if (stop_signal)
			return 0;
		fprintf(stderr, "%s: %s\n", PROG, what);
		return 1;
	}
	if (mount_private(o->fs[s], o->target, what, sizeof(what))) {
		fprintf(stderr, "%s: %s\n", PROG, what);
		return 1;
	}
	if (file_place(o, live.mnt, p, what, sizeof(what))) {
		fprintf(stderr, "%s: %s on %s\n", PROG, what, o->fs[s]->name);
		return EXIT_USAGE;
	}
	return 0;
}

/* Every stage in turn, each undone after it. The exit status so far. */
static int run_stages(const struct sweep_opts *o, struct sweep_result *r,
		      int is_dev, unsigned char *buf)
{
	char what[PATH_MAX + 512];
	int status = 0;

	for (unsigned s = 0; s < o->nfs && !stop_signal && !status; s++) {
		struct sweep_stage *stage = &r->stage[s];
		struct place p;

		r->nstages = s + 1;
		status = stage_place(o, s, is_dev, stage, &p);
		if (status || stop_signal)
			break;
		if (run_matrix(o, &p, stage, buf, what, sizeof(what)) &&
		    !stop_signal) {
			fprintf(stderr, "%s: %s\n", PROG, what);
			status = 1;
		}
		if (!is_dev || o->fs[s]->mkfs) {
			if (remove_scratch())
				status = 1;
			if (unmount_private())
				status = 1;
		}
	}
	return status;
}

/*
 * The table and the CSV, written to standard output in one piece so a
 * failed write is seen with its errno. 0, or cli_stdout_failed()'s
 * status (CLI_EXIT_PIPE, silently, for a closed pipe).
 */
static int print_results(const struct sweep_opts *o,
			 const struct sweep_result *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m) {
		fprintf(stderr, "%s: %s\n", PROG, strerror(errno));
		return 1;
	}
	sweep_print_table(o->quiet ? stderr : m, r);
	sweep_print_csv(m, r);
	if (fclose(m) != 0) {
		free(text);
		fprintf(stderr, "%s: %s\n", PROG, strerror(errno));
		return 1;
	}
	if (len && fwrite(text, 1, len, stdout) != len) {
		int e = errno;

		free(text);
		return cli_stdout_failed(PROG, e);
	}
	free(text);
	return cli_stdout_close(PROG);
}

/* The plot's file: made before the first cell, renamed when drawn. */
static struct outfile plot_of;

/* Draw the plot into its temporary file and rename it. 0, or 1. */
static int finish_plot(const struct sweep_opts *o, const struct sweep_result *r)
{
	int rc;

	/* gnuplot starts with the stop signals as they were; meanwhile
	 * the handler takes them here too. */
	pthread_sigmask(SIG_UNBLOCK, &stop_set, NULL);
	rc = draw(o, r, plot_of.tmp);
	pthread_sigmask(SIG_BLOCK, &stop_set, NULL);
	if (rc || stop_signal) {
		outfile_abort(&plot_of);
		return 1;
	}
	rc = outfile_commit(&plot_of);
	if (rc) {
		fprintf(stderr, "%s: --plot '%s': %s\n", PROG, o->plot,
			strerror(-rc));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct sweep_opts o;
	static struct sweep_result r;
	unsigned char *buf = NULL;
	char why[PATH_MAX + 128];
	uint64_t dev_size = 0, maxbs = 0;
	int status = 0, is_dev = 0;

	cli_ignore_sigpipe();
	switch (sweep_opts_parse(argc, argv, &o, stdout, stderr)) {
	case SWEEP_OPTS_RUN:
		break;
	case SWEEP_OPTS_DONE:
		return cli_stdout_close(PROG);
	default:
		return EXIT_USAGE;
	}
	if (!o.seed_set)
		o.seed = rng_fresh_seed();
	catch_signals();
	if (check_target(&o, &is_dev))
		return EXIT_USAGE;
	for (unsigned i = 0; i < o.nbs; i++)
		if (o.bs[i] > maxbs)
			maxbs = o.bs[i];
	if (posix_memalign((void **)&buf, 4096, (size_t)maxbs) != 0) {
		fprintf(stderr, "%s: out of memory for a %llu-byte buffer\n",
			PROG, (unsigned long long)maxbs);
		return 1;
	}
	fill_random(buf, (size_t)maxbs, o.seed);

	r.size = o.size;
	r.nbs = o.nbs;
	memcpy(r.bs, o.bs, sizeof(o.bs));
	if (is_dev) {
		char devsz[32];

		if (check_device(&o, &dev_size)) {
			cleanup();
			free(buf);
			return EXIT_USAGE;
		}
		units_fmt_size(devsz, sizeof(devsz), dev_size);
		snprintf(r.what, sizeof(r.what), "clyde-sweep %s: %.200s (%s)",
			 PACKAGE_VERSION, o.target, devsz);
	} else {
		describe_dir(&o, &r);
	}
	/* The plot's file exists (as a temporary name beside it) before
	 * the first cell, so a path that cannot be written costs nothing. */
	if (o.plot && outfile_open(&plot_of, o.plot, why, sizeof(why))) {
		fprintf(stderr, "%s: --plot %s\n", PROG, why);
		cleanup();
		free(buf);
		return EXIT_USAGE;
	}
	if (is_dev && (o.nfs > 1 || o.fs[0]->mkfs))
		private_mounts();

	status = run_stages(&o, &r, is_dev, buf);
	if (cleanup())
		status = 1;
	free(buf);
	/* After a failed stage the cells that ran are still measurements:
	 * they are printed (the rest blank), but not plotted. */
	if (!stop_signal && status != EXIT_USAGE && (!status || any_done(&r))) {
		int out = print_results(&o, &r);

		if (out)
			status = out;
	}
	if (!stop_signal && !status && o.plot)
		status = finish_plot(&o, &r);
	outfile_abort(&plot_of);
	if (stop_signal)
		return 128 + stop_signal;
	return status;
}
