/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * live: the status line on stderr while a test runs (--progress), as
 * fio's: the test, how far it is, its rate over the last redraw and on
 * average, its time and ETA and the run's. The line is redrawn in place
 * (a carriage return, the line, an erase to its end) from the runner's
 * clock hook (phase_out.tick), so it costs the timed loop no clock read
 * of its own: live_tick redraws and says when it is next due. When the
 * test ends, live_end erases the line and puts back what the runner had
 * printed on it ("Writing intelligently..."), so every later line starts
 * on a clean line and the terminal ends as it would without the view.
 *
 * The run's ETA is the test's own plus an estimate of each test still to
 * come in this run (and, under -x N, of the runs after it): the time a
 * test took when it last ran (an earlier -x run); else its time limit
 * (--sync-time, --ran-time: an upper bound); else, for a test at the
 * block rate (block output, input, and rewrite with twice the bytes:
 * phase_expect.data_moves), the data size at the block rate measured so
 * far (the test running now counts as it goes). A test none of those
 * gives (per-char, seeks, file tests before they first ran) is left out,
 * and the ETA is shown with a '+': at least that.
 */
#ifndef CLYDE_LIVE_H
#define CLYDE_LIVE_H

#include <stdint.h>
#include <stdio.h>

#include "phase.h"

/* The interval between two redraws, and the limit of the estimates. */
#define LIVE_REDRAW_NS 250000000ull

struct live;

struct run_plan;

/* A view drawing on out, for the runs of plan rp (rp->opt->repeats of
 * them); NULL when out of memory (then the run goes on without it). */
struct live *live_new(FILE *out, const struct run_plan *rp);
void live_free(struct live *lv);

/* Run number run (0-based) of the -x runs begins. */
void live_run_begin(struct live *lv, unsigned run);

/*
 * Test ph begins in copies processes at once (-c N, several -d: their
 * operations added up), after the runner printed "prefix..." on
 * the line; it is named "preparing" when prefix is not ph's own (the
 * untimed maker under --only). Returns when the hook is first due, for
 * phase_out.tick_ns: at once, for the first operation's end starts the
 * test's clock.
 */
uint64_t live_begin(struct live *lv, const struct phase_ops *ph,
		    const char *prefix, unsigned copies);

/* The hook's turn at now: the line redrawn from out->ops. Returns when
 * it is next due. */
uint64_t live_tick(struct live *lv, const struct phase_out *out, uint64_t now);

/* The test ended (well or not): the line erased and the prefix put
 * back if it was drawn; its time kept for the run's ETA. */
void live_end(struct live *lv, const struct phase_out *out, int ok);

/* Whether the view is wanted: o->progress, -q, and whether fd is a
 * terminal. */
int live_wanted(const struct clyde_opts *o, int fd);

/* The line for the figures given (live.c's renderer, for the tests):
 * into buf (len bytes), at most width columns. */
struct live_figs {
	const char *name;
	double pct;		/* 0..100, or < 0 when not known */
	double now_rate, avg;	/* per second, in unit */
	int bytes;		/* the rates are bytes (else operations) */
	const char *unit;	/* "ops", "seeks", "files" */
	double elapsed, eta;	/* the test's, seconds; eta < 0: unknown */
	double run_el, run_eta; /* the run's; run_eta < 0: unknown */
	int run_more;		/* run_eta leaves tests out: '+' */
};
void live_format(const struct live_figs *f, char *buf, size_t len,
		 unsigned width);

#endif
