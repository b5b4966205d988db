/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_ran_mix: reads and writes mixed, as a database or a file server
 * offers them. Each operation is a read with the chance --mix gives
 * (default 50%), else a write, drawn from the run's seed; its size from
 * --ran-bs, its offset from --dist, and with --rate it is due on a
 * schedule (ran_io.h). It runs when --mix is given or --only names it.
 * The figure is the operations a second of both kinds; JSON has each
 * kind's count, rate and latency, and under --rate the service and
 * response times apart.
 *
 * As ran_write: PHASE_READS so the file is there and out of the page
 * cache; opened O_SYNC under -b; fsynced before the clock stops. The
 * writes carry the data file's content (--data), so under --verify the
 * reads check the file whatever the writes before them wrote.
 */
#include "config.h"

#include <fcntl.h>

#include "phase.h"
#include "ran_io.h"

static int ran_mix_setup(struct phase_ctx *ctx)
{
	int fd = phase_open(ctx, O_RDWR | (ctx->opt->sync_each ? O_SYNC : 0),
			    "open");

	if (fd >= 0 && !ctx->opt->direct)
		posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	return fd < 0 ? fd : 0;
}

static int ran_mix_run(struct phase_ctx *ctx, struct phase_out *out)
{
	struct ran_set s;

	ran_settings(ctx->plan, &s);
	return ran_run(ctx, out, s.wl.reads);
}

const struct phase_ops phase_ran_mix_ops = {
    .name = "ran_mix",
    .title = "random mix",
    .test = RT_ran_mix,
    .flags = PHASE_DATA | PHASE_READS | PHASE_PRECONDITION | PHASE_STEADY,
    .progress = "Reading and writing randomly",
    .setup = ran_mix_setup,
    .run = ran_mix_run,
    .how = ran_how_mix,
    .teardown = phase_close,
    .wanted = ran_wanted_mix,
    RAN_PHASE_UNIT,
};
