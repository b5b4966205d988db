/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hist: see hist.h. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "hist.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

unsigned hist_index(uint64_t ns)
{
	unsigned e, i;

	if (ns < HIST_SUB)
		return (unsigned)ns;
	e = 63u - (unsigned)__builtin_clzll(ns); /* ns >= 2^e, e >= 6 */
	i = (e - HIST_SUB_BITS + 1) * HIST_SUB +
	    (unsigned)((ns >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1));
	return i < HIST_BUCKETS ? i : HIST_BUCKETS - 1;
}

uint64_t hist_low(unsigned i)
{
	unsigned oct = i / HIST_SUB, m = i % HIST_SUB, e;

	if (oct == 0)
		return i;
	e = oct + HIST_SUB_BITS - 1;
	return (1ull << e) + ((uint64_t)m << (e - HIST_SUB_BITS));
}

uint64_t hist_high(unsigned i)
{
	unsigned oct = i / HIST_SUB;

	if (oct == 0)
		return i;
	return hist_low(i) + (1ull << (oct - 1)) - 1;
}

int hist_same(const struct hist *a, const struct hist *b)
{
	return a->count == b->count && a->sum_ns == b->sum_ns &&
	       a->min_ns == b->min_ns && a->max_ns == b->max_ns &&
	       memcmp(a->b, b->b, sizeof(a->b)) == 0;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t s = (uint64_t)dst->b[i] + src->b[i];

		dst->b[i] = s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
	}
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

void hist_sub(struct hist *dst, const struct hist *a, const struct hist *b)
{
	unsigned lo = HIST_BUCKETS, hi = 0;

	hist_init(dst);
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		dst->b[i] = a->b[i] > b->b[i] ? a->b[i] - b->b[i] : 0;
		if (dst->b[i]) {
			if (lo == HIST_BUCKETS)
				lo = i;
			hi = i;
		}
	}
	dst->count = a->count > b->count ? a->count - b->count : 0;
	dst->sum_ns = a->sum_ns > b->sum_ns ? a->sum_ns - b->sum_ns : 0;
	if (!dst->count || lo == HIST_BUCKETS)
		return;
	dst->min_ns = hist_low(lo) > a->min_ns ? hist_low(lo) : a->min_ns;
	dst->max_ns = hist_high(hi) < a->max_ns ? hist_high(hi) : a->max_ns;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	if (p >= 100.0)
		return h->max_ns;
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			uint64_t mid =
			    hist_low(i) + (hist_high(i) - hist_low(i)) / 2;

			if (mid < h->min_ns)
				mid = h->min_ns;
			if (mid > h->max_ns)
				mid = h->max_ns;
			return mid;
		}
	}
	return h->max_ns;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum_ns / (double)h->count : 0.0;
}
