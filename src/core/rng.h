/* A seeded, reproducible pseudo-random generator (xoshiro256**, seeded by
 * splitmix64): the same seed gives the same games on every machine. */
#pragma once

#include <stdint.h>

struct rng {
    uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint32_t rng_below(struct rng *r, uint32_t n);
