/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli: what the programs share at their edges: how an error and a
 * rejected argument are said, the exit statuses, how the stop signals
 * are taken, and what a closed standard output does.
 */
#ifndef CLYDE_CLI_H
#define CLYDE_CLI_H

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>

/*
 * Exit statuses, the same in all six programs: all went well; a run
 * failed (an I/O error, a cleanup that left something); refused before
 * the first test. A closed standard output (a reader such as `| head -1`
 * that went away) is not an error and not a crash: SIGPIPE is ignored,
 * so the write fails with EPIPE; the program then stops the way it stops
 * on any other signal (cleanup first), says nothing, and exits
 * CLI_EXIT_PIPE, the status a shell shows for a death by SIGPIPE.
 */
enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FAILED = 1,
	CLI_EXIT_USAGE = 2,
	CLI_EXIT_PIPE = 141
};
/* Stopped by signal sig (SIGHUP 129, SIGINT 130, SIGTERM 143). */
#define CLI_EXIT_SIGNAL(sig) (128 + (sig))

/*
 * The one way a program speaks on stderr. cli_set_prog names the
 * program once, first thing in main; every line then starts "prog: ".
 *   error(fmt, ...)        "prog: <message>", returns -1, for
 *                          `return error(...)`;
 *   warning(fmt, ...)      "prog: <message>" for what does not stop the
 *                          work (a note, a skipped test);
 *   say(fmt, ...)          a line as it is, no prefix (bonnie++'s own
 *                          lines on stderr, "Using uid:...");
 *   error_on(err, fmt, ...), warning_on(err, fmt, ...)
 *                          error() and warning() on a stream the caller
 *                          was handed (stderr, or a test's capture).
 * Each is one line written under its stream's lock, so threads do not
 * mix their lines.
 */
void cli_set_prog(const char *prog);
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int error_on(FILE *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void warning_on(FILE *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The same line for a caller that names the program itself (an option
 * table's prog) and holds a va_list; returns -1. */
int cli_vline(FILE *err, const char *prog, const char *fmt, va_list ap);

/* The status of a stop: CLI_EXIT_PIPE for SIGPIPE, else CLI_EXIT_SIGNAL. */
int cli_exit_stop(int sig);

/*
 * The stop signals are every one whose default action ends the process
 * without a core: SIGHUP, SIGINT and SIGTERM, and also SIGUSR1, SIGUSR2,
 * SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT and the real-time
 * signals; not SIGKILL, which cannot be caught, nor SIGPIPE, which is
 * ignored (cli_ignore_sigpipe). cli_catch_stops installs handler for
 * each, masking them all while it runs (so the first one to run decides)
 * and without SA_RESTART (so a blocked transfer returns EINTR and the
 * work can stop).
 */
void cli_catch_stops(void (*handler)(int));

/*
 * The signals of a program that writes: cli_catch_stops(handler) (unless
 * handler is NULL), and SIGXFSZ ignored (a file-size limit is then a
 * write error, reported, with the cleanup after it).
 *
 * With a waiter, the stop signals are also blocked in the calling thread,
 * and so in every thread it makes afterwards, and taken one by one as
 * they arrive by a thread of their own that calls waiter(sig) for each,
 * outside any handler: a process that is in the kernel when INT, TERM and
 * HUP come in a row would otherwise receive them together, in an order
 * the kernel chooses, and the first must decide the exit status. handler
 * then runs only where they are unblocked (cli_stops_mask). Returns 0, or
 * -errno when that thread could not start (the stops are then unblocked
 * again, so handler takes them).
 */
int cli_catch_signals(void (*handler)(int), void (*waiter)(int));

/* Blocks (SIG_BLOCK) or unblocks (SIG_UNBLOCK) the stop signals in the
 * calling thread. */
void cli_stops_mask(int how);

/* In a child about to exec another program: each stop signal the
 * caller handles back to its default action (its handlers clean up the
 * caller's files; an ignored one stays ignored, as nohup left it), then
 * all unblocked. */
void cli_stops_default(void);

/* Removes the stop signals from set (a mask a child is to run with). */
void cli_stops_del(sigset_t *set);

/* Every stop signal ignored: a process that must outlive the run's
 * stops (the scratch directory's watcher). */
void cli_stops_ignore(void);

/*
 * Records sig in *stop unless a stop is recorded already: the first one
 * decides. Async-signal-safe and safe between threads.
 */
void cli_stop_first(volatile sig_atomic_t *stop, int sig);

/* Ignores SIGPIPE; called first thing in main. */
void cli_ignore_sigpipe(void);

/*
 * The end of a handler that cleaned up after sig: its default action
 * back and sig raised, pending until the handler returns, so that the
 * program dies of it as it would have without the handler (status 128
 * + its number). Async-signal-safe.
 */
void cli_die_of_signal(int sig);

/*
 * The exit status after writing standard output failed with errno err:
 * CLI_EXIT_PIPE and nothing said for EPIPE; otherwise one line,
 * "prog: writing standard output: <why>", and CLI_EXIT_FAILED.
 */
int cli_stdout_failed(int err);

/*
 * Flushes standard output at the end of a program; 0 when all of it was
 * written, else cli_stdout_failed()'s status.
 */
int cli_stdout_close(void);

/*
 * The path of an executable regular file name on PATH, as execvp would
 * find it (an empty PATH entry is the current directory; no PATH is
 * /usr/local/bin:/bin:/usr/bin), else in each of the directories of
 * also[] (NULL-terminated, may be NULL); malloc'd, NULL when nowhere.
 * A name with a '/' is taken as it is.
 */
char *cli_find_program(const char *name, const char *const *also);

#endif
