/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultfs: the tests' fault- and latency-injection rig, a FUSE
 * passthrough of a backing directory that fails, corrupts, loses or delays
 * operations on command (faultfs_rules.h). Built only for `make check`,
 * never installed.
 *
 * Every operation reaches this daemon: entry, attribute and negative
 * timeouts are 0, and files are opened direct_io (the kernel keeps no
 * page cache for them, mmap is refused), so a rule on a read or write
 * at an offset fires on the request of the program's own call. With
 * --cache files go through the kernel's page cache instead and their
 * data stays there across opens and attribute changes (keep_cache, no
 * auto_inval_data) until evicted (POSIX_FADV_DONTNEED, drop_caches), so
 * a read fault fires only if a program's own eviction worked. Writes
 * are written through at once either way (no kernel writeback cache),
 * unless the rig's own write cache (wcache) keeps them.
 *
 * O_DIRECT opens are accepted (the kernel sends their I/O here in the
 * program's own requests); the backing file is opened without it, as
 * the daemon's buffers are not aligned. Files are unlinked at once even
 * while open (hard_remove), so nothing like .fuse_hidden* is ever left
 * in the backing directory. fsync and fdatasync are counted, and can
 * be failed or delayed, but reach the backing file only with --sync: the
 * rig's backing store need not survive a crash, and a real flush would
 * make the tests as slow as the disk under them.
 *
 * A sync write, as the write cache sees it (tried on Linux 6.18 with
 * dd oflag=sync/dsync and pwritev2 RWF_SYNC/RWF_DSYNC): the kernel sends
 * the write's own flags in the write request (fi->flags has O_DSYNC,
 * and __O_SYNC too for O_SYNC), direct_io or not. With direct_io no
 * fsync follows it; with --cache an fsync (datasync for O_DSYNC)
 * follows each write. fsync(2) and fdatasync(2) arrive as fsync with
 * datasync 0 or 1. So both count: a write with O_DSYNC is acknowledged
 * as it returns, and so is what an fsync finds held.
 *
 * The control file MOUNTPOINT/.faultfs is not in the backing directory
 * and not listed: written, it takes commands line by line (a bad line
 * fails the write with EINVAL and is reported on stderr); read, it
 * gives the rules with their counts and the operation counts.
 */
#define _GNU_SOURCE
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "faultfs_file.h"

#define CONTROL "/.faultfs"

static int backing = -1; /* the backing directory, opened before mounting */
static int cache_mode;
static int pass_sync; /* --sync: fsync reaches the backing file */

static const char *rel(const char *path)
{
	return path[1] ? path + 1 : ".";
}

static int is_control(const char *path)
{
	return path && !strcmp(path, CONTROL);
}

static struct ff_file *file_of(struct fuse_file_info *fi)
{
	return (struct ff_file *)(uintptr_t)fi->fh;
}

/* The path a rule sees: the one given, else the one the file had. */
static const char *path_of(const char *path, struct fuse_file_info *fi)
{
	return path ? path : fi ? file_of(fi)->path : "";
}

/* As root, give what a caller creates to the caller. */
static void own(int fd, const char *name)
{
	struct fuse_context *c = fuse_get_context();

	if (geteuid() != 0 || (c->uid == 0 && c->gid == 0))
		return;
	if (name)
		(void)!fchownat(fd, name, c->uid, c->gid, AT_SYMLINK_NOFOLLOW);
	else
		(void)!fchown(fd, c->uid, c->gid);
}

#define CHECK(op, path)                                                        \
	do {                                                                   \
		int rc_ = ff_check(FF_##op, (path), FF_NO_RANGE, 0);           \
		if (rc_)                                                       \
			return rc_;                                            \
	} while (0)

#define ERR(call) ((call) < 0 ? -errno : 0)

static void *ff_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	/* --cache: data stays cached until evicted, not whenever the
	 * attributes are read again. */
	if (cache_mode)
		conn->want &= ~FUSE_CAP_AUTO_INVAL_DATA;
	cfg->use_ino = 1;
	cfg->entry_timeout = 0;
	cfg->attr_timeout = 0;
	cfg->negative_timeout = 0;
	cfg->hard_remove = 1;
	cfg->direct_io = !cache_mode;
	cfg->kernel_cache = cache_mode;
	cfg->auto_cache = 0;
	return NULL;
}

static int ff_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	int rc;

	if (is_control(path)) {
		memset(st, 0, sizeof(*st));
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
		st->st_uid = getuid();
		st->st_gid = getgid();
		return 0;
	}
	CHECK(getattr, path_of(path, fi));
	if (fi && file_of(fi)->fd >= 0)
		rc = fstat(file_of(fi)->fd, st);
	else
		rc = fstatat(backing, rel(path), st, AT_SYMLINK_NOFOLLOW);
	if (rc)
		return -errno;
	/* A write the cache holds may have made the file longer. */
	ff_cache_stat(st);
	return 0;
}

static int ff_readlink(const char *path, char *buf, size_t size)
{
	ssize_t n;

	CHECK(readlink, path);
	n = readlinkat(backing, rel(path), buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static int ff_mknod(const char *path, mode_t mode, dev_t rdev)
{
	CHECK(mknod, path);
	if (mknodat(backing, rel(path), mode, rdev))
		return -errno;
	own(backing, rel(path));
	return 0;
}

static int ff_mkdir(const char *path, mode_t mode)
{
	CHECK(mkdir, path);
	if (mkdirat(backing, rel(path), mode))
		return -errno;
	own(backing, rel(path));
	return 0;
}

static int ff_unlink(const char *path)
{
	if (is_control(path))
		return -EPERM;
	CHECK(unlink, path);
	return ERR(unlinkat(backing, rel(path), 0));
}

static int ff_rmdir(const char *path)
{
	CHECK(rmdir, path);
	return ERR(unlinkat(backing, rel(path), AT_REMOVEDIR));
}

static int ff_symlink(const char *target, const char *path)
{
	CHECK(symlink, path);
	if (symlinkat(target, backing, rel(path)))
		return -errno;
	own(backing, rel(path));
	return 0;
}

static int ff_rename(const char *from, const char *to, unsigned flags)
{
	if (is_control(from) || is_control(to))
		return -EPERM;
	CHECK(rename, from);
	if (flags)
		CHECK(rename_flags, from);
	if (flags)
		return ERR(
		    renameat2(backing, rel(from), backing, rel(to), flags));
	return ERR(renameat(backing, rel(from), backing, rel(to)));
}

static int ff_link(const char *from, const char *to)
{
	CHECK(link, to);
	return ERR(linkat(backing, rel(from), backing, rel(to), 0));
}

static int ff_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	CHECK(chmod, path_of(path, fi));
	if (fi && file_of(fi)->fd >= 0)
		return ERR(fchmod(file_of(fi)->fd, mode));
	return ERR(fchmodat(backing, rel(path), mode, 0));
}

static int ff_chown(const char *path, uid_t uid, gid_t gid,
		    struct fuse_file_info *fi)
{
	CHECK(chown, path_of(path, fi));
	if (fi && file_of(fi)->fd >= 0)
		return ERR(fchown(file_of(fi)->fd, uid, gid));
	return ERR(fchownat(backing, rel(path), uid, gid, AT_SYMLINK_NOFOLLOW));
}

/* ftruncate, and the write cache told. */
static int truncate_fd(int fd, off_t size)
{
	struct stat st;

	if (ftruncate(fd, size) || fstat(fd, &st))
		return -errno;
	ff_cache_truncate(st.st_dev, st.st_ino, (uint64_t)size);
	return 0;
}

static int ff_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	int fd, rc;

	/* `echo cmd > .faultfs` truncates first. */
	if (is_control(path))
		return 0;
	CHECK(truncate, path_of(path, fi));
	if (fi && file_of(fi)->fd >= 0)
		return truncate_fd(file_of(fi)->fd, size);
	fd = openat(backing, rel(path), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = truncate_fd(fd, size);
	close(fd);
	return rc;
}

static int ff_utimens(const char *path, const struct timespec ts[2],
		      struct fuse_file_info *fi)
{
	if (is_control(path))
		return 0;
	CHECK(utimens, path_of(path, fi));
	if (fi && file_of(fi)->fd >= 0)
		return ERR(futimens(file_of(fi)->fd, ts));
	return ERR(utimensat(backing, rel(path), ts, AT_SYMLINK_NOFOLLOW));
}

static int control_open(struct fuse_file_info *fi)
{
	struct ff_file *f = ff_file_new(CONTROL);

	if (!f)
		return -ENOMEM;
	f->control = 1;
	if ((fi->flags & O_ACCMODE) == O_RDONLY && ff_ctl_snapshot(&f->ctl)) {
		ff_file_free(f);
		return -ENOMEM;
	}
	fi->fh = (uintptr_t)f;
	fi->direct_io = 1;
	return 0;
}

/* Open the backing file as asked, but never O_DIRECT (see the top). */
static int open_file(const char *path, int flags, mode_t mode,
		     struct fuse_file_info *fi)
{
	struct ff_file *f = ff_file_new(path);
	struct stat st;

	if (!f)
		return -ENOMEM;
	f->fd = openat(backing, rel(path),
		       (flags & ~O_DIRECT) | O_NOFOLLOW | O_CLOEXEC, mode);
	if (f->fd < 0 || fstat(f->fd, &st)) {
		int e = errno;

		ff_file_free(f);
		return -e;
	}
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	if (flags & O_CREAT)
		own(f->fd, NULL);
	fi->fh = (uintptr_t)f;
	fi->direct_io = !cache_mode;
	fi->keep_cache = cache_mode;
	return 0;
}

static int ff_open(const char *path, struct fuse_file_info *fi)
{
	if (is_control(path))
		return control_open(fi);
	CHECK(open, path);
	return open_file(path, fi->flags, 0, fi);
}

static int ff_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	if (is_control(path))
		return control_open(fi);
	CHECK(create, path);
	return open_file(path, fi->flags | O_CREAT, mode, fi);
}

static int ff_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	struct ff_file *f = file_of(fi);
	int rc;

	if (f->control)
		return ff_ctl_read(&f->ctl, buf, size, (uint64_t)off);
	path = path_of(path, fi);
	rc = ff_check(FF_read, path, (uint64_t)off, size);
	if (rc)
		return rc;
	return (int)ff_file_read(f, path, buf, size, (uint64_t)off);
}

static int ff_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct ff_file *f = file_of(fi);
	int rc;

	if (f->control)
		return ff_ctl_write(&f->ctl, buf, size);
	path = path_of(path, fi);
	rc = ff_check(FF_write, path, (uint64_t)off, size);
	if (rc)
		return rc;
	/* O_SYNC is O_DSYNC and more: either makes the write durable. */
	return (int)ff_file_write(f, path, buf, size, (uint64_t)off,
				  (fi->flags & O_DSYNC) != 0);
}

static int ff_statfs(const char *path, struct statvfs *st)
{
	CHECK(statfs, path);
	return ERR(fstatvfs(backing, st));
}

static int ff_flush(const char *path, struct fuse_file_info *fi)
{
	struct ff_file *f = file_of(fi);

	/* A reader's text is the status, not commands. */
	if (f->control)
		return (fi->flags & O_ACCMODE) == O_RDONLY
			   ? 0
			   : ff_ctl_finish(&f->ctl);
	CHECK(flush, path_of(path, fi));
	return 0;
}

static int ff_release(const char *path, struct fuse_file_info *fi)
{
	struct ff_file *f = file_of(fi);

	if (!f->control)
		(void)ff_check(FF_release, path_of(path, fi), FF_NO_RANGE, 0);
	ff_file_free(f);
	return 0;
}

static int ff_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	struct ff_file *f = file_of(fi);
	int rc;

	if (f->control)
		return 0;
	CHECK(fsync, path_of(path, fi));
	rc = ff_cache_fsync(f);
	if (rc != 1)
		return rc;
	if (!pass_sync)
		return 0;
	return ERR(datasync ? fdatasync(f->fd) : fsync(f->fd));
}

static int ff_fallocate(const char *path, int mode, off_t off, off_t len,
			struct fuse_file_info *fi)
{
	struct ff_file *f = file_of(fi);
	int rc;

	if (f->control)
		return -EOPNOTSUPP;
	rc = ff_check(FF_fallocate, path_of(path, fi), (uint64_t)off,
		      (uint64_t)len);
	if (rc || (rc = ff_cache_fallocate(f, mode)))
		return rc;
	return ERR(fallocate(f->fd, mode, off, len));
}

static int ff_opendir(const char *path, struct fuse_file_info *fi)
{
	struct ff_file *f;
	int fd;

	CHECK(opendir, path);
	f = ff_file_new(path);
	if (!f)
		return -ENOMEM;
	fd = openat(backing, rel(path),
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !(f->dir = fdopendir(fd))) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		ff_file_free(f);
		return -e;
	}
	fi->fh = (uintptr_t)f;
	return 0;
}

static int ff_readdir(const char *path, void *buf, fuse_fill_dir_t filler,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	struct ff_file *f = file_of(fi);
	struct dirent *de;

	(void)off;
	(void)flags;
	CHECK(readdir, path_of(path, fi));
	/* Offsets 0: libfuse takes the whole listing in this one call. */
	rewinddir(f->dir);
	for (;;) {
		struct stat st;

		errno = 0;
		if (!(de = readdir(f->dir)))
			return -errno;
		memset(&st, 0, sizeof(st));
		st.st_ino = de->d_ino;
		st.st_mode = (mode_t)de->d_type << 12;
		if (filler(buf, de->d_name, &st, 0, 0))
			return 0;
	}
}

static int ff_releasedir(const char *path, struct fuse_file_info *fi)
{
	struct ff_file *f = file_of(fi);

	(void)ff_check(FF_releasedir, path_of(path, fi), FF_NO_RANGE, 0);
	ff_file_free(f);
	return 0;
}

static int ff_fsyncdir(const char *path, int datasync,
		       struct fuse_file_info *fi)
{
	struct ff_file *f = file_of(fi);

	CHECK(fsyncdir, path_of(path, fi));
	if (!pass_sync)
		return 0;
	return ERR(datasync ? fdatasync(dirfd(f->dir)) : fsync(dirfd(f->dir)));
}

static int ff_access(const char *path, int mask)
{
	if (is_control(path))
		return 0;
	CHECK(access, path);
	return ERR(faccessat(backing, rel(path), mask, AT_SYMLINK_NOFOLLOW));
}

static const struct fuse_operations ops = {
    .init = ff_init,
    .getattr = ff_getattr,
    .readlink = ff_readlink,
    .mknod = ff_mknod,
    .mkdir = ff_mkdir,
    .unlink = ff_unlink,
    .rmdir = ff_rmdir,
    .symlink = ff_symlink,
    .rename = ff_rename,
    .link = ff_link,
    .chmod = ff_chmod,
    .chown = ff_chown,
    .truncate = ff_truncate,
    .utimens = ff_utimens,
    .open = ff_open,
    .create = ff_create,
    .read = ff_read,
    .write = ff_write,
    .statfs = ff_statfs,
    .flush = ff_flush,
    .release = ff_release,
    .fsync = ff_fsync,
    .fallocate = ff_fallocate,
    .opendir = ff_opendir,
    .readdir = ff_readdir,
    .releasedir = ff_releasedir,
    .fsyncdir = ff_fsyncdir,
    .access = ff_access,
};

struct cmdline {
	const char *backing;
	int mountpoint;
	int help;
};

static int opt_proc(void *data, const char *arg, int key,
		    struct fuse_args *outargs)
{
	struct cmdline *c = data;

	(void)outargs;
	if (key == 1) {
		cache_mode = 1;
		return 0;
	}
	if (key == 2) {
		c->help = 1;
		return 0;
	}
	if (key == 3) {
		pass_sync = 1;
		return 0;
	}
	if (key != FUSE_OPT_KEY_NONOPT)
		return 1;
	if (!c->backing) {
		c->backing = arg;
		return 0;
	}
	c->mountpoint++;
	return 1;
}

int main(int argc, char **argv)
{
	static const struct fuse_opt opts[] = {
	    FUSE_OPT_KEY("--cache", 1),
	    FUSE_OPT_KEY("--help", 2),
	    FUSE_OPT_KEY("-h", 2),
	    FUSE_OPT_KEY("--sync", 3),
	    FUSE_OPT_END,
	};
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct cmdline c = {0};
	int rc;

	if (fuse_opt_parse(&args, &c, opts, opt_proc) != 0)
		return 2;
	if (c.help) {
		ff_help(stdout);
		return 0;
	}
	if (!c.backing || c.mountpoint != 1) {
		fprintf(stderr, "faultfs: expected BACKING MOUNTPOINT "
				"(faultfs --help)\n");
		return 2;
	}
	backing = open(c.backing, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (backing < 0) {
		fprintf(stderr, "faultfs: %s: %s\n", c.backing,
			strerror(errno));
		return 2;
	}
	/* Modes arrive with the caller's umask applied already. */
	umask(0);
	if (fuse_opt_add_arg(&args, "-osubtype=faultfs,fsname=faultfs"))
		return 1;
	rc = fuse_main(args.argc, args.argv, &ops, NULL);
	ff_cache_shutdown();
	ff_file_free_all();
	fuse_opt_free_args(&args);
	close(backing);
	return rc;
}
