/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot: see plot.h. gnuplot's stderr goes to an anonymous memory file,
 * read back only when it fails, so a long script and a chatty gnuplot
 * cannot block each other on two pipes.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "gnuplot.h"
#include "quoted.h"
#include "xfer.h"

char *plot_find_gnuplot(void)
{
	return cli_find_program("gnuplot", NULL);
}

int plot_prepare(const char *path, enum plot_format *fmt, char *why,
		 size_t whylen)
{
	size_t n = strlen(path);
	char *gnuplot;

	if (n > 4 && !strcasecmp(path + n - 4, ".png")) {
		*fmt = PLOT_PNG;
	} else if (n > 4 && !strcasecmp(path + n - 4, ".svg")) {
		*fmt = PLOT_SVG;
	} else {
		snprintf(why, whylen,
			 "--plot '%s': the name must end in .png "
			 "or .svg",
			 path);
		return -1;
	}
	gnuplot = plot_find_gnuplot();
	if (!gnuplot) {
		snprintf(why, whylen, "--plot '%s': %s", path,
			 PLOT_INSTALL_HINT);
		return -1;
	}
	free(gnuplot);
	return 0;
}

void plot_quote(FILE *f, const char *s)
{
	quoted_put(f, s, '\'');
}

void plot_quote_lines(FILE *f, const char *s)
{
	const char *nl;

	/* Each line single-quoted, as plot_quote: gnuplot runs a command in
	 * backquotes inside a double-quoted string. Only the constant
	 * "\n" between them is double-quoted. */
	while ((nl = strchr(s, '\n'))) {
		char *line = strndup(s, (size_t)(nl - s));

		plot_quote(f, line ? line : "");
		free(line);
		fputs(".\"\\n\".", f);
		s = nl + 1;
	}
	plot_quote(f, s);
}

void plot_begin(FILE *script, const char *path, enum plot_format fmt,
		unsigned width, unsigned height)
{
	if (fmt == PLOT_PNG)
		fprintf(script,
			"set terminal pngcairo size %u,%u noenhanced "
			"font 'sans,10'\n",
			width, height);
	else
		fprintf(script,
			"set terminal svg size %u,%u noenhanced "
			"font 'sans,10' background '#ffffff'\n",
			width, height);
	fputs("set output ", script);
	plot_quote(script, path);
	fputc('\n', script);
}

/* The running gnuplot, for plot_signal_cleanup(); 0 when none. */
static volatile pid_t child;

void plot_signal_cleanup(void)
{
	pid_t pid = child;
	int e = errno;

	if (pid > 0) {
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		child = 0;
	}
	errno = e;
}

/* Copies line[len] to dst[dlen], white space runs made one space. */
static void squeeze(char *dst, size_t dlen, const char *line, size_t len)
{
	size_t o = 0;
	int space = 0;

	for (size_t i = 0; i < len && o + 1 < dlen; i++) {
		if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
			space = o > 0;
			continue;
		}
		if (space && o + 2 < dlen)
			dst[o++] = ' ';
		space = 0;
		dst[o++] = line[i];
	}
	dst[o] = '\0';
}

/* Whether a line of gnuplot's stderr is only its echo of the script:
 * blank, "gnuplot> <the command>", or the caret under it. */
static int echo_line(const char *p, size_t len)
{
	size_t i = 0;

	while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'))
		i++;
	if (i == len || (len - i >= 8 && !memcmp(p + i, "gnuplot>", 8)))
		return 1;
	for (; i < len; i++)
		if (p[i] != '^' && p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
			return 0;
	return 1;
}

/* Whether a line of gnuplot's stderr names a place: "line 3: ...". */
static int names_line(const char *p, size_t len)
{
	for (size_t i = 0; i + 6 < len; i++)
		if (!memcmp(p + i, "line ", 5) && p[i + 5] >= '0' &&
		    p[i + 5] <= '9')
			return 1;
	return 0;
}

/*
 * Why gnuplot failed, from its stderr kept in the memory file fd: the
 * first line naming the problem ("line 3: ..."), else the first line
 * that is not its echo of the script, with a "system error: ..." line
 * right after it added; when it said nothing, how it ended.
 */
static void first_error(int fd, char *why, size_t whylen, int status)
{
	enum { LINES = 64 };
	char buf[4096], text[600], sys[300] = "";
	const char *line[LINES];
	size_t len[LINES], nl = 0;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	int pick = -1;

	buf[n > 0 ? n : 0] = '\0';
	for (char *p = buf; *p && nl < LINES;) {
		char *end = strchr(p, '\n');
		size_t l = end ? (size_t)(end - p) : strlen(p);

		if (!echo_line(p, l)) {
			while (*p == ' ' || *p == '\t')
				p++, l--;
			line[nl] = p;
			len[nl++] = l;
		}
		p += l;
		if (*p)
			p++;
	}
	for (size_t i = 0; i < nl && pick < 0; i++)
		if (names_line(line[i], len[i]))
			pick = (int)i;
	for (size_t i = 0; i < nl && pick < 0; i++)
		if (strncmp(line[i], "system error:", 13))
			pick = (int)i;
	if (pick < 0 && nl)
		pick = 0;
	if (pick < 0) {
		if (status >= 128)
			snprintf(why, whylen,
				 "gnuplot failed: it was killed by signal %d",
				 status - 128);
		else
			snprintf(why, whylen,
				 "gnuplot failed: it exited with status %d "
				 "and said nothing",
				 status);
		return;
	}
	squeeze(text, sizeof(text), line[pick], len[pick]);
	if ((size_t)pick + 1 < nl &&
	    !strncmp(line[pick + 1], "system error:", 13))
		squeeze(sys, sizeof(sys), line[pick + 1], len[pick + 1]);
	snprintf(why, whylen, "gnuplot failed: %s%s%s", text,
		 sys[0] ? "; " : "", sys);
}

int plot_run(const char *script, size_t len, char *why, size_t whylen)
{
	int in[2], err_fd, status = 0, e;
	pid_t pid;
	sigset_t all, old;

	err_fd = memfd_create("clyde-gnuplot-stderr", MFD_CLOEXEC);
	if (err_fd < 0) {
		snprintf(why, whylen, "memfd_create: %s", strerror(errno));
		return -1;
	}
	if (pipe2(in, O_CLOEXEC) != 0) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		close(err_fd);
		return -1;
	}
	/* No signal between the fork and noting the child: a handler that
	 * missed it would leave gnuplot writing after the cleanup. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid > 0)
		child = pid;
	e = errno;
	if (pid != 0)
		sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(e));
		close(in[0]);
		close(in[1]);
		close(err_fd);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		/* The caller's handlers are not gnuplot's: they clean up.
		 * A caller that takes its stops in a thread has them
		 * blocked; gnuplot must still die of them. */
		cli_stops_default();
		signal(SIGPIPE, SIG_DFL);
		cli_stops_del(&old);
		sigdelset(&old, SIGPIPE);
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (dup2(in[0], 0) < 0 || dup2(err_fd, 2) < 0 ||
		    (null >= 0 && dup2(null, 1) < 0))
			_exit(127);
		/* A user's ~/.gnuplot must not change the pictures. */
		execlp("gnuplot", "gnuplot", "--default-settings",
		       (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	/* An error here (EPIPE: gnuplot gave up) is said by its status. */
	xfer_write_all(in[1], script, len, NULL);
	close(in[1]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			e = errno;
			child = 0;
			snprintf(why, whylen, "waitpid: %s", strerror(e));
			close(err_fd);
			return -1;
		}
	}
	child = 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		close(err_fd);
		return 0;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		snprintf(why, whylen, "%s", PLOT_INSTALL_HINT);
	else
		first_error(err_fd, why, whylen,
			    WIFEXITED(status) ? WEXITSTATUS(status)
					      : 128 + WTERMSIG(status));
	close(err_fd);
	return -1;
}
