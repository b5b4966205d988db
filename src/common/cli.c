/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli: see cli.h. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

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

void cli_catch_stops(void (*handler)(int))
{
	static const int stops[] = {SIGHUP, SIGINT, SIGTERM};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		sigaddset(&sa.sa_mask, stops[i]);
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		sigaction(stops[i], &sa, NULL);
}

void cli_ignore_sigpipe(void)
{
	signal(SIGPIPE, SIG_IGN);
}

int cli_stdout_failed(const char *prog, int err)
{
	if (err == EPIPE)
		return CLI_EXIT_PIPE;
	fprintf(stderr, "%s: writing standard output: %s\n", prog,
		err ? strerror(err) : "write error");
	return 1;
}

int cli_stdout_close(const char *prog)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	return cli_stdout_failed(prog, errno);
}
