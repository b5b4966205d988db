/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_getpid: system-call overhead. GETPID_CALLS getpid() calls in a
 * row, one operation each, so the rate is calls per second and the
 * latency listing shows what one round trip into the kernel costs. It
 * touches no file: no flags, so only --only naming other tests skips
 * it, and --only=getpid runs it alone.
 *
 * A model for a new phase, which t/036-add-phase.sh builds into a copy
 * of the tree: copy it to src/clyde/phase_<key>.c, add the figure's line
 * to FIGURES in lib/figures.h and the file to libclydeprog_a_SOURCES in
 * src/Makefile.am (doc/ARCHITECTURE.md, "Adding a figure", has the rest).
 * Its figure's line, a data-file group figure (IO) with the operation
 * unit (SEEK: "operations, seeks/s") and no bonnie++ field:
 *
 *	X(getpid, "getpid calls", SEEK, IO, "System calls", "getpid",
 *	  "getpid", "getpid", FIG_NO_CSV)
 *
 * Everything here is static but the one const struct phase_ops, which
 * must be called phase_<key>_ops: the runner's table is made from
 * FIGURES and names it so. The runner times run() alone, prints the
 * progress line, and skips, reports and records; a phase never prints.
 */
#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "phase.h"

/* About a second where a call and a clock read cost a microsecond; a
 * run under 0.5 s shows as "+++++", as any too-fast figure does. */
#define GETPID_CALLS (1u << 20)

/* How often the run looks at the stop flag (SIGINT, SIGTERM). */
#define GETPID_STOP_EVERY 4096u

static int getpid_run(struct phase_ctx *ctx, struct phase_out *out)
{
	uint64_t t0 = clk_now_ns();
	uint64_t sum = 0;

	for (unsigned i = 0; i < GETPID_CALLS; i++) {
		sum += (uint64_t)getpid();
		phase_op_done(out, &t0);
		if (i % GETPID_STOP_EVERY == 0 && *ctx->stop)
			return phase_fail_call(ctx, "getpid", EINTR);
	}
	/* Folded in where the runner keeps it, the calls are not dropped. */
	ctx->sink += sum;
	out->work = GETPID_CALLS;
	return 0;
}

const struct phase_ops phase_getpid_ops = {
    .name = "getpid",
    .title = "getpid calls",
    .test = RT_getpid,
    .flags = 0,
    .progress = "Calling getpid",
    .run = getpid_run,
};
