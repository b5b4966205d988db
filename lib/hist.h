/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hist: a latency histogram with log-linear buckets. Below 64 ns every
 * nanosecond has its own bucket; above, each power of two is split into
 * 64 equal buckets, so a bucket is at most 1/64 of its lower bound wide
 * and its midpoint is within 0.8% of any value in it, from 1 us to 100 s
 * and beyond (values past the last bucket land in it; max stays exact).
 * Fixed size (8 KiB of counts), no allocation, and mergeable: the
 * histogram of a union is the bucket-wise sum, so several processes'
 * histograms give exact combined percentiles.
 */
#ifndef CLYDE_HIST_H
#define CLYDE_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_SUB      (1u << HIST_SUB_BITS)
/* Octaves 2^6 .. 2^37 ns (137 s) after the 64 exact buckets. */
#define HIST_BUCKETS (HIST_SUB * 33u)

struct hist {
	uint64_t count;	 /* values recorded */
	uint64_t sum_ns; /* for the mean */
	uint64_t min_ns, max_ns;
	uint32_t b[HIST_BUCKETS]; /* saturate at UINT32_MAX */
};

void hist_init(struct hist *h);

/* The bucket a value falls in, and that bucket's bounds [low, high]. */
unsigned hist_index(uint64_t ns);
uint64_t hist_low(unsigned i);
uint64_t hist_high(unsigned i);

static inline void hist_add(struct hist *h, uint64_t ns)
{
	unsigned i = hist_index(ns);

	if (h->b[i] != UINT32_MAX)
		h->b[i]++;
	h->count++;
	h->sum_ns += ns;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

/* dst += src. */
void hist_merge(struct hist *dst, const struct hist *src);

/*
 * dst = a - b, where b is an earlier state of the same histogram (what
 * was added between the two): buckets, count and sum subtracted; min
 * and max the bounds of the lowest and highest bucket left, within a's.
 */
void hist_sub(struct hist *dst, const struct hist *a, const struct hist *b);

/* Whether a and b hold the very same values as far as a histogram
 * tells: count, sum, min, max and every bucket. */
int hist_same(const struct hist *a, const struct hist *b);

/*
 * The p-th percentile (0 < p <= 100): the midpoint of the bucket holding
 * the value of rank ceil(p/100 * count), clamped to [min, max]; 0 when
 * empty. p = 100 gives max exactly.
 */
uint64_t hist_percentile(const struct hist *h, double p);

/* The mean in ns; 0 when empty. */
double hist_mean(const struct hist *h);

#endif
