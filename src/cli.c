/* cli: see cli.h. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "cli.h"

void cli_getopt_error(const char *prog, int c, char **argv)
{
	if (c == ':')
		fprintf(stderr, "%s: %s: needs a value\n", prog,
			argv[optind - 1]);
	else if (optopt)
		fprintf(stderr, "%s: unknown option '-%c' (see %s --help)\n",
			prog, optopt, prog);
	else
		fprintf(stderr, "%s: unknown option '%s' (see %s --help)\n",
			prog, argv[optind - 1], prog);
}
