/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cliff: the write-cache cliff in a test's intervals. A write-back cache
 * (a controller's, an SSD's) takes writes at its own speed until it is
 * full, then at the speed of what is behind it: the rate over time is
 * two levels and a drop. cliff_find looks for that one sustained drop in
 * the rates of a test's intervals (result_interval: bytes over seconds)
 * and, when there is one, gives the two levels, when the drop came and
 * the bytes written before it (what the cache absorbed).
 *
 * It finds nothing, and says why, unless the rates show a drop that is
 * real: both sides long enough to have a level; the later level (the
 * bytes after the drop over their time) under CLIFF_RATIO of the
 * earlier, and a typical interval's rate after it (the level of the
 * rates' logs, spikes out) under CLIFF_RATIO of one before it, so that
 * a few fast intervals at the start (a throttle's first slice let
 * through at once after a stall) do not make a burst of a flat rate;
 * two levels fitting the rates' logs better than a straight line does
 * (a rate that slides is not a cliff: steady-state's rule, steady.h,
 * judges a slide); and the two sides apart beyond their noise, at least
 * CLIFF_SEPARATION of the pairs of rates, one before and one after, with
 * the one before the faster. In simulated flat rates of 10% and 30%
 * noise about one series in 500 passes (t/check_cliff.c bounds it).
 */
#ifndef CLYDE_CLIFF_H
#define CLYDE_CLIFF_H

#include <stddef.h>

struct result_interval;

/* Intervals each side of the drop needs, at least. */
#define CLIFF_SIDE_MIN 3u
/* The later level is under this share of the earlier one. */
#define CLIFF_RATIO 0.8
/* Of the pairs of rates, one before the drop and one after (over
 * intervals as long as the sides allow), this share at least has the
 * one before the faster. */
#define CLIFF_SEPARATION 0.95
/* The last interval, when shorter than this share of the typical one
 * (cut by the test's end), gives no rate of its own. */
#define CLIFF_SHORT 0.5

struct cliff {
	int looked; /* cliff_find ran on the test (else all 0) */
	int found;
	double burst, sustained;       /* bytes a second, each level: its bytes
					* over its time */
	double burst_sd, sustained_sd; /* the rates' spread about each */
	double drop_s;		       /* seconds from the test's start */
	double absorbed;	       /* bytes written before the drop */
	unsigned n_burst, n_sustained; /* intervals on each side */
	unsigned intervals;	       /* intervals looked at */
	double sse_levels, sse_line;   /* each fit's squared residuals, of
					* the rates' logs */
	char why[160];		       /* found 0: why not, a sentence */
};

/*
 * Look for the cliff in n intervals of one test, in order (ends from the
 * test's start, as clyde logs them). Fills c in full either way (looked
 * set); returns c->found.
 */
int cliff_find(const struct result_interval *v, unsigned n, struct cliff *c);

#endif
