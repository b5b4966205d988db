/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lockstep: clyde's side of bonnie++'s -p and -y, which start each test
 * of several processes together (the protocol: lib/semsync.h). -p N
 * makes the semaphore set and -p -1 removes it, printing bonnie++'s
 * lines; -y s opens it before anything is made, and before each test
 * that runs, its semaphore is waited at, outside the timed window (the
 * runner's sync hook); -y p prints bonnie++'s prompt instead and reads a
 * line. A figure bonnie++ does not have, and a test that does not run,
 * wait for nothing, as in bonnie++.
 */
#ifndef CLYDE_LOCKSTEP_H
#define CLYDE_LOCKSTEP_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "options.h"

struct lockstep {
	enum opt_sync mode;
	int id;		  /* the semaphore set (-y s) */
	unsigned timeout; /* seconds at one test (--sync-timeout) */
	const volatile sig_atomic_t *stop;
	FILE *prompt, *in; /* -y p: the prompt's stream and the answer's */
};

/*
 * -p: make the set for o->sem_procs processes ("Creating semaphore for
 * N procs." on out, which is stdout) or, for -1, remove it ("Semaphore
 * removed."). The exit status: stdout's closing (cli_stdout_close), or
 * CLI_EXIT_FAILED after one line on err.
 */
int lockstep_make(const struct clyde_opts *o, FILE *out, FILE *err);

/*
 * Ready ls for the runs o asks for: under -y s, the set opened (none, or
 * one that is not bonnie++'s: one line on err and -1, before any file
 * is made). 0 or -1.
 */
int lockstep_open(struct lockstep *ls, const struct clyde_opts *o,
		  const volatile sig_atomic_t *stop, FILE *err);

/*
 * The runner's sync hook (runner_env.sync, with ls as its arg): wait
 * before test t as ls says. 0 to go on (at once without -y), or -errno
 * with what names the wait: -ETIME after the timeout, -EINTR on a stop.
 */
int lockstep_wait(void *ls, enum result_test t, char *what, size_t len);

#endif
