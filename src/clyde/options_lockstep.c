/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options_lockstep: bonnie++'s -p and -y, and clyde's --sync-timeout and
 * --barrier-timeout, which run several processes in step (lib/semsync.h
 * has the protocol): their values, and what they cannot go with.
 * bonnie++ 2.00 reads -p with atoi and runs the suite for -p 0 or -p abc;
 * clyde refuses them. Its -y looks at the first letter only, in either
 * case; clyde takes s and p.
 */
#include "config.h"

#include <string.h>

#include "options_impl.h"
#include "semsync.h"
#include "units.h"

int opts_take_sem_procs(struct opt_ctx *c, const char *arg)
{
	struct clyde_opts *o = &opts_state(c)->o;
	char why[96];
	uint64_t v;

	if (!strcmp(arg, "-1")) {
		o->sem_procs = -1;
		return 0;
	}
	if (units_parse_uint(arg, SEMSYNC_PROCS_MAX, &v, why, sizeof(why)) ||
	    v == 0)
		return opt_refuse(c, "expected a number of processes from 1 to "
				     "32767, or -1 to remove the semaphore "
				     "set");
	o->sem_procs = (int)v;
	return 0;
}

const char *const opts_sync_words[] = {"s", "p", NULL};

int opts_take_sync(struct opt_ctx *c, const char *arg)
{
	struct clyde_opts *o = &opts_state(c)->o;

	if (!strcmp(arg, opts_sync_words[0]))
		o->sync = OPT_SYNC_SEM;
	else if (!strcmp(arg, opts_sync_words[1]))
		o->sync = OPT_SYNC_PROMPT;
	else
		return opt_refuse(c,
				  "expected s (semaphores, made by clyde -p) "
				  "or p (a prompt before each test)");
	return 0;
}

int opts_take_sync_timeout(struct opt_ctx *c, const char *arg)
{
	struct clyde_opts *o = &opts_state(c)->o;
	char why[96];
	uint64_t v;

	if (units_parse_uint(arg, OPT_SYNC_TIMEOUT_MAX, &v, why, sizeof(why)) ||
	    v == 0)
		return opt_refuse(c, "expected whole seconds from 1 to "
				     "31536000");
	o->sync_timeout = (unsigned)v;
	o->sync_timeout_arg = arg;
	return 0;
}

int opts_take_barrier_timeout(struct opt_ctx *c, const char *arg)
{
	char why[96];
	uint64_t v;

	if (units_parse_uint(arg, OPT_SYNC_TIMEOUT_MAX, &v, why, sizeof(why)))
		return opt_refuse(c, "expected whole seconds from 0 (no limit) "
				     "to 31536000");
	opts_state(c)->o.barrier_timeout = (unsigned)v;
	return 0;
}

int opts_check_lockstep(struct opt_ctx *c, const struct clyde_opts *o)
{
	if (o->sem_procs && o->sync)
		return opt_error(c, "-p with -y: -p only makes or removes the "
				    "semaphore set, and runs no test");
	if (o->sem_procs && o->json)
		return opt_error(c, "--json with -p: -p runs no test, so there "
				    "is no result to write");
	if (o->sync_timeout_arg && o->sync != OPT_SYNC_SEM)
		return opt_bad(c, "--sync-timeout", o->sync_timeout_arg,
			       "only -y s waits (at semaphores)");
	if (o->sync == OPT_SYNC_SEM && o->repeats > 1)
		return opt_error(c,
				 "-y s with -x %u: a semaphore set serves one "
				 "run; make it again (clyde -p N) between runs",
				 o->repeats);
	return 0;
}
