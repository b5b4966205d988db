/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rng: see rng.h. xoshiro256** is fast (a few ns a number), has a 2^256
 * period and passes BigCrush; splitmix64 spreads any 64-bit seed,
 * including 0, over its state.
 */
#include "config.h"

#include <time.h>
#include <unistd.h>

#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	/* Reject the top partial range so every value is equally likely. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;

	do
		x = rng_next(r);
	while (x >= limit);
	return x % n;
}

uint64_t rng_hash(uint64_t seed, uint64_t index)
{
	uint64_t x = seed ^ (index * 0xd1342543de82ef95ull);

	splitmix64(&x);
	return splitmix64(&x);
}

void rng_shuffle_u32(struct rng *r, uint32_t *perm, uint64_t n)
{
	for (uint64_t i = n; i > 1; i--) {
		uint64_t j = rng_below(r, i);
		uint32_t t = perm[i - 1];

		perm[i - 1] = perm[j];
		perm[j] = t;
	}
}

uint64_t rng_fresh_seed(void)
{
	struct timespec ts;
	uint64_t x;

	clock_gettime(CLOCK_REALTIME, &ts);
	x = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
	    ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)&ts;
	/* Keep it to 32 bits: bonnie++'s seed column holds such numbers. */
	return splitmix64(&x) & 0xffffffffu;
}
