/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_options: the six programs' command lines under libFuzzer. The
 * first byte of an input picks the program (clyde, clyde-report,
 * clyde-zcav, clyde-sweep, clyde-pgscan, clyde-curve); the rest, split at NUL
 * bytes, is its argument vector. Each is parsed by the program's own parse
 * function, the one its main calls, many times in one process: what is checked
 * is that no argument vector crashes, reads out of bounds, does undefined
 * arithmetic or leaks (built with -fsanitize=fuzzer,address,undefined;
 * see `make fuzz`), and that a parse that says "run" left the options in
 * a state the program can use. Messages go to /dev/null (those the
 * parsers print on stderr themselves are closed by -close_fd_mask=2).
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "curve_prog.h"
#include "options.h"
#include "pgscan_prog.h"
#include "report.h"
#include "sweep_opts.h"
#include "zcav_opts.h"

#define MAX_ARGS 64

static FILE *null_out;

/* Once: stdout (where the help goes) to /dev/null. */
static void quiet(void)
{
	int fd;

	if (null_out)
		return;
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0 || dup2(fd, 1) < 0)
		abort();
	null_out = fdopen(fd, "w");
	if (!null_out)
		abort();
}

static int parse(int prog, int argc, char **argv)
{
	switch (prog) {
	case 0: {
		struct clyde_opts o;
		enum opt_result st =
		    opts_parse(argc, argv, &o, null_out, null_out);

		/* A run has a directory and a size it can use. */
		if (st == OPT_OK && (!o.dir || !o.repeats))
			abort();
		return st;
	}
	case 1: {
		struct report_args a;

		return (int)report_parse_args(argc, argv, &a, null_out,
					      null_out);
	}
	case 2: {
		static struct zcav_opts o;
		enum opt_result st = zcav_opts_parse(argc, argv, &o);

		if (st == OPT_OK && o.ntargets < 1)
			abort();
		return st;
	}
	case 3: {
		struct sweep_opts o;

		return sweep_opts_parse(argc, argv, &o, null_out, null_out);
	}
	case 5: {
		struct clyde_opts o;
		struct curve_opts c;
		enum opt_result st =
		    curve_opts_parse(argc, argv, &o, &c, null_out, null_out);

		/* A curve has steps, rising, within bounds, and a figure. */
		if (st == OPT_OK && (!c.nsteps || !c.step_time || !o.repeats))
			abort();
		for (unsigned i = 1; st == OPT_OK && i < c.nsteps; i++)
			if (c.pct[i] <= c.pct[i - 1] || c.pct[i] > 2000)
				abort();
		return st;
	}
	default: {
		static struct pg_opts o;
		enum opt_result st =
		    pg_opts_parse(argc, argv, &o, null_out, null_out);

		/* A run has an absolute directory and a count of runs. */
		if (st == OPT_OK && (o.dir_abs[0] != '/' || !o.runs))
			abort();
		return st;
	}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {"clyde",	    "clyde-report",
					    "clyde-zcav",   "clyde-sweep",
					    "clyde-pgscan", "clyde-curve"};
	char *argv[MAX_ARGS + 2];
	char *copy;
	int argc = 1, prog;
	size_t i, start;

	if (size < 1)
		return 0;
	quiet();
	prog = data[0] % 6;
	/* The arguments, NUL-terminated, in memory of exactly their size. */
	copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	copy[size - 1] = '\0';
	argv[0] = (char *)names[prog];
	for (start = 0, i = 0; i + 1 < size && argc <= MAX_ARGS; i++)
		if (copy[i] == '\0') {
			argv[argc++] = copy + start;
			start = i + 1;
		}
	if (start < size - 1 && argc <= MAX_ARGS)
		argv[argc++] = copy + start;
	argv[argc] = NULL;
	/* getopt may permute argv: a second parse sees what the first left,
	 * as a program that parses twice would. */
	parse(prog, argc, argv);
	parse(prog, argc, argv);
	free(copy);
	return 0;
}
