/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options_ran: the options of the random-I/O figures, ran_read and
 * ran_write: --ran-bs (bytes per operation), --iodepth (operations in
 * flight), --ran-ops and --ran-time (the bounds: the test stops at the
 * earlier); and --data, the content of every write of the data file
 * (lib/fill's modes), which the random writes carry too. Each keeps what was
 * given in struct clyde_opts; ran_io.h holds the defaults and bounds and
 * settles them.
 */
#include "config.h"

#include "fill.h"
#include "options_impl.h"
#include "ran_io.h"
#include "units.h"

enum opt_status opts_parse_ran_bs(const char *arg, struct clyde_opts *o,
				  FILE *err)
{
	char why[96];
	uint64_t v;

	if (units_parse_size(arg, 1, &v, why, sizeof(why)))
		return opts_bad(err, "--ran-bs", arg, why);
	if (v < RAN_BS_MIN || v > RAN_BS_MAX || v % RAN_BS_MIN)
		return opts_bad(err, "--ran-bs", arg,
				"expected a multiple of 512 bytes from 512 "
				"to 16m");
	o->ran_bs = v;
	return OPT_RUN;
}

enum opt_status opts_parse_iodepth(const char *arg, struct clyde_opts *o,
				   FILE *err)
{
	uint64_t v;
	enum opt_status st = opts_parse_count(
	    "--iodepth", arg, RAN_IODEPTH_MAX,
	    "expected operations in flight from 1 to 1024", &v, err);

	if (st == OPT_RUN)
		o->ran_iodepth = (unsigned)v;
	return st;
}

enum opt_status opts_parse_ran_ops(const char *arg, struct clyde_opts *o,
				   FILE *err)
{
	uint64_t v;
	enum opt_status st =
	    opts_parse_count("--ran-ops", arg, RAN_OPS_MAX,
			     "expected a count of operations from 1 to "
			     "1099511627776",
			     &v, err);

	if (st == OPT_RUN)
		o->ran_ops = v;
	return st;
}

enum opt_status opts_parse_data(const char *arg, struct clyde_opts *o,
				FILE *err)
{
	char why[160];

	if (fill_parse(arg, &o->data, why, sizeof(why)))
		return opts_bad(err, "--data", arg, why);
	o->data_arg = arg;
	return OPT_RUN;
}

enum opt_status opts_parse_verify_only(const char *arg, struct clyde_opts *o,
				       FILE *err)
{
	if (!*arg)
		return opts_bad(err, "--verify-only", arg,
				"expected the path of a data file --keep left");
	o->verify_only = arg;
	return OPT_RUN;
}

enum opt_status opts_check_data(const struct clyde_opts *o, FILE *err)
{
	char v[32];

	if (!o->verify)
		return OPT_RUN;
	if (o->data.mode == FILL_DEDUPE)
		return opts_bad(err, "--verify with --data", o->data_arg,
				"a block that repeats another cannot carry "
				"its own offset; verify random, zero or "
				"compress:PCT data");
	if (o->chunk % FILL_BLOCK) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)o->chunk);
		return opts_bad(err, "--verify with the chunk size", v,
				"verified blocks are 4 KiB: give a chunk that "
				"is a multiple of 4096 (-s SIZE:CHUNK)");
	}
	if (o->ran_bs % FILL_BLOCK) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)o->ran_bs);
		return opts_bad(err, "--verify with --ran-bs", v,
				"verified blocks are 4 KiB: give a multiple "
				"of 4096");
	}
	return OPT_RUN;
}

enum opt_status opts_parse_ran_time(const char *arg, struct clyde_opts *o,
				    FILE *err)
{
	uint64_t v;
	enum opt_status st =
	    opts_parse_count("--ran-time", arg, RAN_TIME_MAX,
			     "expected whole seconds from 1 to 86400", &v, err);

	if (st == OPT_RUN)
		o->ran_time = (unsigned)v;
	return st;
}
