/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clock: wall time from CLOCK_MONOTONIC plus user/system CPU from
 * getrusage, taken together as one "mark". A test's figures are the
 * differences between two marks. The time source can be replaced so that
 * tests can drive %CP and the 0.5 s rule with exact, made-up times. A
 * mark also holds the time of day, so the starts of tests in different
 * processes (clyde -y s, bonnie++'s) can be set side by side.
 */
#ifndef CLYDE_CLOCK_H
#define CLYDE_CLOCK_H

#include <stdint.h>

/* Below this many seconds a result is too short to trust: "+++++". */
#define CLK_MIN_SECONDS 0.5

struct clk_mark {
	uint64_t wall_ns; /* CLOCK_MONOTONIC */
	uint64_t user_ns; /* getrusage(RUSAGE_SELF) ru_utime */
	uint64_t sys_ns;  /* getrusage(RUSAGE_SELF) ru_stime */
	uint64_t unix_ns; /* CLOCK_REALTIME: when, for the record (another
			   * process's marks compare with it) */
};

/* A replaceable source of marks; NULL members fall back to the system. */
struct clk_source {
	uint64_t (*wall_ns)(void);
	void (*cpu_ns)(uint64_t *user, uint64_t *sys);
};

/* Install a source (NULL restores the system clocks). */
void clk_set_source(const struct clk_source *src);

/* Monotonic wall time in nanoseconds, cheap enough for every operation. */
uint64_t clk_now_ns(void);

/* CLOCK_REALTIME in nanoseconds since the epoch (the system's clock,
 * whatever source is installed). */
uint64_t clk_unix_ns(void);

/* Take a full mark: wall time and CPU usage of this process. */
void clk_mark(struct clk_mark *m);

/* Seconds between two marks. */
double clk_elapsed(const struct clk_mark *start, const struct clk_mark *end);

/* User and system CPU seconds between two marks. */
double clk_user(const struct clk_mark *start, const struct clk_mark *end);
double clk_sys(const struct clk_mark *start, const struct clk_mark *end);

/* User+system CPU seconds between two marks. */
double clk_cpu(const struct clk_mark *start, const struct clk_mark *end);

/*
 * %CP as bonnie++ prints it: CPU seconds over elapsed seconds times 100,
 * truncated; it may exceed 100 (several CPUs). Returns 0 for elapsed <= 0.
 */
int clk_pcp(double cpu, double elapsed);

/* True when a test of this length is too short to report ("+++++"). */
int clk_too_fast(double elapsed);

#endif
