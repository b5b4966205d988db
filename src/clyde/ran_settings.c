/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ran_settings: the run-level part of the random-I/O unit (ran_read and
 * ran_write, ran_io.h): its options (--ran-bs, --iodepth, --ran-ops,
 * --ran-time, in a private struct), its settings with their defaults
 * and what the run decided (an io_uring fallback, bounds sized for a
 * default run), and the hooks that report them: the settings column,
 * the JSON settings, the line on what was sized, the live view's bounds.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fill.h"
#include "jsonput.h"
#include "optable.h"
#include "plan.h"
#include "ran_io.h"
#include "units.h"

/* The unit's options as given, 0 for the default (ran_settings settles
 * them). */
struct ran_opts {
	uint64_t bs;
	unsigned iodepth;
	uint64_t ops;
	unsigned time;
};

static struct ran_opts ran_given;
static const struct ran_opts ran_none;

/* A whole number in the entry's .min..max into *v, else why. */
static int ran_count(struct opt_ctx *c, const char *arg, const char *why,
		     uint64_t *v)
{
	char no[96];

	if (units_parse_uint(arg, c->opt->max, v, no, sizeof(no)) ||
	    *v < c->opt->min)
		return opt_refuse(c, why);
	return 0;
}

static int take_bs(struct opt_ctx *c, const char *arg)
{
	char why[96];
	uint64_t v;

	if (units_parse_size(arg, 1, &v, why, sizeof(why)))
		return opt_refuse(c, why);
	if (v < RAN_BS_MIN || v > RAN_BS_MAX || v % RAN_BS_MIN)
		return opt_refuse(c, "expected a multiple of 512 bytes from "
				     "512 to 16m");
	ran_given.bs = v;
	return 0;
}

static int take_iodepth(struct opt_ctx *c, const char *arg)
{
	uint64_t v;

	if (ran_count(c, arg, "expected operations in flight from 1 to 1024",
		      &v))
		return -1;
	ran_given.iodepth = (unsigned)v;
	return 0;
}

static int take_ops(struct opt_ctx *c, const char *arg)
{
	return ran_count(c, arg,
			 "expected a count of operations from 1 to "
			 "1099511627776",
			 &ran_given.ops);
}

static int take_time(struct opt_ctx *c, const char *arg)
{
	uint64_t v;

	if (ran_count(c, arg, "expected whole seconds from 1 to 86400", &v))
		return -1;
	ran_given.time = (unsigned)v;
	return 0;
}

static const struct opt ran_entries[] = {
    {.name = "iodepth",
     .type = OPT_CALL,
     .call = take_iodepth,
     .min = 1,
     .max = RAN_IODEPTH_MAX,
     .arg = "N",
     .help = "ran_read and ran_write keep N operations in flight (1..1024, "
	     "default 1: pread/pwrite; above 1 through io_uring, or at 1 "
	     "with a warning where it is not available)"},
    {.name = "ran-bs",
     .type = OPT_CALL,
     .call = take_bs,
     .arg = "SIZE",
     .help = "their block size (512 to 16m, multiple of 512; default 4k)"},
    {.name = "ran-ops",
     .type = OPT_CALL,
     .call = take_ops,
     .min = 1,
     .max = RAN_OPS_MAX,
     .arg = "N",
     .help = "each stops at the earlier of N operations (default 65536) "
	     "..."},
    {.name = "ran-time",
     .type = OPT_CALL,
     .call = take_time,
     .min = 1,
     .max = RAN_TIME_MAX,
     .arg = "SECONDS",
     .help = "... and SECONDS (whole, default 3)"},
    OPT_END,
};

static const struct opt_table ran_table = {
    "Random I/O (ran_read, ran_write):", ran_entries, &ran_given};

/* What --verify cannot go with: a block that is not whole 4 KiB. */
static int ran_check(struct opt_ctx *c, const struct clyde_opts *o)
{
	char v[32];

	if (!o->verify || ran_given.bs % FILL_BLOCK == 0)
		return 0;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)ran_given.bs);
	return opt_bad(c, "--verify with --ran-bs", v,
		       "verified blocks are 4 KiB: give a multiple of 4096");
}

const struct phase_options ran_options = {
    .table = &ran_table,
    .defaults = &ran_none,
    .size = sizeof(struct ran_opts),
    .check = ran_check,
};

void ran_settings(const struct phase_plan *p, struct ran_set *s)
{
	const struct ran_opts *o = p->options;
	const struct ran_state *st = p->state;

	s->bs = o->bs ? o->bs : RAN_BS_DEFAULT;
	s->asked = o->iodepth ? o->iodepth : RAN_IODEPTH_DEFAULT;
	s->depth = st->fallback[0] ? 1 : s->asked;
	s->ops = st->ops ? st->ops : o->ops ? o->ops : RAN_OPS_DEFAULT;
	s->time = st->time ? st->time : o->time ? o->time : RAN_TIME_DEFAULT;
	s->engine = s->depth > 1 ? "io_uring" : "psync";
}

uint64_t ran_op_bytes(const struct phase_plan *p)
{
	struct ran_set s;

	ran_settings(p, &s);
	return s.bs;
}

size_t ran_buf_need(const struct phase_plan *p)
{
	return (size_t)ran_op_bytes(p);
}

void ran_how(const struct phase_plan *p, char *buf, size_t len)
{
	struct ran_set s;
	char bs[24];

	ran_settings(p, &s);
	units_fmt_small(bs, sizeof(bs), s.bs);
	snprintf(buf, len, "%s qd%u %s%s", bs, s.depth, s.engine,
		 p->opt->direct ? " direct" : "");
}

int ran_prepare(const struct phase_plan *p)
{
	struct ran_state *st = p->state;
	char *why = st->fallback;
	size_t len = sizeof(st->fallback);
	struct io_uring ring;
	struct ran_set s;
	int rc;

	ran_settings(p, &s);
	if (s.bs > p->run->size) {
		error("--ran-bs %llu: larger than the data file (-s)",
		      (unsigned long long)s.bs);
		return CLI_EXIT_USAGE;
	}
	if (s.depth <= 1)
		return 0;
	if (getenv(RAN_NO_URING_ENV)) {
		snprintf(why, len, "%s is set", RAN_NO_URING_ENV);
	} else if ((rc = io_uring_queue_init(s.depth, &ring, 0)) < 0) {
		snprintf(why, len, "io_uring_setup: %s%s", strerror(-rc),
			 rc == -EPERM
			     ? " (see /proc/sys/kernel/io_uring_disabled)"
			     : "");
	} else {
		io_uring_queue_exit(&ring);
		return 0;
	}
	warning("--iodepth=%u: io_uring cannot be used (%s): "
		"ran_read and ran_write run at depth 1 (pread, pwrite)",
		s.asked, why);
	return 0;
}

json_t *ran_json(const struct phase_plan *p, int *bad)
{
	const struct ran_state *st = p->state;
	json_t *r = json_object();
	struct ran_set s;

	if (JP_MADE(bad, r))
		return NULL;
	ran_settings(p, &s);
	jp_put(r, "block_size", json_integer((json_int_t)s.bs), bad);
	jp_put(r, "iodepth", json_integer(s.depth), bad);
	jp_put(r, "iodepth_asked", json_integer(s.asked), bad);
	jp_put(r, "ops", json_integer((json_int_t)s.ops), bad);
	jp_put(r, "time", json_integer(s.time), bad);
	jp_put(r, "engine", json_string(s.engine), bad);
	jp_put(r, "fallback",
	       st->fallback[0] ? jp_text(st->fallback) : json_null(), bad);
	return r;
}

/* 65536 operations took 0.13 s on tmpfs (+++++): with nothing given,
 * the time limit alone ends them, whole seconds (1 under a test knob's
 * target below the default). */
int ran_autosize(const struct phase_plan *p, double target, char *what,
		 size_t len)
{
	struct ran_state *st = p->state;
	const struct ran_opts *o = p->options;
	struct ran_set s;

	if (o->ops || o->time)
		return 0;
	st->ops = RAN_OPS_MAX;
	if (target < RAN_TIME_DEFAULT)
		st->time = 1;
	ran_settings(p, &s);
	snprintf(what, len, "random reads and writes for %u s", s.time);
	return 1;
}

void ran_expect(const struct phase_plan *p, struct phase_expect *e)
{
	struct ran_set s;

	ran_settings(p, &s);
	e->ops = s.ops;
	e->secs = s.time;
}
