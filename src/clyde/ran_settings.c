/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ran_settings: the run-level part of the random-I/O unit (ran_read,
 * ran_write and ran_mix, ran_io.h): its options (the workload: --ran-bs,
 * --mix, --dist, --rate, --arrivals, read by lib/workload; --iodepth,
 * --ran-ops, --ran-time; in a private struct), its settings with their
 * defaults and what the run decided (an io_uring fallback, bounds sized
 * for a default run), and the hooks that report them: the settings
 * column, the JSON settings, the line on what was sized, the live
 * view's bounds.
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
	struct wl_spec wl; /* the workload options; .given says which */
	unsigned iodepth;
	uint64_t ops;
	unsigned time;
	/* Each option's value as first given (into argv): given again, it
	 * must be the same, as -z's and --json's (once). */
	struct {
		const char *bs, *mix, *dist, *rate, *arrivals, *iodepth, *ops,
		    *time;
	} arg;
};

static struct ran_opts ran_given;
static const struct ran_opts ran_none;

/* arg as the option's value, unless another was given first (*first):
 * then refused, as -z's second value is. */
static int once(struct opt_ctx *c, const char **first, const char *arg)
{
	if (*first && strcmp(*first, arg))
		return opt_twice(c, *first);
	*first = arg;
	return 0;
}

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

/* --ran-bs: one size, any multiple of 512 as before; or a split of
 * powers of two with shares (lib/workload). */
static int take_bs(struct opt_ctx *c, const char *arg)
{
	struct wl_spec *w = &ran_given.wl;
	char why[160];
	uint64_t v;

	if (once(c, &ran_given.arg.bs, arg))
		return -1;
	if (strpbrk(arg, ":,")) {
		if (wl_parse_bs(w, arg, why, sizeof(why)))
			return opt_refuse(c, why);
		return 0;
	}
	if (units_parse_size(arg, 1, &v, why, sizeof(why)))
		return opt_refuse(c, why);
	if (v < RAN_BS_MIN || v > RAN_BS_MAX || v % RAN_BS_MIN)
		return opt_refuse(c, "expected a multiple of 512 bytes from "
				     "512 to 16m");
	w->bs = (struct wl_bs){.n = 1, .size = {v}, .share = {WL_WHOLE}};
	w->given |= WL_GIVEN_BS;
	return 0;
}

/* --mix, --dist, --rate, --arrivals: lib/workload's parser p. */
static int take_wl(struct opt_ctx *c, const char *arg, const char **first,
		   int (*p)(struct wl_spec *, const char *, char *, size_t))
{
	char why[160];

	if (once(c, first, arg))
		return -1;
	return p(&ran_given.wl, arg, why, sizeof(why)) ? opt_refuse(c, why) : 0;
}

static int take_mix(struct opt_ctx *c, const char *arg)
{
	return take_wl(c, arg, &ran_given.arg.mix, wl_parse_mix);
}

static int take_dist(struct opt_ctx *c, const char *arg)
{
	return take_wl(c, arg, &ran_given.arg.dist, wl_parse_dist);
}

static int take_rate(struct opt_ctx *c, const char *arg)
{
	return take_wl(c, arg, &ran_given.arg.rate, wl_parse_rate);
}

static int take_arrivals(struct opt_ctx *c, const char *arg)
{
	return take_wl(c, arg, &ran_given.arg.arrivals, wl_parse_arrivals);
}

static int take_iodepth(struct opt_ctx *c, const char *arg)
{
	uint64_t v;

	if (once(c, &ran_given.arg.iodepth, arg) ||
	    ran_count(c, arg, "expected operations in flight from 1 to 1024",
		      &v))
		return -1;
	ran_given.iodepth = (unsigned)v;
	return 0;
}

static int take_ops(struct opt_ctx *c, const char *arg)
{
	if (once(c, &ran_given.arg.ops, arg))
		return -1;
	return ran_count(c, arg,
			 "expected a count of operations from 1 to "
			 "1099511627776",
			 &ran_given.ops);
}

static int take_time(struct opt_ctx *c, const char *arg)
{
	uint64_t v;

	if (once(c, &ran_given.arg.time, arg) ||
	    ran_count(c, arg, "expected whole seconds from 1 to 86400", &v))
		return -1;
	ran_given.time = (unsigned)v;
	return 0;
}

/* --dist's and --arrivals' values (lib/workload_parse.c reads them),
 * for completion; zipf and pareto also take :THETA, :H. */
static const char *const dist_words[] = {"uniform", "zipf", "pareto",
					 "zoned:", NULL};
static const char *const arrivals_words[] = {"poisson", "fixed", NULL};

static const struct opt ran_entries[] = {
    {.name = "iodepth",
     .type = OPT_CALL,
     .call = take_iodepth,
     .min = 1,
     .max = RAN_IODEPTH_MAX,
     .arg = "N",
     .help = "ran_read, ran_write and ran_mix keep N operations in "
	     "flight (1..1024, default 1: pread/pwrite; above 1 through "
	     "io_uring, or at 1 with a warning where it is not available)"},
    {.name = "ran-bs",
     .type = OPT_CALL,
     .call = take_bs,
     .arg = "SIZE[:PCT,...]",
     .help = "their block size (512 to 16m, multiple of 512; default "
	     "4k), or a split of powers of two whose shares add to 100, "
	     "as 8k:70,64k:30"},
    {.name = "mix",
     .type = OPT_CALL,
     .call = take_mix,
     .arg = "R",
     .help = "run ran_mix: R percent of its operations are reads, the "
	     "rest writes (0..100, one decimal at most; default 50 under "
	     "--only=ran_mix)"},
    {.name = "dist",
     .type = OPT_CALL,
     .call = take_dist,
     .words = dist_words,
     .arg = "DIST",
     .help = "where offsets land: uniform (default), zipf[:THETA] "
	     "(default 1.1), pareto[:H] (default 0.2) or "
	     "zoned:IO/SIZE[,IO/SIZE...] (IO percent of the operations on "
	     "the next SIZE percent of the file)"},
    {.name = "rate",
     .type = OPT_CALL,
     .call = take_rate,
     .arg = "IOPS",
     .help = "offer IOPS operations a second (k, m: thousands, "
	     "millions), split over -c workers: each is issued when due, "
	     "its latency counted from then, and those issued over 1 ms "
	     "late are counted"},
    {.name = "arrivals",
     .type = OPT_CALL,
     .call = take_arrivals,
     .words = arrivals_words,
     .arg = "poisson|fixed",
     .help = "with --rate: exponential gaps (poisson, the default) or "
	     "equal ones"},
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
    "Random I/O (ran_read, ran_write, ran_mix):", ran_entries, &ran_given};

/*
 * What the options cannot go with: --arrivals without --rate (unless
 * the program sets each step's rate), the workload's shape where --only
 * leaves out every random-I/O test (--mix: ran_mix), and under --verify a
 * block that is not whole 4 KiB.
 */
static int ran_check(struct opt_ctx *c, const struct clyde_opts *o)
{
	const struct wl_spec *w = &ran_given.wl;
	char v[WL_TEXT_MAX], why[96];
	struct wl_spec one = {.given = 0};

	if ((w->given & WL_GIVEN_ARRIVALS) && !(w->given & WL_GIVEN_RATE) &&
	    !o->rate_stepped) {
		one = (struct wl_spec){.given = WL_GIVEN_ARRIVALS,
				       .arrivals = w->arrivals};
		wl_text(&one, v, sizeof(v));
		return opt_bad(c, "--arrivals", v, "needs --rate");
	}
	const struct {
		const char *name, *arg;
	} given[] = {
	    {"--ran-bs", ran_given.arg.bs},
	    {"--dist", ran_given.arg.dist},
	    {"--rate", ran_given.arg.rate},
	    {"--iodepth", ran_given.arg.iodepth},
	};
	const unsigned ran =
	    (1u << RT_ran_read) | (1u << RT_ran_write) | (1u << RT_ran_mix);

	/* The shape of a workload --only leaves out would change nothing.
	 * (--ran-ops and --ran-time are bounds a script may give any
	 * run.) */
	for (size_t i = 0; o->only && !(o->only & ran) &&
			   i < sizeof(given) / sizeof(given[0]);
	     i++)
		if (given[i].arg)
			return opt_bad(c, given[i].name, given[i].arg,
				       "--only leaves out ran_read, ran_write "
				       "and ran_mix, the tests it sets");
	if ((w->given & WL_GIVEN_MIX) && o->only &&
	    !(o->only & (1u << RT_ran_mix))) {
		wl_fmt_pct(v, sizeof(v), w->reads);
		return opt_bad(c, "--mix", v,
			       "--only leaves ran_mix out, the test it sets");
	}
	if (!o->verify || !(w->given & WL_GIVEN_BS) ||
	    !wl_bs_sectors(&w->bs, FILL_BLOCK, why, sizeof(why)))
		return 0;
	one = (struct wl_spec){.given = WL_GIVEN_BS, .bs = w->bs};
	wl_text(&one, v, sizeof(v));
	return opt_bad(c, "--verify with --ran-bs", v,
		       "verified blocks are 4 KiB: give multiples of 4096");
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

	s->wl = o->wl;
	if (st->step_rate) {
		s->wl.rate = st->step_rate;
		s->wl.given |= WL_GIVEN_RATE;
	}
	if (!(s->wl.given & WL_GIVEN_BS))
		s->wl.bs = (struct wl_bs){
		    .n = 1, .size = {RAN_BS_DEFAULT}, .share = {WL_WHOLE}};
	if (!(s->wl.given & WL_GIVEN_MIX))
		s->wl.reads = RAN_MIX_DEFAULT;
	s->wl.given |= WL_GIVEN_BS;
	s->bs = wl_bs_max(&s->wl.bs);
	s->asked = o->iodepth	       ? o->iodepth
		   : st->depth_default ? st->depth_default
				       : RAN_IODEPTH_DEFAULT;
	s->depth = st->fallback[0] ? 1 : s->asked;
	s->ops = st->ops ? st->ops : o->ops ? o->ops : RAN_OPS_DEFAULT;
	s->time = st->time ? st->time : o->time ? o->time : RAN_TIME_DEFAULT;
	s->engine = s->depth > 1 ? "io_uring" : "psync";
}

int ran_wanted_mix(const struct phase_plan *p)
{
	const struct ran_opts *o = p->options;

	return (o->wl.given & WL_GIVEN_MIX) != 0;
}

/* One size: its bytes; a split has no one size (0). */
uint64_t ran_op_bytes(const struct phase_plan *p)
{
	struct ran_set s;

	ran_settings(p, &s);
	return s.wl.bs.n == 1 ? s.bs : 0;
}

size_t ran_buf_need(const struct phase_plan *p)
{
	struct ran_set s;

	ran_settings(p, &s);
	return (size_t)s.bs;
}

static void ran_how(const struct phase_plan *p, int mix, int writes, char *buf,
		    size_t len)
{
	struct ran_set s;
	struct wl_spec w;
	size_t n;

	ran_settings(p, &s);
	/* "8k:70,64k:30 r70 zipf:1.1", then the depth, then the rate. */
	w = s.wl;
	w.given &= WL_GIVEN_BS | WL_GIVEN_DIST | (mix ? WL_GIVEN_MIX : 0);
	if (mix)
		w.given |= WL_GIVEN_MIX;
	n = wl_text(&w, buf, len);
	n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
			      " qd%u", s.depth);
	w = s.wl;
	w.given &= WL_GIVEN_RATE | WL_GIVEN_ARRIVALS;
	if (w.given && n + 1 < len) {
		buf[n++] = ' ';
		n += wl_text(&w, buf + n, len - n);
	}
	snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, " %s%s%s",
		 s.engine, p->opt->direct ? " direct" : "",
		 writes && p->opt->sync_each ? " sync" : "");
}

void ran_how_read(const struct phase_plan *p, char *buf, size_t len)
{
	ran_how(p, 0, 0, buf, len);
}

void ran_how_write(const struct phase_plan *p, char *buf, size_t len)
{
	ran_how(p, 0, 1, buf, len);
}

void ran_how_mix(const struct phase_plan *p, char *buf, size_t len)
{
	ran_how(p, 1, 1, buf, len);
}

/* --dist over the data file's blocks: a zone too small for a whole one
 * is refused before the first test (the data file's size is the run's,
 * and the same in every worker). */
static int ran_check_dist(const struct phase_plan *p, const struct ran_set *s)
{
	struct wl_offsets o;
	struct wl_spec d = {.given = WL_GIVEN_DIST, .dist = s->wl.dist};
	char why[160], v[WL_TEXT_MAX];

	if (!(s->wl.given & WL_GIVEN_DIST) || !p->run->size)
		return 0;
	if (!wl_offsets_init(&o, &s->wl.dist, ran_positions(p->run->size, s), 0,
			     why, sizeof(why)))
		return 0;
	wl_text(&d, v, sizeof(v));
	error("--dist '%s': %s over the data file (-s)", v, why);
	return CLI_EXIT_USAGE;
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
	if ((rc = ran_check_dist(p, &s)) != 0)
		return rc;
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

/*
 * The workload as run: the block sizes and their shares, ran_mix's
 * reads, where offsets land, and the offered rate (null: none); the
 * shares in percent.
 */
static json_t *ran_json_workload(const struct wl_spec *w, int *bad)
{
	json_t *o = json_object(), *bs = json_array();
	struct wl_spec d = {.given = WL_GIVEN_DIST, .dist = w->dist};
	char text[WL_TEXT_MAX];

	if (JP_MADE(bad, o, bs))
		return NULL;
	for (unsigned i = 0; i < w->bs.n; i++) {
		json_t *one = json_object();

		if (JP_MADE(bad, one))
			break;
		jp_put(one, "size", json_integer((json_int_t)w->bs.size[i]),
		       bad);
		jp_put(one, "share", json_real(w->bs.share[i] / 10.0), bad);
		jp_append(bs, one, bad);
	}
	jp_put(o, "block_sizes", bs, bad);
	jp_put(o, "mix_reads", json_real(w->reads / 10.0), bad);
	wl_text(&d, text, sizeof(text));
	jp_put(o, "distribution", json_string(text), bad);
	jp_put(o, "rate",
	       w->given & WL_GIVEN_RATE ? json_integer((json_int_t)w->rate)
					: json_null(),
	       bad);
	jp_put(o, "arrivals",
	       json_string(w->arrivals == WL_FIXED ? "fixed" : "poisson"), bad);
	return o;
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
	jp_put(r, "workload", ran_json_workload(&s.wl, bad), bad);
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
