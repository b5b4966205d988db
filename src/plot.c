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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plot.h"

/*
 * Where gnuplot is on PATH (a regular, executable file), as execvp
 * would find it; NULL when nowhere. The caller frees it.
 */
char *plot_find_gnuplot(void)
{
	const char *path = getenv("PATH");
	char *buf = NULL;

	if (!path || !*path)
		path = "/usr/local/bin:/bin:/usr/bin";
	for (;;) {
		const char *end = strchr(path, ':');
		size_t n = end ? (size_t)(end - path) : strlen(path);
		size_t size = n + sizeof("/gnuplot") + 1;
		struct stat st;

		free(buf);
		buf = malloc(size);
		if (!buf)
			return NULL;
		snprintf(buf, size, "%.*s/gnuplot", (int)(n ? n : 1),
			 n ? path : ".");
		if (!stat(buf, &st) && S_ISREG(st.st_mode) &&
		    !access(buf, X_OK))
			return buf;
		if (!end)
			break;
		path = end + 1;
	}
	free(buf);
	return NULL;
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
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
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

/* The first line of gnuplot's stderr, kept in the memory file fd. */
static void first_error(int fd, char *why, size_t whylen, int status)
{
	char buf[512];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	char *line = buf, *nl;

	if (n <= 0) {
		snprintf(why, whylen, "gnuplot failed (status %d)", status);
		return;
	}
	buf[n] = '\0';
	/* gnuplot echoes the failing line and a caret first; skip blanks
	 * and those to the line that names the problem. */
	for (char *p = buf; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (strstr(p, "line ") || strstr(p, "rror")) {
			line = p;
			break;
		}
		if (!nl)
			break;
	}
	nl = strchr(line, '\n');
	if (nl)
		*nl = '\0';
	while (*line == ' ')
		line++;
	snprintf(why, whylen, "gnuplot failed: %s", line);
}

int plot_run(const char *script, size_t len, char *why, size_t whylen)
{
	int in[2], err_fd, status = 0, e;
	pid_t pid;
	size_t done = 0;

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
	pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		close(in[0]);
		close(in[1]);
		close(err_fd);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		signal(SIGPIPE, SIG_DFL);
		if (dup2(in[0], 0) < 0 || dup2(err_fd, 2) < 0 ||
		    (null >= 0 && dup2(null, 1) < 0))
			_exit(127);
		/* A user's ~/.gnuplot must not change the pictures. */
		execlp("gnuplot", "gnuplot", "--default-settings",
		       (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	while (done < len) {
		ssize_t n = write(in[1], script + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			break; /* EPIPE: gnuplot gave up; its status says why */
		}
		done += (size_t)n;
	}
	close(in[1]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			e = errno;
			snprintf(why, whylen, "waitpid: %s", strerror(e));
			close(err_fd);
			return -1;
		}
	}
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
