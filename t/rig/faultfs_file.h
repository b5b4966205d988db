/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultfs_file: the rig's open files and directories, FUSE-free: the
 * handles (each on one list, so what the kernel never released can be
 * freed at the end), and their data path as the rules change it.
 */
#ifndef FAULTFS_FILE_H
#define FAULTFS_FILE_H

#include <dirent.h>
#include <stdint.h>
#include <sys/types.h>

#include "faultfs_rules.h"

/* An open file or directory: its fd and the path it was opened by. */
struct ff_file {
	int fd;
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
 * Write size bytes at off to f's backing file but for those drop rules
 * cover. Bytes written (size when a rule dropped any), or -errno.
 */
ssize_t ff_file_write(struct ff_file *f, const char *path, const char *buf,
		      size_t size, uint64_t off);

#endif
