/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pgscan_prog: what the parts of clyde-pgscan share. The program makes a
 * private PostgreSQL cluster in a scratch directory on the filesystem
 * under test, loads a pgbench table, and times cold sequential scans of
 * it beside clyde's block input over a file of the same size (clyde run
 * as a child). Every PostgreSQL program runs as a child process (argv
 * arrays, no shell), as the target user; nothing links libpq.
 */
#ifndef CLYDE_PGSCAN_PROG_H
#define CLYDE_PGSCAN_PROG_H

#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <sys/types.h>

#include "optable.h"
#include "privs.h"
#include "scratch.h"

#define PROG "clyde-pgscan"

/* The most scans (-x) one run takes. */
#define PG_MAX_RUNS 100
/* The port of the private socket: any will do, no one else listens in
 * the scratch directory. */
#define PG_PORT 5432
/* What the socket's path adds to the scratch directory's. */
#define PG_SOCK_TAIL "/sock/.s.PGSQL.5432"
/* sun_path holds 108 bytes, the terminating NUL included. */
#define PG_SUN_MAX 107

struct pg_opts {
	const char *dir;	/* -d, as given */
	char dir_abs[PATH_MAX]; /* -d made absolute */
	uint64_t size;		/* -s in bytes; 0: clyde's default rule */
	const char *size_arg;	/* -s as given, NULL when absent */
	unsigned runs;		/* -x, 1 by default */
	unsigned parallel;	/* --parallel, 0 by default */
	int drop_caches;	/* --drop-caches */
	int quiet;		/* -q: no progress lines */
	int json;		/* --json given */
	const char *json_path;	/* --json=FILE; NULL: standard output */
	const char *bindir;	/* --bindir, NULL: found */
	struct privs privs;	/* -u's user and group (.user: as given) */
};

/* pgscan_opts.c: clyde-pgscan's options, declared: its parser. */
extern const struct opt_parser pg_parser;

/* pgscan_opts.c: argv into o; OPT_OK, OPT_DONE after --help or
 * --version on out, OPT_BAD after one line on err. */
enum opt_result pg_opts_parse(int argc, char **argv, struct pg_opts *o,
			      FILE *out, FILE *err);

/* One cold scan's figures. */
struct pg_scan {
	double elapsed;	  /* seconds, clock_timestamp() around the scan */
	double user, sys; /* the backend's CPU seconds over it */
	double resident;  /* page-cache share left after the eviction */
};

/* What the run found and measured. */
struct pg_result {
	char bindir[PATH_MAX];
	char version[64];	/* server_version */
	char relpath[PATH_MAX]; /* the relation's first segment file */
	uint64_t rel_bytes;	/* pg_relation_size */
	unsigned scale;		/* pgbench -s */
	uint64_t file_size;	/* clyde's data file */
	unsigned nscans;
	struct pg_scan scan[PG_MAX_RUNS];
	double resident_max; /* the largest resident share seen */
	int cannot_evict;    /* the filesystem kept the pages */
};

/* The run's state, for the steps and the cleanup (main.c). */
struct pg_run {
	const struct pg_opts *o;
	struct scratch scratch;
	char data[PATH_MAX]; /* scratch/data */
	char sock[PATH_MAX]; /* scratch/sock */
	int cleaning;	     /* the cleanup runs: children not stopped */
};

/* The signal that stops the run, 0 if none (main.c). */
extern volatile sig_atomic_t pg_stop;

/* child.c: run argv[0] (a full path) as o's user, in the scratch
 * directory, stdin /dev/null, stdout to out_path and stderr to
 * err_path (files in the scratch directory; the same name: both there).
 * The exit status, or -1 (stopped by a signal, or the fork failed:
 * errno). */
int pg_child(const struct pg_run *r, char *const argv[], const char *out_path,
	     const char *err_path);
/* dir/name into buf[len]: 0, or -1 when it does not fit. */
int pg_path(char *buf, size_t len, const char *dir, const char *name);
/* The last line of the file path worth showing (FATAL/ERROR first), in
 * buf; "" when none. */
void pg_log_reason(const char *path, char *buf, size_t len);
/* The bindir with initdb, pg_ctl, postgres, psql and pgbench: --bindir,
 * else pg_config --bindir, else the highest /usr/lib/postgresql/N/bin.
 * 0, or -1 after a line. */
int pg_find_bindir(const struct pg_opts *o, char *out, size_t len);
/* From a signal handler: the running child is told to stop (SIGTERM). */
void pg_child_stop(void);

/* cluster.c: the server's life. Each returns 0, or the exit status
 * after one line. */
int pg_cluster_init(struct pg_run *r, struct pg_result *res);
int pg_server_start(struct pg_run *r, const struct pg_result *res);
int pg_server_stop(struct pg_run *r, const struct pg_result *res,
		   const char *mode);
/* Stop whatever server is left (immediate, then SIGKILL), quietly. */
void pg_server_kill(struct pg_run *r, const struct pg_result *res);

/* scan.c: the table and the scans. */
int pg_load(struct pg_run *r, struct pg_result *res, uint64_t size);
int pg_cold_scan(struct pg_run *r, struct pg_result *res, unsigned i);
/* psql -X -A -t -q, one session running stmts (NULL-terminated) in
 * turn; its output in outbuf, its errors in scratch/NAME.err. */
int pg_psql(struct pg_run *r, const struct pg_result *res,
	    const char *const *stmts, const char *name, char *outbuf,
	    size_t outlen);

/* blockin.c: clyde's block input as a child; its document in *doc. */
int pg_block_input(struct pg_run *r, struct pg_result *res, void **doc);

/* json.c / report.c: the text line and the document. */
double pg_scan_mbps(const struct pg_result *res, unsigned i);
double pg_block_mbps(void *doc, unsigned i);
int pg_print_line(const struct pg_opts *o, const struct pg_result *res,
		  void *doc);
void *pg_json_doc(const struct pg_opts *o, const struct pg_result *res,
		  void *doc, time_t start);

#endif
