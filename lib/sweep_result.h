/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweep_result: the dd matrix's results and how they are shown. A run
 * has one stage per target (the raw device, then each filesystem made on
 * it, or one directory's filesystem); a stage has a cell per mode
 * (buffered, direct), block size and operation (write, read). Rates are
 * decimal MB/s (10^6 bytes per second), dd's convention, and %CP as
 * bonnie++'s.
 */
#ifndef CLYDE_SWEEP_RESULT_H
#define CLYDE_SWEEP_RESULT_H

#include <stdint.h>
#include <stdio.h>

#define SWEEP_MAX_BS	 16
#define SWEEP_MAX_STAGES 8

enum sweep_mode { SWEEP_BUFFERED, SWEEP_DIRECT, SWEEP_MODES };
enum sweep_op { SWEEP_WRITE, SWEEP_READ, SWEEP_OPS };

struct sweep_cell {
	int done;	/* 0: not run (stopped before it) */
	uint64_t bytes; /* moved in the timed window */
	double seconds; /* wall time, fsync included for writes */
	double cpu;	/* user + system seconds */
};

struct sweep_stage {
	char label[24];	  /* table row: "raw device", "ext4" */
	char fs[24];	  /* CSV field: "raw", "ext4" */
	char target[256]; /* CSV field: the device or directory */
	struct sweep_cell cell[SWEEP_MODES][SWEEP_MAX_BS][SWEEP_OPS];
};

struct sweep_result {
	char what[320];	     /* first header line: target and setting */
	char target[4096];   /* the device or directory, as named */
	uint64_t size;	     /* bytes per cell */
	char model[128];     /* the target's device model (sysfs), or "" */
	uint64_t dev_size;   /* a device target's bytes, 0 unknown */
	char start_time[24]; /* the run's start, UTC, as start_time; or "" */
	unsigned nbs;
	uint64_t bs[SWEEP_MAX_BS];
	unsigned nstages;
	struct sweep_stage stage[SWEEP_MAX_STAGES];
};

/* Names for modes and operations, as the CSV and table print them. */
const char *sweep_mode_name(enum sweep_mode m);
const char *sweep_op_name(enum sweep_op o);

/* MB/s (10^6 bytes/s) of a cell, 0 when it has no time. */
double sweep_mb_s(const struct sweep_cell *c);

/* %CP of a cell, truncated as bonnie++ does. */
int sweep_pcp(const struct sweep_cell *c);

/* A block size as the table labels it: "4k", "1m", "12288". */
void sweep_fmt_bs(char *buf, size_t len, uint64_t bs);

/*
 * The table: two header lines, column headers (mode, block size,
 * "MB/s %CP"), then per stage a write row and a read row. A cell under
 * CLK_MIN_SECONDS prints "+++++ +++", one not run prints blank.
 */
void sweep_print_table(FILE *f, const struct sweep_result *r);

/*
 * One CSV line per cell that ran:
 * target,fs,mode,bs,op,bytes,seconds,MB/s,%CP
 * (bs and bytes in bytes; seconds "%.6f", MB/s "%.1f"; measured values
 * even under 0.5 s, so seconds tell how far to trust them).
 */
void sweep_print_csv(FILE *f, const struct sweep_result *r);

#endif
