/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_optable: the option engine. Each type reads its value into its
 * field and refuses a bad one in one line with OPT_BAD; tables compose
 * (a unit's table with its own struct beside the program's); help and
 * usage come from the declarations, so changing a help string changes
 * --help; getopt's own mistakes get the one line of every program.
 */
#include "config.h"

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optable.h"
#include "units.h"
#include "check_main.h"

/* The program's options. */
struct prog_opts {
	int quiet, mode, level, json;
	unsigned count;
	uint64_t seed, size;
	const char *out, *json_path, *name;
	int colour;
	char chunk[32];
	int nops;
	const char *ops[4];
};

/* A unit's own options, in a struct of its own. */
struct unit_opts {
	unsigned depth;
	int fast;
};
static struct unit_opts unit;

static const char *const colours[] = {"red", "green", "blue", NULL};

/* A composite value: "a:b", b kept apart. */
static int take_pair(struct opt_ctx *c, const char *arg)
{
	struct prog_opts *o = c->base;
	const char *colon = strchr(arg, ':');

	if (!colon || colon == arg || !colon[1])
		return opt_refuse(c, "expected size:chunk");
	if (strlen(colon + 1) >= sizeof(o->chunk))
		return opt_refuse(c, "chunk too long");
	strcpy(o->chunk, colon + 1);
	return 0;
}

static char help_q[64] = "say less";

static struct opt prog_entries[] = {
    {.key = 'q',
     .name = "quiet",
     .type = OPT_FLAG,
     .off = offsetof(struct prog_opts, quiet),
     .help = help_q},
    {.name = "slow",
     .type = OPT_SET,
     .value = 2,
     .off = offsetof(struct prog_opts, mode),
     .help = "mode two"},
    {.key = 'l',
     .type = OPT_INT,
     .min = (uint64_t)-5,
     .max = 5,
     .off = offsetof(struct prog_opts, level),
     .arg = "N",
     .help = "level, -5 to 5"},
    {.key = 'c',
     .type = OPT_UINT,
     .min = 1,
     .max = 1000,
     .off = offsetof(struct prog_opts, count),
     .arg = "count",
     .help = "passes"},
    {.key = 'z',
     .type = OPT_U64,
     .off = offsetof(struct prog_opts, seed),
     .arg = "seed",
     .help = "the seed"},
    {.key = 's',
     .type = OPT_SIZE,
     .unit = UNITS_MIB,
     .min = 1,
     .max = UNITS_GIB,
     .off = offsetof(struct prog_opts, size),
     .arg = "size",
     .help = "bytes (bare number = MiB)"},
    {.key = 'o',
     .name = "output",
     .type = OPT_PATH,
     .flags = OPT_ONCE,
     .off = offsetof(struct prog_opts, out),
     .arg = "FILE",
     .help = "the file"},
    {.name = "json",
     .type = OPT_PATH,
     .flags = OPT_ARG_OPTIONAL | OPT_SEEN,
     .off = offsetof(struct prog_opts, json_path),
     .seen = offsetof(struct prog_opts, json),
     .arg = "FILE",
     .help = "the JSON document, to FILE or stdout"},
    {.key = 'm',
     .type = OPT_STRING,
     .off = offsetof(struct prog_opts, name),
     .arg = "name",
     .help = "a name"},
    {.name = "colour",
     .type = OPT_ENUM,
     .words = colours,
     .off = offsetof(struct prog_opts, colour),
     .help = "the colour"},
    {.name = "color",
     .type = OPT_ENUM,
     .words = colours,
     .flags = OPT_HIDDEN,
     .off = offsetof(struct prog_opts, colour)},
    {.key = 'p',
     .type = OPT_CALL,
     .call = take_pair,
     .arg = "size:chunk",
     .help = "a pair; a help long enough to be wrapped over more than one "
	     "line of the help, as the engine wraps every paragraph"},
    OPT_END,
};

static const struct opt unit_entries[] = {
    {.name = "iodepth",
     .type = OPT_UINT,
     .min = 1,
     .max = 64,
     .off = offsetof(struct unit_opts, depth),
     .arg = "N",
     .help = "I/Os in flight"},
    {.name = "fast",
     .key = 'F',
     .type = OPT_FLAG,
     .off = offsetof(struct unit_opts, fast),
     .help = "go fast"},
    OPT_END,
};

static const struct opt_table prog_table = {NULL, prog_entries, NULL};
static const struct opt_table unit_table = {"Unit options:", unit_entries,
					    &unit};
static const struct opt_table *const tables[] = {&prog_table, &unit_table,
						 NULL};

static int check_all(struct opt_ctx *c)
{
	struct prog_opts *o = c->base;

	for (int i = c->next; i < c->argc && o->nops < 4; i++)
		o->ops[o->nops++] = c->argv[i];
	if (o->nops > 2)
		return opt_error(c, "at most two operands");
	return 0;
}

static const struct opt_usage forms[] = {{0, "target..."}, {0, NULL}};

static const struct opt_parser parser = {
    .prog = "prog",
    .tables = tables,
    .usage = forms,
    .about = "What prog does.\n",
    .epilogue = "Exit status: 0 ok.\n",
    .check = check_all,
};

static char out_buf[8192], err_buf[8192];

/* Parse a line of words (argv[0] added) into o; out and err kept. */
static enum opt_result parse(struct prog_opts *o, const char *line)
{
	static char copy[1024];
	char *argv[32], *save = NULL, *tok;
	int argc = 0;
	FILE *out, *err;
	enum opt_result r;

	memset(out_buf, 0, sizeof(out_buf));
	memset(err_buf, 0, sizeof(err_buf));
	memset(o, 0, sizeof(*o));
	memset(&unit, 0, sizeof(unit));
	snprintf(copy, sizeof(copy), "%s", line);
	argv[argc++] = (char *)"prog";
	for (tok = strtok_r(copy, " ", &save); tok && argc < 31;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = strcmp(tok, "''") ? tok : (char *)"";
	argv[argc] = NULL;
	out = fmemopen(out_buf, sizeof(out_buf), "w");
	err = fmemopen(err_buf, sizeof(err_buf), "w");
	r = opt_parse(&parser, argc, argv, o, out, err);
	fclose(out);
	fclose(err);
	return r;
}

/* A refusal: OPT_BAD and exactly the one line want. */
static void refused(const char *line, const char *want)
{
	struct prog_opts o;

	ck_assert_int_eq(parse(&o, line), OPT_BAD);
	ck_assert_str_eq(err_buf, want);
	ck_assert_str_eq(out_buf, "");
}

START_TEST(types_take_values)
{
	struct prog_opts o;

	ck_assert_int_eq(parse(&o,
			       "-q --slow -l -3 -c 7 -z 18446744073709551615 "
			       "-s 8 -o f --json -m x --colour=blue "
			       "-p 4g:64k --iodepth=9 -F a b"),
			 OPT_OK);
	ck_assert_str_eq(err_buf, "");
	ck_assert_int_eq(o.quiet, 1);
	ck_assert_int_eq(o.mode, 2);
	ck_assert_int_eq(o.level, -3);
	ck_assert_uint_eq(o.count, 7);
	ck_assert_uint_eq(o.seed, UINT64_MAX);
	ck_assert_uint_eq(o.size, 8 * UNITS_MIB);
	ck_assert_str_eq(o.out, "f");
	ck_assert_int_eq(o.json, 1);
	ck_assert_ptr_null(o.json_path);
	ck_assert_str_eq(o.name, "x");
	ck_assert_int_eq(o.colour, 2);
	ck_assert_str_eq(o.chunk, "64k");
	/* The unit's options went to the unit's struct. */
	ck_assert_uint_eq(unit.depth, 9);
	ck_assert_int_eq(unit.fast, 1);
	ck_assert_int_eq(o.nops, 2);
	ck_assert_str_eq(o.ops[0], "a");
	ck_assert_str_eq(o.ops[1], "b");
	/* Long names, a value after '=', a hidden second spelling, the same
	 * string twice, an optional value given. */
	ck_assert_int_eq(parse(&o, "--quiet --output=f -o f --json=j.json "
				   "--color=green -s 1g"),
			 OPT_OK);
	ck_assert_int_eq(o.quiet, 1);
	ck_assert_str_eq(o.json_path, "j.json");
	ck_assert_int_eq(o.colour, 1);
	ck_assert_uint_eq(o.size, UNITS_GIB);
}
END_TEST

START_TEST(bad_values_one_line)
{
	refused("-c 0", "prog: -c '0': must be 1 to 1000\n");
	refused("-c 1001", "prog: -c '1001': must be 1 to 1000\n");
	refused("-c x", "prog: -c 'x': not a number\n");
	refused("-l 6", "prog: -l '6': must be -5 to 5\n");
	refused("-l -6", "prog: -l '-6': must be -5 to 5\n");
	refused("-l 1x", "prog: -l '1x': not a number\n");
	refused("-s 0", "prog: -s '0': must be more than 0\n");
	refused("-s 2g", "prog: -s '2g': must be at most 1g\n");
	refused("-s 12x", "prog: -s '12x': unknown suffix (use k, m, g or "
			  "t)\n");
	refused("-o ''", "prog: -o '': empty name\n");
	refused("-m ''", "prog: -m '': empty value\n");
	refused("-o a -o b", "prog: -o 'b': given twice with different values "
			     "('a' first)\n");
	refused("--colour=pink",
		"prog: --colour 'pink': expected red, green or blue\n");
	refused("-p 4g", "prog: -p '4g': expected size:chunk\n");
	refused("--iodepth=65", "prog: --iodepth '65': must be 1 to 64\n");
	/* A value shown escaped: the line stays one line. */
	refused("-m x -c 1\n2", "prog: -c '1\\n2': not a whole number\n");
	/* What needs all the options: the check hook. */
	refused("a b c", "prog: at most two operands\n");
}
END_TEST

START_TEST(getopt_mistakes_one_line)
{
	refused("-k", "prog: unknown option '-k' (see prog --help)\n");
	refused("-qk", "prog: unknown option '-k' (see prog --help)\n");
	/* A byte above 127 in a cluster: named, not the argument before. */
	refused("-c 1 -q\xffq", "prog: unknown option '-\\xff' (see prog "
				"--help)\n");
	refused("--bogus",
		"prog: unknown option '--bogus' (see prog --help)\n");
	refused("--bogus\n", "prog: unknown option '--bogus\\n' (see prog "
			     "--help)\n");
	refused("-c", "prog: -c: needs a value\n");
	refused("-qc", "prog: -qc: needs a value\n");
	refused("--iodepth", "prog: --iodepth: needs a value\n");
	refused("--quiet=1", "prog: --quiet: takes no value\n");
}
END_TEST

/*
 * --dump-options: a line per entry shown in --help (the hidden --color
 * left out), its value's form and kind, an enum's words; operands
 * because a usage line names them; then the engine's own. The parse
 * is done, as after --help.
 */
START_TEST(dump_options)
{
	struct prog_opts o;

	ck_assert_int_eq(parse(&o, "-q --dump-options -c 0"), OPT_DONE);
	ck_assert_str_eq(err_buf, "");
	ck_assert_str_eq(out_buf, "option\t-q\t--quiet\tnone\t-\t0\t-\n"
				  "option\t-\t--slow\tnone\t-\t0\t-\n"
				  "option\t-l\t-\trequired\t-\t0\t-\n"
				  "option\t-c\t-\trequired\t-\t0\t-\n"
				  "option\t-z\t-\trequired\t-\t0\t-\n"
				  "option\t-s\t-\trequired\t-\t0\t-\n"
				  "option\t-o\t--output\trequired\tfile\t0\t-\n"
				  "option\t-\t--json\toptional\tfile\t0\t-\n"
				  "option\t-m\t-\trequired\t-\t0\t-\n"
				  "option\t-\t--colour\trequired\twords\t0\t"
				  "red green blue\n"
				  "option\t-p\t-\trequired\t-\t0\t-\n"
				  "option\t-\t--iodepth\trequired\t-\t0\t-\n"
				  "option\t-F\t--fast\tnone\t-\t0\t-\n"
				  "option\t-\t--help\tnone\t-\t0\t-\n"
				  "option\t-\t--version\tnone\t-\t0\t-\n"
				  "operands\n");
}
END_TEST

/*
 * A CALL entry's words, a directory's or a user's value, an entry's
 * tags and the parser's subcommands, as completion is told them.
 */
static int take_any(struct opt_ctx *c, const char *arg)
{
	(void)c;
	(void)arg;
	return 0;
}

START_TEST(dump_commands)
{
	static const char *const modes[] = {"fast", "part:", NULL};
	static const char *const cmds[] = {"get", "put", NULL};
	static const struct opt entries[] = {
	    {.name = "mode",
	     .type = OPT_CALL,
	     .call = take_any,
	     .words = modes,
	     .tags = 2,
	     .help = "a mode"},
	    {.key = 'd', .type = OPT_PATH, .arg = "dir", .help = "a dir"},
	    {.key = 'u',
	     .type = OPT_STRING,
	     .flags = OPT_ARG_OPTIONAL | OPT_ARG_NEXT,
	     .arg = "user[:group]",
	     .help = "a user"},
	    OPT_END,
	};
	static const struct opt_table table = {NULL, entries, NULL};
	static const struct opt_table *const tabs[] = {&table, NULL};
	static const struct opt_parser p = {
	    .prog = "prog", .tables = tabs, .commands = cmds};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	opt_dump(&p, f);
	fclose(f);
	ck_assert_str_eq(buf, "option\t-\t--mode\trequired\twords\t2\t"
			      "fast part:\n"
			      "option\t-d\t-\trequired\tdir\t0\t-\n"
			      "option\t-u\t-\tnext\tuser\t0\t-\n"
			      "option\t-\t--help\tnone\t-\t0\t-\n"
			      "option\t-\t--version\tnone\t-\t0\t-\n"
			      "command\tget\t1\n"
			      "command\tput\t2\n");
	free(buf);
}
END_TEST

START_TEST(help_and_version)
{
	struct prog_opts o;

	ck_assert_int_eq(parse(&o, "--version"), OPT_DONE);
	ck_assert_str_eq(out_buf, "prog " PACKAGE_VERSION "\n");
	ck_assert_int_eq(parse(&o, "-q --help -c 0"), OPT_DONE);
	ck_assert_str_eq(err_buf, "");
	ck_assert_str_eq(
	    out_buf,
	    "usage: prog [-q] [--slow] [-l N] [-c count] [-z seed] [-s size] "
	    "[-o FILE]\n"
	    "            [--json[=FILE]] [-m name] [--colour=red|green|blue] "
	    "[-p size:chunk]\n"
	    "            [--iodepth=N] [-F] target...\n"
	    "\n"
	    "What prog does.\n"
	    "\n"
	    "  -q, --quiet     say less\n"
	    "  --slow          mode two\n"
	    "  -l N            level, -5 to 5\n"
	    "  -c count        passes\n"
	    "  -z seed         the seed\n"
	    "  -s size         bytes (bare number = MiB)\n"
	    "  -o, --output=FILE  the file\n"
	    "  --json[=FILE]   the JSON document, to FILE or stdout\n"
	    "  -m name         a name\n"
	    "  --colour=red|green|blue  the colour\n"
	    "  -p size:chunk   a pair; a help long enough to be wrapped over "
	    "more than one\n"
	    "                  line of the help, as the engine wraps every "
	    "paragraph\n"
	    "\n"
	    "Unit options:\n"
	    "  --iodepth=N     I/Os in flight\n"
	    "  -F, --fast      go fast\n"
	    "\n"
	    "  --help          this text\n"
	    "  --version       the version\n"
	    "\n"
	    "Exit status: 0 ok.\n");
}
END_TEST

/* The help is the declarations': change one, and --help changes. */
START_TEST(help_follows_declaration)
{
	struct prog_opts o;

	ck_assert_int_eq(parse(&o, "--help"), OPT_DONE);
	ck_assert_ptr_nonnull(strstr(out_buf, "  -q, --quiet     say less\n"));
	snprintf(help_q, sizeof(help_q), "say nothing at all");
	prog_entries[0].name = "silent";
	ck_assert_int_eq(parse(&o, "--help"), OPT_DONE);
	ck_assert_ptr_null(strstr(out_buf, "say less"));
	ck_assert_ptr_nonnull(
	    strstr(out_buf, "  -q, --silent    say nothing at all\n"));
	ck_assert_int_eq(parse(&o, "--silent"), OPT_OK);
	ck_assert_int_eq(o.quiet, 1);
	refused("--quiet",
		"prog: unknown option '--quiet' (see prog --help)\n");
	prog_entries[0].name = "quiet";
	snprintf(help_q, sizeof(help_q), "say less");
}
END_TEST

/* Called again and again, it starts afresh: nothing left from a
 * refusal in the middle of a cluster of short options. */
START_TEST(again_and_again)
{
	struct prog_opts o;

	for (int i = 0; i < 100; i++) {
		ck_assert_int_eq(parse(&o, "-qc"), OPT_BAD);
		ck_assert_int_eq(parse(&o, "-qk -c 2"), OPT_BAD);
		ck_assert_int_eq(parse(&o, "-c 3 a"), OPT_OK);
		ck_assert_uint_eq(o.count, 3);
		ck_assert_int_eq(o.quiet, 0);
		ck_assert_int_eq(o.nops, 1);
	}
}
END_TEST

/* bonnie++'s habits: "-f" alone or "-f 20" (the value as the next
 * word unless it is an option), and a letter that prints and ends the
 * parse as --help does ("-h"). */
struct habit_opts {
	const char *f;
	int f_given, quiet, said;
};

static int take_f(struct opt_ctx *c, const char *arg)
{
	struct habit_opts *o = c->base;

	o->f = arg;
	o->f_given = 1;
	return 0;
}

static int take_h(struct opt_ctx *c, const char *arg)
{
	struct habit_opts *o = c->base;

	ck_assert_ptr_null(arg);
	o->said = 1;
	return 1;
}

static const struct opt habit_entries[] = {
    {.key = 'f',
     .type = OPT_CALL,
     .flags = OPT_ARG_OPTIONAL | OPT_ARG_NEXT,
     .call = take_f,
     .arg = "size",
     .help = "fast, or per-char over size"},
    {.key = 'q',
     .type = OPT_FLAG,
     .off = offsetof(struct habit_opts, quiet),
     .help = "quiet"},
    {.key = 'h',
     .type = OPT_CALL,
     .flags = OPT_NO_VALUE | OPT_HIDDEN,
     .call = take_h},
    OPT_END,
};

static const struct opt_table habit_table = {NULL, habit_entries, NULL};
static const struct opt_table *const habit_tables[] = {&habit_table, NULL};
static const struct opt_parser habit_parser = {.prog = "habit",
					       .tables = habit_tables};

static enum opt_result habit(struct habit_opts *o, int argc, char **argv)
{
	FILE *null = fopen("/dev/null", "w");
	enum opt_result r;

	ck_assert_ptr_nonnull(null);
	memset(o, 0, sizeof(*o));
	r = opt_parse(&habit_parser, argc, argv, o, null, null);
	fclose(null);
	return r;
}

START_TEST(bonnie_habits)
{
	char *a[] = {"habit", "-f", "20", "-q", NULL};
	char *b[] = {"habit", "-f", "-q", NULL};
	char *d[] = {"habit", "-h", "-q", NULL};
	struct habit_opts o;

	ck_assert_int_eq(habit(&o, 4, a), OPT_OK);
	ck_assert(o.f_given && o.quiet);
	ck_assert_str_eq(o.f, "20");
	ck_assert_int_eq(habit(&o, 3, b), OPT_OK);
	ck_assert(o.f_given && o.quiet);
	ck_assert_ptr_null(o.f);
	ck_assert_int_eq(habit(&o, 3, d), OPT_DONE);
	ck_assert(o.said && !o.quiet);
}
END_TEST

static Suite *optable_suite(void)
{
	Suite *s = suite_create("optable");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, types_take_values);
	tcase_add_test(tc, bad_values_one_line);
	tcase_add_test(tc, getopt_mistakes_one_line);
	tcase_add_test(tc, again_and_again);
	tcase_add_test(tc, bonnie_habits);
	suite_add_tcase(s, tc);
	tc = tcase_create("help");
	tcase_add_test(tc, help_and_version);
	tcase_add_test(tc, dump_options);
	tcase_add_test(tc, dump_commands);
	tcase_add_test(tc, help_follows_declaration);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(optable_suite)
