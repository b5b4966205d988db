/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clyde-pgscan: what a database gets from the filesystem under test,
 * beside what the array gives clyde. On -d DIR it makes a private
 * directory, runs clyde's block input there (a child clyde), makes a
 * private PostgreSQL cluster there (Debian's initdb and pg_ctl, a Unix
 * socket inside the directory, no TCP port), loads a pgbench table of
 * the size asked for and times cold `select count(*)` scans of it, -x N
 * times; then one line with the scan's rate, its share of block input,
 * the backend's CPU share and what bounds the scan, and with --json the
 * document clyde-report reads.
 *
 * This file is the flow, the signals and the cleanup: the server is
 * stopped (immediately, then killed) and the directory removed on every
 * path out, SIGINT, SIGTERM and SIGHUP included; a watcher process
 * (scratch_watch) removes the directory even when clyde-pgscan is
 * killed outright, and a postmaster whose data directory vanished shuts
 * itself down. The options are in pgscan_opts.c, the children in
 * child.c, the server in cluster.c, the table and the scans in scan.c,
 * clyde's run in blockin.c, the line and the document in report.c.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "jsonput.h"
#include "outfile.h"
#include "pgscan_prog.h"

volatile sig_atomic_t pg_stop;

static struct pg_run run = {.scratch = {.dirfd = -1, .watch_fd = -1}};
static struct pg_result res;
static struct outfile json_of = {.fd = -1, .slot = -1};

/*
 * --json's file is the -u user's (privs.h): made, checked, renamed into
 * place or removed with that user's filesystem identity, the parent
 * staying root otherwise. user_fs_enter and user_fs_leave around each
 * of those steps: 0, or CLI_EXIT_FAILED after a line.
 */
static int user_fs_enter(const struct pg_opts *o, struct privs_fs *fs)
{
	char why[256];

	if (privs_fs_enter(&o->privs, fs, why, sizeof(why)) == 0)
		return 0;
	error("--json: -u '%s': %s", o->privs.user, why);
	return CLI_EXIT_FAILED;
}

static int user_fs_leave(struct privs_fs *fs)
{
	char why[256];

	if (privs_fs_leave(fs, why, sizeof(why)) == 0)
		return 0;
	error("--json: %s", why);
	return CLI_EXIT_FAILED;
}

/* --json=FILE checked and its temporary file made, as the -u user,
 * before anything runs: 0, or the exit status after a line. */
static int json_open(const struct pg_opts *o)
{
	char why[PATH_MAX + 128];
	struct privs_fs fs;
	int e, st;

	if (!o->json_path)
		return 0;
	if ((st = user_fs_enter(o, &fs)) != 0)
		return st;
	e = outfile_open(&json_of, o->json_path, why, sizeof(why));
	if ((st = user_fs_leave(&fs)) != 0) {
		outfile_abort(&json_of);
		return st;
	}
	if (e)
		error("--json: %s", why);
	return e ? CLI_EXIT_USAGE : 0;
}

/* --json's temporary file removed, when it is still there. */
static void json_abort(const struct pg_opts *o)
{
	struct privs_fs fs;

	if (!json_of.tmp && !json_of.path)
		return;
	/* Not as the user: as root, rather than leave it. */
	if (user_fs_enter(o, &fs) != 0) {
		outfile_abort(&json_of);
		return;
	}
	outfile_abort(&json_of);
	user_fs_leave(&fs);
}

/* The first signal decides the exit status; the running child is told
 * to stop, unless it is the cleanup's own. */
static void on_signal(int sig)
{
	cli_stop_first(&pg_stop, sig);
	if (!run.cleaning)
		pg_child_stop();
}

/*
 * As root: whether the -u user can work in the private directory (every
 * directory above it must let them through), by a child that enters it
 * as that user and asks initdb its version. 0, or 2 after a line.
 */
static int user_reaches(const struct pg_opts *o)
{
	char initdb[PATH_MAX], log[PATH_MAX], why[512];
	char *argv[] = {initdb, "--version", NULL};
	int st;

	pg_path(initdb, sizeof(initdb), res.bindir, "initdb");
	st = pg_child(&run, argv, "reach.log", "reach.log");
	if (st == 0 || (st < 0 && pg_stop))
		return st ? CLI_EXIT_FAILED : 0;
	pg_path(log, sizeof(log), run.scratch.path, "reach.log");
	pg_log_reason(log, why, sizeof(why));
	error("-d '%s': user %s cannot work in it (%s)", o->dir_abs,
	      o->privs.user, why[0] ? why : "initdb --version failed");
	return CLI_EXIT_USAGE;
}

/* The private directory, the target user's when root, watched. */
static int make_scratch(const struct pg_opts *o)
{
	int e = scratch_create(&run.scratch, o->dir_abs);

	if (e) {
		error("cannot make a directory in %s: %s", o->dir_abs,
		      strerror(-e));
		run.scratch.path[0] = '\0';
		return e == -EACCES || e == -EROFS || e == -ENOENT ||
			       e == -ENOTDIR
			   ? CLI_EXIT_USAGE
			   : CLI_EXIT_FAILED;
	}
	if (geteuid() == 0 &&
	    fchown(run.scratch.dirfd, o->privs.uid, o->privs.gid)) {
		error("chown %s: %s", run.scratch.path, strerror(errno));
		return CLI_EXIT_FAILED;
	}
	/* No watcher is not fatal: the run cleans up after itself. */
	scratch_watch(&run.scratch, NULL);
	return geteuid() == 0 ? user_reaches(o) : 0;
}

/* SIGKILL to every child of ours still there (by /proc's PPid). */
static void kill_children(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t self = getpid();

	while (d && (e = readdir(d))) {
		char path[300];
		int pid, ppid;
		FILE *f;

		if (sscanf(e->d_name, "%d", &pid) != 1)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fscanf(f, "%*d (%*[^)]) %*c %d", &ppid) == 1 &&
		    ppid == self)
			kill(pid, SIGKILL);
		fclose(f);
	}
	if (d)
		closedir(d);
}

/*
 * The server's processes, once they are gone, reaped: clyde-pgscan is
 * their subreaper (pg_ctl leaves the postmaster an orphan), so none is
 * left even as a zombie. Called when the watcher is reaped already, so
 * every child left is the server's, on its way out; one still there
 * after 5 s (a postmaster whose pg_ctl was stopped before it wrote its
 * pid file, so pg_server_kill could not name it) is killed.
 */
static void reap_server(void)
{
	struct timespec tick = {0, 20 * 1000 * 1000};

	for (int i = 0; i < 500; i++) {
		pid_t p = waitpid(-1, NULL, WNOHANG);

		if (p < 0 && errno != EINTR)
			return;
		if (p == 0 && i == 250)
			kill_children();
		if (p == 0)
			nanosleep(&tick, NULL);
	}
}

/* Stop the server, remove the directory. 0, or 1 after a line. */
static int cleanup(void)
{
	char why[PATH_MAX + 64];
	int rc = 0;

	run.cleaning = 1;
	if (run.scratch.path[0])
		pg_server_kill(&run, &res);
	if (run.scratch.path[0] &&
	    scratch_remove_why(&run.scratch, why, sizeof(why))) {
		error("cannot remove %s: %s", run.scratch.path, why);
		rc = CLI_EXIT_FAILED;
	}
	pid_t watcher = run.scratch.watch_pid;

	if (scratch_unwatch(&run.scratch, &pg_stop))
		error("the scratch watcher (pid %ld) did not exit when "
		      "told the run was over: killed it",
		      (long)watcher);
	reap_server();
	return rc;
}

/* Everything between the directory and the figures. */
static int measure(const struct pg_opts *o, void **doc)
{
	int st;

	if ((st = pg_block_input(&run, &res, doc)) != 0)
		return st;
	if ((st = pg_cluster_init(&run, &res)) != 0 ||
	    (st = pg_server_start(&run, &res)) != 0 ||
	    (st = pg_load(&run, &res, o->size ? o->size : res.file_size)) != 0)
		return st;
	for (unsigned i = 0; i < o->runs; i++)
		if ((st = pg_cold_scan(&run, &res, i)) != 0)
			return st;
	return pg_server_stop(&run, &res, "fast");
}

/* The line and the document, after a whole run. */
static int results(const struct pg_opts *o, void *doc, time_t start)
{
	int st = 0;

	if (!o->json || o->json_path)
		st = pg_print_line(o, &res, doc);
	else
		pg_print_line(o, &res, doc);
	if (o->json) {
		struct privs_fs fs = {0};
		json_t *d = pg_json_doc(o, &res, doc, start);
		int js;

		if (o->json_path && (js = user_fs_enter(o, &fs)) != 0) {
			json_decref(d);
			return st ? st : js;
		}
		js = jp_finish(d, o->json_path ? &json_of : NULL, 1);
		if (user_fs_leave(&fs) && !js)
			js = CLI_EXIT_FAILED;
		return st ? st : js;
	}
	json_decref(doc);
	return st;
}

int main(int argc, char **argv)
{
	static struct pg_opts o;
	void *doc = NULL;
	time_t start;
	int st;

	cli_set_prog(PROG);
	cli_ignore_sigpipe();
	if ((st = opt_exit(pg_opts_parse(argc, argv, &o, stdout, stderr))) >= 0)
		return st;
	cli_catch_stops(on_signal);
	/* The postmaster, orphaned by pg_ctl, becomes our child. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	run.o = &o;
	if (pg_find_bindir(&o, res.bindir, sizeof(res.bindir)))
		return CLI_EXIT_USAGE;
	if ((st = json_open(&o)) != 0)
		return st;
	start = time(NULL);
	st = make_scratch(&o);
	if (!st)
		st = measure(&o, &doc);
	if (cleanup() && !st)
		st = CLI_EXIT_FAILED;
	if (!pg_stop && !st)
		st = results(&o, doc, start);
	else
		json_decref(doc);
	json_abort(&o);
	if (pg_stop)
		return cli_exit_stop(pg_stop);
	return st;
}
