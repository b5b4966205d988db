/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_ran_read: random reads at a queue depth. Blocks of --ran-bs
 * bytes (default 4 KiB; or a split of sizes) read at offsets of the data
 * file drawn from the run's seed (--dist), --iodepth of them in flight
 * (io_uring above 1, pread at 1), as fast as they complete or at an
 * offered --rate, until --ran-ops reads or --ran-time seconds, whichever
 * comes first (ran_io.h). One operation is one block; the rate is IOPS,
 * and with one size times the block size the bandwidth. The runner
 * empties the page cache of the file first (PHASE_READS); -D reads with
 * O_DIRECT.
 */
#include "config.h"

#include <fcntl.h>

#include "phase.h"
#include "ran_io.h"

static int ran_read_setup(struct phase_ctx *ctx)
{
	int fd = phase_open(ctx, O_RDONLY, "open");

	/* Readahead around random offsets would make later reads cache
	 * hits: the figure is the device's random reads. */
	if (fd >= 0 && !ctx->opt->direct)
		posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	return fd < 0 ? fd : 0;
}

static int ran_read_run(struct phase_ctx *ctx, struct phase_out *out)
{
	return ran_run(ctx, out, WL_WHOLE);
}

const struct phase_ops phase_ran_read_ops = {
    .name = "ran_read",
    .title = "random reads",
    .test = RT_ran_read,
    .flags = PHASE_DATA | PHASE_READS | PHASE_STEADY,
    .progress = "Reading randomly",
    .setup = ran_read_setup,
    .run = ran_read_run,
    .how = ran_how_read,
    .teardown = phase_close,
    RAN_PHASE_UNIT,
};
