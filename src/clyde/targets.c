/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * targets: see targets.h. The room rule (check_space) is bonnie++'s
 * need made exact: every data file and file set the run makes on a
 * filesystem must fit in its f_bavail at once, since the data file
 * stays while the file tests run.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "autosize.h"
#include "cli.h"
#include "mpirank.h"
#include "plan.h"
#include "runner.h"
#include "target.h"
#include "targets.h"
#include "text.h"
#include "units.h"

#define shown text_shown

/*
 * A size for a message, in the largest of K, M, G, T it reaches: rounded
 * up for what is needed (up), down for what is free, so "needs 1G, only
 * 1G free" cannot happen.
 */
static void fmt_bytes(char *buf, size_t len, uint64_t v, int up)
{
	static const char units[] = "KMGT";
	uint64_t unit = 1024;
	int i = 0;

	while (i < 3 && v >= unit * 1024) {
		unit *= 1024;
		i++;
	}
	snprintf(buf, len, "%llu%c",
		 (unsigned long long)((v + (up ? unit - 1 : 0)) / unit),
		 units[i]);
}

/*
 * How a message names the file tests: -n as given ("-n 4" and "the file
 * tests"), else what clyde counted ("no -n given" and "the file tests
 * clyde sized (at most -n 1, 1024 files)"), never a -n the user did not
 * give.
 */
struct files_said {
	char cause[1040]; /* "-n 4", "no -n given" */
	char tests[96];	  /* "the file tests", "the file tests clyde ..." */
};

static void files_say(const struct run_plan *rp, struct files_said *f)
{
	const struct clyde_opts *o = rp->opt;
	unsigned long long n = (unsigned long long)rp->files_num;
	char a[1024];

	if (o->files_arg) {
		snprintf(f->cause, sizeof(f->cause), "-n %s",
			 shown(o->files_arg, a, sizeof(a)));
		snprintf(f->tests, sizeof(f->tests), "the file tests");
		return;
	}
	snprintf(f->cause, sizeof(f->cause), "no -n given");
	if (rp->sized && rp->sized->files)
		snprintf(f->tests, sizeof(f->tests),
			 "the file tests clyde sized (at most -n %llu, %llu "
			 "files)",
			 n, n * 1024);
	else /* under mpirun nothing is sized: bonnie++'s default */
		snprintf(f->tests, sizeof(f->tests),
			 "the default file tests (%llu files)", n * 1024);
}

/*
 * The room the file tests take, by this rule: each file its largest
 * size rounded up to a block of the filesystem (a symbolic link one
 * block, a hard link nothing), plus 64 bytes of directory entry; one
 * block per subdirectory, the test directory and the link target. And
 * one inode per file (one in all for hard links) and per directory.
 */
static void files_need(const struct run_plan *rp, uint64_t block,
		       unsigned copies, uint64_t *bytes, uint64_t *inodes)
{
	const struct clyde_opts *o = rp->opt;
	/* -c N (and several targets on one filesystem): a file set each. */
	uint64_t count = rp->files_num * 1024 * copies, each = 0, dirs;

	*bytes = *inodes = 0;
	if (!count)
		return;
	if (o->files_max > 0)
		each = ((uint64_t)o->files_max + block - 1) / block * block;
	else if (o->files_max == -2)
		each = block;
	/* Per copy; more than one adds each copy's directory. */
	dirs = (o->files_dirs + 2) * copies + (copies > 1 ? copies : 0);
	*bytes = count * (each + 64) + dirs * block;
	*inodes = (o->files_max == -1 ? copies : count) + dirs;
}

/* Half of avail, in whole MiB (a multiple of any chunk): a -s to offer. */
static void suggest_size(char *buf, size_t len, uint64_t avail)
{
	uint64_t half = avail / 2 / UNITS_MIB * UNITS_MIB;

	if (half)
		units_fmt_size(buf, len, half);
	else
		snprintf(buf, len, "0");
}

/* " besides the file tests and sync_write's file", and the like: what
 * else takes room (with: " with ..."), in buf. own_by names the test
 * whose file of its own is the largest (runner_room). */
static const char *others(char *buf, size_t len, uint64_t fbytes, uint64_t own,
			  const char *own_by, int with)
{
	if (!fbytes && !own)
		return "";
	snprintf(buf, len, "%s%s%s%s%s", with ? " with " : " besides ",
		 fbytes ? "the file tests" : "", fbytes && own ? " and " : "",
		 own ? own_by : "", own ? "'s file" : "");
	return buf;
}

/* The data size of rp does not fit in avail (left for the data file,
 * besides fbytes for the file tests and own for own_by's file). */
static void say_no_room(const struct run_plan *rp, const char *dir,
			uint64_t avail, uint64_t left, uint64_t fbytes,
			uint64_t own, const char *own_by)
{
	const struct clyde_opts *o = rp->opt;
	char a[32], b[32], c[32], f[32], w[32], d[PATH_MAX * 4 + 1], n[1024];
	char more[128];
	struct files_said fs;

	shown(dir, d, sizeof(d));
	files_say(rp, &fs);
	units_fmt_size(a, sizeof(a), rp->size);
	fmt_bytes(b, sizeof(b), avail, 0);
	suggest_size(c, sizeof(c), left);
	fmt_bytes(f, sizeof(f), fbytes, 1);
	fmt_bytes(w, sizeof(w), own, 1);
	if (!o->size_set && !o->size_chosen)
		/* -r without -s: bonnie++'s rule chose the size. */
		error("-r %s: the data size for that RAM (twice it, as "
		      "bonnie++), %s, is more than the %s free in '%s'%s; give "
		      "-s, e.g. -s %s",
		      shown(o->ram_arg, n, sizeof(n)), a, b, d,
		      others(more, sizeof(more), fbytes, own, own_by, 1), c);
	else if (fbytes && own)
		error("-s %s%s%s: the data file, %s and %s's file need "
		      "%s, %s and %s, only %s free in '%s'",
		      a, o->files_arg ? " with " : ", ", fs.cause, fs.tests,
		      own_by, a, f, w, b, d);
	else if (fbytes)
		error("-s %s%s%s: the data file and %s need %s and %s, only %s "
		      "free in '%s'",
		      a, o->files_arg ? " with " : ", ", fs.cause, fs.tests, a,
		      f, b, d);
	else if (own)
		error("-s %s: the data file and %s's file need %s and "
		      "%s, only %s free in '%s'",
		      a, own_by, a, w, b, d);
	else
		error("-s %s: only %s free in '%s'", a, b, d);
}

/*
 * The data file and the file tests must fit in f_bavail (the data file
 * stays while the file tests run). A size clyde chose shrinks to half
 * of what the file tests leave (in 256 MiB steps, at least 256 MiB)
 * rather than fail; when even that does not fit, the message says what
 * was chosen, why it does not fit and what to give instead.
 */
static int check_space(struct run_plan *rp, const struct statvfs *vfs,
		       const char *dir, unsigned copies)
{
	uint64_t avail = (uint64_t)vfs->f_bavail * vfs->f_frsize;
	uint64_t fbytes = 0, finodes = 0, left, own;
	char a[32], b[32], c[32], d[PATH_MAX * 4 + 1], more[128];
	struct runner_room room;
	struct files_said fs;

	runner_room(rp, &room);
	if (room.files)
		files_need(rp, vfs->f_frsize ? vfs->f_frsize : 4096, copies,
			   &fbytes, &finodes);
	shown(dir, d, sizeof(d));
	files_say(rp, &fs);
	fmt_bytes(b, sizeof(b), avail, 0);
	if (fbytes > avail) {
		fmt_bytes(a, sizeof(a), fbytes, 1);
		error("%s: %s need %s (each file's largest size rounded up to "
		      "a block, plus 64 bytes), only %s free in '%s'",
		      fs.cause, fs.tests, a, b, d);
		return -1;
	}
	if (vfs->f_files && finodes > (uint64_t)vfs->f_favail) {
		error("%s: %s need %llu inodes, only %llu free in '%s'",
		      fs.cause, fs.tests, (unsigned long long)finodes,
		      (unsigned long long)vfs->f_favail, d);
		return -1;
	}
	/* The files of their own some tests write (a room hook's),
	 * which the data file still stands beside. */
	own = room.own * copies;
	if (own > avail - fbytes) {
		fmt_bytes(a, sizeof(a), own, 1);
		fmt_bytes(b, sizeof(b), avail - fbytes, 0);
		error("%s's file%s need%s %s, only %s free in '%s'%s",
		      room.own_by, copies > 1 ? "s" : "", copies > 1 ? "" : "s",
		      a, b, d, fbytes ? " besides the file tests" : "");
		return -1;
	}
	if (!room.data) /* no test uses the data file: -s takes no room */
		return 0;
	/* copies data files; left is what each may take. */
	left = (avail - fbytes - own) / copies;
	if (rp->opt->size_chosen && rp->size > left / 2) {
		rp->size = left / 2 / (256 * UNITS_MIB) * (256 * UNITS_MIB);
		if (rp->size < 256 * UNITS_MIB)
			rp->size = 256 * UNITS_MIB;
		if (rp->size > left) {
			suggest_size(c, sizeof(c), left);
			fmt_bytes(b, sizeof(b), left, 0);
			error("no -s given, and the smallest data size clyde "
			      "chooses, 256M, does not fit: only %s free in "
			      "'%s'%s; give a smaller size, e.g. -s %s",
			      b, d,
			      others(more, sizeof(more), fbytes, own,
				     room.own_by, 0),
			      c);
			return -1;
		}
	}
	if (rp->size <= left)
		return 0;
	say_no_room(rp, dir, avail, left, fbytes, own, room.own_by);
	return -1;
}

/*
 * Under -D, find out before any phase whether the filesystem takes
 * O_DIRECT with this chunk. A filesystem that refuses it (EINVAL) or a
 * chunk its alignment forbids is the user's choice to change: usage,
 * exit 2. Any other error (EIO, ENOSPC) is the run failing: exit 1.
 * Returns 0 or the exit status.
 */
static int probe_direct(const struct clyde_opts *o, const char *dir,
			struct scratch *s, unsigned char *buf)
{
	struct target_align al;
	char d[PATH_MAX * 4 + 1], p[PATH_MAX * 4 + 1];
	const char *call;
	int e = target_probe_direct(s->dirfd, "direct-probe", buf,
				    (size_t)o->chunk, &al, &call);

	shown(dir, d, sizeof(d));
	if (e == 0)
		return 0;
	if (e == TARGET_MISALIGNED) {
		error("-D: chunk %llu is not a multiple of the %u-byte "
		      "alignment O_DIRECT needs on '%s' (from %s)",
		      (unsigned long long)o->chunk, al.offset, d, al.source);
		return CLI_EXIT_USAGE;
	}
	if (e == EINVAL) {
		error("-D: '%s' does not take O_DIRECT I/O of %llu bytes: %s",
		      d, (unsigned long long)o->chunk, strerror(e));
		return CLI_EXIT_USAGE;
	}
	error("-D probe: %s %s/direct-probe: %s", call,
	      shown(s->path, p, sizeof(p)), strerror(e));
	return CLI_EXIT_FAILED;
}

/* Target i: a directory, not one named before; its filesystem's room
 * for every target on it so far. */
static int check_one(struct run_plan *rp, unsigned i, struct stat *st)
{
	const struct clyde_opts *o = rp->opt;
	const char *dir = o->dirs[i];
	char d[PATH_MAX * 4 + 1], e[PATH_MAX * 4 + 1];
	struct statvfs vfs;
	unsigned same_fs = 1;

	if (stat(dir, &st[i]) != 0) {
		error("-d '%s': %s", shown(dir, d, sizeof(d)), strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st[i].st_mode)) {
		error("-d '%s': not a directory", shown(dir, d, sizeof(d)));
		return -1;
	}
	for (unsigned k = 0; k < i; k++) {
		if (st[k].st_dev != st[i].st_dev)
			continue;
		if (st[k].st_ino == st[i].st_ino) {
			error("-d '%s': the same directory as -d '%s'; give "
			      "each target once",
			      shown(dir, d, sizeof(d)),
			      shown(o->dirs[k], e, sizeof(e)));
			return -1;
		}
		same_fs++;
	}
	if (statvfs(dir, &vfs) != 0)
		return 0;
	/* What stops clyde making its directory there comes first, before
	 * any sum of what the tests need: read-only, then full. */
	if ((vfs.f_flag & ST_RDONLY) || (access(dir, W_OK) && errno == EROFS)) {
		error("-d '%s': %s", shown(dir, d, sizeof(d)), strerror(EROFS));
		return -1;
	}
	/* f_blocks 0: a filesystem that keeps no count (ramfs). */
	if (!vfs.f_blocks)
		return 0;
	if (!vfs.f_bavail) {
		error(
		    "-d '%s': the filesystem is full (no space left on device)",
		    shown(dir, d, sizeof(d)));
		return -1;
	}
	return check_space(rp, &vfs, dir, o->concurrency * same_fs);
}

int targets_check(struct run_plan *rp)
{
	const struct clyde_opts *o = rp->opt;
	struct stat st[OPT_TARGETS_MAX];

	for (unsigned i = 0; i < o->ndirs; i++)
		if (check_one(rp, i, st))
			return -1;
	/* A size clyde chose may have shrunk for a later target: the
	 * earlier ones then still have room. */
	return 0;
}

int targets_create(struct targets *t, const struct clyde_opts *o)
{
	char d[PATH_MAX * 4 + 1];

	t->n = 0;
	for (unsigned i = 0; i < o->ndirs; i++) {
		int rc = scratch_create(&t->s[i], o->dirs[i]);

		if (rc) {
			error("-d '%s': cannot make a scratch directory: %s",
			      shown(o->dirs[i], d, sizeof(d)), strerror(-rc));
			return -1;
		}
		t->n = i + 1;
		/* Killed outright, the run still leaves nothing; but under
		 * --journal the data file is what a kill (the cut) is for:
		 * it stays where the journal's line said. */
		if (!o->journal)
			scratch_watch(&t->s[i],
				      i == 0 ? mpirank_made_dir() : NULL);
	}
	return 0;
}

int targets_probe_direct(struct targets *t, const struct clyde_opts *o,
			 unsigned char *buf)
{
	for (unsigned i = 0; i < t->n; i++) {
		int rc = probe_direct(o, o->dirs[i], &t->s[i], buf);

		if (rc)
			return rc;
	}
	return 0;
}

int targets_remove(struct targets *t, const volatile sig_atomic_t *stop,
		   char *path, size_t plen, char *why, size_t wlen, FILE *err)
{
	char w[PATH_MAX * 2 + 64];
	int rc = 0;

	for (unsigned i = 0; i < t->n; i++) {
		int left = scratch_remove_why(&t->s[i], w, sizeof(w));
		pid_t watcher = t->s[i].watch_pid;

		/* Killed only once the run saw to the directory itself. */
		if (scratch_unwatch(&t->s[i], stop))
			error_on(err,
				 "the scratch watcher (pid %ld) did not "
				 "exit when told the run was over: killed it",
				 (long)watcher);
		if (!left || rc)
			continue;
		rc = -1;
		snprintf(path, plen, "%s", t->s[i].path);
		snprintf(why, wlen, "%s", w);
	}
	return rc;
}

int targets_finish(int status, int stop, const char *left, int rm_rc,
		   const char *rm_why, int out_err, const char *done)
{
	char p[PATH_MAX * 4 + 1], w[PATH_MAX * 4 + 64];

	if (rm_rc) {
		text_shown(left, p, sizeof(p));
		text_shown(rm_why, w, sizeof(w));
		if (stop)
			error("interrupted by signal %d; could not remove the "
			      "scratch directory '%s': %s",
			      stop, p, w);
		else
			error("could not remove the scratch directory '%s': %s",
			      p, w);
		return CLI_EXIT_FAILED;
	}
	if (stop) {
		error("interrupted by signal %d; %s", stop, done);
		return CLI_EXIT_SIGNAL(stop);
	}
	if (status)
		return status;
	if (out_err)
		return cli_stdout_failed(out_err);
	return cli_stdout_close();
}
