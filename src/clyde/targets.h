/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * targets: the directories a run writes in (-d, given once or more):
 * each checked before the first test (a directory, not named twice,
 * room for its data files and file sets, counting every target on the
 * same filesystem), each given its own scratch directory, O_DIRECT
 * probed in each under -D, and every scratch directory removed at the
 * end. One target is a plain run; several are one worker group per
 * target, all started together (runner_workers.c).
 */
#ifndef CLYDE_TARGETS_H
#define CLYDE_TARGETS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "scratch.h"

struct targets {
	unsigned n;			   /* o->ndirs */
	struct scratch s[OPT_TARGETS_MAX]; /* target i's scratch */
};

struct run_plan;

/*
 * Every -d: a directory, none named twice, each filesystem with room
 * for what its targets need in plan rp (a size clyde chose shrinks in
 * rp to fit). Prints one line and returns -1 on the first refusal.
 */
int targets_check(struct run_plan *rp);

/*
 * --keep, before targets_remove: every data file of the scratch
 * directories (DIR/clyde.X/data, DIR/clyde.X/w.K/data) moved to its -d
 * as clyde-kept.SEED (clyde-kept.SEED.w.K), never over a file there
 * (renameat2 with RENAME_NOREPLACE; where the filesystem refuses rename
 * flags, link then unlink), each said in one line on err. 0, or -1 when
 * one could not be kept (it is then removed with the scratch directory).
 */
int targets_keep(struct targets *t, const struct clyde_opts *o, uint64_t seed,
		 FILE *err);

/*
 * Under --keep or --journal, after targets_create: whether each
 * scratch directory's filesystem can move a file without replacing a
 * name (a probe file made, moved and removed), so that a data file it
 * could not keep is said before the run writes it. 0, or -1 after one
 * line.
 */
int targets_probe_keep(struct targets *t, const struct clyde_opts *o);

/* Every target's scratch directory made; -1 after one line (then the
 * ones made are still removed by targets_remove). */
int targets_create(struct targets *t, const struct clyde_opts *o);

/*
 * Under -D: whether each target takes O_DIRECT with this chunk. 0, or
 * the exit status after one line (2: the user's choice to change, 1:
 * the probe failed).
 */
int targets_probe_direct(struct targets *t, const struct clyde_opts *o,
			 unsigned char *buf);

/*
 * Every scratch directory removed, and its watcher reaped (killed when
 * it does not leave in time: scratch_unwatch; then a line on err says
 * so). 0, or -1 with the first one left and why in path[plen] and
 * why[wlen] (the others are still tried).
 */
int targets_remove(struct targets *t, const volatile sig_atomic_t *stop,
		   char *path, size_t plen, char *why, size_t wlen, FILE *err);

/*
 * The exit status once everything is cleaned up (targets_remove's rm_rc,
 * left and rm_why), and the last line: a scratch directory left behind
 * is named with why, and never called removed (exit 1, even after a
 * signal); then the first signal's status (stop, 128 + signo), its line
 * saying done ("scratch files removed"); then status; then a closed
 * stdout (141, silent; out_err its errno).
 */
int targets_finish(int status, int stop, const char *left, int rm_rc,
		   const char *rm_why, int out_err, const char *done);

#endif
