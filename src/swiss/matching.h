/* Maximum-weight matching in a general graph (Edmonds' blossom algorithm with dual
 * variables, O(V^3)), over integer weights of any width: the Dutch pairing encodes its
 * criteria, one after another, as the digits of one long edge weight.
 *
 * A weight is `limbs` 64-bit words, least significant first, unsigned and below
 * 2^(64*limbs - 3) (the algorithm doubles it and keeps signed duals). */
#pragma once

#include <stddef.h>
#include <stdint.h>

struct swiss_matcher;

/* A graph of n vertices and room for max_edges edges with weights of `limbs` words;
 * NULL without memory. */
struct swiss_matcher *swiss_matcher_new(int n, int max_edges, int limbs);
void swiss_matcher_free(struct swiss_matcher *m);
/* Forget the edges (keeps n and limbs). */
void swiss_matcher_clear(struct swiss_matcher *m);
/* Add edge u-v (u != v) with weight w[0..limbs-1]; -1 when full. */
int swiss_matcher_add(struct swiss_matcher *m, int u, int v, const uint64_t *w);
/* Solve: mate[v] is v's partner or -1.  A maximum-weight matching (not necessarily of
 * maximum cardinality: give every edge a large common term for that).  0, or -1
 * without memory. */
int swiss_matcher_solve(struct swiss_matcher *m, int *mate);
/* After a solve: tight[k] = 1 for each edge k (in the order added) whose reduced cost
 * under the final duals is zero.  Every maximum-weight matching of the graph uses only
 * such edges (complementary slackness), so a finer order among the optimal matchings can
 * be solved on them alone.  0, or -1 without memory. */
int swiss_matcher_tight(struct swiss_matcher *m, unsigned char *tight);
