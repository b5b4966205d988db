/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultfs_file: the rig's open files and directories, FUSE-free: the
 * handles (each on one list, so what the kernel never released can be
 * freed at the end), and their data path as the rules and the write
 * cache change it.
 */
#ifndef FAULTFS_FILE_H
#define FAULTFS_FILE_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "faultfs_rules.h"

/*
 * An open file or directory: its fd and the path it was opened by; for
 * a file, its backing inode (the write cache's key).
 */
struct ff_file {
	int fd;
	dev_t dev;
	ino_t ino;
	int control;
	DIR *dir;
	struct ff_ctl ctl;
	struct ff_file *prev, *next; /* every open one */
	char path[];
};

/* A handle for path (no fd yet: -1), on the list; NULL without memory. */
struct ff_file *ff_file_new(const char *path);

/* Close what f holds, take it off the list and free it. */
void ff_file_free(struct ff_file *f);

/*
 * Free every handle still open. A handle open when the filesystem is
 * unmounted (a lazy unmount, a killed caller) gets no release: main
 * calls this after fuse_main, so the rig leaks nothing.
 */
void ff_file_free_all(void);

/*
 * Read up to size bytes at off from f's backing file (path as the rules
 * see it), then replace the bytes remap rules cover by the file's bytes
 * at their from= (zeros past its end) and XOR those flip rules cover.
 * Bytes read, or -errno.
 */
ssize_t ff_file_read(struct ff_file *f, const char *path, char *buf,
		     size_t size, uint64_t off);

/*
 * Write size bytes at off to f's backing file (or the write cache) but
 * for those drop rules cover; sync: the write came from an O_SYNC or
 * O_DSYNC open (or RWF_DSYNC), durable when it returns. Bytes written
 * (size when a rule dropped any), or -errno.
 */
ssize_t ff_file_write(struct ff_file *f, const char *path, const char *buf,
		      size_t size, uint64_t off, int sync);

/*
 * The write cache: a disk's volatile cache in front of the backing
 * files (wcache in faultfs --help). While on, the data of matching
 * writes stays in the daemon's memory in whole 4 KiB blocks of the file
 * (aligned to its offset 0), and reads see it over the backing file's.
 * honest: an fsync, an fdatasync or a sync write writes its blocks to
 * the backing file (and fdatasyncs it) before it returns; lying: they
 * return at once, and the blocks they cover are acknowledged but kept.
 * cut drops every block, counting the acknowledged ones lost, and fails
 * every operation after it. Every function takes ff_lock itself.
 */

/* wcache MODE [path=GLOB] (glob taken over); MODE off writes back
 * first. 0, or -EIO with why filled in when a write-back failed. */
int ff_cache_set(enum ff_wcache mode, char *glob, char *why, size_t whylen);

/* cut: drop what the cache holds, counted; fail everything from now. */
void ff_cache_cut(void);

/* Since a cut, every operation but on the control file fails. */
int ff_cache_is_cut(void);

/* clear: the cache off and empty, written back never, no cut. */
void ff_cache_clear(void);

/* At unmount, a clean power-off: write back what is held, then free. */
void ff_cache_shutdown(void);

/* The cache's lines of the status (nothing while off and uncut). */
void ff_cache_status(FILE *out);

/* The size getattr reports for a backing file the cache holds data of. */
void ff_cache_stat(struct stat *st);

/* After the backing file of dev/ino was truncated to size. */
void ff_cache_truncate(dev_t dev, ino_t ino, uint64_t size);

/* 0 when a fallocate of mode may go on, -EOPNOTSUPP when the cache
 * holds data it would move or zero. */
int ff_cache_fallocate(const struct ff_file *f, int mode);

/* fsync of f: 0 or -errno when the cache served it, 1 when it is the
 * backing file's to do. */
int ff_cache_fsync(const struct ff_file *f);

#endif
