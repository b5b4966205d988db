/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options_modes: the run's options that pick a way of working rather
 * than a size: the formats (--csv, --format, the per-char meaning they
 * imply), the live outputs (--progress, --log-interval), what the
 * writes carry and how they are checked (--data, --verify and what it
 * cannot go with, --verify-only), and -h and -V, bonnie++'s spellings
 * of --help and --version. --json, -u and -g are the shared entries
 * (optshared.h).
 */
#include "config.h"

#include <string.h>

#include "fill.h"
#include "interval.h"
#include "options_impl.h"
#include "units.h"

int opts_take_csv(struct opt_ctx *c, const char *arg)
{
	if (csv_format_parse(arg, &opts_state(c)->o.csv))
		return opt_refuse(c, "expected 1.98, 1.97 or 1.03");
	return 0;
}

int opts_take_format(struct opt_ctx *c, const char *arg)
{
	if (table_layout_parse(arg, &opts_state(c)->o.layout))
		return opt_refuse(c, "expected 2.00 or 1.03");
	return 0;
}

void opts_settle_per_char(struct clyde_opts *o)
{
	/* A line compared with bonnie++'s of its format must mean what
	 * bonnie++'s does: putc/getc through stdio in 1.03, one-byte
	 * read()/write() calls in 2.00 (format 1.98; 1.97 too). Asking
	 * for either 1.03 layout asks for 1.03's figures. */
	if (o->per_char_set)
		return;
	o->per_char = o->csv == CSV_103 || o->layout == TABLE_103
			  ? PER_CHAR_STDIO
			  : PER_CHAR_SYSCALL;
}

const char *const opts_progress_words[] = {
    [PROGRESS_AUTO] = "auto",
    [PROGRESS_ALWAYS] = "always",
    [PROGRESS_NONE] = "none",
    NULL,
};

/* --progress[=WHEN]: auto, always or none; bare: always. */
int opts_take_progress(struct opt_ctx *c, const char *arg)
{
	const char *const *when = opts_progress_words;
	struct clyde_opts *o = &opts_state(c)->o;

	if (!arg) {
		o->progress = PROGRESS_ALWAYS;
		return 0;
	}
	for (size_t i = 0; when[i]; i++)
		if (strcmp(arg, when[i]) == 0) {
			o->progress = (enum opt_progress)i;
			return 0;
		}
	return opt_refuse(c, "expected auto, always or none");
}

/* --log-interval=MS, 10 ms to an hour (the bounds: interval.h). */
int opts_take_precondition(struct opt_ctx *c, const char *arg)
{
	char why[96];
	uint64_t v = OPT_PRECONDITION_DEFAULT;

	if (arg && (units_parse_uint(arg, OPT_PRECONDITION_MAX, &v, why,
				     sizeof(why)) ||
		    !v))
		return opt_refuse(c, "expected how many times to write the "
				     "data file, 1 to 100");
	opts_state(c)->o.precondition = (unsigned)v;
	return 0;
}

int opts_take_log_interval(struct opt_ctx *c, const char *arg)
{
	char why[96];
	uint64_t v;

	if (units_parse_uint(arg, UINT32_MAX, &v, why, sizeof(why)) || !v)
		return opt_refuse(c, "expected a whole number of milliseconds "
				     "from 10 to 3600000");
	if (v < ILOG_MS_MIN)
		return opt_refuse(c, "too short: under 10 ms the clock reads "
				     "and the log would weigh on what they "
				     "measure");
	if (v > ILOG_MS_MAX)
		return opt_refuse(c, "too long: at most 3600000 ms (an hour)");
	opts_state(c)->o.log_interval_ms = (unsigned)v;
	return 0;
}

/* --data=MODE: lib/fill's modes. */
int opts_take_data(struct opt_ctx *c, const char *arg)
{
	struct clyde_opts *o = &opts_state(c)->o;
	char why[160];

	if (fill_parse(arg, &o->data, why, sizeof(why)))
		return opt_refuse(c, why);
	o->data_arg = arg;
	return 0;
}

int opts_take_verify_only(struct opt_ctx *c, const char *arg)
{
	if (!*arg)
		return opt_refuse(c, "expected the path of a data file --keep "
				     "left");
	opts_state(c)->o.verify_only = arg;
	return 0;
}

int opts_check_data(struct opt_ctx *c, const struct clyde_opts *o)
{
	char v[32];

	if (!o->verify)
		return 0;
	if (o->data.mode == FILL_DEDUPE)
		return opt_bad(c, "--verify with --data", o->data_arg,
			       "a block that repeats another cannot carry "
			       "its own offset; verify random, zero or "
			       "compress:PCT data");
	if (o->chunk % FILL_BLOCK) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)o->chunk);
		return opt_bad(c, "--verify with the chunk size", v,
			       "verified blocks are 4 KiB: give a chunk that "
			       "is a multiple of 4096 (-s SIZE:CHUNK)");
	}
	return 0;
}

/* -h and -V: bonnie++'s spellings of --help and --version. */
int opts_take_help(struct opt_ctx *c, const char *arg)
{
	(void)arg;
	opt_help(c->parser, c->out);
	return 1;
}

int opts_take_version(struct opt_ctx *c, const char *arg)
{
	(void)arg;
	fprintf(c->out, "%s %s\n", c->parser->prog, PACKAGE_VERSION);
	return 1;
}
