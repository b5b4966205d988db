/*
 * rng: the run's seeded random numbers (xoshiro256**, seeded through
 * splitmix64). One seed (-z) makes every random choice of a run
 * reproducible: data content now, seek offsets and file names later.
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
/* A seed nobody chose: time, pid and the address space mixed. */
uint64_t rng_fresh_seed(void);

#endif
