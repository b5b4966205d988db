/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zcav_result: a clyde-zcav run's result and its lines. The result: per
 * target, every block's offset, bytes and seconds in each pass, and each
 * pass's summary, as numbers (what the lines show is printed from them,
 * the plot and the JSON document made from them). The lines: bonnie++
 * zcav's throughput-by-position output, which gnuplot reads as it is: a
 * header, one line per block (offset in GiB, MiB/s, seconds), blocks
 * faster than the minimum time commented out, and a summary line per
 * pass; and the mean that several passes (-c) report for a block: the
 * top and bottom thirds dropped first.
 */
#ifndef CLYDE_ZCAV_RESULT_H
#define CLYDE_ZCAV_RESULT_H

#include <stdint.h>
#include <stdio.h>

#include "cliff.h"
#include "clock.h"

/* A block read faster than this is too short to time: commented out. */
#define ZCAV_MIN_SECONDS CLK_MIN_SECONDS

/* The most passes (-c) a run makes. */
#define ZCAV_MAX_PASSES 1000

/* What a target is: read with O_DIRECT (a device), cached pages
 * dropped (a file), or in order (a pipe or standard input). */
enum zcav_kind { ZCAV_DEVICE, ZCAV_FILE, ZCAV_PIPE, ZCAV_KINDS };

/* One target's measurements. */
struct zcav_series {
	char *name; /* the target as named (malloc'd) */
	enum zcav_kind kind;
	int direct;	     /* read or written with O_DIRECT */
	uint64_t block;	     /* bytes per block (the last may be short) */
	unsigned passes;     /* passes asked for (-c) */
	unsigned done;	     /* passes completed */
	uint64_t start, end; /* the range; end 0 on a pipe: to its end */
	char model[128];     /* a device's model (sysfs), "" when unknown */
	uint64_t size;	     /* the device's or file's bytes, 0 unknown */
	uint64_t nblocks, cap;
	uint64_t *offset, *bytes; /* per block */
	double *secs;		  /* per block and pass: [k * passes + pass] */
	uint64_t *pass_bytes;	  /* per pass: bytes in timed blocks */
	double *pass_secs;	  /* per pass: their seconds */
};

/* A clyde-zcav run: its settings and one series per target. */
struct zcav_result {
	int write;	/* -w: written and fsynced, not read */
	uint64_t chunk; /* bytes per transfer within a block */
	uint64_t skip;	/* -s: every skip-th block timed */
	/* When the run started, UTC, as the document's start_time
	 * ("2026-11-30T01:30:00Z"); "" when a document had none. */
	char start_time[24];
	unsigned ntargets;
	struct zcav_series *target; /* ntargets, malloc'd */
};

/* The kind's name in the document: "device", "file", "pipe". */
const char *zcav_kind_name(enum zcav_kind k);

/*
 * Make s empty for a target named name with passes passes of block
 * bytes (1..ZCAV_MAX_PASSES). 0, or -1 (ENOMEM, EINVAL) with s freed.
 */
int zcav_series_init(struct zcav_series *s, const char *name, unsigned passes,
		     uint64_t block);

/* A block found by the first pass, its times still to come: 0, or -1
 * (ENOMEM). */
int zcav_series_add(struct zcav_series *s, uint64_t offset, uint64_t bytes);

/*
 * The seconds block k's line shows: its one pass's time, or the trimmed
 * mean of its passes (s is not changed).
 */
double zcav_series_seconds(const struct zcav_series *s, uint64_t k);

/* MiB/s of block k at zcav_series_seconds() (0 for no time). */
double zcav_series_mib_s(const struct zcav_series *s, uint64_t k);

/* What s and r hold freed; each left empty. */
void zcav_series_free(struct zcav_series *s);
void zcav_result_free(struct zcav_result *r);

/*
 * The mean of v[n] after sorting it and dropping the lowest and the
 * highest n/3 values (so 1 or 2 values are all kept). v is reordered.
 * Returns 0 for n == 0.
 */
double zcav_trimmed_mean(double *v, unsigned n);

/* "#loops: N, version: V" */
void zcav_print_loops(FILE *f, unsigned loops, const char *version);

/* "#block offset (GiB), MiB/s, time" */
void zcav_print_columns(FILE *f);

/*
 * One block of bytes at offset, read or written in seconds:
 * "%.2f %.2f %.3f", or "#%.2f ++++ %.3f" when too fast to count.
 * Returns 1 when the line counts, 0 when commented out.
 */
int zcav_print_block(FILE *f, uint64_t offset, uint64_t bytes, double seconds);

/*
 * "# Read N gigs in S seconds, M megabytes per second." (gigs from
 * 1 GiB up, else megs, as zcav 2.00; all three figures truncated;
 * verb "Read" or "Wrote").
 */
void zcav_print_summary(FILE *f, const char *verb, uint64_t bytes,
			double seconds);

/*
 * A target's lines, from its series, as clyde-zcav prints them (verb
 * "Read", or "Wrote" for write): zcav_print_head() the loops line, and
 * the column header when there is one pass, whose blocks follow as they
 * are timed; zcav_print_pass() pass p's summary line;
 * zcav_print_means() after several passes, "#", the column header and
 * each block's trimmed mean. zcav_print_series() prints all of them in
 * the order a run does (a write's cliff line, zcav_print_cliff, after
 * the passes' summaries; skip is -s): what a run that made s printed
 * for it.
 */
void zcav_print_head(FILE *f, const struct zcav_series *s, const char *version);
void zcav_print_pass(FILE *f, const struct zcav_series *s, unsigned p,
		     int write);
void zcav_print_means(FILE *f, const struct zcav_series *s);
/*
 * -w: the write-cache cliff (cliff.h) over the first pass's blocks, each
 * block an interval, when every block was timed (no -s); c->looked 0
 * otherwise.
 */
void zcav_series_cliff(const struct zcav_series *s, uint64_t skip,
		       struct cliff *c);

/* Its comment line: "#cliff: burst 267.5 MiB/s, sustained 20.0 MiB/s,
 * 96.4 MiB absorbed, the drop at 0.36 s" or "#no cliff: WHY"; nothing
 * when it was not looked for. */
void zcav_print_cliff(FILE *f, const struct zcav_series *s, uint64_t skip);

void zcav_print_series(FILE *f, const struct zcav_series *s, int write,
		       uint64_t skip, const char *version);

#endif
