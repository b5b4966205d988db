/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seek: see seek.h. The permutation is a four-round Feistel network on
 * the smallest even number of bits that holds n, walked until it lands
 * below n (at most four tries on average): no table, any n.
 */
#include "config.h"

#include "rng.h"
#include "seek.h"

#define SALT_WRITE 0x7772697465ull

uint64_t seek_perm(uint64_t k, uint64_t n, uint64_t key)
{
	unsigned bits = 2, half;
	uint64_t mask, x = k;

	while (bits < 64 && (1ull << bits) < n)
		bits++;
	bits += bits & 1;
	half = bits / 2;
	mask = (1ull << half) - 1;
	do {
		uint64_t l = x >> half, r = x & mask;

		for (uint64_t round = 0; round < 4; round++) {
			uint64_t t = l ^ (rng_hash(key + round, r) & mask);

			l = r;
			r = t;
		}
		x = (l << half) | r;
	} while (x >= n);
	return x;
}

uint64_t seek_ticket(uint64_t seed, uint64_t k, uint64_t nchunks)
{
	/* Past nchunks seeks repeats cannot be avoided: a new order. */
	uint64_t key = seed ^ (k / nchunks) * 0x9e3779b97f4a7c15ull;
	uint64_t chunk = seek_perm(k % nchunks, nchunks, key);

	return chunk * 10 + rng_hash(seed ^ SALT_WRITE, k) % 10;
}
