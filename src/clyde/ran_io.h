/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ran_io: the random-I/O engine the figures share (phase_ran_read.c,
 * phase_ran_write.c, phase_ran_mix.c), driven by a workload (lib/
 * workload.h). One operation reads or writes one block at an offset of
 * the data file, all drawn from the run's seed: its kind (ran_mix: by
 * --mix; the others all reads or all writes), its size (--ran-bs, one
 * or a split), its offset (--dist). With one size and uniform offsets
 * the blocks of the first size/bs operations are a permutation (seek.h's
 * seek_perm), so no block is read twice before every block was, and
 * each further round is another permutation; otherwise offsets are
 * multiples of the smallest size drawn by the distribution, each block
 * inside the file. The test stops at the earlier of --ran-ops
 * operations and --ran-time seconds.
 *
 * Closed loop (no --rate): at --iodepth 1 each operation is a pread or
 * pwrite; above it, io_uring keeps that many in flight, a freed slot
 * given the next at once; an operation's latency runs from its
 * submission to its completion. Open loop (--rate): arrivals are due on
 * a schedule (wl_sched: poisson or fixed gaps), each -c worker its own
 * at its share of the rate; an operation is submitted when due if a
 * slot is free, else as soon as one frees, and its response time runs
 * from when it was due (the time it waited for a slot counts: a stalled
 * target cannot hide its stall), its service time from its submission.
 * One submitted over PHASE_LATE_NS after it was due is late; those due
 * before the end but never submitted are counted too (phase_sched).
 * Writes change their block's stamps before each write, and ran_write
 * and ran_mix fsync before the clock stops.
 */
#ifndef CLYDE_RAN_IO_H
#define CLYDE_RAN_IO_H

#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "phase.h"
#include "workload.h"

/* Defaults and bounds of --ran-bs, --iodepth, --ran-ops, --ran-time,
 * and ran_mix's share of reads (tenths of a percent) without --mix. */
#define RAN_BS_DEFAULT	    4096u
#define RAN_BS_MIN	    512u
#define RAN_BS_MAX	    (16u << 20)
#define RAN_IODEPTH_DEFAULT 1u
#define RAN_IODEPTH_MAX	    1024u
#define RAN_OPS_DEFAULT	    65536u
#define RAN_OPS_MAX	    (1ull << 40)
#define RAN_TIME_DEFAULT    3u
#define RAN_TIME_MAX	    86400u
#define RAN_MIX_DEFAULT	    500u

/* The environment variable that makes io_uring count as unavailable
 * (the tests' way to force the fallback); read by ran_prepare only. */
#define RAN_NO_URING_ENV "CLYDE_NO_IO_URING"

/* The settings a run of the random-I/O figures uses. */
struct ran_set {
	/* The workload, defaults in place: the block sizes (4k), ran_mix's
	 * reads (RAN_MIX_DEFAULT), the distribution, the rate (0: none). */
	struct wl_spec wl;
	uint64_t bs;	    /* the largest block size */
	unsigned depth;	    /* operations in flight: 1 after a fallback */
	unsigned asked;	    /* --iodepth as asked */
	uint64_t ops;	    /* at most this many operations */
	unsigned time;	    /* at most this many seconds */
	const char *engine; /* "io_uring" or "psync" */
};

/* The run state of the unit (phase_plan.state): what the run decided. */
struct ran_state {
	/* Why io_uring could not be used and --iodepth fell back to 1
	 * (ran_prepare); "" when it did not. */
	char fallback[160];
	/* Sized for a default run (ran_autosize), 0 when not: the most
	 * operations, and seconds. */
	uint64_t ops;
	unsigned time;
	/* Set by a program that runs the unit in steps (clyde-curve), each
	 * a run of its own: the step's offered rate (0: a closed loop), and
	 * the depth when --iodepth was not given (0: RAN_IODEPTH_DEFAULT). */
	uint64_t step_rate;
	unsigned depth_default;
};

/* The unit's settings under plan p: the options, defaults in place of
 * what was not given, and what the run decided. */
void ran_settings(const struct phase_plan *p, struct ran_set *s);

/*
 * The phases' prepare hook, before the first test: with --iodepth above
 * 1, check that io_uring can be set up. When it cannot (a kernel without
 * it, io_uring_disabled, a seccomp filter, RAN_NO_URING_ENV), say so in
 * one line and fall back to depth 1 (the run state's fallback says why,
 * and the JSON settings record it). Returns 0, or 2 (usage) for a
 * --ran-bs the data file cannot hold.
 */
int ran_prepare(const struct phase_plan *p);

/* Where a workload's blocks may start in a file of size bytes: every
 * multiple of the smallest size that leaves room for the largest. */
static inline uint64_t ran_positions(uint64_t size, const struct ran_set *s)
{
	uint64_t g = s->wl.bs.size[0];

	for (unsigned i = 1; i < s->wl.bs.n; i++)
		if (s->wl.bs.size[i] < g)
			g = s->wl.bs.size[i];
	return size < s->bs ? 0 : (size - s->bs) / g + 1;
}

/* The phases' op_bytes hook: --ran-bs when it is one size, else 0. */
uint64_t ran_op_bytes(const struct phase_plan *p);

/* The phases' how hooks, the settings column of each figure of the
 * unit: "4k qd32 io_uring", " direct" under -D and, for a figure that
 * writes, " sync" under -b; ran_mix's with its reads after the sizes
 * ("8k:70,64k:30 r70 zipf:1.1 qd16 rate 5000 poisson io_uring"). */
void ran_how_read(const struct phase_plan *p, char *buf, size_t len);
void ran_how_write(const struct phase_plan *p, char *buf, size_t len);
void ran_how_mix(const struct phase_plan *p, char *buf, size_t len);

/* The phases' buf_need hook: the largest block of a random write. */
size_t ran_buf_need(const struct phase_plan *p);

/* The phases' settings hook: settings.random_io (ran_settings.c). */
struct json_t *ran_json(const struct phase_plan *p, int *bad);

/* The phases' autosize hook: with neither --ran-ops nor --ran-time,
 * their time alone ends them (ran_settings.c). */
int ran_autosize(const struct phase_plan *p, double target, char *what,
		 size_t len);

/* The phases' expect hook: the settled bounds (ran_settings.c). */
void ran_expect(const struct phase_plan *p, struct phase_expect *e);

/* ran_mix's wanted hook: --mix was given. */
int ran_wanted_mix(const struct phase_plan *p);

/* The unit's options: --ran-bs, --iodepth, --ran-ops, --ran-time
 * (ran_settings.c), bounds above. */
extern const struct phase_options ran_options;

/* The hooks and fields both phases' phase_ops carry. */
#define RAN_PHASE_UNIT                                                         \
	.unit = "random_io", .state_size = sizeof(struct ran_state),           \
	.options = &ran_options, .prepare = ran_prepare,                       \
	.op_bytes = ran_op_bytes, .buf_need = ran_buf_need,                    \
	.settings = ran_json, .settings_after = "seeks",                       \
	.autosize = ran_autosize, .expect = ran_expect

/* The timed run of a figure whose operations are reads in tenths of a
 * percent (1000: ran_read, 0: ran_write). 0 or -errno with ctx->what
 * set; out->work is the operations done. */
int ran_run(struct phase_ctx *ctx, struct phase_out *out, unsigned reads);

#endif
