/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scratch: the one private directory every file of a run lives in,
 * made with mkdtemp under -d and removed, with everything in it, on every
 * exit path. Nothing outside it is ever written or removed.
 */
#ifndef CLYDE_SCRATCH_H
#define CLYDE_SCRATCH_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>

#include <sys/types.h>

struct scratch {
	char path[PATH_MAX]; /* "", or DIR/clyde.XXXXXX */
	int dirfd;	     /* open on path, -1 when none */
	/* scratch_watch's watcher: its pid (0: none) and the write end of
	 * its pipe. */
	pid_t watch_pid;
	int watch_fd;
	/* A directory the run made to hold it (scratch_watch's made), its
	 * identity; made[0] 0: none. */
	char made[PATH_MAX];
	dev_t made_dev;
	ino_t made_ino;
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

/*
 * For a run that may be killed outright (SIGKILL, the OOM killer, a
 * crash, mpirun's kill): a watcher process, in a session of its own,
 * that holds the directory open and the read end of a pipe whose write
 * end the run and every process it forks hold (close-on-exec). When the
 * last of them is gone without scratch_unwatch, it removes the
 * directory, if the path still names the directory it holds, and then
 * made (when not NULL: a directory the run made to hold it, as mpirun's
 * -d patterns do) if it is empty and still the one it was. Returns 0,
 * or -errno (no watcher; the run goes on without one).
 */
int scratch_watch(struct scratch *s, const char *made);

/* How long scratch_unwatch waits for its watcher, in steps of a tick. */
#define SCRATCH_UNWATCH_WAIT_MS 2000
#define SCRATCH_UNWATCH_TICK_NS (10 * 1000 * 1000)

/*
 * The run is done with the directory (removed, or told why not): the
 * watcher is told so, and reaped. It is waited for at most
 * SCRATCH_UNWATCH_WAIT_MS, and 100 ms once *stop is set (stop may be
 * NULL); then killed (SIGKILL, which ends a stopped process too) and
 * reaped. Returns 0, or 1 when it had to be killed (the caller says
 * so). Safe without a watcher.
 */
int scratch_unwatch(struct scratch *s, const volatile sig_atomic_t *stop);

#endif
