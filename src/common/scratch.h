/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scratch: the one private directory every file of a run lives in,
 * made with mkdtemp under -d and removed, with everything in it, on every
 * exit path. Nothing outside it is ever written or removed.
 */
#ifndef CLYDE_SCRATCH_H
#define CLYDE_SCRATCH_H

#include <limits.h>
#include <stddef.h>

struct scratch {
	char path[PATH_MAX]; /* "", or DIR/clyde.XXXXXX */
	int dirfd;           /* open on path, -1 when none */
};

/*
 * Make DIR/clyde.XXXXXX (mode 0700). Returns 0, or -errno (path then
 * holds what was attempted).
 */
int scratch_create(struct scratch *s, const char *parent);

/*
 * Remove everything under the scratch directory, then the directory.
 * Safe to call twice. Returns 0 (path is then ""), or -errno of the
 * first failure; path is then kept, so a message can say which
 * directory is left.
 */
int scratch_remove(struct scratch *s);

/*
 * The same, and on failure why[len] says what failed first: the call
 * and the name inside the directory ("unlink data: Operation not
 * permitted", "rmdir files/00001: ...", "rmdir: ..." for the directory
 * itself).
 */
int scratch_remove_why(struct scratch *s, char *why, size_t len);

#endif
