/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cluster: the private server's life. initdb makes the cluster in
 * scratch/data; its configuration gets a Unix socket in scratch/sock
 * and no TCP listener (listen_addresses ''), and dynamic shared memory
 * in files of the data directory (mmap) rather than /dev/shm, so a
 * server that is killed leaves nothing outside the scratch directory
 * but, at worst, its small System V segment, which pg_server_kill
 * removes. The server is started and stopped with pg_ctl, waiting for
 * it each time; a start that fails is one line with the reason from the
 * server's log.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "pgscan_prog.h"

/* Full path of one of the programs in bindir. */
static void prog_path(const struct pg_result *res, const char *name, char *buf,
		      size_t len)
{
	pg_path(buf, len, res->bindir, name);
}

/* A string of postgresql.conf: quotes doubled, inside quotes. */
static void conf_str(FILE *f, const char *key, const char *val)
{
	fprintf(f, "%s = '", key);
	for (const char *p = val; *p; p++)
		fprintf(f, *p == '\'' ? "''" : "%c", *p);
	fputs("'\n", f);
}

static int write_conf(struct pg_run *r)
{
	char path[PATH_MAX];
	FILE *f;
	int e = 0;

	pg_path(path, sizeof(path), r->data, "postgresql.conf");
	f = fopen(path, "ae");
	if (!f)
		return error("%s: %s", path, strerror(errno));
	fputs(
	    "\n# clyde-pgscan: a private server, reached by its socket only\n",
	    f);
	conf_str(f, "listen_addresses", "");
	conf_str(f, "unix_socket_directories", r->sock);
	fprintf(f, "port = %d\n", PG_PORT);
	conf_str(f, "dynamic_shared_memory_type", "mmap");
	fputs("logging_collector = off\n", f);
	if (ferror(f))
		e = errno ? errno : EIO;
	if (fclose(f) && !e)
		e = errno;
	if (e)
		return error("%s: %s", path, strerror(e));
	return 0;
}

/* One line for a program that failed, with its log's reason. */
static int failed(const struct pg_run *r, const char *what, const char *log,
		  int st)
{
	char path[PATH_MAX], why[512];

	if (st < 0 && pg_stop)
		return CLI_EXIT_FAILED;
	pg_path(path, sizeof(path), r->scratch.path, log);
	pg_log_reason(path, why, sizeof(why));
	if (st < 0)
		error("%s: %s", what, strerror(errno));
	else
		error("%s (exit %d): %s", what, st,
		      why[0] ? why : "no reason given");
	return CLI_EXIT_FAILED;
}

int pg_cluster_init(struct pg_run *r, struct pg_result *res)
{
	char initdb[PATH_MAX];
	char *argv[] = {initdb,	      "-D",	   r->data,
			"-U",	      "postgres",  "-A",
			"trust",      "-E",	   "UTF8",
			"--locale=C", "--no-sync", "--no-instructions",
			NULL};
	int st;

	prog_path(res, "initdb", initdb, sizeof(initdb));
	pg_path(r->data, sizeof(r->data), r->scratch.path, "data");
	pg_path(r->sock, sizeof(r->sock), r->scratch.path, "sock");
	if (mkdirat(r->scratch.dirfd, "sock", 0700) ||
	    (geteuid() == 0 && fchownat(r->scratch.dirfd, "sock",
					r->o->privs.uid, r->o->privs.gid, 0)))
		return error("%s: %s", r->sock, strerror(errno)),
		       CLI_EXIT_FAILED;
	st = pg_child(r, argv, "initdb.log", "initdb.log");
	if (st)
		return failed(r, "initdb failed", "initdb.log", st);
	return write_conf(r) ? CLI_EXIT_FAILED : 0;
}

int pg_server_start(struct pg_run *r, const struct pg_result *res)
{
	char pg_ctl[PATH_MAX], log[PATH_MAX];
	char *argv[] = {pg_ctl, "-D",  r->data, "-l",	 log, "-w",
			"-t",	"120", "-s",	"start", NULL};
	int st;

	prog_path(res, "pg_ctl", pg_ctl, sizeof(pg_ctl));
	pg_path(log, sizeof(log), r->scratch.path, "server.log");
	st = pg_child(r, argv, "pg_ctl.log", "pg_ctl.log");
	if (st == 0)
		return 0;
	if (st < 0)
		return failed(r, "pg_ctl start", "pg_ctl.log", st);
	/* The server's own words first, pg_ctl's when it left none. */
	pg_path(log, sizeof(log), r->scratch.path, "server.log");
	if (access(log, R_OK) == 0) {
		char why[512];

		pg_log_reason(log, why, sizeof(why));
		if (why[0]) {
			error("the PostgreSQL server did not start: %s", why);
			return CLI_EXIT_FAILED;
		}
	}
	return failed(r, "the PostgreSQL server did not start", "pg_ctl.log",
		      st);
}

/* pg_ctl stop -m mode, waiting; its exit status. */
static int stop_status(struct pg_run *r, const struct pg_result *res,
		       const char *mode)
{
	char pg_ctl[PATH_MAX];
	char *argv[] = {pg_ctl, "-D",  r->data, "-m",	(char *)mode, "-w",
			"-t",	"120", "-s",	"stop", NULL};

	prog_path(res, "pg_ctl", pg_ctl, sizeof(pg_ctl));
	return pg_child(r, argv, "pg_ctl.log", "pg_ctl.log");
}

int pg_server_stop(struct pg_run *r, const struct pg_result *res,
		   const char *mode)
{
	int st = stop_status(r, res, mode);

	return st ? failed(r, "pg_ctl stop", "pg_ctl.log", st) : 0;
}

/* postmaster.pid's pid (line 1) and System V segment (line 7: key and
 * id); 0 when there is no such file. */
static pid_t read_pidfile(const struct pg_run *r, int *shmid)
{
	char path[PATH_MAX], line[256];
	long pid = 0;
	FILE *f;

	*shmid = -1;
	pg_path(path, sizeof(path), r->data, "postmaster.pid");
	f = fopen(path, "re");
	if (!f)
		return 0;
	for (int n = 1; fgets(line, sizeof(line), f); n++) {
		if (n == 1)
			pid = strtol(line, NULL, 10);
		if (n == 7) {
			unsigned long key;
			int id;

			if (sscanf(line, "%lu %d", &key, &id) == 2)
				*shmid = id;
		}
	}
	fclose(f);
	return pid > 0 ? (pid_t)pid : 0;
}

/* Whether pid is a live postgres of this data directory (its command
 * line names it), not a zombie nor a pid reused by someone else. */
static int ours(pid_t pid, const struct pg_run *r)
{
	char path[64], buf[4096], st = 0;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fscanf(f, "%*d (%*[^)]) %c", &st) != 1)
		st = 0;
	fclose(f);
	if (st == 'Z' || !st)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	for (size_t i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	buf[n] = '\0';
	return strstr(buf, r->data) != NULL;
}

void pg_server_kill(struct pg_run *r, const struct pg_result *res)
{
	struct timespec tick = {0, 50 * 1000 * 1000};
	struct shmid_ds ds;
	int shmid;
	pid_t pid;

	if (!r->data[0] || !read_pidfile(r, &shmid))
		return;
	stop_status(r, res, "immediate");
	pid = read_pidfile(r, &shmid);
	if (pid && ours(pid, r)) {
		kill(pid, SIGKILL);
		for (int i = 0; i < 200 && ours(pid, r); i++)
			nanosleep(&tick, NULL);
	}
	/* A killed postmaster leaves its segment; when no one is attached
	 * any more it is removed. */
	for (int i = 0; pid && shmid >= 0 && i < 100; i++) {
		if (shmctl(shmid, IPC_STAT, &ds))
			break;
		if (ds.shm_cpid != pid)
			break;
		if (ds.shm_nattch == 0) {
			shmctl(shmid, IPC_RMID, NULL);
			break;
		}
		nanosleep(&tick, NULL);
	}
}
