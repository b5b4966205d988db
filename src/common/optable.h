/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * optable: the one option engine of the six programs. A program, and
 * each unit of a program that has options of its own (a phase of clyde),
 * declares its options in a table; the tables compose into one parser;
 * --help and the usage lines are generated from the declarations, and a
 * mistake gets the same one line in every program.
 *
 * Declaring a table. One struct opt per option, the table ended by
 * OPT_END; each entry names the option (long name, short letter, or
 * both), how its value is read (enum opt_type), the field the value goes
 * to (offsetof into the table's options struct), and its help:
 *
 *	struct ran_opts { unsigned depth; uint64_t bs; const char *mix; };
 *	static struct ran_opts ran;
 *	static const struct opt ran_opts[] = {
 *	    {.name = "iodepth", .type = OPT_UINT, .min = 1, .max = 1024,
 *	     .off = offsetof(struct ran_opts, depth), .arg = "N",
 *	     .help = "I/Os in flight (default 1)"},
 *	    {.name = "ran-bs", .type = OPT_SIZE, .unit = 1, .min = 512,
 *	     .max = 1 << 24, .off = offsetof(struct ran_opts, bs),
 *	     .arg = "SIZE", .help = "block size of random I/O"},
 *	    OPT_END,
 *	};
 *	const struct opt_table ran_table = {"Random I/O:", ran_opts, &ran};
 *
 * A help string is one paragraph, wrapped to the screen's width by the
 * engine (a '\n' in it starts a new line). An entry without help (and
 * with OPT_HIDDEN) is taken but not shown, e.g. a second spelling.
 *
 * Composing tables. A parser lists its tables, NULL-terminated: the
 * program's own and those of its units, as argp's children do. Each
 * table's offsets are into ITS struct: .base when the table has one (a
 * unit's private static struct), else the base handed to opt_parse (the
 * program's options struct, which can then live on the stack). --help
 * and --version are the engine's: every parser takes them, and
 * --dump-options, hidden, the table for shell completion (opt_dump).
 *
 * A composite value (bonnie++'s -s size:chunk:seeks:procs, a list, a
 * value that depends on another option) is an OPT_CALL entry: its .call
 * gets the context (opt_field() is the entry's field, c->arg the value as
 * given, c->name the option as "-s" or "--name") and returns 0, or -1
 * after one line said through opt_refuse(), opt_bad() or opt_error():
 *
 *	static int take_size(struct opt_ctx *c, const char *arg)
 *	{
 *		struct sizes *s = opt_field(c);
 *
 *		if (split(arg, s))
 *			return opt_refuse(c, "expected size[:chunk]");
 *		return 0;
 *	}
 *
 * A call that printed all the run asks for (clyde's -h, a help of its
 * own) returns 1: the parse ends there, OPT_DONE, as after --help.
 *
 * An option with an optional value, such as --json[=FILE]: an OPT_PATH
 * entry with OPT_ARG_OPTIONAL (the field stays NULL without a value)
 * and OPT_SEEN (an int field at .seen set to 1 whenever it is given).
 *
 * What needs all the options (a conflict, a default that depends on
 * others, the operands) is the parser's .check hook, run once after the
 * last option with c->opt NULL. A program with subcommands tags each
 * entry with the subcommands that take it (.tags): struct opt_usage
 * then draws a usage line per subcommand, and the .taken hook, run after
 * each option, can refuse one a subcommand does not take.
 *
 * The lines of a mistake, each one line on the parse's err stream, the
 * option or value escaped (text_shown) so it stays one line:
 *   prog: unknown option '-k' (see prog --help)
 *   prog: unknown option '--bogus' (see prog --help)
 *   prog: -qs: needs a value          (the argument as given)
 *   prog: --force: takes no value
 *   prog: -c '0': must be 1 to 1000   (a bad value: "what 'value': why")
 *
 * Why not glibc's argp: it cannot keep bonnie++'s short options exactly
 * (argp reserves -? and -V, and prints its own usage and help layout),
 * and its errors are two lines ("prog: invalid option -- 'k'" and a
 * "Try ..." line); clyde's promise is one line for one mistake.
 */
#ifndef CLYDE_OPTABLE_H
#define CLYDE_OPTABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What opt_parse() found: go on, done (--help or --version printed:
 * exit 0), or a mistake (one line said: exit 2). */
enum opt_result { OPT_OK = 0, OPT_DONE = 1, OPT_BAD = 2 };

/* How an entry's value is read, and the type of its field. */
enum opt_type {
	OPT_FLAG,   /* no value; int field set to 1 */
	OPT_SET,    /* no value; int field set to .value */
	OPT_INT,    /* int field, decimal, .min..max read as int64_t */
	OPT_UINT,   /* unsigned field, decimal, .min..max */
	OPT_U64,    /* uint64_t field, decimal, .min..max */
	OPT_SIZE,   /* uint64_t bytes, with units (k, m, g, t; a bare number
		       in .unit bytes), .min..max (.max 0: no bound) */
	OPT_STRING, /* const char * field, pointing into argv; not empty */
	OPT_PATH,   /* the same for a file, device or directory name */
	OPT_ENUM,   /* int field: the index of the value in .words */
	OPT_CALL,   /* .call(ctx, value) reads it */
};

/* Entry flags. */
#define OPT_ARG_OPTIONAL 0x1  /* --name[=VALUE]; value NULL when absent */
#define OPT_HIDDEN	 0x2  /* taken, not in help or usage */
#define OPT_NO_USAGE	 0x4  /* in help, not in the usage line */
#define OPT_ONCE	 0x8  /* STRING/PATH: given twice, the same value */
#define OPT_SEEN	 0x10 /* also set the int at .seen to 1 */
#define OPT_EMPTY_OK	 0x20 /* STRING/PATH: an empty value is taken */
#define OPT_ARG_NEXT                                                           \
	0x40		  /* with OPT_ARG_OPTIONAL: bonnie++'s "-f 20",        \
			     the next word as the value unless it              \
			     starts with '-' */
#define OPT_NO_VALUE 0x80 /* CALL: takes no value (call's arg NULL) */

struct opt_ctx;

struct opt {
	const char *name; /* long name without "--", or NULL */
	int key;	  /* short letter, or 0 */
	enum opt_type type;
	unsigned flags;
	size_t off;	   /* the field, offsetof into the table's struct */
	size_t seen;	   /* OPT_SEEN: an int field set to 1 when given */
	uint64_t min, max; /* INT (as int64_t), UINT, U64, SIZE */
	uint64_t unit;	   /* SIZE: a bare number's unit (0: bytes) */
	int value;	   /* SET: the value stored */
	/*
	 * ENUM: the words, NULL-terminated. CALL: the values it takes when
	 * they are a fixed set, for completion only (the call reads the
	 * value); a word ending in ':' is the head of a longer value.
	 */
	const char *const *words;
	int (*call)(struct opt_ctx *c, const char *arg); /* CALL */
	unsigned tags;	  /* the program's own (clyde-report: subcommands) */
	const char *arg;  /* the value's name in help ("FILE", "size") */
	const char *help; /* its help, one paragraph */
};
#define OPT_END                                                                \
	{                                                                      \
		.name = NULL, .key = 0                                         \
	}

struct opt_table {
	const char *title;	/* a heading in --help, or NULL */
	const struct opt *opts; /* ended by OPT_END */
	void *base;		/* the struct the offsets are into; NULL: the
				   base handed to opt_parse */
};

/* A usage line: the options whose .tags meet .tags (0: all of them, and
 * entries with no tags are in every line), then .operands. */
struct opt_usage {
	unsigned tags;
	const char *operands;
};

struct opt_parser {
	const char *prog;
	const struct opt_table *const *tables; /* NULL-terminated */
	const struct opt_usage *usage;	       /* ended by {0, NULL}; NULL:
						  one line, no operands */
	const char *about;    /* --help: after the usage lines */
	const char *epilogue; /* --help: after the options */
	/*
	 * --help: writes the about text instead of .about, when part of it
	 * is made at run time from a table (clyde-report's words on other
	 * programs' documents, from lib/extfig.h); NULL: .about.
	 */
	void (*write_about)(FILE *out);
	/*
	 * With .operand, operands are taken in order among the options
	 * (getopt's "-" mode: zcav's "-l log target -l log target"); else
	 * they are left at argv[c->next..] in order, after the options.
	 */
	int (*operand)(struct opt_ctx *c, const char *arg);
	/* Run after each option was taken (c->opt, c->arg set); -1 refuses. */
	int (*taken)(struct opt_ctx *c);
	/* Run once after the last option (c->opt NULL); -1 refuses. */
	int (*check)(struct opt_ctx *c);
	/*
	 * Says an unknown option (missing 0) or a missing value (1), c->arg
	 * the argument as given, instead of the engine's line; NULL: the
	 * engine's. Only clyde-report sets it: its lines, which its tests
	 * pin, all end in "(try --help)".
	 */
	void (*mistake)(struct opt_ctx *c, int missing);
	/*
	 * The subcommands, NULL-terminated, commands[k] being the tag bit
	 * 1u << k of the entries it takes; NULL: none. For completion: the
	 * parse leaves the subcommand to .check among the operands.
	 */
	const char *const *commands;
};

/* What a handler, or a hook, is given. */
struct opt_ctx {
	const struct opt_parser *parser;
	const struct opt *opt; /* the entry taken; NULL in .check */
	void *base;	       /* the struct of opt's table */
	void *parse_base;      /* the base handed to opt_parse */
	const char *arg;       /* the value as given (NULL: none) */
	char name[64];	       /* the option as "-k" or "--name" */
	int argc;
	char **argv;
	int next; /* .check: argv[next..argc-1] are the operands */
	FILE *out, *err;
};

/*
 * Parse argv with p into base (and the tables' own structs): each
 * option's value into its field, in order. --help prints the generated
 * help on out, --version "prog VERSION", both OPT_DONE; a mistake is one
 * line on err and OPT_BAD. Fields of options not given are left as they
 * are: the caller sets the defaults first. getopt's state is reset, so
 * it can be called any number of times in one process; argv may be
 * permuted (operands last).
 */
enum opt_result opt_parse(const struct opt_parser *p, int argc, char **argv,
			  void *base, FILE *out, FILE *err);

/*
 * What a program's main does with opt_parse's answer: -1 for OPT_OK (go
 * on), the status of flushing standard output for OPT_DONE (help or
 * version printed: cli_stdout_close), CLI_EXIT_USAGE for OPT_BAD. So:
 *	if ((st = opt_exit(parse(argc, argv, ...))) >= 0)
 *		return st;
 */
int opt_exit(enum opt_result r);

/* The generated help and usage, as --help prints them. */
void opt_help(const struct opt_parser *p, FILE *out);
void opt_usage(const struct opt_parser *p, FILE *out);

/*
 * What --dump-options prints (a hidden option of the engine's, so every
 * program has it): the options as shell completion needs them, from the
 * entries --help is written from, one line each, fields apart by a tab,
 * "-" for a field that is empty:
 *
 *	option SHORT LONG VALUE KIND TAGS WORDS
 *
 * SHORT "-k", LONG "--name"; VALUE none, required, optional (only as
 * --name=VALUE or -kVALUE) or next (optional, and may be the next word,
 * bonnie++'s "-f 20"); KIND words (the value is one of WORDS, apart by
 * blanks), dir, file (a value named so, or an OPT_PATH), user, group,
 * or "-"; TAGS the entry's .tags in decimal (0: every subcommand).
 * Hidden entries are left out. Then "command NAME TAG" for each of
 * .commands, and "operands" when the program takes operands (files,
 * targets).
 */
void opt_dump(const struct opt_parser *p, FILE *out);

/*
 * The words of text onto out from column col, wrapped at the width of
 * --help (79 columns) with indent spaces before each further line; a
 * '\n' in text starts a new line. No newline after the last word. What
 * an option's help is written with, for a .write_about's paragraph.
 */
void opt_wrap(FILE *out, const char *text, size_t col, size_t indent);

/* The field of the entry being taken (c->opt's, in c->base). */
void *opt_field(const struct opt_ctx *c);

/* One line "prog: <message>" on c->err; -1. */
int opt_error(const struct opt_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "prog: what 'value': why" on c->err, value escaped; -1. */
int opt_bad(const struct opt_ctx *c, const char *what, const char *value,
	    const char *why);

/* opt_bad() for the option being taken and its value: "-s '8x': why". */
int opt_refuse(const struct opt_ctx *c, const char *why);

/*
 * An option given twice with different values, the first as given:
 * "-s '16m': given twice with different values ('8m' first)"; -1.
 */
int opt_twice(const struct opt_ctx *c, const char *first);
/* The same with the value as the option means it (a bare --json: "-"). */
int opt_twice_as(const struct opt_ctx *c, const char *value, const char *first);

/* The option as it is named in messages and help: "-k" if it has a
 * letter, else "--name"; in buf[len]. */
const char *opt_name(const struct opt *e, char *buf, size_t len);

#endif
