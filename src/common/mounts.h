/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mounts: /proc/self/mountinfo read by libmount, to tell whether a
 * device is mounted (and where) and which filesystem holds a path. The
 * functions take an open stream so the tests can hand them made-up
 * tables; callers need not include libmount.h.
 */
#ifndef CLYDE_MOUNTS_H
#define CLYDE_MOUNTS_H

#include <limits.h>
#include <stdio.h>
#include <sys/types.h>

struct mounts_entry {
	unsigned major, minor; /* st_dev of the mounted filesystem */
	char point[PATH_MAX];  /* where, unescaped */
	char fstype[64];       /* "ext4" */
	char source[PATH_MAX]; /* "/dev/loop3", unescaped */
};

/*
 * The first mount of any of the n block devices devs (a disk and its
 * partitions): its major:minor in mountinfo, or a source that is that
 * device node (btrfs reports an anonymous major:minor). Reads the rest
 * of f. Returns 1 with *e filled, or 0.
 */
int mounts_find_dev(FILE *f, const dev_t *devs, unsigned n,
		    struct mounts_entry *e);

/*
 * The mount that holds the absolute, resolved path: the longest mount
 * point that is a prefix of it (whole components), the later line
 * winning a tie (it was mounted over the earlier). Nothing is resolved
 * here, and path need not exist. Reads the rest of f. Returns 1 with
 * *e filled, or 0.
 */
int mounts_find_path(FILE *f, const char *path, struct mounts_entry *e);

/* Open /proc/self/mountinfo; NULL with errno set. */
FILE *mounts_open(void);

#endif
