/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * autosize: the work of a default run, sized for the target so that
 * every test runs long enough to be timed. With no -s, a short untimed
 * probe in the scratch directory measures block writes and reads (and
 * putc, when the stdio per-char tests cover the whole file), and the
 * data size is chosen from it; with no seek count, the seeks run for a
 * time; with no -n, sequential create runs for a time and its count
 * becomes -n, and each stat test passes over the files until that time.
 * What the user gave keeps bonnie++'s exact meaning (and its +++++ for a
 * test under 0.5 s). After the first run the counts it reached are
 * fixed, so later -x runs repeat the same work.
 */
#ifndef CLYDE_AUTOSIZE_H
#define CLYDE_AUTOSIZE_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "plan.h"
#include "result.h"
#include "scratch.h"

/* Seconds each sized test aims at: a test under 0.5 s is +++++, and the
 * probe's rates are rough, so the target keeps well above the 2 s every
 * test should reach. CLYDE_AUTO_SECONDS (tests only) sets another. */
#define AUTOSIZE_TARGET 3.0
#define AUTOSIZE_ENV	"CLYDE_AUTO_SECONDS"

/* The sane bounds of a chosen data size: at least 256 MiB (what the
 * room check takes), at most 64 GiB, and a quarter of the RAM on a
 * filesystem that keeps its files in memory (tmpfs: eviction cannot
 * take them out, so the file is RAM in use). */
#define AUTOSIZE_SIZE_MIN (256ull << 20)
#define AUTOSIZE_SIZE_MAX (64ull << 30)
/* The most files a chosen -n makes (in units of 1024, as -n). */
#define AUTOSIZE_FILES_MAX 2048u
/* The data tests' estimated time at most this many targets (75 s). */
#define AUTOSIZE_BUDGET 25.0

struct autosize {
	double target;	/* seconds each sized test aims at */
	int size;	/* the data size was chosen (no -s) */
	int seeks;	/* seeks ran for a time (no seek count) */
	int files;	/* -n was chosen by creating for a time (no -n) */
	unsigned units; /* units whose own rule sized their work (phase_ops
			 * autosize, plan.h) */
	/* The probe (size only): its wall time, the rates it measured
	 * (bytes per second; putc 0 when not measured), whether the file
	 * stayed cached after eviction (in_memory: tmpfs), and what bounded
	 * the size: "rate" (the target time alone), "room", "memory",
	 * "budget", "max" or "min". */
	double probe_seconds;
	double write_bps, read_bps, putc_bps;
	int in_memory;
	const char *limit;
	uint64_t room; /* the largest size the room check left */
	/* No -n, and the rule of a chosen -n left less than 1024 files a
	 * copy: the file tests are skipped (files_skipped). What bounded
	 * them: the free inodes (inodes) or else bytes (free) of -d dir,
	 * shared by share copies. */
	int files_skipped;
	struct {
		int inodes;
		uint64_t free;
		unsigned share;
		const char *dir;
	} bound;
};

/*
 * Before the room check, on plan rp as plan_init made it from the
 * options: what the options leave to clyde (no -s, no seek count, no
 * -n) is marked in a and rp->sized set; the data size is raised to the
 * largest clyde may choose (targets_check then halves it to the room),
 * -n to the most files it may make (at most AUTOSIZE_FILES_MAX, a
 * quarter of the free inodes and a 64th of the free bytes of each -d).
 * When that is not even -n 1, the file tests are skipped (rp->files_num
 * 0, a->files_skipped), unless --only names one: then -n 1, for the
 * room check to judge. Nothing under mpirun: the ranks must agree.
 */
void autosize_plan(struct run_plan *rp, struct autosize *a);

/*
 * With no -s: the probe in scratch directory s (its file removed again),
 * then rp->size chosen. buf: the chunk buffer (aligned). 0, or the exit
 * status (1) after one line on err naming the call that failed; -1 when
 * stopped by a signal.
 */
int autosize_probe(struct run_plan *rp, struct autosize *a,
		   const struct scratch *s, unsigned char *buf,
		   volatile sig_atomic_t *stop, FILE *err);

/* The one line on what was chosen and from what (nothing chosen: none),
 * and a note when the file tests were skipped for want of room. */
void autosize_say(const struct run_plan *rp, FILE *err);

/*
 * After a run: r's seek count and -n (and each of n per-target results')
 * are the work its timed tests did, per copy (the phase whose work is
 * the seek count, PHASE_SEEK_COUNT; the first file test that ran of
 * those whose work is the files made, PHASE_FILE_COUNT); then the counts
 * are fixed in rp for the runs after it.
 */
void autosize_settle(struct run_plan *rp, struct run_result *r,
		     struct run_result *per, unsigned n);

#endif
