/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rng: the run's seeded random numbers (xoshiro256**, seeded through
 * splitmix64). One seed (-z) makes every random choice of a run
 * reproducible: data content, seek offsets, file names and orders.
 */
#ifndef CLYDE_RNG_H
#define CLYDE_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n), without modulo bias; n > 0. */
uint64_t rng_below(struct rng *r, uint64_t n);
/*
 * A stateless hash of (seed, index): the same pair always gives the same
 * 64 random-looking bits. Lets the file tests derive a file's name, size
 * and directory from its index instead of storing them.
 */
uint64_t rng_hash(uint64_t seed, uint64_t index);
/* Shuffle perm[n] uniformly (Fisher-Yates). */
void rng_shuffle_u32(struct rng *r, uint32_t *perm, uint64_t n);
/* A seed nobody chose: time, pid and the address space mixed. */
uint64_t rng_fresh_seed(void);

#endif
