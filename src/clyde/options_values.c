/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options_values: the values with a form of their own, checked field by
 * field: -s size[:chunk[:seeks[:procs]]], -n num[:max[:min[:dirs[:chunk]]]]
 * and --only's list of tests. Sizes follow bonnie++: a bare -s number is
 * MiB, a bare chunk bytes. Also -c, -d, the per-char mode's default and
 * bonnie++'s -Z, refused.
 */
#include "config.h"

#include <string.h>

#include "options_impl.h"
#include "interval.h"
#include "units.h"

#define MIN_CHUNK 256u
#define MAX_CHUNK (1024u * 1024u)

/*
 * Split arg at colons into buf (256 bytes) and f[max + 1]. Returns the
 * field count, or -1 (one line printed) when arg is too long or has more
 * than max fields.
 */
static int split_fields(const char *opt, const char *arg, const char *form,
			char *buf, char **f, int max, FILE *err)
{
	int n = 0;

	if (strlen(arg) >= 256) {
		opts_bad(err, opt, arg, "too long");
		return -1;
	}
	strcpy(buf, arg);
	for (char *p = buf; n <= max;) {
		f[n++] = p;
		p = strchr(p, ':');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (n > max) {
		opts_bad(err, opt, arg, form);
		return -1;
	}
	return n;
}

/* A chunk: a size in bytes, a power of two from 256 to 1 MiB. */
static enum opt_status parse_chunk(const char *opt, const char *s,
				   uint64_t *out, FILE *err)
{
	char why[96];
	uint64_t v;

	if (units_parse_size(s, 1, &v, why, sizeof(why)))
		return opts_bad(err, opt, s, why);
	if (v < MIN_CHUNK || v > MAX_CHUNK)
		return opts_bad(err, opt, s,
				"chunk must be between 256 and 1m bytes");
	if (v & (v - 1))
		return opts_bad(err, opt, s, "chunk must be a power of two");
	*out = v;
	return OPT_RUN;
}

/* -s size[:chunk[:seeks[:procs]]] */
enum opt_status opts_parse_size(const char *arg, struct clyde_opts *o,
				FILE *err)
{
	char buf[256], why[96];
	char *fields[5] = {0};
	int n = split_fields("-s", arg, "expected size[:chunk[:seeks[:procs]]]",
			     buf, fields, 4, err);
	uint64_t v;

	if (n < 0)
		return OPT_USAGE;
	if (units_parse_size(fields[0], UNITS_MIB, &v, why, sizeof(why)))
		return opts_bad(err, "-s", fields[0], why);
	if (v % UNITS_MIB)
		return opts_bad(err, "-s", fields[0],
				"size must be a whole number of MiB");
	o->size = v;
	o->size_set = 1;
	for (int i = 1; v == 0 && i < n; i++)
		if (*fields[i])
			return opts_bad(err, "-s", arg,
					"-s 0 skips the I/O tests: it takes no "
					"chunk, seeks or procs");
	if (n > 1 && *fields[1] &&
	    parse_chunk("-s", fields[1], &o->chunk, err) != OPT_RUN)
		return OPT_USAGE;
	if (n > 2 && *fields[2]) {
		if (units_parse_uint(fields[2], UINT32_MAX, &v, why,
				     sizeof(why)))
			return opts_bad(err, "-s", fields[2], why);
		if (v == 0)
			return opts_bad(err, "-s", fields[2],
					"seek count must be at least 1");
		o->seeks = v;
		o->seeks_set = 1;
	}
	if (n > 3 && *fields[3]) {
		if (units_parse_uint(fields[3], 1000, &v, why, sizeof(why)))
			return opts_bad(err, "-s", fields[3],
					"seeker processes must be 1..1000");
		if (v == 0)
			return opts_bad(err, "-s", fields[3],
					"seeker processes must be 1..1000");
		o->procs = (unsigned)v;
	}
	if (o->size && o->size % o->chunk)
		return opts_bad(err, "-s", arg,
				"size must be a multiple of the chunk");
	return OPT_RUN;
}

/* -n num[:max[:min[:dirs[:chunk]]]] */
enum opt_status opts_parse_files(const char *arg, struct clyde_opts *o,
				 FILE *err)
{
	char buf[256], why[96];
	char *f[6] = {0};
	int n =
	    split_fields("-n", arg, "expected num[:max[:min[:dirs[:chunk]]]]",
			 buf, f, 5, err);
	uint64_t v;
	size_t len;

	if (n < 0)
		return OPT_USAGE;
	/* num: a count of 1024 files; an m suffix multiplies by 1024. */
	len = strlen(f[0]);
	if (len && (f[0][len - 1] == 'm' || f[0][len - 1] == 'M')) {
		f[0][len - 1] = '\0';
		if (units_parse_uint(f[0], OPT_FILES_NUM_MAX / 1024, &v, why,
				     sizeof(why)) ||
		    !*f[0]) {
			f[0][len - 1] = 'm';
			return opts_bad(err, "-n", f[0],
					*why ? why : "not a number");
		}
		v *= 1024;
	} else if (units_parse_uint(f[0], OPT_FILES_NUM_MAX, &v, why,
				    sizeof(why))) {
		return opts_bad(err, "-n", f[0], why);
	}
	for (int i = 1; v == 0 && i < n; i++)
		if (*f[i])
			return opts_bad(
			    err, "-n", arg,
			    "-n 0 runs no file tests: it takes no sizes, "
			    "directories or chunk");
	o->files_num = v;
	o->files_max = 0;
	o->files_min = 0;
	o->files_dirs = 0;
	o->files_chunk = OPT_FILES_CHUNK_DEFAULT;
	if (n > 1 && *f[1]) {
		if (!strcmp(f[1], "-1") || !strcmp(f[1], "-2")) {
			o->files_max = -(f[1][1] - '0');
		} else {
			if (units_parse_size(f[1], 1, &v, why, sizeof(why)))
				return opts_bad(err, "-n", f[1], why);
			if (v > INT64_MAX)
				return opts_bad(err, "-n", f[1], "too large");
			o->files_max = (int64_t)v;
		}
	}
	if (n > 2 && *f[2]) {
		if (units_parse_size(f[2], 1, &v, why, sizeof(why)))
			return opts_bad(err, "-n", f[2], why);
		if (o->files_max < 0 && v)
			return opts_bad(
			    err, "-n", arg,
			    "links (max -1 or -2) take no min size");
		if (o->files_max >= 0 && v > (uint64_t)o->files_max)
			return opts_bad(err, "-n", arg,
					"min size is larger than max size");
		o->files_min = v;
	}
	if (n > 3 && *f[3]) {
		if (units_parse_uint(f[3], UINT32_MAX, &v, why, sizeof(why)))
			return opts_bad(err, "-n", f[3], why);
		if (v > 99999)
			return opts_bad(err, "-n", f[3],
					"at most 99999 directories");
		o->files_dirs = (unsigned)v;
	}
	if (n > 4 && *f[4]) {
		if (o->files_max <= 0)
			return opts_bad(
			    err, "-n", arg,
			    "empty files and links (max 0, -1 or -2) "
			    "write no data: no chunk");
		if (parse_chunk("-n", f[4], &o->files_chunk, err) != OPT_RUN)
			return OPT_USAGE;
	}
	return OPT_RUN;
}

/* --only=a,b,c: the registry's keys (figures.h); a file test brings its
 * pass. */
enum opt_status opts_parse_only(const char *arg, struct clyde_opts *o,
				FILE *err)
{
	const char *p = arg;

	if (arg[strspn(arg, ",")] == '\0')
		return opts_bad(err, "--only", arg,
				"expected a list of test names");
	o->only = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		char tok[32];
		int t = RT_COUNT;

		/* "a,,b", ",a", "a,": an empty name is a typo, not "all". */
		if (len == 0)
			return opts_bad(
			    err, "--only", arg,
			    "an empty test name (a comma too many)");
		if (len < sizeof(tok)) {
			memcpy(tok, p, len);
			tok[len] = '\0';
			t = figure_find(tok);
		}
		/* Another program's figure: say which one measures it. */
		if (t < 0 && len < sizeof(tok) && extfig_find(tok) >= 0) {
			char why[96];

			snprintf(why, sizeof(why), "%s is measured by %s", tok,
				 figure_of(extfig_find(tok))->program);
			return opts_bad(err, "--only", tok, why);
		}
		if (t < 0 || t == RT_COUNT) {
			char name[1024], why[RT_COUNT * 24];

			snprintf(name, sizeof(name), "%.*s", (int)len, p);
			snprintf(why, sizeof(why), "not a test (");
			figure_keys(why + strlen(why),
				    sizeof(why) - strlen(why), ", ");
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 ")");
			return opts_bad(err, "--only", name, why);
		}
		o->only |= figure_only_bits(t);
		if (!p[len])
			break;
		p += len + 1;
	}
	return OPT_RUN;
}

/* -c: bonnie++ takes 1 to 200 copies of each test at once; every
 * refusal says so. */
enum opt_status opts_parse_concurrency(const char *arg, struct clyde_opts *o,
				       FILE *err)
{
	char why[96] = "no copies", msg[160];
	uint64_t v = 0;

	if (units_parse_uint(arg, OPT_CONCURRENCY_MAX, &v, why, sizeof(why)) ||
	    v == 0) {
		snprintf(msg, sizeof(msg), "%s: the accepted range is 1 to %u",
			 why, OPT_CONCURRENCY_MAX);
		return opts_bad(err, "-c", arg, msg);
	}
	o->concurrency = (unsigned)v;
	return OPT_RUN;
}

enum opt_status opts_add_dir(const char *arg, struct clyde_opts *o, FILE *err)
{
	char msg[64];

	if (!*arg)
		return opts_bad(err, "-d", arg, "empty directory");
	if (o->ndirs == OPT_TARGETS_MAX) {
		snprintf(msg, sizeof(msg), "more than %u directories",
			 OPT_TARGETS_MAX);
		return opts_bad(err, "-d", arg, msg);
	}
	o->dirs[o->ndirs++] = arg;
	o->dir = o->dirs[0];
	return OPT_RUN;
}

enum opt_status opts_check_targets(struct clyde_opts *o, FILE *err)
{
	char arg[32];

	if (!o->ndirs)
		o->ndirs = 1;
	if (o->ndirs * o->concurrency <= OPT_WORKERS_MAX)
		return OPT_RUN;
	snprintf(arg, sizeof(arg), "%u", o->concurrency);
	fprintf(err,
		"clyde: -c %s with %u -d directories: %u workers, more than "
		"the %u clyde runs at once\n",
		arg, o->ndirs, o->ndirs * o->concurrency, OPT_WORKERS_MAX);
	return OPT_USAGE;
}

enum opt_status opts_parse_count(const char *name, const char *arg,
				 uint64_t max, const char *msg, uint64_t *v,
				 FILE *err)
{
	char why[96];

	if (units_parse_uint(arg, max, v, why, sizeof(why)) || *v == 0)
		return opts_bad(err, name, arg, msg);
	return OPT_RUN;
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

enum opt_status opts_refuse_random_file(const char *arg, struct clyde_opts *o,
					FILE *err)
{
	/* bonnie++ reads its random choices from the file; clyde draws
	 * them, and the data, from one seed, which -z repeats. A file of
	 * random numbers would repeat nothing -z does not. */
	(void)o;
	return opts_bad(err, "-Z", arg,
			"random numbers from a file are not supported: use "
			"-z SEED to repeat a run's random choices and data");
}

enum opt_status opts_parse_progress(const char *arg, struct clyde_opts *o,
				    FILE *err)
{
	static const char *const when[] = {
	    [PROGRESS_AUTO] = "auto",
	    [PROGRESS_ALWAYS] = "always",
	    [PROGRESS_NONE] = "none",
	};

	if (!arg) {
		o->progress = PROGRESS_ALWAYS;
		return OPT_RUN;
	}
	for (size_t i = 0; i < sizeof(when) / sizeof(when[0]); i++)
		if (strcmp(arg, when[i]) == 0) {
			o->progress = (enum opt_progress)i;
			return OPT_RUN;
		}
	return opts_bad(err, "--progress", arg,
			"expected auto, always or none");
}

enum opt_status opts_parse_log_interval(const char *arg, struct clyde_opts *o,
					FILE *err)
{
	char why[96];
	uint64_t v;

	if (units_parse_uint(arg, UINT32_MAX, &v, why, sizeof(why)) || !v)
		return opts_bad(err, "--log-interval", arg,
				"expected a whole number of milliseconds "
				"from 10 to 3600000");
	if (v < ILOG_MS_MIN)
		return opts_bad(err, "--log-interval", arg,
				"too short: under 10 ms the clock reads and "
				"the log would weigh on what they measure");
	if (v > ILOG_MS_MAX)
		return opts_bad(err, "--log-interval", arg,
				"too long: at most 3600000 ms (an hour)");
	o->log_interval_ms = (unsigned)v;
	return OPT_RUN;
}
