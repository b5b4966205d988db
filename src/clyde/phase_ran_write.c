/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_ran_write: random writes at a queue depth. Blocks of --ran-bs
 * bytes (or a split of sizes) written over the data file at offsets
 * drawn from the run's seed (--dist), --iodepth of them in flight
 * (io_uring above 1, pwrite at 1), as fast as they complete or at an
 * offered --rate, until --ran-ops writes or --ran-time seconds
 * (ran_io.h). A
 * byte of the block changes before each write, as in block output, and
 * the file is fsynced before the clock stops, so the figure is what
 * reached the device. One operation is one block: the rate is IOPS.
 *
 * PHASE_READS, though it reads nothing: the file must be there to write
 * into (--only=ran_write has the runner make it first), and none of it
 * is left in the page cache, where a buffered write over a cached page
 * would cost no read of the device's block.
 *
 * Under -b (bonnie++'s "fsync after every write") the file is opened
 * O_SYNC, so that each write, at any depth, is durable, data and
 * metadata, before it completes.
 */
#include "config.h"

#include <fcntl.h>

#include "phase.h"
#include "ran_io.h"

static int ran_write_setup(struct phase_ctx *ctx)
{
	int fd = phase_open(ctx, O_WRONLY | (ctx->opt->sync_each ? O_SYNC : 0),
			    "open");

	return fd < 0 ? fd : 0;
}

static int ran_write_run(struct phase_ctx *ctx, struct phase_out *out)
{
	return ran_run(ctx, out, 0);
}

const struct phase_ops phase_ran_write_ops = {
    .name = "ran_write",
    .title = "random writes",
    .test = RT_ran_write,
    .flags = PHASE_DATA | PHASE_READS | PHASE_PRECONDITION | PHASE_STEADY,
    .progress = "Writing randomly",
    .setup = ran_write_setup,
    .run = ran_write_run,
    .how = ran_how_write,
    .teardown = phase_close,
    RAN_PHASE_UNIT,
};
