/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options: see options.h. getopt_long hands each option to its handler
 * (one small function per option, found in a table; the flags that only
 * set a field, in a table of their own); then the combinations are
 * checked, and the default size chosen. Sizes follow bonnie++: a bare
 * -s or -r number is MiB; a bare chunk is bytes. Unlike bonnie++ 2.00a,
 * "-r 1g" is 1 GiB. The values with fields (-s, -n, --only) are checked
 * in options_values.c, the help text is options_help.c.
 */
#include "config.h"

#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "options_impl.h"
#include "text.h"
#include "units.h"

#define shown text_shown

static enum opt_status bad(FILE *err, const char *opt, const char *val,
			   const char *why)
{
	char v[1024];

	cli_bad(err, "clyde", opt, shown(val, v, sizeof(v)), why);
	return OPT_USAGE;
}

enum opt_status opts_bad(FILE *err, const char *opt, const char *val,
			 const char *why)
{
	return bad(err, opt, val, why);
}

uint64_t opts_physical_ram(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long psize = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || psize <= 0)
		return 0;
	return (uint64_t)pages * (uint64_t)psize;
}

enum {
	LONG_CSV = 256,
	LONG_FORMAT,
	LONG_PER_CHAR,
	LONG_ONLY,
	LONG_DROP_CACHES,
	LONG_LATENCY,
	LONG_NO_LATENCY,
	LONG_VERIFY,
	LONG_KEEP,
	LONG_PROGRESS,
#define LONG_CODE(name, code, parse) code,
	OPTS_LONG_VALUES(LONG_CODE)
#undef LONG_CODE
};

static const struct option long_opts[] = {
    CLI_LONG_HELP,
    CLI_LONG_VERSION,
    {"csv", required_argument, NULL, LONG_CSV},
    {"format", required_argument, NULL, LONG_FORMAT},
    {"per-char", required_argument, NULL, LONG_PER_CHAR},
    {"only", required_argument, NULL, LONG_ONLY},
    {"drop-caches", no_argument, NULL, LONG_DROP_CACHES},
    {"latency", no_argument, NULL, LONG_LATENCY},
    {"no-latency", no_argument, NULL, LONG_NO_LATENCY},
    {"verify", no_argument, NULL, LONG_VERIFY},
    {"keep", no_argument, NULL, LONG_KEEP},
    {"progress", optional_argument, NULL, LONG_PROGRESS},
#define LONG_ENTRY(name, code, parse) {name, required_argument, NULL, code},
    OPTS_LONG_VALUES(LONG_ENTRY)
#undef LONG_ENTRY
	CLI_LONG_JSON,
    {NULL, 0, NULL, 0},
};

/*
 * The host name as the default -m: a byte that is not UTF-8 text, or
 * that -m would refuse (CSV's comma and quote, control characters),
 * becomes '?', so the CSV line and the JSON document stay whole.
 */
static void default_name(char *name, size_t len)
{
	char *p;

	if (gethostname(name, len - 1) != 0 || !name[0]) {
		strcpy(name, "localhost");
		return;
	}
	name[len - 1] = '\0';
	for (p = name; *p;) {
		size_t n = text_utf8_len(p);

		if (!n || (unsigned char)*p < 0x20 || *p == 0x7f || *p == ',' ||
		    *p == '"') {
			*p++ = '?';
			continue;
		}
		p += n;
	}
}

static void set_defaults(struct clyde_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->dir = o->dirs[0] = ".";
	o->chunk = RESULT_DEF_CHUNK;
	o->seeks = RESULT_DEF_SEEKS;
	o->procs = RESULT_DEF_PROCS;
	o->repeats = 1;
	o->concurrency = 1;
	o->files_num = OPT_FILES_NUM_DEFAULT;
	o->files_chunk = OPT_FILES_CHUNK_DEFAULT;
	o->ram = opts_physical_ram();
	o->csv = CSV_198;
	o->layout = TABLE_200;
	o->sync_timeout = OPT_SYNC_TIMEOUT_DEFAULT;
	o->barrier_timeout = OPT_BARRIER_TIMEOUT_DEFAULT;
	o->privs.uid = getuid();
	o->privs.gid = getgid();
	default_name(o->name, sizeof(o->name));
}

/* -m: text (UTF-8, no control characters), or CSV and JSON break. */
static enum opt_status check_name(const char *name, FILE *err)
{
	if (!text_utf8_valid(name))
		return bad(err, "-m", name, "name must be UTF-8 text");
	for (const char *p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return bad(err, "-m", name,
				   "name must not contain control characters");
	return OPT_RUN;
}

/* Options whose combination is refused; what was given, as given. */
struct given {
	const char *f_size;  /* -f SIZE */
	const char *u_group; /* -u user:group */
	const char *g_group; /* -g group */
	const char *only;    /* --only=TESTS */
	gid_t u_gid, g_gid;
};

/* Whether --only names a test of mask (bits 1 << RT_x). */
static int only_named(const struct clyde_opts *o, unsigned mask)
{
	return (o->only & mask) != 0;
}

/*
 * Two options that contradict each other are refused rather than one
 * silently winning: the user asked for something that would not happen.
 */
static enum opt_status check_conflicts(const struct clyde_opts *o,
				       const struct given *g, FILE *err)
{
	const unsigned per_char = (1u << RT_putc) | (1u << RT_getc);
	const unsigned data = (1u << RT_FIRST_FILE) - 1;
	const unsigned files = ((1u << RT_COUNT) - 1) & ~data;
	char size[32];

	/* The intervals have no place but the document: without one
	 * they would be measured and thrown away without a word. */
	if (o->log_interval_ms && !o->json) {
		char ms[16];

		snprintf(ms, sizeof(ms), "%u", o->log_interval_ms);
		return bad(err, "--log-interval", ms,
			   "the intervals are kept only in the JSON "
			   "document: give --json[=FILE] as well");
	}
	if (o->latency && o->no_latency) {
		fprintf(err, "clyde: --no-latency with -v/--latency: the "
			     "percentiles need every latency recorded\n");
		return OPT_USAGE;
	}
	if (g->f_size && o->direct)
		return bad(err, "-f", g->f_size,
			   "-D skips the per-char tests (O_DIRECT takes "
			   "whole aligned blocks only)");
	if (g->f_size && o->size_set && o->size == 0)
		return bad(err, "-f", g->f_size,
			   "-s 0 makes no data file for the per-char tests");
	if (g->f_size && o->size_set && o->per_char_size > o->size) {
		char why[96];

		units_fmt_size(size, sizeof(size), o->size);
		snprintf(why, sizeof(why),
			 "more than the data file (-s %s) holds", size);
		return bad(err, "-f", g->f_size, why);
	}
	if (only_named(o, per_char) && (o->fast || o->direct))
		return bad(err, "--only", g->only,
			   o->fast ? "-f skips the per-char tests named"
				   : "-D skips the per-char tests named");
	if (only_named(o, data) && o->size_set && o->size == 0)
		return bad(err, "--only", g->only,
			   "-s 0 skips the I/O tests named");
	if (only_named(o, files) && o->files_num == 0)
		return bad(err, "--only", g->only,
			   "-n 0 skips the file tests named");
	if (g->u_group && g->g_group && g->u_gid != g->g_gid) {
		char a[1024], b[1024];

		fprintf(err,
			"clyde: -g '%s' with -u '%s': two different "
			"groups\n",
			shown(g->g_group, a, sizeof(a)),
			shown(g->u_group, b, sizeof(b)));
		return OPT_USAGE;
	}
	if (o->drop_caches && o->files_num == 0 &&
	    (o->direct || (o->size_set && o->size == 0))) {
		fprintf(err,
			"clyde: --drop-caches with %s and -n 0: no test "
			"reads through the page cache\n",
			o->direct ? "-D" : "-s 0");
		return OPT_USAGE;
	}
	return OPT_RUN;
}

/* The parse under way, as the option handlers see it. */
struct parse {
	struct clyde_opts *o;
	struct given g;
	int ram_set; /* -r given */
	int argc;
	char **argv;
	FILE *out, *err;
};

static enum opt_status opt_dir(struct parse *p, char *arg)
{
	return opts_add_dir(arg, p->o, p->err);
}

static enum opt_status opt_size(struct parse *p, char *arg)
{
	enum opt_status st = opts_parse_size(arg, p->o, p->err);

	if (st == OPT_RUN)
		p->o->size_arg = arg;
	return st;
}

static enum opt_status opt_files(struct parse *p, char *arg)
{
	enum opt_status st = opts_parse_files(arg, p->o, p->err);

	if (st == OPT_RUN)
		p->o->files_arg = arg;
	return st;
}

static enum opt_status opt_name(struct parse *p, char *arg)
{
	enum opt_status st;

	if (!*arg || strlen(arg) >= sizeof(p->o->name))
		return bad(p->err, "-m", arg, "name must be 1..255 characters");
	if (strpbrk(arg, ",\n\r\""))
		return bad(p->err, "-m", arg,
			   "name must not contain a comma, quote or line "
			   "break (CSV)");
	if ((st = check_name(arg, p->err)) != OPT_RUN)
		return st;
	strcpy(p->o->name, arg);
	return OPT_RUN;
}

/* A size (a bare number is MiB) into *v, or refused as opt's value. */
static enum opt_status mib_value(struct parse *p, const char *opt,
				 const char *arg, uint64_t *v)
{
	char why[96];

	if (units_parse_size(arg, UNITS_MIB, v, why, sizeof(why)))
		return bad(p->err, opt, arg, why);
	return OPT_RUN;
}

/* A whole number up to max into *v, or refused as opt's value. */
static enum opt_status whole_value(struct parse *p, const char *opt,
				   const char *arg, uint64_t max, uint64_t *v)
{
	char why[96];

	if (units_parse_uint(arg, max, v, why, sizeof(why)))
		return bad(p->err, opt, arg, why);
	return OPT_RUN;
}

static enum opt_status opt_ram(struct parse *p, char *arg)
{
	uint64_t v;

	if (mib_value(p, "-r", arg, &v))
		return OPT_USAGE;
	p->o->ram = v;
	p->o->ram_arg = arg;
	p->ram_set = 1;
	return OPT_RUN;
}

static enum opt_status opt_repeats(struct parse *p, char *arg)
{
	uint64_t v;

	if (whole_value(p, "-x", arg, 100000, &v))
		return OPT_USAGE;
	if (v == 0)
		return bad(p->err, "-x", arg,
			   "repeat count must be at least 1");
	p->o->repeats = (unsigned)v;
	return OPT_RUN;
}

static enum opt_status opt_seed(struct parse *p, char *arg)
{
	uint64_t v;

	if (whole_value(p, "-z", arg, UINT64_MAX, &v))
		return OPT_USAGE;
	p->o->seed = v;
	p->o->seed_set = 1;
	return OPT_RUN;
}

/* -u or -g refused: privs says what it could not find. */
static enum opt_status privs_bad(struct parse *p, const char *opt,
				 const char *why)
{
	char val[1024];

	fprintf(p->err, "clyde: %s %s\n", opt, shown(why, val, sizeof(val)));
	return OPT_USAGE;
}

static enum opt_status opt_user(struct parse *p, char *arg)
{
	char why[96];

	if (privs_parse_user(arg, &p->o->privs, why, sizeof(why)))
		return privs_bad(p, "-u", why);
	if (strchr(arg, ':')) {
		p->g.u_group = arg;
		p->g.u_gid = p->o->privs.gid;
	}
	return OPT_RUN;
}

static enum opt_status opt_group(struct parse *p, char *arg)
{
	char why[96];

	if (privs_parse_group(arg, &p->o->privs, why, sizeof(why)))
		return privs_bad(p, "-g", why);
	p->g.g_group = arg;
	p->g.g_gid = p->o->privs.gid;
	return OPT_RUN;
}

/* bonnie++ 2.00: "-f" skips per-char, "-f 20" sizes it. */
static enum opt_status opt_fast(struct parse *p, char *arg)
{
	uint64_t v;

	if (!arg && optind < p->argc && p->argv[optind][0] &&
	    p->argv[optind][0] != '-')
		arg = p->argv[optind++];
	if (!arg) {
		p->o->fast = 1;
		p->o->per_char_size = 0;
		p->g.f_size = NULL;
		return OPT_RUN;
	}
	if (mib_value(p, "-f", arg, &v))
		return OPT_USAGE;
	if (v == 0)
		return bad(p->err, "-f", arg, "per-char size must be above 0");
	p->g.f_size = arg;
	p->o->fast = 0;
	p->o->per_char_size = v;
	return OPT_RUN;
}

static enum opt_status opt_help(struct parse *p, char *arg)
{
	(void)arg;
	fputs(opts_usage_text, p->out);
	return OPT_EXIT_OK;
}

static enum opt_status opt_version(struct parse *p, char *arg)
{
	(void)arg;
	fprintf(p->out, "clyde %s\n", PACKAGE_VERSION);
	return OPT_EXIT_OK;
}

static enum opt_status opt_csv(struct parse *p, char *arg)
{
	if (csv_format_parse(arg, &p->o->csv))
		return bad(p->err, "--csv", arg, "expected 1.98, 1.97 or 1.03");
	return OPT_RUN;
}

static enum opt_status opt_format(struct parse *p, char *arg)
{
	if (table_layout_parse(arg, &p->o->layout))
		return bad(p->err, "--format", arg, "expected 2.00 or 1.03");
	return OPT_RUN;
}

static enum opt_status opt_only(struct parse *p, char *arg)
{
	enum opt_status st = opts_parse_only(arg, p->o, p->err);

	if (st == OPT_RUN)
		p->g.only = arg;
	return st;
}

static enum opt_status opt_json(struct parse *p, char *arg)
{
	if (cli_json_path(p->err, "clyde", arg, &p->o->json_path))
		return OPT_USAGE;
	p->o->json = 1;
	return OPT_RUN;
}

static enum opt_status opt_per_char(struct parse *p, char *arg)
{
	if (!strcmp(arg, "stdio"))
		p->o->per_char = PER_CHAR_STDIO;
	else if (!strcmp(arg, "syscall"))
		p->o->per_char = PER_CHAR_SYSCALL;
	else
		return bad(p->err, "--per-char", arg,
			   "expected stdio or syscall");
	p->o->per_char_set = 1;
	return OPT_RUN;
}

/* The options one function of options_impl.h reads. */
static const struct {
	int c;
	enum opt_status (*parse)(const char *arg, struct clyde_opts *o,
				 FILE *err);
} values[] = {
#define LONG_VALUE(name, code, parse) {code, parse},
    OPTS_LONG_VALUES(LONG_VALUE)
#undef LONG_VALUE
	{'c', opts_parse_concurrency},
    {'p', opts_parse_sem_procs},
    {'y', opts_parse_sync},
    {'Z', opts_refuse_random_file},
    {LONG_PROGRESS, opts_parse_progress},
};

/* getopt's value for an option, and what reads its value. */
static const struct {
	int c;
	enum opt_status (*fn)(struct parse *p, char *arg);
} handlers[] = {
    {'d', opt_dir},
    {'s', opt_size},
    {'n', opt_files},
    {'m', opt_name},
    {'r', opt_ram},
    {'x', opt_repeats},
    {'z', opt_seed},
    {'u', opt_user},
    {'g', opt_group},
    {'f', opt_fast},
    {'h', opt_help},
    {CLI_OPT_HELP, opt_help},
    {'V', opt_version},
    {CLI_OPT_VERSION, opt_version},
    {LONG_CSV, opt_csv},
    {LONG_FORMAT, opt_format},
    {LONG_ONLY, opt_only},
    {CLI_OPT_JSON, opt_json},
    {LONG_PER_CHAR, opt_per_char},
};

/* The options that only switch something on: the field they set. */
static const struct {
	int c;
	size_t field;
} flags[] = {
    {'q', offsetof(struct clyde_opts, quiet)},
    {'b', offsetof(struct clyde_opts, sync_each)},
    {'D', offsetof(struct clyde_opts, direct)},
    {'v', offsetof(struct clyde_opts, latency)},
    {LONG_LATENCY, offsetof(struct clyde_opts, latency)},
    {LONG_DROP_CACHES, offsetof(struct clyde_opts, drop_caches)},
    {LONG_NO_LATENCY, offsetof(struct clyde_opts, no_latency)},
    {LONG_VERIFY, offsetof(struct clyde_opts, verify)},
    {LONG_KEEP, offsetof(struct clyde_opts, keep)},
};

/* An option getopt did not know, or one without its value. */
static enum opt_status unknown(struct parse *p, int c)
{
	char val[1024];

	if (c == ':') {
		fprintf(p->err, "clyde: option '%s' needs a value\n",
			shown(p->argv[optind - 1], val, sizeof(val)));
	} else if (optopt) {
		char opt[2] = {(char)optopt, '\0'};

		fprintf(p->err,
			"clyde: unknown option '-%s' (see clyde --help)\n",
			shown(opt, val, sizeof(val)));
	} else {
		fprintf(p->err,
			"clyde: unknown option '%s' (see clyde --help)\n",
			shown(p->argv[optind - 1], val, sizeof(val)));
	}
	return OPT_USAGE;
}

static enum opt_status one_option(struct parse *p, int c)
{
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (flags[i].c == c) {
			*(int *)((char *)p->o + flags[i].field) = 1;
			return OPT_RUN;
		}
	for (size_t i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
		if (handlers[i].c == c)
			return handlers[i].fn(p, optarg);
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		if (values[i].c == c)
			return values[i].parse(optarg, p->o, p->err);
	return unknown(p, c);
}

/* No -s: the size clyde chooses. */
static void default_size(struct clyde_opts *o, int ram_set)
{
	if (o->size_set)
		return;
	if (ram_set && o->ram) {
		/* -r without -s asks for bonnie++'s rule: twice that RAM,
		 * rounded up to whole GiB (down could fall under the rule). */
		uint64_t gib = (2 * o->ram + UNITS_GIB - 1) / UNITS_GIB;

		o->size = gib * UNITS_GIB;
		return;
	}
	/* Evicting the cache before each read test makes a data set of any
	 * size true; main.c may shrink this to fit -d. */
	o->size = OPT_DEFAULT_SIZE;
	o->size_chosen = 1;
}

enum opt_status opts_parse(int argc, char **argv, struct clyde_opts *o,
			   FILE *out, FILE *err)
{
	struct parse p = {
	    .o = o, .argc = argc, .argv = argv, .out = out, .err = err};
	enum opt_status st;
	int c;

	set_defaults(o);
	opterr = 0;
	/* 0, not 1: glibc then forgets a previous parse entirely (a scan
	 * that stopped inside "-qk" would otherwise resume in the old
	 * argv), so opts_parse can be called any number of times. */
	optind = 0;
	while (
	    (c = getopt_long(argc, argv, ":d:c:s:n:m:r:x:z:Z:u:g:p:y:qf::bDvhV",
			     long_opts, NULL)) != -1)
		if ((st = one_option(&p, c)) != OPT_RUN)
			return st;
	opts_settle_per_char(o);
	if (optind < argc)
		return bad(err, "argument", argv[optind],
			   "clyde takes no operands (see clyde --help)");
	if ((st = check_conflicts(o, &p.g, err)) != OPT_RUN ||
	    (st = opts_check_sync(o, err)) != OPT_RUN ||
	    (st = opts_check_data(o, err)) != OPT_RUN ||
	    (st = opts_check_targets(o, err)) != OPT_RUN)
		return st;
	default_size(o, p.ram_set);
	return OPT_RUN;
}
