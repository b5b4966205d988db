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
 * real: both sides long enough to have a level, the later level under
 * CLIFF_RATIO of the earlier, the drop at least CLIFF_NOISE times the
 * spread of the rates about either level (both in logs: a rate's noise
 * is a share of it), and two levels fitting the rates better than a
 * straight line does (a rate that slides is not a
 * cliff: steady-state's rule, steady.h, is what judges a slide).
 */
#ifndef CLYDE_CLIFF_H
#define CLYDE_CLIFF_H

#include <stddef.h>

#include "result.h"

/* Intervals each side of the drop needs, at least. */
#define CLIFF_SIDE_MIN 3u
/* The later level is under this share of the earlier one. */
#define CLIFF_RATIO 0.8
/* The drop is at least this many times either side's spread. */
#define CLIFF_NOISE 2.5
/* An interval shorter than this share of the typical one (the last,
 * cut by the test's end) gives no rate of its own. */
#define CLIFF_SHORT 0.5

struct cliff {
	int found;
	double burst, sustained;       /* bytes a second, each level */
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
 * test's start, as clyde logs them). Fills c in full either way; returns
 * c->found.
 */
int cliff_find(const struct result_interval *v, unsigned n, struct cliff *c);

#endif
