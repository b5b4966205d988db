/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workload: the draws (see workload.h; the options and the settings
 * text are workload_parse.c's).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "workload.h"

int wl_draw_read(unsigned reads, struct rng *r)
{
	return rng_below(r, WL_WHOLE) < reads;
}

uint64_t wl_draw_bs(const struct wl_bs *bs, struct rng *r)
{
	unsigned u = (unsigned)rng_below(r, WL_WHOLE), cum = 0, i;

	for (i = 0; i + 1 < bs->n; i++) {
		cum += bs->share[i];
		if (u < cum)
			break;
	}
	return bs->size[i];
}

uint64_t wl_bs_max(const struct wl_bs *bs)
{
	uint64_t max = 0;

	for (unsigned i = 0; i < bs->n; i++)
		if (bs->size[i] > max)
			max = bs->size[i];
	return max;
}

int wl_bs_sectors(const struct wl_bs *bs, uint64_t sector, char *why,
		  size_t whylen)
{
	for (unsigned i = 0; i < bs->n; i++) {
		if (sector && bs->size[i] % sector == 0)
			continue;
		if (why && whylen)
			snprintf(why, whylen,
				 "%llu is not whole %llu-byte sectors",
				 (unsigned long long)bs->size[i],
				 (unsigned long long)sector);
		return -1;
	}
	return 0;
}

void wl_sched_init(struct wl_sched *s, uint64_t rate, enum wl_arrivals a)
{
	memset(s, 0, sizeof(*s));
	s->rate = rate;
	s->arrivals = a;
}

uint64_t wl_sched_next(struct wl_sched *s, struct rng *r)
{
	uint64_t due, gap;

	s->k++;
	if (s->arrivals == WL_FIXED) {
		due =
		    (uint64_t)((unsigned __int128)s->k * 1000000000u / s->rate);
	} else {
		/* -ln U for U in (0, 1]: exponential of mean 1. */
		double u = (double)((rng_next(r) >> 11) + 1) * 0x1p-53;

		s->t -= log(u) * (1e9 / (double)s->rate);
		due = (uint64_t)s->t;
	}
	gap = due - s->due;
	s->due = due;
	return gap;
}
