/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * open: clyde-zcav's targets and outputs, before the first read. A
 * target is "-", a pipe, a file or a block device; it is opened
 * read-only, or for -w through the device guards; its range is settled
 * and, for O_DIRECT, its alignment checked. No log, plot or document may be a
 * target or share a final name with another output; all are made (under
 * temporary names, lib/outfile) before any work.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <limits.h>
#include <unistd.h>

#include "guard.h"
#include "target.h"
#include "units.h"
#include "zcav_prog.h"

/* "-" or a path, refused or opened (read-only, or for -w through the
 * guards). 0, or -1 after one line. */
static int open_path(struct zcav_target *t)
{
	const struct zcav_opts *opt = t->opt;
	struct stat st;
	char why[1024];

	if (!strcmp(t->path, "-")) {
		if (opt->write)
			return bad("-w", t->path,
				   "writes need a device or file");
		if (isatty(0))
			return bad("target", t->path,
				   "standard input is a terminal");
		t->fd = 0;
		t->stream = 1;
		return 0;
	}
	if (stat(t->path, &st) != 0)
		return bad("target", t->path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return bad("target", t->path,
			   "is a directory, not a block device, file or pipe");
	if (S_ISCHR(st.st_mode))
		return bad("target", t->path,
			   "is a character device, not a block device, file "
			   "or pipe");
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		if (opt->write)
			return bad("-w", t->path,
				   "writes need a device or file");
		t->stream = 1;
	}
	t->direct = !t->stream && (opt->direct == 1 ||
				   (opt->direct == -1 && S_ISBLK(st.st_mode)));
	if (opt->write && !t->stream) {
		struct guard_req r = {t->path, opt->destroy, opt->force, 1, 0};

		t->fd = guard_open_write(&r, why, sizeof(why));
		if (t->fd < 0)
			return error("%s", why);
	} else {
		/* Read-only work opens read-only, nothing more. */
		t->fd = open(t->path, O_RDONLY | O_CLOEXEC);
	}
	if (t->fd < 0)
		return bad("target", t->path, strerror(errno));
	return 0;
}

/* A file's or device's range, and O_DIRECT on it: 0, or -1 after one
 * line. */
static int settle_range(struct zcav_target *t)
{
	const struct zcav_opts *opt = t->opt;
	uint64_t size = guard_size(t->fd);
	struct target_align al;
	char why[1024], a[32];

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
	if (!t->direct)
		return 0;
	target_align_fd(t->fd, &al);
	t->align = al.offset;
	if (opt->chunk % t->align || opt->block % t->align ||
	    t->start % t->align || ZCAV_ALIGN % t->align) {
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
	return 0;
}

int open_target(struct zcav_target *t)
{
	const struct zcav_opts *opt = t->opt;

	if (open_path(t))
		return -1;
	if (fstat(t->fd, &t->id) != 0)
		return bad("target", t->path, strerror(errno));
	if (t->stream) {
		if (opt->loops > 1)
			return bad("-c", t->path,
				   "a pipe can be read only once");
		t->start = opt->start;
		t->end = opt->end;
		return 0;
	}
	return settle_range(t);
}

/*
 * Two targets that are one pipe ("-" and /dev/stdin, a FIFO twice)
 * would each get part of what it delivers.
 */
int open_check_streams(const struct zcav_target *t, int n)
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
static int is_target(const char *path, const struct zcav_target *t)
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
int open_check_outputs(const struct zcav_opts *opt, const struct zcav_target *t,
		       int n)
{
	struct output out[ZCAV_MAX_TARGETS + 3];
	int k = 0;
	char why[PATH_MAX + 64];

	for (int i = 0; i < n; i++)
		if (t[i].log)
			out[k++] = (struct output){"-l", t[i].log};
	if (opt->plot)
		out[k++] = (struct output){"--plot", opt->plot};
	if (opt->json_path)
		out[k++] = (struct output){"--json", opt->json_path};
	if (opt->plot_script)
		out[k++] = (struct output){"--plot-script", opt->plot_script};
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

int open_outputs(const struct zcav_opts *opt, struct zcav_target *t, int n,
		 struct zcav_chart_files *plot)
{
	char why[PATH_MAX + 256];

	for (int i = 0; i < n; i++) {
		/* --json to stdout: stdout holds the document alone. */
		t[i].out = opt->json && !opt->json_path ? stderr : stdout;
		if (!t[i].log)
			continue;
		if (outfile_open(&t[i].of, t[i].log, why, sizeof(why)) != 0)
			return error("-l %s", why);
		t[i].have_of = 1;
		t[i].out = outfile_stream(&t[i].of);
		if (!t[i].out)
			return bad("-l", t[i].log, strerror(errno));
	}
	if (opt->plot && outfile_open(&plot->pic, opt->plot, why, sizeof(why)))
		return error("--plot %s", why);
	if (opt->plot_script &&
	    outfile_open(&plot->script, opt->plot_script, why, sizeof(why)))
		return error("--plot-script %s", why);
	return 0;
}

void open_abort_outputs(struct zcav_target *t, int n,
			struct zcav_chart_files *plot)
{
	for (int i = 0; i < n; i++)
		if (t[i].have_of) {
			outfile_abort(&t[i].of);
			t[i].have_of = 0;
		}
	chart_abort(plot);
}
