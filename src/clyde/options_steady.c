/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options_steady: --steady[=RULE], --round=S and --steady-max=S, the
 * options of the steady-state rounds (steady_watch.h), and the checks of
 * what they go with. Part of clyde's parser (options_impl.h).
 */
#include "config.h"

#include <stdio.h>

#include "options_impl.h"
#include "steady.h"
#include "units.h"

int opts_take_steady(struct opt_ctx *c, const char *arg)
{
	struct clyde_opts *o = &opts_state(c)->o;
	char why[160];

	o->steady = 1;
	if (!arg) {
		steady_rule_default(&o->steady_rule);
		return 0;
	}
	if (steady_parse(arg, &o->steady_rule, why, sizeof(why)))
		return opt_refuse(c, why);
	return 0;
}

/* Whole seconds from 1 to OPT_STEADY_MAX_MAX. */
static int take_seconds(struct opt_ctx *c, const char *arg, unsigned *to)
{
	char why[96];
	uint64_t v;

	if (units_parse_uint(arg, OPT_STEADY_MAX_MAX, &v, why, sizeof(why)) ||
	    !v)
		return opt_refuse(c, "expected whole seconds, 1 to 86400");
	*to = (unsigned)v;
	return 0;
}

int opts_take_round(struct opt_ctx *c, const char *arg)
{
	struct opts_parse *ps = opts_state(c);

	ps->round = arg;
	return take_seconds(c, arg, &ps->o.steady_round_s);
}

int opts_take_steady_max(struct opt_ctx *c, const char *arg)
{
	struct opts_parse *ps = opts_state(c);

	ps->steady_max = arg;
	return take_seconds(c, arg, &ps->o.steady_max_s);
}

int opts_check_steady(struct opt_ctx *c, const struct opts_parse *ps)
{
	const struct clyde_opts *o = &ps->o;
	char why[160];

	if (!o->steady) {
		if (ps->round)
			return opt_bad(c, "--round", ps->round,
				       "rounds are --steady's: give it too");
		if (ps->steady_max)
			return opt_bad(c, "--steady-max", ps->steady_max,
				       "a limit of --steady's: give it too");
		return 0;
	}
	if ((uint64_t)o->steady_round_s * o->steady_rule.rounds >
	    o->steady_max_s) {
		snprintf(why, sizeof(why),
			 "shorter than one window (%u rounds of %u s): the "
			 "test could never be steady",
			 o->steady_rule.rounds, o->steady_round_s);
		char v[16];

		snprintf(v, sizeof(v), "%u", o->steady_max_s);
		return opt_bad(c, "--steady-max", v, why);
	}
	if (o->steady_rule.on == STEADY_P99 && o->no_latency)
		return opt_error(c, "--steady with :p99 and --no-latency: the "
				    "rounds' p99 needs every latency "
				    "recorded");
	if (o->concurrency > 1 || o->ndirs > 1)
		return opt_error(c,
				 "--steady with %s: each worker would "
				 "settle at its own time; run one worker "
				 "on one target",
				 o->concurrency > 1 ? "-c" : "several -d");
	return 0;
}
