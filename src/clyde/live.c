/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * live: see live.h. What a test is expected to do is its phase's own
 * (phase_ops.expect, under the run's plan): an operation count, a time
 * limit, or both, whichever ends first (its share done is the larger of
 * the two shares), what an operation moves, and whether it runs at the
 * block rate; the view names no test. Everything here runs between
 * two operations, at most once per LIVE_REDRAW_NS, and writes the whole
 * line in one call, only when the descriptor takes it without blocking
 * (else that redraw is skipped: a test never waits for a terminal).
 */
#include "config.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "live.h"
#include "plan.h"
#include "runner.h"

struct live {
	FILE *out;
	const struct clyde_opts *o;
	/* The runs' plan (rp->opt is o): the sizes and counts they use. */
	const struct run_plan *rp;
	unsigned run;	    /* of the -x runs, 0-based */
	uint64_t run_start; /* the first run's start */
	/* The test running: at most ops operations and at most time_ns
	 * (0: no limit of that kind), op_bytes each (0: counted as ops);
	 * moves: the times it moves the data size at the block rate (0:
	 * not a block-rate test). */
	enum result_test test;
	char name[48]; /* its key, and of -x N runs which one */
	char prefix[96];
	uint64_t ops, time_ns, op_bytes;
	unsigned moves;
	unsigned copies; /* processes it runs in at once (-c, -d) */
	const char *unit;
	uint64_t start, last;	 /* the first operation's end (0: to come),
				  * the last redraw */
	uint64_t ops0, last_ops; /* phase_out.ops then */
	unsigned width;		 /* columns; 0: not a terminal, no limit */
	int drawn;		 /* the line is on the screen */
	/* For the run's ETA: each test's time when it last ran (0: not
	 * yet), and the block tests' bytes and time so far. */
	uint64_t took[RT_COUNT];
	uint64_t block_bytes, block_ns;
};

int live_wanted(const struct clyde_opts *o, int fd)
{
	if (o->quiet || o->progress == PROGRESS_NONE)
		return 0;
	return o->progress == PROGRESS_ALWAYS || isatty(fd);
}

struct live *live_new(FILE *out, const struct run_plan *rp)
{
	struct live *lv = calloc(1, sizeof(*lv));

	if (!lv)
		return NULL;
	lv->out = out;
	lv->o = rp->opt;
	lv->rp = rp;
	return lv;
}

void live_free(struct live *lv)
{
	free(lv);
}

void live_run_begin(struct live *lv, unsigned run)
{
	lv->run = run;
	if (run == 0)
		lv->run_start = clk_now_ns();
}

/* What the step of ph is expected to do in the run's plan (its expect
 * hook), and test t (its phase's). */
static void expect_of(const struct live *lv, const struct phase_ops *ph,
		      struct phase_expect *e)
{
	*e = (struct phase_expect){.unit = "ops"};
	if (ph && ph->expect) {
		struct phase_plan p = plan_of(lv->rp, ph->test);

		ph->expect(&p, e);
	}
	/* In rounds, a test's end is the rule's: its limit is known, its
	 * count is not. */
	if (ph && lv->o->steady && (ph->flags & PHASE_STEADY)) {
		e->ops = 0;
		e->secs = lv->o->steady_max_s;
	}
}

static void expect(const struct live *lv, enum result_test t,
		   struct phase_expect *e)
{
	expect_of(lv, runner_phase_of(t), e);
}

/* The block rate so far, bytes/s (the test running counts as it goes,
 * ops done by now); 0 when none. */
static double block_rate(const struct live *lv, uint64_t ops, uint64_t now)
{
	uint64_t b = lv->block_bytes, ns = lv->block_ns;

	if (lv->moves && now > lv->start) {
		b += ops * lv->op_bytes;
		ns += now - lv->start;
	}
	return ns && b ? (double)b / ((double)ns / 1e9) : 0;
}

/* Test t's time, seconds, as estimated (live.h); *more set when none. */
static double estimate(const struct live *lv, enum result_test t, double bps,
		       int *more)
{
	struct phase_expect e;

	if (lv->took[t])
		return (double)lv->took[t] / 1e9;
	expect(lv, t, &e);
	if (e.secs > 0)
		return e.secs;
	/* Each process of -c N (and each -d) moves the data size. */
	if (e.data_moves && bps > 0)
		return (double)lv->rp->size * lv->copies * e.data_moves / bps;
	*more = 1;
	return 0;
}

/* The time left after the test running: the rest of this run, then the
 * -x runs after it, in seconds; *more set when a test is left out. */
static double run_left(const struct live *lv, uint64_t ops, uint64_t now,
		       int *more)
{
	double bps = block_rate(lv, ops, now), rest = 0, whole = 0;
	unsigned later =
	    lv->o->repeats > lv->run + 1 ? lv->o->repeats - lv->run - 1 : 0;

	for (size_t i = 0; i < FIG_COUNT; i++) {
		enum result_test t = figure_list[i];
		double e;

		if (!plan_runs(lv->rp, t))
			continue;
		if (t <= lv->test && !later)
			continue;
		e = estimate(lv, t, bps, more);
		if (t > lv->test)
			rest += e;
		whole += e;
	}
	return rest + whole * later;
}

static unsigned term_width(FILE *out)
{
	struct winsize ws;

	if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		return ws.ws_col;
	return 0;
}

uint64_t live_begin(struct live *lv, const struct phase_ops *ph,
		    const char *prefix, unsigned copies)
{
	struct phase_expect e;

	lv->test = ph->test;
	snprintf(lv->name, sizeof(lv->name), "%s",
		 strcmp(prefix, ph->progress) ? "preparing" : ph->name);
	if (lv->o->repeats > 1)
		snprintf(lv->name + strlen(lv->name),
			 sizeof(lv->name) - strlen(lv->name), " %u/%u",
			 lv->run + 1, lv->o->repeats);
	snprintf(lv->prefix, sizeof(lv->prefix), "%s", prefix);
	/* The step's own hook: an untimed step (the precondition) is not
	 * its test's. */
	expect_of(lv, ph, &e);
	lv->ops = e.ops;
	lv->time_ns = (uint64_t)(e.secs * 1e9);
	lv->op_bytes = e.op_bytes;
	lv->unit = e.unit;
	lv->moves = e.data_moves;
	lv->copies = copies ? copies : 1;
	lv->ops *= lv->copies;
	lv->start = 0;
	lv->drawn = 0;
	lv->width = term_width(lv->out);
	/* Due at once: the first operation's end starts the clock. */
	return 0;
}

/* The test's share done (0..1) and ETA (s, < 0: unknown) at el s, with
 * total operations done, avg a second on average. */
static double share_eta(const struct live *lv, uint64_t total, double el,
			double avg, double *eta)
{
	double share = 0, left;

	*eta = -1;
	if (lv->ops) {
		share = (double)total / (double)lv->ops;
		if (avg > 0)
			*eta = total < lv->ops ? (double)(lv->ops - total) / avg
					       : 0;
	}
	if (lv->time_ns) {
		left = (double)lv->time_ns / 1e9 - el;
		if (left < 0)
			left = 0;
		if (1 - left * 1e9 / (double)lv->time_ns > share)
			share = 1 - left * 1e9 / (double)lv->time_ns;
		if (*eta < 0 || left < *eta)
			*eta = left;
	}
	return share > 1 ? 1 : share;
}

/* The figures of the line at now, with total operations done. */
static void figures(const struct live *lv, uint64_t total, uint64_t now,
		    struct live_figs *f)
{
	double el = (double)(now - lv->start) / 1e9;
	double dt = (double)(now - lv->last) / 1e9;
	double scale = lv->op_bytes ? (double)lv->op_bytes : 1;
	uint64_t since = total - lv->ops0;
	double ops_avg = el > 0 ? (double)since / el : 0, eta, share;
	int more = 0;

	*f = (struct live_figs){.name = lv->name,
				.bytes = !!lv->op_bytes,
				.unit = lv->unit,
				.elapsed = el};
	f->now_rate = dt > 0 ? (double)(total - lv->last_ops) * scale / dt : 0;
	f->avg = ops_avg * scale;
	share = share_eta(lv, total, el, ops_avg, &eta);
	f->pct = lv->ops || lv->time_ns ? share * 100 : -1;
	f->eta = eta;
	f->run_el = (double)(now - lv->run_start) / 1e9;
	f->run_eta = eta < 0 ? -1 : eta + run_left(lv, since, now, &more);
	f->run_more = more;
}

/* Whether out's descriptor takes a write now without blocking. */
static int writable(FILE *out)
{
	struct pollfd p = {.fd = fileno(out), .events = POLLOUT};

	return p.fd < 0 || (poll(&p, 1, 0) == 1 && (p.revents & POLLOUT));
}

uint64_t live_tick(struct live *lv, const struct phase_out *out, uint64_t now)
{
	char line[512];
	struct live_figs f;
	uint64_t next;
	size_t n;

	if (!lv->start) {
		/* The first operation's end: setup is over, the timed work
		 * runs; the figures count from here. */
		lv->start = lv->last = now;
		lv->ops0 = lv->last_ops = out->ops;
		return now + LIVE_REDRAW_NS;
	}
	figures(lv, out->ops, now, &f);
	lv->last = now;
	lv->last_ops = out->ops;
	/* A terminal that takes no more now (^S, a stalled link) would
	 * hold the test up in write: this redraw is skipped instead. */
	if (!writable(lv->out))
		return now + LIVE_REDRAW_NS;
	line[0] = '\r';
	live_format(&f, line + 1, sizeof(line) - 8, lv->width);
	n = strlen(line);
	memcpy(line + n, "\033[K", 4);
	fputs(line, lv->out);
	fflush(lv->out);
	lv->drawn = 1;
	/* The next slot of a grid from the start, so a watch that looks
	 * every 200 ms (lib/workers) still draws about that often; but
	 * never sooner than half the interval, over which the rate now
	 * would mean little. */
	next = now - (now - lv->start) % LIVE_REDRAW_NS + LIVE_REDRAW_NS;
	return next - now < LIVE_REDRAW_NS / 2 ? now + LIVE_REDRAW_NS / 2
					       : next;
}

void live_end(struct live *lv, const struct phase_out *out, int ok)
{
	uint64_t now = clk_now_ns();

	if (lv->drawn) {
		fprintf(lv->out, "\r\033[K%s...", lv->prefix);
		fflush(lv->out);
		lv->drawn = 0;
	}
	if (!ok || !lv->start)
		return;
	lv->took[lv->test] = now - lv->start;
	if (lv->moves) {
		lv->block_bytes += (out->ops - lv->ops0) * lv->op_bytes;
		lv->block_ns += now - lv->start;
	}
}

/* Seconds as m:ss, or h:mm:ss from an hour on. */
static void fmt_time(char *buf, size_t len, double s)
{
	unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

	if (t >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60,
			 t % 60);
	else
		snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
}

/* A rate in three digits: bytes in binary units, operations in k, M. */
static void fmt_rate(char *buf, size_t len, double r, int bytes,
		     const char *unit)
{
	static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	static const char *const dec[] = {"", "k", "M", "G", "T"};
	double step = bytes ? 1024 : 1000;
	unsigned i = 0;
	int prec;

	while (r >= 999.5 && i < 4) {
		r /= step;
		i++;
	}
	/* Three digits; whole operations below 1000 as they are. */
	prec = r < 9.995 ? 2 : r < 99.95 ? 1 : 0;
	if (!bytes && !i)
		prec = 0;
	if (bytes)
		snprintf(buf, len, "%.*f%s/s", prec, r, bin[i]);
	else
		snprintf(buf, len, "%.*f%s %s/s", prec, r, dec[i], unit);
}

void live_format(const struct live_figs *f, char *buf, size_t len,
		 unsigned width)
{
	char now[32], avg[32], el[32], eta[32], rel[32], reta[32], pct[8];

	fmt_rate(now, sizeof(now), f->now_rate, f->bytes, f->unit);
	fmt_rate(avg, sizeof(avg), f->avg, f->bytes, f->unit);
	fmt_time(el, sizeof(el), f->elapsed);
	fmt_time(rel, sizeof(rel), f->run_el);
	if (f->eta < 0)
		snprintf(eta, sizeof(eta), "?");
	else
		fmt_time(eta, sizeof(eta), f->eta);
	if (f->run_eta < 0)
		snprintf(reta, sizeof(reta), "?");
	else {
		fmt_time(reta, sizeof(reta), f->run_eta);
		if (f->run_more)
			strcat(reta, "+");
	}
	if (f->pct < 0)
		snprintf(pct, sizeof(pct), "?%%");
	else
		snprintf(pct, sizeof(pct), "%.0f%%", f->pct);
	snprintf(buf, len, "%s %s %s avg %s %s eta %s | all %s eta %s", f->name,
		 pct, now, avg, el, eta, rel, reta);
	/* Wider than the terminal, it would wrap, and the carriage return
	 * would rewrite only its last row. */
	if (width && strlen(buf) >= width)
		buf[width - 1] = '\0';
}
