/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options_sync_write: the options of the sync_write figure (phase_sync_write.c)
 * and their defaults. --sync-method names how each write is made durable,
 * --sync-size how large it is (a size, default 8 KiB), and the figure
 * stops at the earlier of --sync-ops writes and --sync-time seconds, so it
 * runs by default and costs about a second on a slow disk. A bad value is
 * one line naming it, exit 2; under -D the size must be whole 512-byte
 * sectors, which only opts_check_sync_write can tell, once every option
 * is read.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "options_impl.h"
#include "units.h"

/* The longest --sync-time, seconds (an hour), and the most --sync-ops. */
#define SYNCW_TIME_MAX 3600.0

static const char *const method_names[] = {
    [OPT_SYNCW_FDATASYNC] = "fdatasync",
    [OPT_SYNCW_FSYNC] = "fsync",
    [OPT_SYNCW_DSYNC] = "dsync",
    [OPT_SYNCW_SYNC] = "sync",
};

const char *opts_sync_method_name(enum opt_sync_method m)
{
	return method_names[m];
}

enum opt_status opts_parse_sync_method(const char *arg, struct clyde_opts *o,
				       FILE *err)
{
	for (size_t i = 0; i < sizeof(method_names) / sizeof(method_names[0]);
	     i++)
		if (!strcmp(arg, method_names[i])) {
			o->sync_method = (enum opt_sync_method)i;
			return OPT_RUN;
		}
	return opts_bad(err, "--sync-method", arg,
			"expected fdatasync, fsync, dsync (O_DSYNC) or sync "
			"(O_SYNC)");
}

enum opt_status opts_parse_sync_size(const char *arg, struct clyde_opts *o,
				     FILE *err)
{
	char why[96];
	uint64_t v;

	if (units_parse_size(arg, 1, &v, why, sizeof(why)))
		return opts_bad(err, "--sync-size", arg, why);
	if (v == 0 || v > OPT_SYNCW_SIZE_MAX)
		return opts_bad(err, "--sync-size", arg,
				"expected 1 byte to 16m");
	o->sync_size = v;
	o->sync_size_arg = arg;
	return OPT_RUN;
}

enum opt_status opts_parse_sync_ops(const char *arg, struct clyde_opts *o,
				    FILE *err)
{
	uint64_t v;
	enum opt_status st =
	    opts_parse_count("--sync-ops", arg, SYNCW_OPS_MAX,
			     "expected a number of writes from 1 to "
			     "100000000",
			     &v, err);

	if (st == OPT_RUN) {
		o->sync_ops = v;
		o->sync_bound_set = 1;
	}
	return st;
}

enum opt_status opts_parse_sync_time(const char *arg, struct clyde_opts *o,
				     FILE *err)
{
	char *end;
	double v;

	/* Plain decimal seconds: no sign, no exponent, no hex, no inf. */
	if (!arg[0] || strspn(arg, "0123456789.") != strlen(arg))
		return opts_bad(err, "--sync-time", arg,
				"expected seconds, e.g. 1 or 0.5");
	v = strtod(arg, &end);
	if (*end || !isfinite(v) || v <= 0 || v > SYNCW_TIME_MAX)
		return opts_bad(err, "--sync-time", arg,
				"expected seconds above 0, at most 3600");
	o->sync_time = v;
	o->sync_bound_set = 1;
	return OPT_RUN;
}

enum opt_status opts_check_sync_write(struct clyde_opts *o, FILE *err)
{
	if (!o->sync_size)
		o->sync_size = OPT_SYNCW_SIZE_DEFAULT;
	if (!o->sync_ops)
		o->sync_ops = OPT_SYNCW_OPS_DEFAULT;
	if (o->sync_time <= 0)
		o->sync_time = OPT_SYNCW_TIME_DEFAULT;
	if (o->direct && o->sync_size % 512)
		return opts_bad(err, "--sync-size", o->sync_size_arg,
				"-D writes whole 512-byte sectors: give a "
				"multiple of 512");
	return OPT_RUN;
}
