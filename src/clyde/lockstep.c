/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lockstep: see lockstep.h. What bonnie++ 2.00 prints and reads is kept:
 * -p's lines on stdout, -y p's prompt "\nN:\n" (N the test's semaphore)
 * on stdout and one line read from stdin, end of file going on. Under
 * --json to stdout the prompt goes to stderr, so stdout holds the
 * document alone.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "cli.h"
#include "lockstep.h"
#include "semsync.h"

int lockstep_make(const struct clyde_opts *o, FILE *out, FILE *err)
{
	int rc;

	if (o->sem_procs < 0) {
		rc = semsync_remove(SEMSYNC_KEY);
		if (rc == 0) {
			fprintf(out, "Semaphore removed.\n");
			return cli_stdout_close();
		}
		if (rc == -ENOENT)
			error_on(err,
				 "-p -1: no semaphore set with key "
				 "0x%x to remove",
				 SEMSYNC_KEY);
		else
			error_on(err,
				 "-p -1: removing the semaphore set "
				 "0x%x: %s",
				 SEMSYNC_KEY, strerror(-rc));
		return CLI_EXIT_FAILED;
	}
	rc = semsync_create(SEMSYNC_KEY, (unsigned)o->sem_procs);
	if (rc == 0) {
		fprintf(out, "Creating semaphore for %d procs.\n",
			o->sem_procs);
		return cli_stdout_close();
	}
	if (rc == -EINVAL)
		error_on(err,
			 "-p %d: the semaphore set with key 0x%x has "
			 "fewer than %d semaphores, so it is not bonnie++'s; "
			 "remove it first (ipcrm -S 0x%x)",
			 o->sem_procs, SEMSYNC_KEY, SEMSYNC_SEMS, SEMSYNC_KEY);
	else
		error_on(err, "-p %d: making the semaphore set 0x%x: %s",
			 o->sem_procs, SEMSYNC_KEY, strerror(-rc));
	return CLI_EXIT_FAILED;
}

int lockstep_open(struct lockstep *ls, const struct clyde_opts *o,
		  const volatile sig_atomic_t *stop, FILE *err)
{
	int rc;

	memset(ls, 0, sizeof(*ls));
	ls->mode = o->sync;
	ls->timeout = o->sync_timeout;
	ls->stop = stop;
	ls->id = -1;
	ls->prompt = o->json && !o->json_path ? stderr : stdout;
	ls->in = stdin;
	if (ls->mode != OPT_SYNC_SEM)
		return 0;
	rc = semsync_open(SEMSYNC_KEY, &ls->id);
	if (rc == 0)
		return 0;
	if (rc == -ENOENT)
		error_on(err,
			 "-y s: no semaphore set with key 0x%x: make it "
			 "first with clyde -p N (N: the processes to run in "
			 "step)",
			 SEMSYNC_KEY);
	else if (rc == -EINVAL)
		error_on(err,
			 "-y s: the semaphore set with key 0x%x has "
			 "fewer than %d semaphores, so it is not bonnie++'s",
			 SEMSYNC_KEY, SEMSYNC_SEMS);
	else
		error_on(err, "-y s: the semaphore set 0x%x: %s", SEMSYNC_KEY,
			 strerror(-rc));
	return -1;
}

/*
 * -y p: the prompt, then a line from stdin (or its end). A prompt that
 * cannot be written is let go: a closed stdout ends the run where the
 * results are written.
 */
static int prompt(struct lockstep *ls, int slot, char *what, size_t len)
{
	char line[256];

	fflush(stderr);
	fprintf(ls->prompt, "\n%d:\n", slot);
	fflush(ls->prompt);
	for (;;) {
		if (fgets(line, sizeof(line), ls->in)) {
			if (strchr(line, '\n'))
				return 0;
			continue;
		}
		if (feof(ls->in))
			return 0;
		if (*ls->stop)
			return -EINTR;
		if (errno != EINTR) {
			snprintf(what, len,
				 "reading the answer to -y p's prompt from "
				 "stdin");
			return -(errno ? errno : EIO);
		}
		clearerr(ls->in);
	}
}

int lockstep_wait(void *arg, enum result_test t, char *what, size_t len)
{
	struct lockstep *ls = arg;
	int slot = semsync_slot(t), rc;

	if (ls->mode == OPT_SYNC_NONE || slot < 0)
		return 0;
	if (ls->mode == OPT_SYNC_PROMPT)
		return prompt(ls, slot, what, len);
	rc = semsync_wait(ls->id, (unsigned)slot, ls->timeout, ls->stop);
	if (rc == -ETIMEDOUT) {
		snprintf(what, len,
			 "waited %u s (--sync-timeout) at semaphore %d of set "
			 "0x%x for the other processes",
			 ls->timeout, slot, SEMSYNC_KEY);
		return -ETIME;
	}
	if (rc == -EAGAIN)
		snprintf(what, len,
			 "semaphore %d of set 0x%x is at 0: more processes "
			 "than it was made for, or a set already used (make "
			 "it again with clyde -p N)",
			 slot, SEMSYNC_KEY);
	else if (rc)
		snprintf(what, len, "waiting at semaphore %d of set 0x%x", slot,
			 SEMSYNC_KEY);
	return rc;
}
