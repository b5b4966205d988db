/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli: see cli.h. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/*
 * The stops: every signal whose default action ends the process without
 * a core, but SIGKILL (not to be caught) and SIGPIPE (ignored: a closed
 * pipe is a write error, said where it happens). The real-time ones are
 * numbered only at run time.
 */
static int stops[64];
static size_t nstops;
static pthread_once_t stops_once = PTHREAD_ONCE_INIT;

static void stops_list(void)
{
	static const int fixed[] = {
	    SIGHUP,    SIGINT,	  SIGTERM, SIGUSR1, SIGUSR2,
	    SIGALRM,   SIGVTALRM, SIGPROF, SIGIO,
#ifdef SIGPWR
	    SIGPWR,
#endif
#ifdef SIGSTKFLT
	    SIGSTKFLT,
#endif
	};

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		stops[nstops++] = fixed[i];
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		if (nstops < sizeof(stops) / sizeof(stops[0]))
			stops[nstops++] = sig;
}

static size_t stops_count(void)
{
	pthread_once(&stops_once, stops_list);
	return nstops;
}
#define NSTOPS stops_count()

int cli_exit_stop(int sig)
{
	return sig == SIGPIPE ? CLI_EXIT_PIPE : CLI_EXIT_SIGNAL(sig);
}

static const char *prog_name = "clyde";

void cli_set_prog(const char *prog)
{
	prog_name = prog;
}

/* One line on f: prefix (may be NULL) and the message, under f's lock. */
static void line(FILE *f, const char *prefix, const char *fmt, va_list ap)
{
	flockfile(f);
	if (prefix)
		fprintf(f, "%s: ", prefix);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	funlockfile(f);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(stderr, prog_name, fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(stderr, prog_name, fmt, ap);
	va_end(ap);
}

int cli_vline(FILE *err, const char *prog, const char *fmt, va_list ap)
{
	line(err, prog, fmt, ap);
	return -1;
}

int error_on(FILE *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(err, prog_name, fmt, ap);
	va_end(ap);
	return -1;
}

void warning_on(FILE *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(err, prog_name, fmt, ap);
	va_end(ap);
}

void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(stderr, NULL, fmt, ap);
	va_end(ap);
}

static void stops_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < NSTOPS; i++)
		sigaddset(set, stops[i]);
}

void cli_stops_mask(int how)
{
	sigset_t set;

	stops_set(&set);
	pthread_sigmask(how, &set, NULL);
}

void cli_stops_del(sigset_t *set)
{
	for (size_t i = 0; i < NSTOPS; i++)
		sigdelset(set, stops[i]);
}

void cli_stops_default(void)
{
	struct sigaction sa;

	for (size_t i = 0; i < NSTOPS; i++)
		if (!sigaction(stops[i], NULL, &sa) &&
		    ((sa.sa_flags & SA_SIGINFO) ||
		     (sa.sa_handler != SIG_IGN && sa.sa_handler != SIG_DFL)))
			signal(stops[i], SIG_DFL);
	cli_stops_mask(SIG_UNBLOCK);
}

void cli_stops_ignore(void)
{
	for (size_t i = 0; i < NSTOPS; i++)
		signal(stops[i], SIG_IGN);
}

void cli_stop_first(volatile sig_atomic_t *stop, int sig)
{
	sig_atomic_t none = 0;

	__atomic_compare_exchange_n(stop, &none, (sig_atomic_t)sig, 0,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/* The waiter's thread: every stop, in the order they come. */
static void *take_stops(void *arg)
{
	void (*waiter)(int) = *(void (**)(int))arg;
	sigset_t set;

	stops_set(&set);
	for (;;) {
		int sig = sigwaitinfo(&set, NULL);

		if (sig > 0)
			waiter(sig);
	}
	return NULL;
}

void cli_catch_stops(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	stops_set(&sa.sa_mask);
	for (size_t i = 0; i < NSTOPS; i++)
		sigaction(stops[i], &sa, NULL);
}

int cli_catch_signals(void (*handler)(int), void (*waiter)(int))
{
	static void (*the_waiter)(int);
	pthread_t t;
	int e;

	if (handler)
		cli_catch_stops(handler);
	signal(SIGXFSZ, SIG_IGN);
	if (!waiter)
		return 0;
	the_waiter = waiter;
	cli_stops_mask(SIG_BLOCK);
	e = pthread_create(&t, NULL, take_stops, &the_waiter);
	if (e) {
		cli_stops_mask(SIG_UNBLOCK);
		return -e;
	}
	pthread_detach(t);
	return 0;
}

void cli_ignore_sigpipe(void)
{
	signal(SIGPIPE, SIG_IGN);
}

void cli_die_of_signal(int sig)
{
	struct sigaction dfl;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig);
}

int cli_stdout_failed(int err)
{
	if (err == EPIPE)
		return CLI_EXIT_PIPE;
	error("writing standard output: %s",
	      err ? strerror(err) : "write error");
	return CLI_EXIT_FAILED;
}

int cli_stdout_close(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	return cli_stdout_failed(errno);
}

/* dir/name into a new string, if it is an executable regular file. */
static char *executable(const char *dir, size_t dlen, const char *name)
{
	size_t size = dlen + strlen(name) + 3;
	char *buf = malloc(size);
	struct stat st;

	if (!buf)
		return NULL;
	snprintf(buf, size, "%.*s/%s", (int)(dlen ? dlen : 1), dlen ? dir : ".",
		 name);
	if (!stat(buf, &st) && S_ISREG(st.st_mode) && !access(buf, X_OK))
		return buf;
	free(buf);
	return NULL;
}

char *cli_find_program(const char *name, const char *const *also)
{
	const char *path = getenv("PATH");
	struct stat st;
	char *found;

	if (strchr(name, '/'))
		return !stat(name, &st) && S_ISREG(st.st_mode) &&
			       !access(name, X_OK)
			   ? strdup(name)
			   : NULL;
	if (!path || !*path)
		path = "/usr/local/bin:/bin:/usr/bin";
	for (;;) {
		const char *end = strchr(path, ':');
		size_t n = end ? (size_t)(end - path) : strlen(path);

		if ((found = executable(path, n, name)))
			return found;
		if (!end)
			break;
		path = end + 1;
	}
	for (; also && *also; also++)
		if ((found = executable(*also, strlen(*also), name)))
			return found;
	return NULL;
}
