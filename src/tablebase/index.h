/* The numbering of the positions of one material signature of the Egara-guti tables.
 *
 * A signature (m, o) holds every position with m pieces of the side to move and o of
 * the other side, on the 23 points.  Its positions are numbered
 *
 *     index = rank(own) * C(23 - m, o) + rank(other squeezed into the 23 - m free points)
 *
 * where rank is the colexicographic rank of a k-subset (the sum of C(p_i, i + 1) over
 * its points p_0 < p_1 < ..., which is also the order of the subsets as numbers), and
 * "squeezed" renumbers the free points 0, 1, ... from the lowest.  Every pair of
 * disjoint sets of those sizes has exactly one index in [0, C(23, m) C(23 - m, o)). */
#pragma once

#include <stdint.h>

#define TB_POINTS 23

typedef uint64_t TbIndex;

/* C(n, k) for 0 <= n <= 23 (0 when k > n or k < 0). */
uint64_t tb_binomial(int n, int k);
/* Positions in signature (m, o). */
uint64_t tb_signature_size(int m, int o);
/* The index of (own, other) in its signature (their sizes). */
TbIndex tb_index(uint32_t own, uint32_t other);
/* The inverse: the position of `index` in signature (m, o). */
void tb_position(int m, int o, TbIndex index, uint32_t *own, uint32_t *other);

/* The colexicographic rank of a set of points, and the set of k points of rank r. */
uint64_t tb_subset_rank(uint32_t set);
uint32_t tb_subset_unrank(int k, uint64_t rank);
/* Point i of `mask` (bit i set) placed on the i-th lowest point of `free`. */
uint32_t tb_deposit(uint32_t mask, uint32_t free);
/* The inverse: the points of `set` (a subset of `free`) renumbered among `free`. */
uint32_t tb_squeeze(uint32_t set, uint32_t free);
