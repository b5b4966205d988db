/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workload: the draws (see workload.h; the options and the settings
 * text are workload_parse.c's).
 *
 * Zipf by rejection-inversion (W. Hörmann, G. Derflinger, "Rejection-
 * inversion to generate variates from monotone discrete distributions",
 * ACM TOMACS 6(3), 1996): the ranks k = 1..n, of weight h(k) = k^-theta,
 * are laid end to end as the areas under the curve h(x) from k - 1/2 to
 * k + 1/2, but for k = 1 whose area is set to h(1) itself. A uniform
 * point in the whole area is mapped back through the inverse of H, the
 * integral of h; it is kept when it falls within the area of h(k) (most
 * do, by the cheap test k - x <= s) and drawn again when not. Every rank
 * has exactly the chance h(k) / sum h, in a few operations whatever n,
 * with no table and no sum over the n ranks. fio draws by Gray et al.'s
 * closed form instead, exact for the first two ranks only.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "seek.h"
#include "workload.h"

/* The salt of the key that places zipf and pareto ranks. */
#define SALT_PLACE 0x706c616365ull

/* Uniform in [0, 1), 53 random bits. */
static double uniform(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

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

/* log1p(t) / t and expm1(t) / t, with their limit 1 at t = 0 (theta
 * 1: H is the logarithm) kept to full precision near it. */
static double log1p_over(double t)
{
	return fabs(t) > 1e-8 ? log1p(t) / t : 1.0 - t * (0.5 - t / 3.0);
}

static double expm1_over(double t)
{
	return fabs(t) > 1e-8 ? expm1(t) / t : 1.0 + t * 0.5 * (1.0 + t / 3.0);
}

/* h(x) = x^-theta; H(x) = (x^(1-theta) - 1) / (1 - theta), ln x at
 * theta 1; and H's inverse. */
static double zipf_h(double x, double theta)
{
	return exp(-theta * log(x));
}

static double zipf_H(double x, double theta)
{
	double l = log(x);

	return expm1_over((1.0 - theta) * l) * l;
}

static double zipf_H_inv(double y, double theta)
{
	double t = y * (1.0 - theta);

	/* Below -1 only by rounding, at the far end of the ranks. */
	if (t < -1.0)
		t = -1.0;
	return exp(log1p_over(t) * y);
}

static void zipf_init(struct wl_offsets *o, double theta)
{
	o->theta = theta;
	o->h_x1 = zipf_H(1.5, theta) - 1.0;
	o->h_n = zipf_H((double)o->n + 0.5, theta);
	o->s = 2.0 - zipf_H_inv(zipf_H(2.5, theta) - zipf_h(2.0, theta), theta);
}

/* A rank in [0, n), 0 the hottest. */
static uint64_t zipf_rank(const struct wl_offsets *o, struct rng *r)
{
	for (;;) {
		double u = o->h_n + uniform(r) * (o->h_x1 - o->h_n);
		double x = zipf_H_inv(u, o->theta);
		uint64_t k;

		/* !(x < ...) holds for an infinite x too. */
		if (!(x < (double)o->n + 0.5))
			k = o->n;
		else if (x < 1.5)
			k = 1;
		else
			k = (uint64_t)(x + 0.5);
		if ((double)k - x <= o->s ||
		    u >= zipf_H((double)k + 0.5, o->theta) -
			     zipf_h((double)k, o->theta))
			return k - 1;
	}
}

static uint64_t pareto_rank(const struct wl_offsets *o, struct rng *r)
{
	double x = (double)o->n * pow(uniform(r), o->exponent);

	/* n * U^p rounds up to n when U^p is within an ulp of 1. */
	return x < (double)o->n ? (uint64_t)x : o->n - 1;
}

/* Zone bounds over n blocks; -1 when a zone with operations to take
 * holds no block. */
static int zones_init(struct wl_offsets *o, const struct wl_dist *d, char *why,
		      size_t whylen)
{
	unsigned io = 0, size = 0;
	char pct[16];

	o->nzones = d->nzones;
	for (unsigned i = 0; i < d->nzones; i++) {
		o->zone_start[i] =
		    (uint64_t)((unsigned __int128)o->n * size / WL_WHOLE);
		size += d->zone_size[i];
		io += d->zone_io[i];
		o->zone_cum[i] = io;
	}
	o->zone_start[d->nzones] = o->n;
	for (unsigned i = 0; i < d->nzones; i++) {
		if (!d->zone_io[i] || o->zone_start[i + 1] > o->zone_start[i])
			continue;
		wl_fmt_pct(pct, sizeof(pct), d->zone_size[i]);
		if (why && whylen)
			snprintf(why, whylen,
				 "zone %u (%s%% of the file) holds none of "
				 "%llu blocks",
				 i + 1, pct, (unsigned long long)o->n);
		return -1;
	}
	return 0;
}

int wl_offsets_init(struct wl_offsets *o, const struct wl_dist *d,
		    uint64_t nblocks, uint64_t seed, char *why, size_t whylen)
{
	double param = (double)d->param / WL_PARAM_ONE;

	memset(o, 0, sizeof(*o));
	if (!nblocks || nblocks > WL_BLOCKS_MAX) {
		if (why && whylen)
			snprintf(why, whylen,
				 nblocks ? "more than 2^53 blocks"
					 : "no blocks to draw from");
		return -1;
	}
	o->kind = d->kind;
	o->n = nblocks;
	o->key = rng_hash(seed, SALT_PLACE);
	switch (d->kind) {
	case WL_ZIPF:
		zipf_init(o, param);
		break;
	case WL_PARETO:
		o->exponent = log(param) / log(1.0 - param);
		break;
	case WL_ZONED:
		return zones_init(o, d, why, whylen);
	case WL_UNIFORM:
		break;
	}
	return 0;
}

uint64_t wl_offsets_place(const struct wl_offsets *o, uint64_t rank)
{
	if (o->kind == WL_ZIPF || o->kind == WL_PARETO)
		return seek_perm(rank, o->n, o->key);
	return rank;
}

uint64_t wl_offsets_rank(const struct wl_offsets *o, struct rng *r)
{
	unsigned u, i;

	switch (o->kind) {
	case WL_ZIPF:
		return zipf_rank(o, r);
	case WL_PARETO:
		return pareto_rank(o, r);
	case WL_ZONED:
		/* The first zone whose running I/O share passes u. */
		u = (unsigned)rng_below(r, WL_WHOLE);
		for (i = 0; i + 1 < o->nzones && u >= o->zone_cum[i]; i++)
			;
		return o->zone_start[i] +
		       rng_below(r, o->zone_start[i + 1] - o->zone_start[i]);
	case WL_UNIFORM:
		break;
	}
	return rng_below(r, o->n);
}

uint64_t wl_offsets_draw(const struct wl_offsets *o, struct rng *r)
{
	return wl_offsets_place(o, wl_offsets_rank(o, r));
}

void wl_sched_init(struct wl_sched *s, uint64_t rate, enum wl_arrivals a)
{
	memset(s, 0, sizeof(*s));
	s->rate = rate;
	s->per = 1;
	s->arrivals = a;
}

void wl_sched_share(struct wl_sched *s, uint64_t per, uint64_t at)
{
	s->per = per ? per : 1;
	s->at = at % s->per;
}

uint64_t wl_sched_next(struct wl_sched *s, struct rng *r)
{
	uint64_t due, gap;

	s->k++;
	if (s->arrivals == WL_FIXED) {
		/* The whole rate's arrival (k - 1) * per + at + 1. */
		unsigned __int128 j =
		    (unsigned __int128)(s->k - 1) * s->per + s->at + 1;

		due = (uint64_t)(j * 1000000000u / s->rate);
	} else {
		/* -ln U for U in (0, 1]: exponential of mean 1. */
		double u = (double)((rng_next(r) >> 11) + 1) * 0x1p-53;

		s->t -= log(u) * (1e9 * (double)s->per / (double)s->rate);
		due = (uint64_t)s->t;
	}
	gap = due - s->due;
	s->due = due;
	return gap;
}
