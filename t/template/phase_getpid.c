/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_getpid: system-call overhead. --getpid-calls getpid() calls in
 * a row (default GETPID_CALLS), one operation each, so the rate is calls
 * per second and the latency listing shows what one round trip into the
 * kernel costs. It touches no file: no flags, so only --only naming
 * other tests skips it, and --only=getpid runs it alone.
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
 *
 * What the figure ran with is its own too: its option (--getpid-calls,
 * with its bound and its help line, declared here in a private struct
 * that clyde's parser composes with the run's options and shows in
 * --help under the figure's heading), its JSON settings
 * (settings.getpid), its words in the settings column ("1048576 calls"),
 * its rule for a run that sizes itself (no -s, no --getpid-calls): the
 * calls for the target time, kept in its run state (struct
 * getpid_state), never in the options; and what the live view expects
 * of a test (its calls, its time).
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

#include "jsonput.h"
#include "optable.h"
#include "phase.h"

/* About a second where a call and a clock read cost a microsecond; a
 * run under 0.5 s shows as "+++++", as any too-fast figure does. */
#define GETPID_CALLS (1u << 20)

/* The count a run that sized itself lifts the calls to: its time ends
 * them. */
#define GETPID_CALLS_MAX (1u << 30)

/* Its options, as given (the defaults copied in before each parse). */
struct getpid_opts {
	unsigned calls;
	int calls_set; /* --getpid-calls given: a sized run keeps to it */
};

static struct getpid_opts getpid_given;
static const struct getpid_opts getpid_defaults = {.calls = GETPID_CALLS};

static const struct opt getpid_entries[] = {
    {.name = "getpid-calls",
     .type = OPT_UINT,
     .flags = OPT_SEEN,
     .min = 1,
     .max = GETPID_CALLS_MAX,
     .off = offsetof(struct getpid_opts, calls),
     .seen = offsetof(struct getpid_opts, calls_set),
     .arg = "N",
     .help = "getpid calls per test (1 to 1073741824, default 1048576)"},
    OPT_END,
};

static const struct opt_table getpid_table = {
    "System calls (getpid):", getpid_entries, &getpid_given};

static const struct phase_options getpid_options = {
    .table = &getpid_table,
    .defaults = &getpid_defaults,
    .size = sizeof(struct getpid_opts),
};

/* What the run decided: under a sized run, the calls stop after this
 * many seconds (0: the count alone ends them). */
struct getpid_state {
	double secs;
};

/* The most calls of a test under plan p. */
static unsigned getpid_calls(const struct phase_plan *p)
{
	const struct getpid_state *st = p->state;
	const struct getpid_opts *o = p->options;

	return st->secs > 0 ? GETPID_CALLS_MAX : o->calls;
}

/* How often the run looks at the stop flag (SIGINT, SIGTERM). */
#define GETPID_STOP_EVERY 4096u

static int getpid_run(struct phase_ctx *ctx, struct phase_out *out)
{
	const struct getpid_state *st = ctx->plan->state;
	uint64_t t0 = clk_now_ns();
	uint64_t end = t0 + (uint64_t)(st->secs * 1e9), sum = 0;
	unsigned i, calls = getpid_calls(ctx->plan);

	for (i = 0; i < calls; i++) {
		sum += (uint64_t)getpid();
		phase_op_done(out, &t0);
		if (i % GETPID_STOP_EVERY == 0 && *ctx->stop)
			return phase_fail_call(ctx, "getpid", EINTR);
		if (st->secs > 0 && t0 >= end) {
			i++;
			break;
		}
	}
	/* Folded in where the runner keeps it, the calls are not dropped. */
	ctx->sink += sum;
	out->work = i;
	return 0;
}

/* The settings column: "1048576 calls". */
static void getpid_how(const struct phase_plan *p, char *buf, size_t len)
{
	snprintf(buf, len, "%u calls", getpid_calls(p));
}

/* settings.getpid: the most calls, and the seconds a sized run gives
 * them (null: the count alone). */
static json_t *getpid_json(const struct phase_plan *p, int *bad)
{
	const struct getpid_state *st = p->state;
	json_t *g = json_object();

	if (JP_MADE(bad, g))
		return NULL;
	jp_put(g, "calls", json_integer(getpid_calls(p)), bad);
	jp_put(g, "time", st->secs > 0 ? json_real(st->secs) : json_null(),
	       bad);
	return g;
}

/* A run that sizes itself: the calls for the target time, the count
 * lifted, unless --getpid-calls gave the count. */
static int getpid_autosize(const struct phase_plan *p, double target,
			   char *what, size_t len)
{
	struct getpid_state *st = p->state;
	const struct getpid_opts *o = p->options;

	if (o->calls_set)
		return 0;
	st->secs = target;
	snprintf(what, len, "getpid for %g s", target);
	return 1;
}

/* For the live view: the most calls, and under a sized run the most
 * seconds; one call an operation. */
static void getpid_expect(const struct phase_plan *p, struct phase_expect *e)
{
	const struct getpid_state *st = p->state;

	e->ops = getpid_calls(p);
	e->secs = st->secs;
}

const struct phase_ops phase_getpid_ops = {
    .name = "getpid",
    .title = "getpid calls",
    .test = RT_getpid,
    .flags = 0,
    .progress = "Calling getpid",
    .run = getpid_run,
    .how = getpid_how,
    .state_size = sizeof(struct getpid_state),
    .options = &getpid_options,
    .settings = getpid_json,
    .autosize = getpid_autosize,
    .expect = getpid_expect,
};
