/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clyde-zcav: throughput by position. Reads (or, with -w and the device
 * named twice, writes) a block device, a file or a pipe end to end in
 * blocks, timing each, and prints bonnie++ zcav's gnuplot-ready lines.
 * Devices are read with O_DIRECT so the page cache cannot flatter the
 * curve; files have their cached pages dropped before each pass; a pipe
 * or "-" is read strictly in order (nothing is ever seeked there, which
 * is where bonnie++ 2.00's zcav fails). Several targets run at once, one
 * thread each, each to its own log.
 *
 * Nothing read is ever opened for writing: a log or plot that is a
 * target is refused, and every output is made under a temporary name
 * before the first read and renamed only when complete.
 *
 * This file is the command line and the flow: targets opened and
 * outputs made (open.c), the run (run.c), then each target's outcome
 * and the chart (chart.c). Stops (SIGINT, SIGTERM, SIGHUP) are blocked
 * everywhere and taken by a thread of their own as they arrive, so the first
 * one decides the exit status whatever follows.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli.h"
#include "gnuplot.h"
#include "guard.h"
#include "jsonput.h"
#include "privs.h"
#include "rng.h"
#include "target.h"
#include "units.h"
#include "zcav_prog.h"
#include "zcav_result.h"

/*
 * The first stop: a signal (taken by a thread of its own as it arrives,
 * so a later one cannot replace it), or SIGPIPE for standard output
 * closed by its reader. 0 while running.
 */
static volatile sig_atomic_t stop_signal;

/* Only interrupts a blocked read in a worker; the flag is already set. */
static void on_wake(int sig)
{
	(void)sig;
}

/* The signal thread's: the first stop kept, a drawing gnuplot stopped. */
static void take_signal(int sig)
{
	cli_stop_first(&stop_signal, sig);
	/* A gnuplot still drawing is stopped, not waited for. */
	plot_signal_cleanup();
}

/* Stops blocked and taken by their thread; ZCAV_WAKE wakes a worker. */
static int catch_stops(void)
{
	struct sigaction sa;
	sigset_t wake;
	int e;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_wake; /* no SA_RESTART: a blocked read returns */
	sigemptyset(&sa.sa_mask);
	sigaction(ZCAV_WAKE, &sa, NULL);
	/* Blocked here, so in the signal thread too; each worker takes it. */
	sigemptyset(&wake);
	sigaddset(&wake, ZCAV_WAKE);
	pthread_sigmask(SIG_BLOCK, &wake, NULL);
	e = cli_catch_signals(NULL, take_signal);
	if (e)
		return error("cannot start a thread for signals: %s",
			     strerror(-e));
	return 0;
}

/* Each target's outcome said, its log kept only when it succeeded. */
static int finish_targets(struct zcav_target *t, int n, int *stdout_bad)
{
	int status = 0, e;

	for (int i = 0; i < n; i++) {
		if (t[i].fd > 0)
			close(t[i].fd);
		t[i].fd = -1;
		if (t[i].err && t[i].out_failed && !t[i].log) {
			if (cli_stdout_failed(t[i].err))
				status = CLI_EXIT_FAILED;
			*stdout_bad = 1;
		} else if (t[i].err) {
			error("%s: %s", t[i].what, strerror(t[i].err));
			status = CLI_EXIT_FAILED;
		}
		if (!t[i].have_of)
			continue;
		t[i].have_of = 0;
		if (t[i].err) {
			outfile_abort(&t[i].of);
		} else if ((e = outfile_commit(&t[i].of)) != 0) {
			bad("-l", t[i].log, strerror(-e));
			status = CLI_EXIT_FAILED;
		}
	}
	return status;
}

/* --json=FILE's document, under its temporary name until written. */
static struct outfile json_of = {.fd = -1, .slot = -1};

/* --json=FILE made before the first read: 0, or -1 after one line. */
static int open_json(const struct zcav_opts *o)
{
	char why[PATH_MAX + 256];

	if (!o->json_path ||
	    outfile_open(&json_of, o->json_path, why, sizeof(why)) == 0)
		return 0;
	return error("--json %s", why);
}

/*
 * The document of a run that succeeded, to --json's file (renamed over
 * its name) or standard output. The exit status.
 */
static int finish_json(const struct zcav_opts *o, const struct zcav_result *r,
		       time_t start)
{
	return jp_finish(zcav_json_doc(o, r, start),
			 o->json_path ? &json_of : NULL, 0);
}

/* What failed before a stop is still said; then nothing is kept. */
static int stopped_run(struct zcav_target *t, int n,
		       struct zcav_chart_files *plot, struct zcav_result *r)
{
	for (int i = 0; i < n; i++)
		if (t[i].err && t[i].err != EINTR &&
		    !(t[i].out_failed && t[i].err == EPIPE))
			error("%s: %s", t[i].what, strerror(t[i].err));
	open_abort_outputs(t, n, plot);
	outfile_abort(&json_of);
	zcav_result_free(r);
	return cli_exit_stop(stop_signal);
}

/* The result's settings and an empty series per target. 0, or -1 after
 * one line. */
static int result_start(const struct zcav_opts *o, struct zcav_result *r)
{
	r->write = o->write;
	r->chunk = o->chunk;
	r->skip = o->skip;
	r->target = calloc((size_t)o->ntargets, sizeof(*r->target));
	if (!r->target)
		return error("%s", strerror(ENOMEM));
	for (int i = 0; i < o->ntargets; i++) {
		if (zcav_series_init(&r->target[i], o->target[i].path, o->loops,
				     o->block)) {
			zcav_result_free(r);
			return error("%s", strerror(errno));
		}
		r->ntargets = (unsigned)i + 1;
	}
	return 0;
}

/* What the opened target is, in its series. */
static void result_target(const struct zcav_target *t)
{
	t->res->kind = t->stream		? ZCAV_PIPE
		       : S_ISBLK(t->id.st_mode) ? ZCAV_DEVICE
						: ZCAV_FILE;
	t->res->direct = t->direct;
	t->res->start = t->start;
	t->res->end = t->end;
	/* What the chart's title names: a device's model and size, a
	 * file's size; nothing for a pipe. */
	if (t->res->kind == ZCAV_DEVICE) {
		target_model(major(t->id.st_rdev), minor(t->id.st_rdev),
			     t->res->model, sizeof(t->res->model));
		t->res->size = guard_size(t->fd);
	} else if (t->res->kind == ZCAV_FILE) {
		t->res->size = (uint64_t)t->id.st_size;
	}
}

int main(int argc, char **argv)
{
	static struct zcav_target t[ZCAV_MAX_TARGETS];
	static struct zcav_opts o;
	static struct zcav_result r;
	struct zcav_chart_files plot = {{.fd = -1, .slot = -1},
					{.fd = -1, .slot = -1}};
	int n, status, stdout_bad = 0;
	time_t start;
	char why[300];

	cli_set_prog(PROG);
	cli_ignore_sigpipe();
	if ((status = opt_exit(zcav_opts_parse(argc, argv, &o))) >= 0)
		return status;
	n = o.ntargets;
	if (result_start(&o, &r))
		return CLI_EXIT_FAILED;
	for (int i = 0; i < n; i++) {
		t[i].opt = &o;
		t[i].stop = &stop_signal;
		t[i].path = o.target[i].path;
		t[i].log = o.target[i].log;
		t[i].fd = -1;
		t[i].seed = rng_fresh_seed() + (uint64_t)i;
		t[i].res = &r.target[i];
		if (open_target(&t[i]))
			return CLI_EXIT_USAGE;
		result_target(&t[i]);
	}
	if (open_check_streams(t, n) || open_check_outputs(&o, t, n))
		return CLI_EXIT_USAGE;
	/* Devices are open: the rest (logs, the plot) as the -u user. */
	if (privs_drop(&o.privs, why, sizeof(why))) {
		error("-u/-g: %s", why);
		return CLI_EXIT_USAGE;
	}
	if (catch_stops())
		return CLI_EXIT_FAILED;
	if (open_outputs(&o, t, n, &plot) || open_json(&o)) {
		open_abort_outputs(t, n, &plot);
		outfile_abort(&json_of);
		return CLI_EXIT_USAGE;
	}
	start = time(NULL);
	jp_time(r.start_time, sizeof(r.start_time), start);
	status = run_all(t, n, &stop_signal);
	if (stop_signal)
		return stopped_run(t, n, &plot, &r);
	status |= finish_targets(t, n, &stdout_bad);
	if (o.plot)
		status = chart_finish(&o, &r, &plot, status, &stop_signal);
	if (o.json && !status && !stdout_bad && !stop_signal)
		status = finish_json(&o, &r, start);
	outfile_abort(&json_of);
	/* What was too fast to time, once the run is done and kept. */
	for (int i = 0; i < n && !status && !stop_signal; i++)
		run_note(&t[i]);
	zcav_result_free(&r);
	if (!status && !stdout_bad)
		status = cli_stdout_close();
	return status;
}
