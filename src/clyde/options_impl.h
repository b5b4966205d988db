/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options_impl: what the parts of clyde's option parser share
 * (options.c: getopt and one handler per option, options_values.c: the
 * values with fields, options_lockstep.c: -p, -y and --sync-timeout,
 * options_sync_write.c: sync_write's options,
 * options_help.c: the help text). Nothing else includes it: the
 * interface is options.h.
 */
#ifndef CLYDE_OPTIONS_IMPL_H
#define CLYDE_OPTIONS_IMPL_H

#include <stdio.h>

#include "options.h"

/* clyde --help. */
extern const char opts_usage_text[];

/* The one line about a bad value: "clyde: OPT 'VAL': WHY"; OPT_USAGE. */
enum opt_status opts_bad(FILE *err, const char *opt, const char *val,
			 const char *why);

/* -s size[:chunk[:seeks[:procs]]] into o (size, chunk, seeks, procs). */
enum opt_status opts_parse_size(const char *arg, struct clyde_opts *o,
				FILE *err);

/* -n num[:max[:min[:dirs[:chunk]]]] into o (the files_ fields). */
enum opt_status opts_parse_files(const char *arg, struct clyde_opts *o,
				 FILE *err);

/* --only=a,b,c: CSV names of tests into o->only; a file test brings its
 * whole pass. */
enum opt_status opts_parse_only(const char *arg, struct clyde_opts *o,
				FILE *err);

/*
 * Without --per-char, the per-char meaning of the format asked for:
 * 1-byte system calls (bonnie++ 2.00) in 1.98 and 1.97 lines and the
 * 2.00 table, stdio (bonnie++ 1.03) when --csv=1.03 or --format=1.03
 * (options_values.c).
 */
void opts_settle_per_char(struct clyde_opts *o);

/*
 * A whole number from 1 to max for option name into *v; else one line
 * naming arg with msg (what is expected), OPT_USAGE.
 */
enum opt_status opts_parse_count(const char *name, const char *arg,
				 uint64_t max, const char *msg, uint64_t *v,
				 FILE *err);

/* -Z FILE (bonnie++: its random numbers read from FILE): refused, one
 * line saying to use -z SEED. */
enum opt_status opts_refuse_random_file(const char *arg, struct clyde_opts *o,
					FILE *err);

/* -d: one more target (the first replaces the default "."). */
enum opt_status opts_add_dir(const char *arg, struct clyde_opts *o, FILE *err);

/* No -d: ".", one target. Several -d with -c: at most OPT_WORKERS_MAX
 * workers in all. */
enum opt_status opts_check_targets(struct clyde_opts *o, FILE *err);

/* -c N: 1 to OPT_CONCURRENCY_MAX copies of each test into o. */
enum opt_status opts_parse_concurrency(const char *arg, struct clyde_opts *o,
				       FILE *err);

/* -p N (1..32767, or -1), -y s|p and --sync-timeout=SECONDS into o
 * (options_lockstep.c). */
enum opt_status opts_parse_sem_procs(const char *arg, struct clyde_opts *o,
				     FILE *err);
enum opt_status opts_parse_sync(const char *arg, struct clyde_opts *o,
				FILE *err);
enum opt_status opts_parse_sync_timeout(const char *arg, struct clyde_opts *o,
					FILE *err);

/* --barrier-timeout=SECONDS (0 to a year; 0: no limit) into o
 * (options_lockstep.c). */
enum opt_status opts_parse_barrier_timeout(const char *arg,
					   struct clyde_opts *o, FILE *err);

/* --ran-bs=SIZE, --iodepth=N, --ran-ops=N and --ran-time=SECONDS into
 * o, the bounds in ran_io.h (options_ran.c). */
enum opt_status opts_parse_ran_bs(const char *arg, struct clyde_opts *o,
				  FILE *err);
enum opt_status opts_parse_iodepth(const char *arg, struct clyde_opts *o,
				   FILE *err);
enum opt_status opts_parse_ran_ops(const char *arg, struct clyde_opts *o,
				   FILE *err);
enum opt_status opts_parse_ran_time(const char *arg, struct clyde_opts *o,
				    FILE *err);

/*
 * The long options whose value one function reads into o, X(name, code,
 * parse): options.c makes their getopt entries, codes and handlers from
 * this list, so a new one is a line here and its function (in a file of
 * its own when it belongs to a figure of its own).
 */
#define OPTS_LONG_VALUES(X)                                                    \
	X("sync-timeout", LONG_SYNC_TIMEOUT, opts_parse_sync_timeout)          \
	X("barrier-timeout", LONG_BARRIER_TIMEOUT, opts_parse_barrier_timeout) \
	X("ran-bs", LONG_RAN_BS, opts_parse_ran_bs)                            \
	X("iodepth", LONG_IODEPTH, opts_parse_iodepth)                         \
	X("ran-ops", LONG_RAN_OPS, opts_parse_ran_ops)                         \
	X("ran-time", LONG_RAN_TIME, opts_parse_ran_time)                      \
	X("sync-method", LONG_SYNC_METHOD, opts_parse_sync_method)             \
	X("sync-size", LONG_SYNC_SIZE, opts_parse_sync_size)                   \
	X("sync-ops", LONG_SYNC_OPS, opts_parse_sync_ops)                      \
	X("sync-time", LONG_SYNC_TIME, opts_parse_sync_time)                   \
	X("data", LONG_DATA, opts_parse_data)                                  \
	X("verify-only", LONG_VERIFY_ONLY, opts_parse_verify_only)             \
	X("log-interval", LONG_LOG_INTERVAL, opts_parse_log_interval)

/* --log-interval=MS into o->log_interval_ms, 10 ms to an hour
 * (options_values.c; the bounds: interval.h). */
enum opt_status opts_parse_log_interval(const char *arg, struct clyde_opts *o,
					FILE *err);

/* --progress[=WHEN] (auto, always, none; bare: always) into o->progress
 * (options_values.c). */
enum opt_status opts_parse_progress(const char *arg, struct clyde_opts *o,
				    FILE *err);

/* --data=MODE into o->data (options_ran.c). */
enum opt_status opts_parse_data(const char *arg, struct clyde_opts *o,
				FILE *err);

/* --verify-only=FILE into o->verify_only (options_ran.c). */
enum opt_status opts_parse_verify_only(const char *arg, struct clyde_opts *o,
				       FILE *err);

/* What --verify cannot go with: dedupe:PCT, a chunk or --ran-bs that
 * is not whole 4 KiB blocks (options_ran.c). */
enum opt_status opts_check_data(const struct clyde_opts *o, FILE *err);

/* sync_write's --sync-method, --sync-size, --sync-ops and --sync-time
 * into o (options_sync_write.c). */
enum opt_status opts_parse_sync_method(const char *arg, struct clyde_opts *o,
				       FILE *err);
enum opt_status opts_parse_sync_size(const char *arg, struct clyde_opts *o,
				     FILE *err);
enum opt_status opts_parse_sync_ops(const char *arg, struct clyde_opts *o,
				    FILE *err);
enum opt_status opts_parse_sync_time(const char *arg, struct clyde_opts *o,
				     FILE *err);

/*
 * What -p and -y cannot go with, once every option is read; then
 * opts_check_sync_write. The one check of the synchronising options,
 * those that keep processes in step and those of synchronous writes.
 */
enum opt_status opts_check_sync(struct clyde_opts *o, FILE *err);

/* sync_write's defaults for what was not given, and --sync-size under -D
 * (whole 512-byte sectors) (options_sync_write.c). */
enum opt_status opts_check_sync_write(struct clyde_opts *o, FILE *err);

#endif
