/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options_lockstep: bonnie++'s -p and -y, and clyde's --sync-timeout, which
 * run several processes in step (lib/semsync.h has the protocol): their
 * values, and what they cannot go with. bonnie++ 2.00 reads -p with
 * atoi and runs the suite for -p 0 or -p abc; clyde refuses them. Its -y
 * looks at the first letter only, in either case; clyde takes s and p.
 * opts_check_sync, the parser's one check of the synchronising options,
 * ends with that of the synchronous writes' (options_sync_write.c).
 */
#include "config.h"

#include <string.h>

#include "options_impl.h"
#include "semsync.h"
#include "units.h"

enum opt_status opts_parse_sem_procs(const char *arg, struct clyde_opts *o,
				     FILE *err)
{
	char why[96];
	uint64_t v;

	if (!strcmp(arg, "-1")) {
		o->sem_procs = -1;
		return OPT_RUN;
	}
	if (units_parse_uint(arg, SEMSYNC_PROCS_MAX, &v, why, sizeof(why)) ||
	    v == 0)
		return opts_bad(err, "-p", arg,
				"expected a number of processes from 1 to "
				"32767, or -1 to remove the semaphore set");
	o->sem_procs = (int)v;
	return OPT_RUN;
}

enum opt_status opts_parse_sync(const char *arg, struct clyde_opts *o,
				FILE *err)
{
	if (!strcmp(arg, "s"))
		o->sync = OPT_SYNC_SEM;
	else if (!strcmp(arg, "p"))
		o->sync = OPT_SYNC_PROMPT;
	else
		return opts_bad(err, "-y", arg,
				"expected s (semaphores, made by clyde -p) or "
				"p (a prompt before each test)");
	return OPT_RUN;
}

enum opt_status opts_parse_sync_timeout(const char *arg, struct clyde_opts *o,
					FILE *err)
{
	uint64_t v;
	enum opt_status st = opts_parse_count(
	    "--sync-timeout", arg, OPT_SYNC_TIMEOUT_MAX,
	    "expected whole seconds from 1 to 31536000", &v, err);

	if (st != OPT_RUN)
		return st;
	o->sync_timeout = (unsigned)v;
	o->sync_timeout_arg = arg;
	return OPT_RUN;
}

enum opt_status opts_parse_barrier_timeout(const char *arg,
					   struct clyde_opts *o, FILE *err)
{
	char why[96];
	uint64_t v;

	if (units_parse_uint(arg, OPT_SYNC_TIMEOUT_MAX, &v, why, sizeof(why)))
		return opts_bad(err, "--barrier-timeout", arg,
				"expected whole seconds from 0 (no limit) to "
				"31536000");
	o->barrier_timeout = (unsigned)v;
	return OPT_RUN;
}

enum opt_status opts_check_sync(struct clyde_opts *o, FILE *err)
{
	if (o->sem_procs && o->sync) {
		fprintf(err, "clyde: -p with -y: -p only makes or removes the "
			     "semaphore set, and runs no test\n");
		return OPT_USAGE;
	}
	if (o->sem_procs && o->json) {
		fprintf(err, "clyde: --json with -p: -p runs no test, so there "
			     "is no result to write\n");
		return OPT_USAGE;
	}
	if (o->sync_timeout_arg && o->sync != OPT_SYNC_SEM)
		return opts_bad(err, "--sync-timeout", o->sync_timeout_arg,
				"only -y s waits (at semaphores)");
	if (o->sync == OPT_SYNC_SEM && o->repeats > 1) {
		fprintf(err,
			"clyde: -y s with -x %u: a semaphore set serves one "
			"run; make it again (clyde -p N) between runs\n",
			o->repeats);
		return OPT_USAGE;
	}
	return opts_check_sync_write(o, err);
}
