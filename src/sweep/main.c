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
 * This file is the command line and the flow: the checks before
 * anything is written, the stages in turn, the cleanup, the signals and
 * the results. The cells are in cells.c, mkfs and mounts in fsmake.c,
 * the plot's script in chart.c.
 *
 * The stop signals are blocked in the working thread and taken, one by
 * one as they arrive, by a thread that only waits for them (cli.h): the
 * first one must decide the exit status. The waiter sets a flag, which
 * the I/O loops check after every call, and stops a running mkfs.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli.h"
#include "fill.h"
#include "gnuplot.h"
#include "jsonput.h"
#include "guard.h"
#include "mounts.h"
#include "outfile.h"
#include "rng.h"
#include "sweep_prog.h"
#include "target.h"
#include "units.h"

/* A filesystem needs room of its own: -s at most this share of the
 * device when filesystems are made on it. */
#define FS_SHARE 0.85

/* Everything that must be undone on the way out. */
static struct {
	int dev_fd;		   /* the guard's O_EXCL descriptor */
	struct scratch scratch;	   /* the private directory of a file run */
	struct fsmake_mount mount; /* the private mount point */
} live = {-1, {.dirfd = -1, .watch_fd = -1}, {"", 0}};

/* The signal that stops the run: the first one received, 0 if none. */
static volatile sig_atomic_t stop_signal;

/* The first signal decides the exit status; later ones only repeat
 * the request to stop. Also the handler where they are not blocked. */
static void on_signal(int sig)
{
	cli_stop_first(&stop_signal, sig);
	fsmake_stop_child();
	/* A gnuplot still drawing is stopped, not waited for. */
	plot_signal_cleanup();
}

/* The signal waiter's: every stop, in the order they come. */
static void take_signal(int sig)
{
	fsmake_lock();
	on_signal(sig);
	fsmake_unlock();
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
	error("cannot remove %s: %s", live.scratch.path, why);
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
	if (fsmake_unmount(&live.mount))
		rc = -1;
	if (live.dev_fd >= 0) {
		close(live.dev_fd);
		live.dev_fd = -1;
	}
	return rc;
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

/* The device: taken (the guards), big enough, its sectors. 0 or -1. */
static int check_device(const struct sweep_opts *o, uint64_t *dev_size)
{
	char why[1024], b[32];
	struct guard_req r = {o->target, o->destroy, o->force, 0, 0};
	struct target_align a;

	live.dev_fd = guard_open_write(&r, why, sizeof(why));
	if (live.dev_fd < 0)
		return error("%s", why);
	*dev_size = guard_size(live.dev_fd);
	if (o->size > *dev_size ||
	    (o->nfs && (o->fs[0]->mkfs || o->nfs > 1) &&
	     (double)o->size > FS_SHARE * (double)*dev_size)) {
		units_fmt_size(b, sizeof(b), *dev_size);
		return error("-s '%s': %s holds %s%s", o->size_arg, o->target,
			     b,
			     o->size > *dev_size
				 ? ""
				 : "; leave the filesystems room (at most "
				   "85%)");
	}
	/* Block sizes are multiples of 4k; a larger sector needs more. */
	target_align_fd(live.dev_fd, &a);
	for (unsigned i = 0; a.offset > 4096 && i < o->nbs; i++)
		if (o->bs[i] % a.offset) {
			char bs[32];

			sweep_fmt_bs(bs, sizeof(bs), o->bs[i]);
			return error("-B '%s': %s has %u-byte sectors; "
				     "O_DIRECT needs block sizes that are "
				     "multiples of it",
				     bs, o->target, a.offset);
		}
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

/* The filesystems asked for on a device: root, and mkfs at hand. */
static int check_mkfs(const struct sweep_opts *o)
{
	char why[PATH_MAX + 128], *path;

	for (unsigned i = 0; i < o->nfs; i++) {
		if (!o->fs[i]->mkfs)
			continue;
		if (geteuid() != 0)
			return error("--filesystems '%s': making and mounting "
				     "filesystems needs root",
				     o->fs[i]->name);
		path = fsmake_find(o->fs[i]->mkfs);
		if (!path) {
			snprintf(why, sizeof(why),
				 "%s not found (Debian: apt-get install %s)",
				 o->fs[i]->mkfs, o->fs[i]->package);
			return error("--filesystems '%s': %s", o->fs[i]->name,
				     why);
		}
		free(path);
	}
	return 0;
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
		return error("target '%s': %s", o->target, strerror(errno));
	*is_dev = S_ISBLK(st.st_mode);
	if (!*is_dev && !S_ISDIR(st.st_mode))
		return error("target '%s': not a directory or block device "
			     "(clyde-sweep writes its own file in a directory "
			     "it is given)",
			     o->target);
	if (!*is_dev && (o->destroy || o->fs_arg)) {
		snprintf(why, sizeof(why),
			 "goes with a block device target; '%s' is a "
			 "directory, which needs neither",
			 o->target);
		return o->destroy
			   ? error("--destroy-data '%s': %s", o->destroy, why)
			   : error("--filesystems '%s': %s", o->fs_arg, why);
	}
	if (!*is_dev)
		return 0;
	if (o->nfs == 0) {
		o->fs[0] = &sweep_fs_kinds[0];
		o->nfs = 1;
	}
	return check_mkfs(o);
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

/* The raw device's stage, the device taken back after a filesystem. */
static int raw_place(const struct sweep_opts *o, struct sweep_stage *stage,
		     struct cells_place *p)
{
	char what[PATH_MAX + 512];

	stage_names(stage, "raw device", "raw", o->target);
	p->is_dev = 1;
	p->dev = o->target;
	if (live.dev_fd < 0) {
		/* After a filesystem: take the device back. */
		struct guard_req g = {o->target, o->destroy, 1, 0, 0};

		live.dev_fd = guard_open_write(&g, what, sizeof(what));
		if (live.dev_fd < 0) {
			error("%s", what);
			return CLI_EXIT_FAILED;
		}
	}
	p->dev_fd = live.dev_fd;
	return 0;
}

/*
 * Make stage s's place: the private directory, the raw device taken
 * back, or a filesystem made and mounted. 0, or the exit status after
 * the message (none when a signal stopped it).
 */
static int stage_place(const struct sweep_opts *o, unsigned s, int is_dev,
		       struct sweep_stage *stage, struct cells_place *p)
{
	const struct sweep_fs_kind *k = o->fs[s];
	char what[PATH_MAX + 512];

	memset(p, 0, sizeof(*p));
	p->dev_fd = -1;
	p->stop = &stop_signal;
	p->progress = stderr;
	if (!is_dev) {
		if (cells_file_place(o, &live.scratch, o->target, p, what,
				     sizeof(what))) {
			error("%s", what);
			return CLI_EXIT_USAGE;
		}
		return 0;
	}
	if (!k->mkfs)
		return raw_place(o, stage, p);
	stage_names(stage, k->name, k->name, o->target);
	/* mkfs wants the device to itself. */
	if (live.dev_fd >= 0) {
		close(live.dev_fd);
		live.dev_fd = -1;
	}
	warning("making %s on %s", k->name, o->target);
	if (fsmake_make(k, o->target, &stop_signal, what, sizeof(what)) ||
	    stop_signal) {
		if (stop_signal)
			return 0;
		error("%s", what);
		return CLI_EXIT_FAILED;
	}
	if (fsmake_mount(&live.mount, k, o->target, what, sizeof(what))) {
		error("%s", what);
		return CLI_EXIT_FAILED;
	}
	if (cells_file_place(o, &live.scratch, live.mount.mnt, p, what,
			     sizeof(what))) {
		error("%s on %s", what, k->name);
		return CLI_EXIT_USAGE;
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
		struct cells_place p;

		r->nstages = s + 1;
		status = stage_place(o, s, is_dev, stage, &p);
		if (status || stop_signal)
			break;
		if (cells_run_matrix(o, &p, stage, buf, what, sizeof(what)) &&
		    !stop_signal) {
			error("%s", what);
			status = CLI_EXIT_FAILED;
		}
		if (!is_dev || o->fs[s]->mkfs) {
			if (remove_scratch())
				status = CLI_EXIT_FAILED;
			if (fsmake_unmount(&live.mount))
				status = CLI_EXIT_FAILED;
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
	/* --json to stdout: stdout holds the document alone. */
	FILE *out = o->json && !o->json_path ? stderr : stdout;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m) {
		error("%s", strerror(errno));
		return CLI_EXIT_FAILED;
	}
	sweep_print_table(o->quiet ? stderr : m, r);
	sweep_print_csv(m, r);
	if (fclose(m) != 0) {
		free(text);
		error("%s", strerror(errno));
		return CLI_EXIT_FAILED;
	}
	if (len && (fwrite(text, 1, len, out) != len || fflush(out))) {
		int e = errno;

		free(text);
		if (out != stdout) {
			error("standard error: %s", strerror(e));
			return CLI_EXIT_FAILED;
		}
		return cli_stdout_failed(e);
	}
	free(text);
	return out == stdout ? cli_stdout_close() : 0;
}

/* --json=FILE's document: made before the first cell, renamed when
 * written. */
static struct outfile json_of = {.fd = -1, .slot = -1};

/*
 * The document to --json's file or standard output, only after a run
 * without failures. The exit status.
 */
static int finish_json(const struct sweep_opts *o, const struct sweep_result *r,
		       time_t start)
{
	return jp_finish(sweep_json_doc(o, r, start),
			 o->json_path ? &json_of : NULL, 1);
}

/*
 * The target checked and described, the plot's file made. 0, or the
 * exit status after the message.
 */
static int prepare(struct sweep_opts *o, struct sweep_result *r, int is_dev)
{
	char why[PATH_MAX + 128];
	uint64_t dev_size = 0;
	struct stat st;

	r->size = o->size;
	snprintf(r->target, sizeof(r->target), "%s", o->target);
	r->nbs = o->nbs;
	memcpy(r->bs, o->bs, sizeof(o->bs));
	if (is_dev) {
		char devsz[32];

		if (check_device(o, &dev_size))
			return CLI_EXIT_USAGE;
		units_fmt_size(devsz, sizeof(devsz), dev_size);
		r->dev_size = dev_size;
		snprintf(r->what, sizeof(r->what),
			 "clyde-sweep %s: %.200s (%s)", PACKAGE_VERSION,
			 o->target, devsz);
	} else {
		describe_dir(o, r);
	}
	/* The model of the device, or of the one the directory is on. */
	if (stat(o->target, &st) == 0) {
		dev_t d = is_dev ? st.st_rdev : st.st_dev;

		target_model(major(d), minor(d), r->model, sizeof(r->model));
	}
	if (chart_open(o))
		return CLI_EXIT_USAGE;
	if (o->json_path &&
	    outfile_open(&json_of, o->json_path, why, sizeof(why))) {
		error("--json %s", why);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

/* A buffer for the largest block size, filled once. NULL after a line. */
static unsigned char *make_buffer(const struct sweep_opts *o)
{
	unsigned char *buf = NULL;
	uint64_t maxbs = 0;

	for (unsigned i = 0; i < o->nbs; i++)
		if (o->bs[i] > maxbs)
			maxbs = o->bs[i];
	if (posix_memalign((void **)&buf, 4096, (size_t)maxbs) != 0) {
		error("out of memory for a %llu-byte buffer",
		      (unsigned long long)maxbs);
		return NULL;
	}
	fill_random(buf, (size_t)maxbs, o->seed);
	return buf;
}

int main(int argc, char **argv)
{
	static struct sweep_opts o;
	static struct sweep_result r;
	unsigned char *buf = NULL;
	int status = 0, is_dev = 0;
	time_t start;

	cli_set_prog(PROG);
	cli_ignore_sigpipe();
	if ((status = opt_exit(
		 sweep_opts_parse(argc, argv, &o, stdout, stderr))) >= 0)
		return status;
	if (!o.seed_set)
		o.seed = rng_fresh_seed();
	/*
	 * The handler stays the disposition: it takes the signals where
	 * they are not blocked (no waiter thread, or while gnuplot runs).
	 */
	cli_catch_signals(on_signal, take_signal);
	if (check_target(&o, &is_dev))
		return CLI_EXIT_USAGE;
	buf = make_buffer(&o);
	if (!buf)
		return CLI_EXIT_FAILED;
	status = prepare(&o, &r, is_dev);
	if (status) {
		cleanup();
		free(buf);
		chart_abort();
		outfile_abort(&json_of);
		return status;
	}
	if (is_dev && (o.nfs > 1 || o.fs[0]->mkfs))
		fsmake_private_ns();

	start = time(NULL);
	jp_time(r.start_time, sizeof(r.start_time), start);
	status = run_stages(&o, &r, is_dev, buf);
	if (cleanup())
		status = CLI_EXIT_FAILED;
	free(buf);
	/* After a failed stage the cells that ran are still measurements:
	 * they are printed (the rest blank), but not plotted. */
	if (!stop_signal && status != CLI_EXIT_USAGE &&
	    (!status || any_done(&r))) {
		int out = print_results(&o, &r);

		if (out)
			status = out;
	}
	if (!stop_signal && !status && o.plot &&
	    chart_finish(&o, &r, &stop_signal))
		status = CLI_EXIT_FAILED;
	if (!stop_signal && !status && o.json)
		status = finish_json(&o, &r, start);
	chart_abort();
	outfile_abort(&json_of);
	if (stop_signal)
		return CLI_EXIT_SIGNAL(stop_signal);
	return status;
}
