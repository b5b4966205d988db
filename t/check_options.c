/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_options: what the command line accepts and what it refuses,
 * with the one line it prints for each refusal. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "units.h"
#include "check_main.h"

/* The command lines parse() split: the options point into them, so they
 * live until the test ends, when free_lines() (a checked fixture) frees
 * them. */
static char **lines;
static size_t nlines;

static void free_lines(void)
{
	while (nlines)
		free(lines[--nlines]);
	free(lines);
	lines = NULL;
}

/* Parse a space-separated command line; the message lands in *msg. */
static enum opt_status parse(const char *line, struct clyde_opts *o, char **msg)
{
	char **more = realloc(lines, (nlines + 1) * sizeof(*lines));
	char *copy = strdup(line), *argv[32], *tok, *save = NULL;
	int argc = 0;
	size_t len;
	FILE *err = open_memstream(msg, &len);
	FILE *out = fopen("/dev/null", "w");
	enum opt_status st;

	ck_assert(more && copy);
	lines = more;
	lines[nlines++] = copy;
	argv[argc++] = (char *)"clyde";
	for (tok = strtok_r(copy, " ", &save); tok && argc < 31;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = strcmp(tok, "''") ? tok : (char *)"";
	argv[argc] = NULL;
	st = opts_parse(argc, argv, o, out, err);
	fclose(err);
	fclose(out);
	return st;
}

START_TEST(defaults)
{
	struct clyde_opts o;
	char *msg;

	ck_assert_int_eq(parse("", &o, &msg), OPT_RUN);
	ck_assert_str_eq(msg, "");
	ck_assert_str_eq(o.dir, ".");
	ck_assert_uint_eq(o.chunk, 8192);
	ck_assert_uint_eq(o.seeks, 8192);
	ck_assert_uint_eq(o.procs, 5);
	ck_assert_uint_eq(o.repeats, 1);
	ck_assert_int_eq(o.csv, CSV_198);
	ck_assert_int_eq(o.layout, TABLE_200);
	/* A 1.98 line means what bonnie++ 2.00's does. */
	ck_assert_int_eq(o.per_char, PER_CHAR_SYSCALL);
	ck_assert_uint_eq(o.files_num, 16); /* bonnie++'s default -n */
	/* No -s: 4 GiB, chosen by clyde (the cache is evicted instead). */
	ck_assert_uint_eq(o.size, 4 * UNITS_GIB);
	ck_assert(o.size_chosen);
	/* Nothing given: what clyde sizes is main's (clyde/autosize.c). */
	ck_assert(!o.seeks_set && !o.files_arg && !o.sized);
	ck_assert(o.seeks_time == 0 && o.files_time == 0 && o.stat_time == 0);
	free(msg);
	/* -r without -s: bonnie++'s twice the RAM, rounded up to GiB. */
	ck_assert_int_eq(parse("-r 1100", &o, &msg), OPT_RUN);
	ck_assert_uint_eq(o.size, 3 * UNITS_GIB);
	ck_assert(!o.size_chosen);
	free(msg);
	ck_assert_int_eq(parse("-r 0", &o, &msg), OPT_RUN);
	ck_assert_uint_eq(o.size, 4 * UNITS_GIB);
	free(msg);
	ck_assert_int_eq(parse("--only=seeks,ran_stat --drop-caches", &o, &msg),
			 OPT_RUN);
	ck_assert_uint_eq(o.only, (1u << RT_seeks) | (7u << RT_ran_create));
	ck_assert(o.drop_caches);
	free(msg);
}
END_TEST

START_TEST(accepted)
{
	struct clyde_opts o;
	char *msg;

	ck_assert_int_eq(parse("-s 256m -r 0 -d /tmp -m box -x 3 -q -f -b -D "
			       "-z 42 --csv=1.03 --format=1.03 "
			       "--per-char=syscall",
			       &o, &msg),
			 OPT_RUN);
	ck_assert_str_eq(msg, "");
	ck_assert_uint_eq(o.size, 256 * UNITS_MIB);
	ck_assert_uint_eq(o.ram, 0);
	ck_assert_str_eq(o.name, "box");
	ck_assert_uint_eq(o.repeats, 3);
	ck_assert(o.quiet && o.fast && o.sync_each && o.direct && o.seed_set);
	ck_assert_uint_eq(o.seed, 42);
	ck_assert_int_eq(o.csv, CSV_103);
	ck_assert_int_eq(o.layout, TABLE_103);
	ck_assert_int_eq(o.per_char, PER_CHAR_SYSCALL);
	free(msg);

	/* Without --per-char, the meaning of the format asked for. */
	ck_assert_int_eq(parse("--csv=1.03", &o, &msg), OPT_RUN);
	ck_assert_int_eq(o.per_char, PER_CHAR_STDIO);
	free(msg);
	ck_assert_int_eq(parse("--format=1.03", &o, &msg), OPT_RUN);
	ck_assert_int_eq(o.per_char, PER_CHAR_STDIO);
	free(msg);
	ck_assert_int_eq(parse("--csv=1.97", &o, &msg), OPT_RUN);
	ck_assert_int_eq(o.per_char, PER_CHAR_SYSCALL);
	free(msg);
	ck_assert_int_eq(parse("--per-char=stdio --csv=1.98", &o, &msg),
			 OPT_RUN);
	ck_assert_int_eq(o.per_char, PER_CHAR_STDIO);
	free(msg);
	ck_assert_int_eq(parse("--per-char=syscall --csv=1.03", &o, &msg),
			 OPT_RUN);
	ck_assert_int_eq(o.per_char, PER_CHAR_SYSCALL);
	free(msg);

	ck_assert_int_eq(parse("-s 2048", &o, &msg), OPT_RUN); /* MiB */
	ck_assert_uint_eq(o.size, 2 * UNITS_GIB);
	free(msg);
	ck_assert_int_eq(parse("-s 1g:4k:1000:3 -r 1g", &o, &msg), OPT_RUN);
	ck_assert_uint_eq(o.size, UNITS_GIB);
	ck_assert_uint_eq(o.chunk, 4096);
	ck_assert_uint_eq(o.seeks, 1000);
	ck_assert(o.seeks_set); /* a count given: seeks keep to it */
	ck_assert_uint_eq(o.procs, 3);
	ck_assert_uint_eq(o.ram, UNITS_GIB); /* not 1 MiB as in 2.00a */
	free(msg);
	ck_assert_int_eq(parse("-s 1g:4k", &o, &msg), OPT_RUN);
	ck_assert(!o.seeks_set);
	ck_assert_uint_eq(o.seeks, 8192);
	free(msg);
	ck_assert_int_eq(parse("-s 64m:256", &o, &msg), OPT_RUN);
	ck_assert_uint_eq(o.chunk, 256);
	free(msg);
	ck_assert_int_eq(parse("-s 64m:1m -r 512", &o, &msg), OPT_RUN);
	ck_assert_uint_eq(o.chunk, UNITS_MIB);
	ck_assert_uint_eq(o.ram, 512 * UNITS_MIB);
	free(msg);
	ck_assert_int_eq(parse("-s 0", &o, &msg), OPT_RUN);
	ck_assert_uint_eq(o.size, 0);
	free(msg);
	ck_assert_int_eq(parse("-f 20", &o, &msg), OPT_RUN); /* bonnie++ 2.00 */
	ck_assert(!o.fast);
	ck_assert_uint_eq(o.per_char_size, 20 * UNITS_MIB);
	free(msg);
	ck_assert_int_eq(parse("-f -q", &o, &msg), OPT_RUN);
	ck_assert(o.fast && o.quiet);
	free(msg);
	ck_assert_int_eq(parse("-n 16", &o, &msg), OPT_RUN);
	ck_assert_uint_eq(o.files_num, 16);
	ck_assert_int_eq(o.files_max, 0);
	ck_assert_uint_eq(o.files_chunk, 8192);
	free(msg);
	ck_assert_int_eq(parse("-n 2m:64k:1k:100:4k", &o, &msg), OPT_RUN);
	ck_assert_uint_eq(o.files_num, 2048);
	ck_assert_int_eq(o.files_max, 65536);
	ck_assert_uint_eq(o.files_min, 1024);
	ck_assert_uint_eq(o.files_dirs, 100);
	ck_assert_uint_eq(o.files_chunk, 4096);
	free(msg);
	ck_assert_int_eq(parse("-n 4:-1", &o, &msg), OPT_RUN);
	ck_assert_int_eq(o.files_max, -1);
	free(msg);
	ck_assert_int_eq(parse("-n 4:-2::99999", &o, &msg), OPT_RUN);
	ck_assert_int_eq(o.files_max, -2);
	ck_assert_uint_eq(o.files_dirs, 99999);
	free(msg);
	ck_assert_int_eq(parse("-n 0", &o, &msg), OPT_RUN);
	ck_assert_uint_eq(o.files_num, 0);
	free(msg);
	ck_assert_int_eq(parse("-n 1024:5", &o, &msg), OPT_RUN);
	ck_assert_uint_eq(o.files_num, 1024);
	ck_assert_int_eq(o.files_max, 5);
	free(msg);
	ck_assert_int_eq(parse("-s 1.5g", &o, &msg), OPT_RUN);
	ck_assert_uint_eq(o.size, 1536 * UNITS_MIB);
	free(msg);
}
END_TEST

static const struct {
	const char *line;
	const char *msg; /* the exact line printed */
} refused[] = {
    {"-s 12x", "clyde: -s '12x': unknown suffix (use k, m, g or t)\n"},
    {"-s 1g:1000", "clyde: -s '1000': chunk must be a power of two\n"},
    {"-s 1g:128", "clyde: -s '128': chunk must be between 256 and 1m bytes\n"},
    {"-s 1g:2m", "clyde: -s '2m': chunk must be between 256 and 1m bytes\n"},
    {"-s -5", "clyde: -s '-5': must not be negative\n"},
    {"-s ''", "clyde: -s '': empty value\n"},
    {"-s 1gg", "clyde: -s '1gg': unknown suffix (use k, m, g or t)\n"},
    {"-s 1500k", "clyde: -s '1500k': size must be a whole number of MiB\n"},
    {"-s 1m:1m:0", "clyde: -s '0': seek count must be at least 1\n"},
    {"-s 1m:1m:5:0", "clyde: -s '0': seeker processes must be 1..1000\n"},
    {"-s 1:2:3:4:5", "clyde: -s '1:2:3:4:5': expected "
		     "size[:chunk[:seeks[:procs]]]\n"},
    {"-x -1", "clyde: -x '-1': must not be negative\n"},
    {"-x 0", "clyde: -x '0': repeat count must be at least 1\n"},
    {"-x two", "clyde: -x 'two': not a number\n"},
    {"-r abc", "clyde: -r 'abc': not a number\n"},
    {"-r 99999999999999999999", "clyde: -r '99999999999999999999': too "
				"large\n"},
    {"-z 1.5", "clyde: -z '1.5': not a whole number\n"},
    {"-m a,b", "clyde: -m 'a,b': name must not contain a comma, quote or "
	       "line break (CSV)\n"},
    {"-u no-such-user-here", "clyde: -u 'no-such-user-here': no such "
			     "user\n"},
    {"-g no-such-group-here", "clyde: -g 'no-such-group-here': no such "
			      "group\n"},
    {"--csv=2.00", "clyde: --csv '2.00': expected 1.98, 1.97 or 1.03\n"},
    {"--format=3", "clyde: --format '3': expected 2.00 or 1.03\n"},
    {"--per-char=mmap", "clyde: --per-char 'mmap': expected stdio or "
			"syscall\n"},
    {"-f 0", "clyde: -f '0': per-char size must be above 0\n"},
    {"-Z /dev/urandom",
     "clyde: -Z '/dev/urandom': random numbers from a file are not "
     "supported: use -z SEED to repeat a run's random choices and data\n"},
    {"-f 2x", "clyde: -f '2x': unknown suffix (use k, m, g or t)\n"},
    {"-n x", "clyde: -n 'x': not a number\n"},
    {"-n -4", "clyde: -n '-4': must not be negative\n"},
    {"-n 4:1k:2k", "clyde: -n '4:1k:2k': min size is larger than max size\n"},
    {"-n 4:-1:1k", "clyde: -n '4:-1:1k': links (max -1 or -2) take no min "
		   "size\n"},
    {"-n 4:-3", "clyde: -n '-3': must not be negative\n"},
    {"-n 4:1k:0:100000", "clyde: -n '100000': at most 99999 directories\n"},
    {"-n 4:1k:0:10:3000", "clyde: -n '3000': chunk must be a power of "
			  "two\n"},
    {"-n 4:1k:0:10:4k:9", "clyde: -n '4:1k:0:10:4k:9': expected "
			  "num[:max[:min[:dirs[:chunk]]]]\n"},
    {"-n 4194304", "clyde: -n '4194304': too large\n"},
    {"-n 4097m", "clyde: -n '4097m': too large\n"},
    {"-n 4:1x", "clyde: -n '1x': unknown suffix (use k, m, g or t)\n"},
    {"--sync-method=osync", "clyde: --sync-method 'osync': expected "
			    "fdatasync, fsync, dsync (O_DSYNC) or sync "
			    "(O_SYNC)\n"},
    {"--sync-size=0", "clyde: --sync-size '0': expected 1 byte to 16m\n"},
    {"-D --sync-size=1000", "clyde: --sync-size '1000': -D writes whole "
			    "512-byte sectors: give a multiple of 512\n"},
    {"--sync-ops=0", "clyde: --sync-ops '0': expected a number of writes "
		     "from 1 to 100000000\n"},
    {"--sync-time=1e3", "clyde: --sync-time '1e3': expected seconds, e.g. "
			"1 or 0.5\n"},
    {"--only=,", "clyde: --only ',': expected a list of test names\n"},
    /* clyde-pgscan's figure: named, not run. */
    {"--only=seeks,pg_scan", "clyde: --only 'pg_scan': pg_scan is "
			     "measured by clyde-pgscan\n"},
    {"--iodepth=0", "clyde: --iodepth '0': expected operations in flight "
		    "from 1 to 1024\n"},
    {"--ran-bs=1000", "clyde: --ran-bs '1000': expected a multiple of 512 "
		      "bytes from 512 to 16m\n"},
    {"--ran-time=0", "clyde: --ran-time '0': expected whole seconds from 1 "
		     "to 86400\n"},
    {"-k", "clyde: unknown option '-k' (see clyde --help)\n"},
    {"--frobnicate", "clyde: unknown option '--frobnicate' (see clyde "
		     "--help)\n"},
    {"-s", "clyde: option '-s' needs a value\n"},
    {"extra", "clyde: argument 'extra': clyde takes no operands (see "
	      "clyde --help)\n"},
};

START_TEST(refusals)
{
	struct clyde_opts o;
	char *msg;

	ck_assert_int_eq(parse(refused[_i].line, &o, &msg), OPT_USAGE);
	ck_assert_str_eq(msg, refused[_i].msg);
	free(msg);
}
END_TEST

/* A name --only does not know: the line lists every figure clyde
 * measures, in the registry's order (a new figure is in it unedited). */
START_TEST(only_unknown)
{
	char want[1024] = "clyde: --only 'seek': not a test (";
	struct clyde_opts o;
	char *msg;

	static const char *const known[] = {
	    "putc",	"put_block", "rewrite",	   "getc",	 "get_block",
	    "seeks",	"ran_read",  "ran_write",  "sync_write", "seq_create",
	    "seq_stat", "seq_del",   "ran_create", "ran_stat",	 "ran_del"};

#define ONLY_NAME(key, ...) strcat(want, #key ", ");
	FIGURES(ONLY_NAME)
#undef ONLY_NAME
	strcpy(want + strlen(want) - 2, ")\n");
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		char name[32];

		snprintf(name, sizeof(name), " %s,", known[i]);
		if (!strstr(want, name))
			snprintf(name, sizeof(name), "(%s,", known[i]);
		if (!strstr(want, name))
			snprintf(name, sizeof(name), " %s)", known[i]);
		ck_assert_msg(strstr(want, name), "%s not listed", known[i]);
	}
	ck_assert_int_eq(parse("--only=seek", &o, &msg), OPT_USAGE);
	ck_assert_str_eq(msg, want);
	free(msg);
}
END_TEST

START_TEST(help_and_version)
{
	struct clyde_opts o;
	char *msg;

	ck_assert_int_eq(parse("--help", &o, &msg), OPT_EXIT_OK);
	free(msg);
	ck_assert_int_eq(parse("--version", &o, &msg), OPT_EXIT_OK);
	free(msg);
}
END_TEST

/* Checks added with the hardening of the command line. */

/*
 * A parse that stopped inside a group of short options ("-kq" stops at
 * k) must not leak into the next one: glibc's getopt would resume at the
 * 'q' of the old argv unless told to start afresh.
 */
START_TEST(parse_again_starts_afresh)
{
	struct clyde_opts o;
	char *msg;

	ck_assert_int_eq(parse("-kq", &o, &msg), OPT_USAGE);
	free(msg);
	ck_assert_int_eq(parse("-s 0", &o, &msg), OPT_RUN);
	ck_assert_str_eq(msg, "");
	ck_assert(!o.quiet);
	free(msg);
	/* And a parse never keeps state from an earlier one. */
	ck_assert_int_eq(parse("-v", &o, &msg), OPT_RUN);
	ck_assert(o.latency);
	free(msg);
	ck_assert_int_eq(parse("--no-latency", &o, &msg), OPT_RUN);
	ck_assert(!o.latency && o.no_latency);
	free(msg);
}
END_TEST

/* What -p and -y expect. */
#define P_WANT                                                                 \
	"expected a number of processes from 1 to 32767, or -1 to remove the " \
	"semaphore set\n"
#define Y_WANT                                                                 \
	"expected s (semaphores, made by clyde -p) or p (a prompt before "     \
	"each test)\n"
static const struct {
	const char *line;
	const char *msg; /* the exact line printed */
} refused_more[] = {
    {"--only=putc,,seeks", "clyde: --only 'putc,,seeks': an empty test name "
			   "(a comma too many)\n"},
    {"--only=,putc", "clyde: --only ',putc': an empty test name (a comma "
		     "too many)\n"},
    {"--only=seeks,", "clyde: --only 'seeks,': an empty test name (a comma "
		      "too many)\n"},
    {"--only=,,", "clyde: --only ',,': expected a list of test names\n"},
    {"-v --no-latency", "clyde: --no-latency with -v/--latency: the "
			"percentiles need every latency recorded\n"},
    {"--no-latency --latency", "clyde: --no-latency with -v/--latency: the "
			       "percentiles need every latency recorded\n"},
    {"-f --only=getc", "clyde: --only 'getc': -f skips the per-char tests "
		       "named\n"},
    {"-D --only=putc,put_block", "clyde: --only 'putc,put_block': -D skips "
				 "the per-char tests named\n"},
    {"-s 0 --only=rewrite", "clyde: --only 'rewrite': -s 0 skips the I/O "
			    "tests named\n"},
    {"-n 0 --only=seq_del", "clyde: --only 'seq_del': -n 0 skips the file "
			    "tests named\n"},
    {"-D -f 20", "clyde: -f '20': -D skips the per-char tests (O_DIRECT "
		 "takes whole aligned blocks only)\n"},
    {"-f 1m -s 0", "clyde: -f '1m': -s 0 makes no data file for the "
		   "per-char tests\n"},
    {"-s 16m -f 17", "clyde: -f '17': more than the data file (-s 16M) "
		     "holds\n"},
    {"-s 0:4k", "clyde: -s '0:4k': -s 0 skips the I/O tests: it takes no "
		"chunk, seeks or procs\n"},
    {"-s 0::100", "clyde: -s '0::100': -s 0 skips the I/O tests: it takes "
		  "no chunk, seeks or procs\n"},
    {"-n 0:4k", "clyde: -n '0:4k': -n 0 runs no file tests: it takes no "
		"sizes, directories or chunk\n"},
    {"-n 2:-1:::4k", "clyde: -n '2:-1:::4k': empty files and links (max 0, "
		     "-1 or -2) write no data: no chunk\n"},
    {"-n 2::::4k", "clyde: -n '2::::4k': empty files and links (max 0, -1 "
		   "or -2) write no data: no chunk\n"},
    {"-m \xff", "clyde: -m '\\xff': name must be UTF-8 text\n"},
    {"-m a\xc3", "clyde: -m 'a\\xc3': name must be UTF-8 text\n"},
    {"-m \xed\xa0\x80", "clyde: -m '\\xed\\xa0\\x80': name must be UTF-8 "
			"text\n"},
    {"-m a\tb", "clyde: -m 'a\\tb': name must not contain control "
		"characters\n"},
    {"-m a\nb", "clyde: -m 'a\\nb': name must not contain a comma, quote "
		"or line break (CSV)\n"},
    {"-s 1\ng", "clyde: -s '1\\ng': unknown suffix (use k, m, g or t)\n"},
    {"--bogus\n", "clyde: unknown option '--bogus\\n' (see clyde --help)\n"},
    {"-\x01", "clyde: unknown option '-\\x01' (see clyde --help)\n"},
    {"-u 0:0 -g 1", "clyde: -g '1' with -u '0:0': two different groups\n"},
    {"--drop-caches -D -n 0", "clyde: --drop-caches with -D and -n 0: no "
			      "test reads through the page cache\n"},
    /* -p, -y and --sync-timeout (options_lockstep.c). */
    {"-p 0", "clyde: -p '0': " P_WANT},
    {"-p -2", "clyde: -p '-2': " P_WANT},
    {"-p 32768", "clyde: -p '32768': " P_WANT},
    {"-p 2x", "clyde: -p '2x': " P_WANT},
    {"-p ''", "clyde: -p '': " P_WANT},
    {"-p", "clyde: option '-p' needs a value\n"},
    {"-y", "clyde: option '-y' needs a value\n"},
    {"-yx", "clyde: -y 'x': " Y_WANT},
    {"-y S", "clyde: -y 'S': " Y_WANT},
    {"-y sp", "clyde: -y 'sp': " Y_WANT},
    {"-y -q", "clyde: -y '-q': " Y_WANT},
    {"--sync-timeout=0 -ys", "clyde: --sync-timeout '0': expected whole "
			     "seconds from 1 to 31536000\n"},
    {"--sync-timeout=1.5 -ys", "clyde: --sync-timeout '1.5': expected "
			       "whole seconds from 1 to 31536000\n"},
    {"--sync-timeout=31536001 -ys", "clyde: --sync-timeout '31536001': "
				    "expected whole seconds from 1 to "
				    "31536000\n"},
    {"--barrier-timeout=1.5", "clyde: --barrier-timeout '1.5': expected "
			      "whole seconds from 0 (no limit) to 31536000\n"},
    {"--barrier-timeout=31536001", "clyde: --barrier-timeout '31536001': "
				   "expected whole seconds from 0 (no limit) "
				   "to 31536000\n"},
    {"-p 2 -ys", "clyde: -p with -y: -p only makes or removes the semaphore "
		 "set, and runs no test\n"},
    {"-yp -p -1", "clyde: -p with -y: -p only makes or removes the "
		  "semaphore set, and runs no test\n"},
    {"-p 2 --json", "clyde: --json with -p: -p runs no test, so there is no "
		    "result to write\n"},
    {"--sync-timeout=5", "clyde: --sync-timeout '5': only -y s waits (at "
			 "semaphores)\n"},
    {"-yp --sync-timeout=5", "clyde: --sync-timeout '5': only -y s waits "
			     "(at semaphores)\n"},
    {"-ys -x 2", "clyde: -y s with -x 2: a semaphore set serves one run; "
		 "make it again (clyde -p N) between runs\n"},
};

START_TEST(refusals_more)
{
	struct clyde_opts o;
	char *msg;

	ck_assert_int_eq(parse(refused_more[_i].line, &o, &msg), OPT_USAGE);
	ck_assert_str_eq(msg, refused_more[_i].msg);
	free(msg);
}
END_TEST

START_TEST(accepted_more)
{
	struct clyde_opts o;
	char *msg;

	/* Not contradictions: a mode with -f, one group twice, UTF-8. */
	ck_assert_int_eq(parse("-f --per-char=syscall -u 0:0 -g 0 -m "
			       "caf\xc3\xa9-\xe2\x82\xac-\xf0\x9f\x92\xbe",
			       &o, &msg),
			 OPT_RUN);
	ck_assert_str_eq(msg, "");
	ck_assert_str_eq(o.name, "caf\xc3\xa9-\xe2\x82\xac-\xf0\x9f\x92\xbe");
	free(msg);
	ck_assert_int_eq(parse("-s 16m -f 16 --only=putc,getc", &o, &msg),
			 OPT_RUN);
	ck_assert_uint_eq(o.per_char_size, 16 * UNITS_MIB);
	free(msg);
	/* -f SIZE then plain -f: skipping wins, the size is gone. */
	ck_assert_int_eq(parse("-f 20 -f -D", &o, &msg), OPT_RUN);
	ck_assert(o.fast);
	ck_assert_uint_eq(o.per_char_size, 0);
	free(msg);
	ck_assert_int_eq(parse("-s 0 -n 0 --only=seeks -s 1g", &o, &msg),
			 OPT_RUN);
	free(msg);
	/* The values as given, for messages. */
	ck_assert_int_eq(parse("-s 1g -n 2:4k -r 512", &o, &msg), OPT_RUN);
	ck_assert_str_eq(o.size_arg, "1g");
	ck_assert_str_eq(o.files_arg, "2:4k");
	ck_assert_str_eq(o.ram_arg, "512");
	free(msg);
}
END_TEST

START_TEST(accepted_sync)
{
	struct clyde_opts o;
	char *msg;

	ck_assert_int_eq(parse("", &o, &msg), OPT_RUN);
	ck_assert(!o.sem_procs && o.sync == OPT_SYNC_NONE);
	ck_assert_uint_eq(o.sync_timeout, OPT_SYNC_TIMEOUT_DEFAULT);
	free(msg);
	ck_assert_int_eq(parse("-p 3 -u 0", &o, &msg), OPT_RUN);
	ck_assert_int_eq(o.sem_procs, 3);
	free(msg);
	ck_assert_int_eq(parse("-p 32767 -p -1", &o, &msg), OPT_RUN);
	ck_assert_int_eq(o.sem_procs, -1);
	free(msg);
	ck_assert_int_eq(parse("-ys --sync-timeout=31536000", &o, &msg),
			 OPT_RUN);
	ck_assert_str_eq(msg, "");
	ck_assert(o.sync == OPT_SYNC_SEM && o.sync_timeout == 31536000);
	free(msg);
	ck_assert_uint_eq(o.barrier_timeout, OPT_BARRIER_TIMEOUT_DEFAULT);
	ck_assert_int_eq(parse("--barrier-timeout=0", &o, &msg), OPT_RUN);
	ck_assert_uint_eq(o.barrier_timeout, 0);
	free(msg);
	ck_assert_int_eq(parse("-y p -x 3", &o, &msg), OPT_RUN);
	ck_assert(o.sync == OPT_SYNC_PROMPT);
	free(msg);
	ck_assert_int_eq(parse("-yp -y s -x 1", &o, &msg), OPT_RUN);
	ck_assert(o.sync == OPT_SYNC_SEM);
	free(msg);
}
END_TEST

START_TEST(accepted_sync_write)
{
	struct clyde_opts o;
	char *msg;

	ck_assert_int_eq(parse("", &o, &msg), OPT_RUN);
	ck_assert(o.sync_method == OPT_SYNCW_FDATASYNC);
	ck_assert_uint_eq(o.sync_size, OPT_SYNCW_SIZE_DEFAULT);
	ck_assert_uint_eq(o.sync_ops, OPT_SYNCW_OPS_DEFAULT);
	ck_assert(o.sync_time == OPT_SYNCW_TIME_DEFAULT);
	free(msg);
	ck_assert_int_eq(parse("--sync-method=dsync --sync-size=4k -D "
			       "--sync-ops=7 --sync-time=0.25",
			       &o, &msg),
			 OPT_RUN);
	ck_assert_str_eq(msg, "");
	ck_assert(o.sync_method == OPT_SYNCW_DSYNC && o.sync_time == 0.25);
	ck_assert_uint_eq(o.sync_size, 4096);
	ck_assert_uint_eq(o.sync_ops, 7);
	ck_assert_str_eq(opts_sync_method_name(o.sync_method), "dsync");
	free(msg);
	ck_assert_int_eq(parse("--sync-method=sync --sync-size=1", &o, &msg),
			 OPT_RUN);
	ck_assert(o.sync_method == OPT_SYNCW_SYNC && o.sync_size == 1);
	free(msg);
}
END_TEST

static Suite *options_suite(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("options");

	tcase_add_checked_fixture(tc, NULL, free_lines);
	tcase_add_test(tc, defaults);
	tcase_add_test(tc, accepted);
	tcase_add_test(tc, only_unknown);
	tcase_add_loop_test(tc, refusals, 0,
			    (int)(sizeof(refused) / sizeof(refused[0])));
	tcase_add_test(tc, help_and_version);
	tcase_add_test(tc, parse_again_starts_afresh);
	tcase_add_loop_test(
	    tc, refusals_more, 0,
	    (int)(sizeof(refused_more) / sizeof(refused_more[0])));
	tcase_add_test(tc, accepted_more);
	tcase_add_test(tc, accepted_sync);
	tcase_add_test(tc, accepted_sync_write);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(options_suite)
