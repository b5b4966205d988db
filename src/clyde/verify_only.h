/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify_only: --verify-only=FILE, the check of a data file an earlier
 * --keep --verify run left (clyde(1) says what it can and cannot find).
 */
#ifndef CLYDE_VERIFY_ONLY_H
#define CLYDE_VERIFY_ONLY_H

#include <stdio.h>
#include <sys/stat.h>

/*
 * Read path (never opened for writing) and check every whole 4 KiB
 * block: the line of the result on out (exit 0) or the first fault on
 * err (CLI_EXIT_FAILED); CLI_EXIT_USAGE when path cannot be read as a
 * regular file.
 */
int verify_only(const char *path, FILE *out, FILE *err);

/*
 * path opened read-only as a file to check, its status in *st: fd, or
 * -1 after one line on err, "clyde: WHAT: WHOSEwhy" (whose: "" or "the
 * journal: "). Only a regular file is opened at all (opening a FIFO
 * waits for a writer, closing a tape device rewinds it), never through
 * a symbolic link; O_NONBLOCK and a second look at device and inode
 * cover a swap between the look and the open.
 */
int verify_open(const char *path, const char *what, const char *whose,
		struct stat *st, FILE *err);

#endif
