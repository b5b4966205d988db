/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ran_settings: the run-level part of the random-I/O unit (ran_read and
 * ran_write, ran_io.h): its settings with their defaults and what the
 * run decided (an io_uring fallback, bounds sized for a default run),
 * and the hooks that report them: the settings column, the JSON
 * settings, the line on what was sized, the live view's bounds.
 */
#include "config.h"

#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jsonput.h"
#include "plan.h"
#include "ran_io.h"
#include "units.h"

void ran_settings(const struct phase_plan *p, struct ran_set *s)
{
	const struct clyde_opts *o = p->opt;
	const struct ran_state *st = p->state;

	s->bs = o->ran_bs ? o->ran_bs : RAN_BS_DEFAULT;
	s->asked = o->ran_iodepth ? o->ran_iodepth : RAN_IODEPTH_DEFAULT;
	s->depth = st->fallback[0] ? 1 : s->asked;
	s->ops = st->ops ? st->ops : o->ran_ops ? o->ran_ops : RAN_OPS_DEFAULT;
	s->time = st->time	? st->time
		  : o->ran_time ? o->ran_time
				: RAN_TIME_DEFAULT;
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
	struct ran_set s;

	if (p->opt->ran_ops || p->opt->ran_time)
		return 0;
	st->ops = RAN_OPS_MAX;
	if (target < RAN_TIME_DEFAULT)
		st->time = 1;
	ran_settings(p, &s);
	snprintf(what, len, "random reads and writes for %u s", s.time);
	return 1;
}

void ran_expect(const struct phase_plan *p, uint64_t *ops, double *secs)
{
	struct ran_set s;

	ran_settings(p, &s);
	*ops = s.ops;
	*secs = s.time;
}
