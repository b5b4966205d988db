/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli: what the programs share at their edges: how a rejected argument
 * is named, and what a closed standard output does.
 */
#ifndef CLYDE_CLI_H
#define CLYDE_CLI_H

/*
 * One line on stderr for getopt_long's ':' (a value missing) or '?'
 * (an unknown option) return c; argv and optind as getopt left them.
 */
void cli_getopt_error(const char *prog, int c, char **argv);

/*
 * A closed standard output (a reader such as `| head -1` that went
 * away) is not an error and not a crash, in all four programs: SIGPIPE
 * is ignored, so the write fails with EPIPE; the program then stops the
 * way it stops on any other signal (cleanup first), says nothing, and
 * exits CLI_EXIT_PIPE, the status a shell shows for a death by SIGPIPE.
 */
#define CLI_EXIT_PIPE 141

/*
 * Installs handler for SIGHUP, SIGINT and SIGTERM, each masking all
 * three while it runs (so the first one to run decides), without
 * SA_RESTART (so a blocked write returns EINTR and the work can stop).
 */
void cli_catch_stops(void (*handler)(int));

/* Ignores SIGPIPE; called first thing in main. */
void cli_ignore_sigpipe(void);

/*
 * The exit status after writing standard output failed with errno err:
 * CLI_EXIT_PIPE and nothing said for EPIPE; otherwise one line,
 * "prog: writing standard output: <why>", and 1.
 */
int cli_stdout_failed(const char *prog, int err);

/*
 * Flushes standard output at the end of a program; 0 when all of it was
 * written, else cli_stdout_failed()'s status.
 */
int cli_stdout_close(const char *prog);

#endif
