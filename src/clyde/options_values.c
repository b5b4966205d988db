/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options_values: the values with a form of their own, checked field by
 * field: -s size[:chunk[:seeks[:procs]]], -n num[:max[:min[:dirs[:chunk]]]]
 * and --only's list of tests. Sizes follow bonnie++: a bare -s number is
 * MiB, a bare chunk bytes. Also the counts and sizes of the run (-c, -d,
 * -x, -r, -f, -m) and bonnie++'s -Z, refused.
 */
#include "config.h"

#include <string.h>

#include "options_impl.h"
#include "text.h"
#include "units.h"

#define MIN_CHUNK 256u
#define MAX_CHUNK (1024u * 1024u)

/*
 * Split arg at colons into buf (256 bytes) and f[max + 1]. Returns the
 * field count, or -1 (one line printed) when arg is too long or has more
 * than max fields.
 */
static int split_fields(struct opt_ctx *c, const char *arg, const char *form,
			char *buf, char **f, int max)
{
	int n = 0;

	if (strlen(arg) >= 256) {
		opt_bad(c, c->name, arg, "too long");
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
		opt_bad(c, c->name, arg, form);
		return -1;
	}
	return n;
}

/* A chunk: a size in bytes, a power of two from 256 to 1 MiB. */
static int parse_chunk(struct opt_ctx *c, const char *s, uint64_t *out)
{
	char why[96];
	uint64_t v;

	if (units_parse_size(s, 1, &v, why, sizeof(why)))
		return opt_bad(c, c->name, s, why);
	if (v < MIN_CHUNK || v > MAX_CHUNK)
		return opt_bad(c, c->name, s,
			       "chunk must be between 256 and 1m bytes");
	if (v & (v - 1))
		return opt_bad(c, c->name, s, "chunk must be a power of two");
	*out = v;
	return 0;
}

/* -s size[:chunk[:seeks[:procs]]] */
int opts_take_size(struct opt_ctx *c, const char *arg)
{
	struct clyde_opts *o = &opts_state(c)->o;
	char buf[256], why[96];
	char *fields[5] = {0};
	int n = split_fields(c, arg, "expected size[:chunk[:seeks[:procs]]]",
			     buf, fields, 4);
	uint64_t v;

	if (n < 0)
		return -1;
	if (units_parse_size(fields[0], UNITS_MIB, &v, why, sizeof(why)))
		return opt_bad(c, "-s", fields[0], why);
	if (v % UNITS_MIB)
		return opt_bad(c, "-s", fields[0],
			       "size must be a whole number of MiB");
	o->size = v;
	o->size_set = 1;
	for (int i = 1; v == 0 && i < n; i++)
		if (*fields[i])
			return opt_bad(c, "-s", arg,
				       "-s 0 skips the I/O tests: it takes no "
				       "chunk, seeks or procs");
	if (n > 1 && *fields[1] && parse_chunk(c, fields[1], &o->chunk))
		return -1;
	if (n > 2 && *fields[2]) {
		if (units_parse_uint(fields[2], UINT32_MAX, &v, why,
				     sizeof(why)))
			return opt_bad(c, "-s", fields[2], why);
		if (v == 0)
			return opt_bad(c, "-s", fields[2],
				       "seek count must be at least 1");
		o->seeks = v;
		o->seeks_set = 1;
	}
	if (n > 3 && *fields[3]) {
		if (units_parse_uint(fields[3], 1000, &v, why, sizeof(why)))
			return opt_bad(c, "-s", fields[3],
				       "seeker processes must be 1..1000");
		if (v == 0)
			return opt_bad(c, "-s", fields[3],
				       "seeker processes must be 1..1000");
		o->procs = (unsigned)v;
	}
	if (o->size && o->size % o->chunk)
		return opt_bad(c, "-s", arg,
			       "size must be a multiple of the chunk");
	o->size_arg = arg;
	return 0;
}

/* -n num[:max[:min[:dirs[:chunk]]]] */
int opts_take_files(struct opt_ctx *c, const char *arg)
{
	struct clyde_opts *o = &opts_state(c)->o;
	char buf[256], why[96];
	char *f[6] = {0};
	int n = split_fields(c, arg, "expected num[:max[:min[:dirs[:chunk]]]]",
			     buf, f, 5);
	uint64_t v;
	size_t len;

	if (n < 0)
		return -1;
	/* num: a count of 1024 files; an m suffix multiplies by 1024. */
	len = strlen(f[0]);
	if (len && (f[0][len - 1] == 'm' || f[0][len - 1] == 'M')) {
		char suffix = f[0][len - 1];

		f[0][len - 1] = '\0';
		if (units_parse_uint(f[0], OPT_FILES_NUM_MAX / 1024, &v, why,
				     sizeof(why)) ||
		    !*f[0]) {
			f[0][len - 1] = suffix;
			return opt_bad(c, "-n", f[0],
				       *why ? why : "not a number");
		}
		v *= 1024;
	} else if (units_parse_uint(f[0], OPT_FILES_NUM_MAX, &v, why,
				    sizeof(why))) {
		return opt_bad(c, "-n", f[0], why);
	}
	for (int i = 1; v == 0 && i < n; i++)
		if (*f[i])
			return opt_bad(
			    c, "-n", arg,
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
				return opt_bad(c, "-n", f[1], why);
			if (v > INT64_MAX)
				return opt_bad(c, "-n", f[1], "too large");
			o->files_max = (int64_t)v;
		}
	}
	if (n > 2 && *f[2]) {
		if (units_parse_size(f[2], 1, &v, why, sizeof(why)))
			return opt_bad(c, "-n", f[2], why);
		if (o->files_max < 0 && v)
			return opt_bad(c, "-n", arg,
				       "links (max -1 or -2) take no min size");
		if (o->files_max >= 0 && v > (uint64_t)o->files_max)
			return opt_bad(c, "-n", arg,
				       "min size is larger than max size");
		o->files_min = v;
	}
	if (n > 3 && *f[3]) {
		if (units_parse_uint(f[3], UINT32_MAX, &v, why, sizeof(why)))
			return opt_bad(c, "-n", f[3], why);
		if (v > 99999)
			return opt_bad(c, "-n", f[3],
				       "at most 99999 directories");
		o->files_dirs = (unsigned)v;
	}
	if (n > 4 && *f[4]) {
		if (o->files_max <= 0)
			return opt_bad(
			    c, "-n", arg,
			    "empty files and links (max 0, -1 or -2) "
			    "write no data: no chunk");
		if (parse_chunk(c, f[4], &o->files_chunk))
			return -1;
	}
	o->files_arg = arg;
	return 0;
}

/* --only=a,b,c: the registry's keys (figures.h); a file test brings its
 * pass. */
int opts_take_only(struct opt_ctx *c, const char *arg)
{
	struct clyde_opts *o = &opts_state(c)->o;
	const char *p = arg;

	if (arg[strspn(arg, ",")] == '\0')
		return opt_bad(c, "--only", arg,
			       "expected a list of test names");
	o->only = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		char tok[32];
		int t = RT_COUNT;

		/* "a,,b", ",a", "a,": an empty name is a typo, not "all". */
		if (len == 0)
			return opt_bad(c, "--only", arg,
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
			return opt_bad(c, "--only", tok, why);
		}
		if (t < 0 || t == RT_COUNT) {
			char name[1024], why[RT_COUNT * 24];

			snprintf(name, sizeof(name), "%.*s", (int)len, p);
			snprintf(why, sizeof(why), "not a test (");
			figure_keys(why + strlen(why),
				    sizeof(why) - strlen(why), ", ");
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 ")");
			return opt_bad(c, "--only", name, why);
		}
		o->only |= figure_only_bits(t);
		if (!p[len])
			break;
		p += len + 1;
	}
	opts_state(c)->only = arg;
	return 0;
}

/* -c: bonnie++ takes 1 to 200 copies of each test at once; every
 * refusal says so. */
int opts_take_concurrency(struct opt_ctx *c, const char *arg)
{
	char why[96] = "no copies", msg[160];
	uint64_t v = 0;

	if (units_parse_uint(arg, OPT_CONCURRENCY_MAX, &v, why, sizeof(why)) ||
	    v == 0) {
		snprintf(msg, sizeof(msg), "%s: the accepted range is 1 to %u",
			 why, OPT_CONCURRENCY_MAX);
		return opt_refuse(c, msg);
	}
	opts_state(c)->o.concurrency = (unsigned)v;
	return 0;
}

/* -d: one more target (the first replaces the default "."). */
int opts_take_dir(struct opt_ctx *c, const char *arg)
{
	struct clyde_opts *o = &opts_state(c)->o;
	char msg[64];

	if (!*arg)
		return opt_refuse(c, "empty directory");
	if (o->ndirs == OPT_TARGETS_MAX) {
		snprintf(msg, sizeof(msg), "more than %u directories",
			 OPT_TARGETS_MAX);
		return opt_refuse(c, msg);
	}
	o->dirs[o->ndirs++] = arg;
	o->dir = o->dirs[0];
	return 0;
}

/* -m: 1..255 bytes of text (UTF-8, no control characters) that keeps
 * the CSV line whole, or CSV and JSON break. */
int opts_take_name(struct opt_ctx *c, const char *arg)
{
	struct clyde_opts *o = &opts_state(c)->o;

	if (!*arg || strlen(arg) >= sizeof(o->name))
		return opt_refuse(c, "name must be 1..255 characters");
	if (strpbrk(arg, ",\n\r\""))
		return opt_refuse(c, "name must not contain a comma, quote or "
				     "line break (CSV)");
	if (!text_utf8_valid(arg))
		return opt_refuse(c, "name must be UTF-8 text");
	for (const char *p = arg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return opt_refuse(c, "name must not contain control "
					     "characters");
	strcpy(o->name, arg);
	return 0;
}

/* A size (a bare number is MiB) into *v, or refused. */
static int mib_value(struct opt_ctx *c, const char *arg, uint64_t *v)
{
	char why[96];

	if (units_parse_size(arg, UNITS_MIB, v, why, sizeof(why)))
		return opt_refuse(c, why);
	return 0;
}

/* -r: the RAM for bonnie++'s size check (0: none). */
int opts_take_ram(struct opt_ctx *c, const char *arg)
{
	struct opts_parse *ps = opts_state(c);
	uint64_t v;

	if (mib_value(c, arg, &v))
		return -1;
	ps->o.ram = v;
	ps->o.ram_arg = arg;
	ps->ram_set = 1;
	return 0;
}

/* -x: runs of the whole suite. */
int opts_take_repeats(struct opt_ctx *c, const char *arg)
{
	char why[96];
	uint64_t v;

	if (units_parse_uint(arg, 100000, &v, why, sizeof(why)))
		return opt_refuse(c, why);
	if (v == 0)
		return opt_refuse(c, "repeat count must be at least 1");
	opts_state(c)->o.repeats = (unsigned)v;
	return 0;
}

/* bonnie++ 2.00: "-f" skips per-char, "-f 20" sizes it (the value as
 * the next word: OPT_ARG_NEXT). */
int opts_take_fast(struct opt_ctx *c, const char *arg)
{
	struct opts_parse *ps = opts_state(c);
	uint64_t v;

	if (!arg) {
		ps->o.fast = 1;
		ps->o.per_char_size = 0;
		ps->f_size = NULL;
		return 0;
	}
	if (mib_value(c, arg, &v))
		return -1;
	if (v == 0)
		return opt_refuse(c, "per-char size must be above 0");
	ps->f_size = arg;
	ps->o.fast = 0;
	ps->o.per_char_size = v;
	return 0;
}

int opts_take_random_file(struct opt_ctx *c, const char *arg)
{
	/* bonnie++ reads its random choices from the file; clyde draws
	 * them, and the data, from one seed, which -z repeats. A file of
	 * random numbers would repeat nothing -z does not. */
	(void)arg;
	return opt_refuse(c, "random numbers from a file are not supported: "
			     "use -z SEED to repeat a run's random choices "
			     "and data");
}
