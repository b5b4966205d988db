/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweep_prog: what clyde-sweep's files share. main.c has the command
 * line and the flow (checks, stages, cleanup, signals, results);
 * cells.c the places cells run in and the cells themselves; fsmake.c
 * mkfs, the private mount namespace, mount and unmount; chart.c the
 * plot's gnuplot script.
 */
#ifndef CLYDE_SWEEP_PROG_H
#define CLYDE_SWEEP_PROG_H

#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "scratch.h"
#include "sweep_opts.h"
#include "sweep_result.h"

#define PROG "clyde-sweep"

/* ---- cells.c ---- */

/* Where a stage's cells write and read. */
struct cells_place {
	int is_dev;
	const char *dev; /* the device path (raw stage) */
	int dev_fd;	 /* raw stage: the guard's O_EXCL descriptor */
	int dirfd;	 /* a file run: the private directory */
	unsigned align;	 /* O_DIRECT alignment */
	const volatile sig_atomic_t *stop; /* the I/O loops stop when set */
	FILE *progress;			   /* a line per cell done, or NULL */
};

/*
 * A file run's place in dir: the private directory s made there (s->path
 * "" when it could not be), the room for a cell's file, the O_DIRECT
 * alignment each block size needs. 0, or -1 with what[] saying why (a
 * refusal: the user's to change).
 */
int cells_file_place(const struct sweep_opts *o, struct scratch *s,
		     const char *dir, struct cells_place *p, char *what,
		     size_t wlen);

/*
 * The whole matrix of stage st on place p: for each mode and block size,
 * write then read. Returns 0, or -errno with what[] naming the stage,
 * cell, call and error (-EINTR: a stop, nothing said).
 */
int cells_run_matrix(const struct sweep_opts *o, const struct cells_place *p,
		     struct sweep_stage *st, unsigned char *buf, char *what,
		     size_t wlen);

/* ---- fsmake.c ---- */

/* A private mount point: "" when none, mounted or not. */
struct fsmake_mount {
	char mnt[PATH_MAX];
	int mounted;
};

/*
 * Enters a private mount namespace where allowed: the filesystems made
 * are then seen by no one else and cannot outlive the program, even if
 * it is killed. Elsewhere mounts are made in the shared namespace and
 * removed as usual. The namespace starts as a copy of every mount; as a
 * slave of them, not a private copy, an umount made outside reaches it
 * too, so a filesystem someone else unmounts while the sweep runs is let
 * go at once instead of staying pinned (its device busy) until the sweep
 * ends. (Only mounts that are shared propagate, as systemd makes them;
 * where none are, slave and private are the same.)
 */
void fsmake_private_ns(void);

/* Where mkfs_name is (PATH, then the sbin directories); malloc'd, or
 * NULL when nowhere. */
char *fsmake_find(const char *mkfs_name);

/*
 * Runs kind k's mkfs on dev, its standard error kept for the message. A
 * stop (*stop set, now or while it runs) stops it with SIGTERM. 0, or -1
 * with what[] saying why.
 */
int fsmake_make(const struct sweep_fs_kind *k, const char *dev,
		const volatile sig_atomic_t *stop, char *what, size_t wlen);

/*
 * For whoever takes the stop signals: SIGTERM to a running mkfs
 * (async-signal-safe). A thread other than the one running mkfs calls
 * it between fsmake_lock() and fsmake_unlock(), so the pid it reads
 * cannot have been reaped, and reused, meanwhile.
 */
void fsmake_stop_child(void);
void fsmake_lock(void);
void fsmake_unlock(void);

/* Mounts dev (kind k) on a new private mount point m. 0, or -1 with
 * what[] saying why (m->mnt stays set when the directory was made). */
int fsmake_mount(struct fsmake_mount *m, const struct sweep_fs_kind *k,
		 const char *dev, char *what, size_t wlen);

/*
 * Unmounts m and removes its mount point. 0, or -1 after printing each
 * thing that could not be undone: what is left, and why.
 */
int fsmake_unmount(struct fsmake_mount *m);

/* ---- chart.c ---- */

/*
 * --plot's picture and --plot-script's script made under temporary
 * names, before the first cell. 0, or -1 after one line.
 */
int chart_open(const struct sweep_opts *o);

/*
 * The chart of r (and only r) drawn by gnuplot and, with --plot-script,
 * its script saved; both renamed over their names. 0, or -1 after one
 * line (none when a stop ended gnuplot), nothing left.
 */
int chart_finish(const struct sweep_opts *o, const struct sweep_result *r,
		 const volatile sig_atomic_t *stop);

/* What chart_open() made removed (a refusal, failure or stop). */
void chart_abort(void);

/* ---- json.c ---- */

/*
 * The --json document of a run begun at start (doc/clyde-json.5): a new
 * reference, or NULL when it could not be built whole.
 */
json_t *sweep_json_doc(const struct sweep_opts *o, const struct sweep_result *r,
		       time_t start);

#endif
