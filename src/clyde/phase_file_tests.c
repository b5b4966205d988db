/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_file_tests: bonnie++'s file tests, in two passes of three phases.
 * Sequential: create num*1024 files in index order (names start with the
 * index, so they sort in creation order), stat every entry in readdir
 * order (opening and reading those with data), then delete them in
 * readdir order and remove the directories. Random: the same files with
 * the random characters first, created in index order, then stat+read in
 * a shuffled order and deleted in a fresh shuffled order.
 *
 * A file's name, size and directory come from its index and the seed
 * (fileset.h), so nothing per file is stored but the shuffled order.
 * One operation is one file: a create with its data writes, a stat with
 * its reads, an unlink. -b fsyncs each file after its data and its
 * directory after each create and unlink. Create and delete end with
 * syncfs on the test filesystem, inside the timed window.
 *
 * This file holds six phases: they share one pass's state (struct
 * phase_files, behind ctx->priv, made by create's setup and freed by
 * their one release hook) and helpers. A test that reads (stat) first
 * empties the page cache of the files' data, in its untimed setup.
 *
 * With no -n (the plan's files_time, clyde/plan.h) the first create of
 * a pass makes files for files_time seconds, up to the next multiple of
 * 1024, and that count is the pass's and the next pass's; each stat test
 * (the plan's stat_time) passes over all the files again until stat_time
 * seconds have gone, its work the stats made.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "fileset.h"
#include "phase.h"
#include "plan.h"
#include "rng.h"

#define TEST_DIR    "files"
#define LINK_TARGET "link-target"
#define SALT_FILES  0x66696c6573ull
#define SALT_ORDER  0x6f72646572ull

/* The file tests' state for one pass (sequential or random). */
struct phase_files {
	int dirfd;	    /* the test directory, -1 when none */
	struct fileset set; /* names, sizes and directories of the files */
	uint32_t *order;    /* stat or delete order (random pass) */
	uint64_t chosen;    /* files_time: the count the first create made */
	uint64_t want;	    /* files_time: the count deletes take 1/4 of it */
};

static int create_one(struct phase_ctx *ctx, uint64_t i, const char *path,
		      const char *target);
static int create_probe(struct phase_ctx *ctx);

/* The pass's state; create's setup made it. */
static struct phase_files *files_of(struct phase_ctx *ctx)
{
	return ctx->priv;
}

/* Record "call SCRATCH/files[/dir][/rel]"; paths are built only here. */
static int files_fail_in(struct phase_ctx *ctx, const char *call,
			 const char *dir, const char *rel, int err)
{
	snprintf(ctx->what, sizeof(ctx->what), "%s %s/%s%s%s%s%s", call,
		 ctx->scratch_path, TEST_DIR, dir && *dir ? "/" : "",
		 dir ? dir : "", rel ? "/" : "", rel ? rel : "");
	return -err;
}

static int files_fail(struct phase_ctx *ctx, const char *call, const char *rel,
		      int err)
{
	return files_fail_in(ctx, call, NULL, rel, err);
}

static uint64_t file_count(const struct phase_ctx *ctx)
{
	return ctx->plan->run->files_num * 1024;
}

/* fsync the directory a file (path relative to the test dir) is in. */
static int sync_parent(struct phase_ctx *ctx, const char *path)
{
	const char *slash = strchr(path, '/');
	int dirfd = files_of(ctx)->dirfd;
	char dir[8];
	int fd, rc = 0;

	if (!slash)
		return fsync(dirfd) ? files_fail(ctx, "fsync", NULL, errno) : 0;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	fd = openat(dirfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd))
		rc = files_fail(ctx, "fsync", dir, errno);
	if (fd >= 0)
		close(fd);
	return rc;
}

static int syncfs_test(struct phase_ctx *ctx)
{
	if (syncfs(ctx->dirfd))
		return files_fail(ctx, "syncfs", NULL, errno);
	return 0;
}

/*
 * Untimed: the pass's state (made by the first create of a pass, kept
 * for the next), a fresh test directory, its subdirectories, a link
 * target.
 */
static int create_setup(struct phase_ctx *ctx, int random)
{
	const struct clyde_opts *o = ctx->opt;
	struct phase_files *pf = ctx->priv;
	char name[8];
	int fd;

	if (!pf) {
		if (!(pf = calloc(1, sizeof(*pf))))
			return files_fail(ctx, "malloc", NULL, ENOMEM);
		pf->dirfd = -1;
		ctx->priv = pf;
	}
	memset(&pf->set, 0, sizeof(pf->set));
	pf->set.count = pf->chosen ? pf->chosen : file_count(ctx);
	pf->set.max_size = o->files_max;
	pf->set.min_size = o->files_min;
	pf->set.dirs = o->files_dirs;
	pf->set.seed = ctx->seed ^ SALT_FILES;
	pf->set.random = random;
	if (mkdirat(ctx->dirfd, TEST_DIR, 0700))
		return files_fail(ctx, "mkdir", NULL, errno);
	pf->dirfd = openat(ctx->dirfd, TEST_DIR,
			   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pf->dirfd < 0)
		return files_fail(ctx, "open", NULL, errno);
	for (unsigned d = 0; d < o->files_dirs; d++) {
		fileset_dir_name(d, name);
		if (mkdirat(pf->dirfd, name, 0700))
			return files_fail(ctx, "mkdir", name, errno);
	}
	if (o->files_max < 0) {
		unlinkat(ctx->dirfd, LINK_TARGET, 0);
		fd = openat(
		    ctx->dirfd, LINK_TARGET,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			return files_fail(ctx, "create", "../" LINK_TARGET,
					  errno);
		close(fd);
	}
	if (ctx->plan->run->files_time > 0 && !pf->chosen)
		return create_probe(ctx);
	return 0;
}

static int seq_create_setup(struct phase_ctx *ctx)
{
	return create_setup(ctx, 0);
}

static int ran_create_setup(struct phase_ctx *ctx)
{
	return create_setup(ctx, 1);
}

/* Create one file: a link, or a new file with its data. */
static int create_one(struct phase_ctx *ctx, uint64_t i, const char *path,
		      const char *target)
{
	const struct phase_files *pf = files_of(ctx);
	const struct fileset *fs = &pf->set;
	uint64_t size = fileset_size(fs, i);
	size_t chunk = (size_t)ctx->opt->files_chunk;
	int fd, rc = 0;

	if (fs->max_size == FILESET_LINK) {
		if (linkat(ctx->dirfd, LINK_TARGET, pf->dirfd, path, 0))
			return files_fail(ctx, "link", path, errno);
	} else if (fs->max_size == FILESET_SYMLINK) {
		if (symlinkat(target, pf->dirfd, path))
			return files_fail(ctx, "symlink", path, errno);
	} else {
		fd = openat(
		    pf->dirfd, path,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			return files_fail(ctx, "create", path, errno);
		for (uint64_t done = 0; done < size && !rc;) {
			size_t n =
			    size - done < chunk ? (size_t)(size - done) : chunk;
			ssize_t w = write(fd, ctx->buf, n);

			if (w < 0 && errno == EINTR && !*ctx->stop)
				continue;
			if (w <= 0)
				rc = files_fail(ctx, "write", path,
						w < 0 ? errno : ENOSPC);
			else
				done += (uint64_t)w;
		}
		if (!rc && ctx->opt->sync_each && fsync(fd))
			rc = files_fail(ctx, "fsync", path, errno);
		if (close(fd) && !rc)
			rc = files_fail(ctx, "close", path, errno);
		if (rc)
			return rc;
	}
	if (ctx->opt->sync_each)
		return sync_parent(ctx, path);
	return 0;
}

/*
 * No -n, before the first create (untimed): files made and deleted for
 * a sixth of files_time each, for the delete rate. Deletes run faster
 * than creates on most filesystems (ext4: up to ten times, more as the
 * directory grows), so a count made in files_time would delete in a
 * fraction of it: the create goes on past files_time until the deletes
 * would take a quarter of files_time at the probe's rate (which a small
 * directory in the cache makes two to three times the real one: about
 * 2 s of the 3), for at most five times files_time: on a loaded machine
 * creates can slow tenfold while deletes do not, and random create,
 * slower than sequential on ext4, makes the same count.
 */
static int create_probe(struct phase_ctx *ctx)
{
	struct phase_files *pf = files_of(ctx);
	uint64_t secs = (uint64_t)(ctx->plan->run->files_time / 6 * 1e9);
	uint64_t t0 = clk_now_ns(), t1, n = 0;
	char path[FILESET_NAME_MAX + 8];
	int rc = 0;

	while (n < pf->set.count && !*ctx->stop &&
	       (n < 64 || clk_now_ns() - t0 < secs)) {
		fileset_path(&pf->set, n, path);
		if ((rc = create_one(ctx, n, path, "")) != 0)
			break;
		n++;
	}
	t1 = clk_now_ns();
	for (uint64_t i = 0; i < n; i++) {
		fileset_path(&pf->set, i, path);
		if (unlinkat(pf->dirfd, path, 0) && !rc)
			rc = files_fail(ctx, "unlink", path, errno);
	}
	pf->want = (uint64_t)((double)n / (double)(clk_now_ns() - t1 + 1) *
			      1e9 * ctx->plan->run->files_time / 4);
	return *ctx->stop ? -EINTR : rc;
}

/* No -n (span): whether the create has made enough, at i files (a whole
 * -n), at t0: files_time gone, and either the count the deletes want or
 * five times files_time. */
static int create_enough(const struct phase_files *pf, uint64_t i, uint64_t t0,
			 uint64_t start, uint64_t span)
{
	if (!i || i % 1024 || t0 < start + span)
		return 0;
	return i >= pf->want || t0 >= start + 5 * span;
}

static int create_run(struct phase_ctx *ctx, struct phase_out *out)
{
	struct phase_files *pf = files_of(ctx);
	const struct fileset *fs = &pf->set;
	uint64_t n = fs->count, t0 = clk_now_ns(), start = t0, span = 0;
	char path[FILESET_NAME_MAX + 8], target[PATH_MAX];
	int rc;

	/* No -n: the count by time (create_probe), a whole -n. */
	if (ctx->plan->run->files_time > 0 && !pf->chosen)
		span = (uint64_t)(ctx->plan->run->files_time * 1e9);
	snprintf(target, sizeof(target), "%s/%s", ctx->scratch_path,
		 LINK_TARGET);
	for (uint64_t i = 0; i < n; i++) {
		if (span && create_enough(pf, i, t0, start, span)) {
			n = i;
			break;
		}
		fileset_path(fs, i, path);
		if ((rc = create_one(ctx, i, path, target)) != 0)
			return rc;
		out->work++;
		phase_op_done(out, &t0);
		if (*ctx->stop)
			return -EINTR;
	}
	if (span)
		pf->chosen = pf->set.count = n;
	return syncfs_test(ctx);
}

/* stat a file and, when it has data, open and read all of it. */
static int stat_one(struct phase_ctx *ctx, int dirfd, const char *dir,
		    const char *name)
{
	struct stat st;
	size_t chunk = (size_t)ctx->opt->files_chunk;
	int fd, rc = 0;
	ssize_t n;

	if (fstatat(dirfd, name, &st, 0))
		return files_fail_in(ctx, "stat", dir, name, errno);
	if (st.st_size <= 0)
		return 0;
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return files_fail_in(ctx, "open", dir, name, errno);
	while ((n = read(fd, ctx->buf, chunk)) != 0) {
		if (n < 0 && errno == EINTR && !*ctx->stop)
			continue;
		if (n < 0) {
			rc = files_fail_in(ctx, "read", dir, name, errno);
			break;
		}
		ctx->sink += ctx->buf[0];
	}
	close(fd);
	return rc;
}

/* The directories of the test, in order: "00000"... or the test dir. */
static int open_dir(struct phase_ctx *ctx, unsigned d, char *name, DIR **dp)
{
	int top = files_of(ctx)->dirfd, fd;

	if (ctx->opt->files_dirs == 0) {
		name[0] = '\0';
		fd = openat(top, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	} else {
		fileset_dir_name(d, name);
		fd = openat(top, name,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0 || !(*dp = fdopendir(fd))) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return files_fail(ctx, "opendir", name[0] ? name : NULL, e);
	}
	return 0;
}

/*
 * Walk every entry in readdir order, calling stat_one or unlinkat.
 * Counts the files it saw into out->work.
 */
static int walk(struct phase_ctx *ctx, struct phase_out *out, int delete)
{
	unsigned ndirs = ctx->opt->files_dirs ? ctx->opt->files_dirs : 1;
	uint64_t t0 = clk_now_ns();
	char dname[8];
	int rc = 0;

	for (unsigned d = 0; d < ndirs && !rc; d++) {
		struct dirent *de;
		DIR *dir;

		if ((rc = open_dir(ctx, d, dname, &dir)) != 0)
			break;
		while (!rc) {
			const char *nm;

			/* A failed readdir is not the end of the directory. */
			errno = 0;
			de = readdir(dir);
			if (!de) {
				if (errno)
					rc = files_fail(ctx, "readdir",
							dname[0] ? dname : NULL,
							errno);
				break;
			}
			nm = de->d_name;
			if (nm[0] == '.' &&
			    (!nm[1] || (nm[1] == '.' && !nm[2])))
				continue;
			if (!delete)
				rc = stat_one(ctx, dirfd(dir), dname, nm);
			else if (unlinkat(dirfd(dir), nm, 0))
				rc = files_fail_in(ctx, "unlink", dname, nm,
						   errno);
			else if (ctx->opt->sync_each && fsync(dirfd(dir)))
				rc = files_fail(ctx, "fsync", dname, errno);
			if (rc)
				break;
			out->work++;
			phase_op_done(out, &t0);
			if (*ctx->stop)
				rc = -EINTR;
		}
		closedir(dir);
	}
	return rc;
}

/* Remove the subdirectories and the test directory (inside the window). */
static int remove_dirs(struct phase_ctx *ctx)
{
	struct phase_files *pf = files_of(ctx);
	char name[8];

	for (unsigned d = 0; d < ctx->opt->files_dirs; d++) {
		fileset_dir_name(d, name);
		if (unlinkat(pf->dirfd, name, AT_REMOVEDIR))
			return files_fail(ctx, "rmdir", name, errno);
	}
	close(pf->dirfd);
	pf->dirfd = -1;
	if (unlinkat(ctx->dirfd, TEST_DIR, AT_REMOVEDIR))
		return files_fail(ctx, "rmdir", NULL, errno);
	return 0;
}

/*
 * Untimed, before the tests after create: the pass's state must be
 * there (create ran), and a stat test first empties the page cache of
 * the files' data (--drop-caches: the machine's caches), as the runner
 * does for the data file.
 */
static int pass_setup(struct phase_ctx *ctx, int reads)
{
	const struct phase_files *pf = files_of(ctx);

	if (!pf || pf->dirfd < 0)
		return files_fail(ctx, "open", NULL, ENOENT);
	if (!reads)
		return 0;
	if (ctx->opt->drop_caches)
		cache_drop_all();
	else
		cache_evict_tree(pf->dirfd);
	return 0;
}

static int seq_stat_setup(struct phase_ctx *ctx)
{
	return pass_setup(ctx, 1);
}

static int seq_del_setup(struct phase_ctx *ctx)
{
	return pass_setup(ctx, 0);
}

/* A stat test: one pass, or (stat_time) passes until that time. */
static int stat_passes(struct phase_ctx *ctx, struct phase_out *out,
		       int (*pass)(struct phase_ctx *, struct phase_out *, int))
{
	uint64_t end =
	    clk_now_ns() + (uint64_t)(ctx->plan->run->stat_time * 1e9);
	int rc;

	do
		rc = pass(ctx, out, 0);
	while (!rc && ctx->plan->run->stat_time > 0 && clk_now_ns() < end);
	return rc;
}

static int seq_stat_run(struct phase_ctx *ctx, struct phase_out *out)
{
	return stat_passes(ctx, out, walk);
}

/* After the unlinks (rc): the directories go, then syncfs. */
static int delete_done(struct phase_ctx *ctx, int rc)
{
	if (!rc)
		rc = remove_dirs(ctx);
	return rc ? rc : syncfs_test(ctx);
}

static int seq_del_run(struct phase_ctx *ctx, struct phase_out *out)
{
	return delete_done(ctx, walk(ctx, out, 1));
}

/* Untimed: a shuffled order of all files (fresh for each phase). */
static int shuffle_setup(struct phase_ctx *ctx, uint64_t salt)
{
	struct phase_files *pf = files_of(ctx);
	uint64_t n = pf->set.count;
	struct rng r;

	if (!pf->order) {
		pf->order = malloc(n * sizeof(uint32_t));
		if (!pf->order)
			return files_fail(ctx, "malloc", NULL, ENOMEM);
	}
	for (uint64_t i = 0; i < n; i++)
		pf->order[i] = (uint32_t)i;
	rng_seed(&r, ctx->seed ^ SALT_ORDER ^ salt);
	rng_shuffle_u32(&r, pf->order, n);
	return 0;
}

static int ran_stat_setup(struct phase_ctx *ctx)
{
	int rc = pass_setup(ctx, 1);

	return rc ? rc : shuffle_setup(ctx, 1);
}

static int ran_del_setup(struct phase_ctx *ctx)
{
	int rc = pass_setup(ctx, 0);

	return rc ? rc : shuffle_setup(ctx, 2);
}

static int ordered(struct phase_ctx *ctx, struct phase_out *out, int delete)
{
	const struct phase_files *pf = files_of(ctx);
	uint64_t n = pf->set.count, t0 = clk_now_ns();
	char path[FILESET_NAME_MAX + 8];
	int rc;

	for (uint64_t k = 0; k < n; k++) {
		fileset_path(&pf->set, pf->order[k], path);
		if (!delete)
			rc = stat_one(ctx, pf->dirfd, NULL, path);
		else if (unlinkat(pf->dirfd, path, 0))
			rc = files_fail(ctx, "unlink", path, errno);
		else
			rc = ctx->opt->sync_each ? sync_parent(ctx, path) : 0;
		if (rc)
			return rc;
		out->work++;
		phase_op_done(out, &t0);
		if (*ctx->stop)
			return -EINTR;
	}
	return 0;
}

static int ran_stat_run(struct phase_ctx *ctx, struct phase_out *out)
{
	return stat_passes(ctx, out, ordered);
}

static int ran_del_run(struct phase_ctx *ctx, struct phase_out *out)
{
	return delete_done(ctx, ordered(ctx, out, 1));
}

/* The end of the pass: what the last test left open or allocated. */
static void files_release(struct phase_ctx *ctx)
{
	struct phase_files *pf = files_of(ctx);

	if (!pf)
		return;
	if (pf->dirfd >= 0)
		close(pf->dirfd);
	free(pf->order);
	free(pf);
	ctx->priv = NULL;
}

/* One operation a file of the run's -n. */
static void files_expect(const struct phase_plan *p, struct phase_expect *e)
{
	e->ops = p->run->files_num * 1024;
	e->unit = "files";
}

#define FILE_PHASE(id, ttl, prog, set, fn, fl)                                 \
	const struct phase_ops phase_##id##_ops = {                            \
	    .name = #id,                                                       \
	    .title = ttl,                                                      \
	    .test = RT_##id,                                                   \
	    .flags = PHASE_FILES | (fl),                                       \
	    .progress = prog,                                                  \
	    .setup = set,                                                      \
	    .run = fn,                                                         \
	    .expect = files_expect,                                            \
	    .release = files_release,                                          \
	};

/* A pass's three tests: ord is their keys' prefix, word their order. The
 * create's work is the files it made: with no -n, what sets it. */
#define FILE_PASS(ord, word)                                                   \
	FILE_PHASE(ord##_create, word " create",                               \
		   "Create files in " word " order", ord##_create_setup,       \
		   create_run, PHASE_FILE_COUNT)                               \
	FILE_PHASE(ord##_stat, word " stat", "Stat files in " word " order",   \
		   ord##_stat_setup, ord##_stat_run, 0)                        \
	FILE_PHASE(ord##_del, word " delete",                                  \
		   "Delete files in " word " order", ord##_del_setup,          \
		   ord##_del_run, 0)

FILE_PASS(seq, "sequential")
FILE_PASS(ran, "random")
