/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ran_io: what the random-I/O figures share (phase_ran_read.c,
 * phase_ran_write.c). One operation is one block of --ran-bs bytes read
 * or written at a block-aligned offset of the data file drawn from the
 * run's seed: the blocks of the first size/bs operations are a
 * permutation (seek.h's seek_perm), so no block is read twice before
 * every block was, and each further round is another permutation. The
 * test stops at the earlier of --ran-ops operations and --ran-time
 * seconds. At --iodepth 1 each operation is a pread or pwrite; above it,
 * io_uring keeps that many in flight, and an operation's latency runs
 * from its submission to its completion. ran_write changes a byte of
 * its block before each write and fsyncs before the clock stops.
 */
#ifndef CLYDE_RAN_IO_H
#define CLYDE_RAN_IO_H

#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "phase.h"

/* Defaults and bounds of --ran-bs, --iodepth, --ran-ops, --ran-time. */
#define RAN_BS_DEFAULT	    4096u
#define RAN_BS_MIN	    512u
#define RAN_BS_MAX	    (16u << 20)
#define RAN_IODEPTH_DEFAULT 1u
#define RAN_IODEPTH_MAX	    1024u
#define RAN_OPS_DEFAULT	    65536u
#define RAN_OPS_MAX	    (1ull << 40)
#define RAN_TIME_DEFAULT    3u
#define RAN_TIME_MAX	    86400u

/* The environment variable that makes io_uring count as unavailable
 * (the tests' way to force the fallback); read by ran_prepare only. */
#define RAN_NO_URING_ENV "CLYDE_NO_IO_URING"

/* The settings a run of ran_read or ran_write uses. */
struct ran_set {
	uint64_t bs;	    /* bytes per operation */
	unsigned depth;	    /* operations in flight: 1 after a fallback */
	unsigned asked;	    /* --iodepth as asked */
	uint64_t ops;	    /* at most this many operations */
	unsigned time;	    /* at most this many seconds */
	const char *engine; /* "io_uring" or "psync" */
};

/* o's settings, defaults in place of what was not given. */
void ran_settings(const struct clyde_opts *o, struct ran_set *s);

/*
 * Before the first test: with --iodepth above 1 and a random-I/O test to
 * run, check that io_uring can be set up. When it cannot (a kernel
 * without it, io_uring_disabled, a seccomp filter, RAN_NO_URING_ENV),
 * say so in one line on err and fall back to depth 1 (o->ran_fallback
 * says why, and the JSON settings record it). Returns 0, or CLI_EXIT_USAGE
 * for a --ran-bs the data file cannot hold.
 */
int ran_prepare(struct clyde_opts *o, FILE *err);

/* The phases' op_bytes hook: --ran-bs. */
uint64_t ran_op_bytes(const struct clyde_opts *o);

/* The phases' how hook: "4k qd32 io_uring", " direct" under -D. */
void ran_how(const struct clyde_opts *o, char *buf, size_t len);

/* The timed run of either figure (write: ran_write). 0 or -errno with
 * ctx->what set; out->work is the operations done. */
int ran_run(struct phase_ctx *ctx, struct phase_out *out, int write);

#endif
