/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * child: running PostgreSQL's programs (and clyde) as child processes:
 * fork, then in the child the stop signals back to their defaults, the
 * switch to the target user (PostgreSQL refuses root), the scratch
 * directory as the working directory (the user may not be able to enter
 * the caller's), stdin from /dev/null and the output into files of the
 * scratch directory, and exec of a full path with an argv array: no
 * shell, so no path or value is ever word-split or expanded. Also where
 * PostgreSQL's programs are found, and the reason a log gives.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "pgscan_prog.h"

/* The child running now, for the signal handler; 0: none. */
static volatile pid_t running;

void pg_child_stop(void)
{
	pid_t p = running;

	if (p > 0)
		kill(p, SIGTERM);
}

/* Open name in the scratch directory for a child's output. */
static int out_fd(const struct pg_run *r, const char *name)
{
	return openat(r->scratch.dirfd, name,
		      O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
}

/* In the child: never returns. */
static void exec_child(const struct pg_run *r, char *const argv[], int out,
		       int err)
{
	char why[256];
	int null = open("/dev/null", O_RDONLY);

	cli_stops_default();
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 ||
	    dup2(err, 2) < 0)
		_exit(126);
	if (geteuid() == 0 && privs_drop(&r->o->privs, why, sizeof(why))) {
		dprintf(2, "%s\n", why);
		_exit(126);
	}
	if (chdir(r->scratch.path)) {
		dprintf(2, "cd %s: %s\n", r->scratch.path, strerror(errno));
		_exit(126);
	}
	/* The connection is named in full on every command line; what the
	 * caller's environment says of another one is not wanted. */
	unsetenv("PGOPTIONS");
	unsetenv("PGSERVICE");
	unsetenv("PGSERVICEFILE");
	unsetenv("PGPASSFILE");
	unsetenv("PSQLRC");
	execv(argv[0], argv);
	dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int pg_child(const struct pg_run *r, char *const argv[], const char *out_path,
	     const char *err_path)
{
	int out, err, st, e;
	pid_t pid;

	if (pg_stop && !r->cleaning) {
		errno = EINTR;
		return -1;
	}
	out = out_fd(r, out_path);
	err = strcmp(out_path, err_path) ? out_fd(r, err_path) : dup(out);
	if (out < 0 || err < 0) {
		e = errno;
		if (out >= 0)
			close(out);
		errno = e;
		return -1;
	}
	pid = fork();
	if (pid == 0)
		exec_child(r, argv, out, err);
	e = errno;
	close(out);
	close(err);
	if (pid < 0) {
		errno = e;
		return -1;
	}
	/* The cleanup's children (the server's stop) run to their end. */
	if (!r->cleaning)
		running = pid;
	/* A stop that came between the check and now is passed on. */
	if (pg_stop && !r->cleaning)
		kill(pid, SIGTERM);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			break;
	running = 0;
	if (pg_stop && !r->cleaning) {
		errno = EINTR;
		return -1;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + WTERMSIG(st);
}

int pg_path(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Whether a line names a failure worth showing. */
static int grave(const char *line)
{
	return strstr(line, "FATAL:") || strstr(line, "PANIC:") ||
	       strstr(line, "ERROR:") || strstr(line, "error:");
}

void pg_log_reason(const char *path, char *buf, size_t len)
{
	char line[1024], last[1024] = "", worst[1024] = "";
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[strspn(line, " \t")])
			continue;
		snprintf(last, sizeof(last), "%s", line);
		if (grave(line) && !worst[0])
			snprintf(worst, sizeof(worst), "%s", line);
	}
	fclose(f);
	snprintf(buf, len, "%s", worst[0] ? worst : last);
	/* One line, whatever the log held: no control characters. */
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < ' ')
			*p = ' ';
}

/* Whether dir holds every program the run needs. */
static int has_all(const char *dir)
{
	static const char *const need[] = {"initdb", "pg_ctl", "postgres",
					   "psql", "pgbench"};
	char p[PATH_MAX];

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		pg_path(p, sizeof(p), dir, need[i]);
		if (access(p, X_OK))
			return 0;
	}
	return 1;
}

/* pg_config --bindir's answer, read through a pipe; "" when none. */
static void from_pg_config(char *out, size_t len)
{
	static const char *const also[] = {NULL};
	char *pc = cli_find_program("pg_config", also);
	int fd[2];
	ssize_t n = 0;
	pid_t pid;

	out[0] = '\0';
	if (!pc || pipe2(fd, O_CLOEXEC)) {
		free(pc);
		return;
	}
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(fd[1], 1);
		dup2(null, 2);
		execl(pc, "pg_config", "--bindir", (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	if (pid > 0) {
		while ((n = read(fd[0], out, len - 1)) < 0 && errno == EINTR)
			;
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	close(fd[0]);
	out[n > 0 ? n : 0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	free(pc);
}

/* The highest /usr/lib/postgresql/N/bin with every program; "" none. */
static void highest_version(char *out, size_t len)
{
	DIR *d = opendir("/usr/lib/postgresql");
	struct dirent *e;
	long best = -1;
	char p[PATH_MAX];

	out[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d))) {
		char *end;
		long n = strtol(e->d_name, &end, 10);

		if (end == e->d_name || *end || n <= best)
			continue;
		snprintf(p, sizeof(p), "/usr/lib/postgresql/%s/bin", e->d_name);
		if (has_all(p)) {
			best = n;
			snprintf(out, len, "%s", p);
		}
	}
	closedir(d);
}

int pg_find_bindir(const struct pg_opts *o, char *out, size_t len)
{
	char abs[PATH_MAX];

	if (o->bindir) {
		/* Absolute: the children run in the scratch directory. */
		if (realpath(o->bindir, abs) && has_all(abs)) {
			snprintf(out, len, "%s", abs);
			return 0;
		}
		return error("--bindir '%s': no initdb, pg_ctl, postgres, "
			     "psql and pgbench there",
			     o->bindir);
	}
	from_pg_config(out, len);
	if (out[0] && has_all(out))
		return 0;
	highest_version(out, len);
	if (out[0])
		return 0;
	return error("PostgreSQL not found (no initdb, pg_ctl, postgres, "
		     "psql and pgbench in pg_config --bindir or "
		     "/usr/lib/postgresql/N/bin): install postgresql");
}
