/* The refinements of the generic alpha-beta (alphabeta.c) that a game's engine profile
 * turns on (SEARCH_* in search_types.h): the late-move reduction table, the reverse
 * futility margin and the aspiration window.  Knows no game. */
#pragma once

#include <stdint.h>

#include "search_types.h"

#define AB_LMR_SIZE 64

/* Reductions by depth and move number (both clamped to the table). */
struct ab_lmr {
    uint8_t r[AB_LMR_SIZE][AB_LMR_SIZE];
};

/* Fill the table: about log(depth) x log(move number) / 2, none for the first moves. */
void ab_lmr_init(struct ab_lmr *t);

/* The reduction of the i-th move (0-based) at `depth` under SEARCH_LMR_TABLE: the table's,
 * one more off the principal variation, one less for a move whose history is good (in
 * the upper half of its range), never so deep that the search drops into quiescence. */
int ab_lmr_reduction(const struct ab_lmr *t, int depth, int i, int pv, int good_history);

/* SEARCH_RFP: the plies from the horizon it applies at, and the margin a ply. */
#define AB_RFP_DEPTH 3
static inline Score ab_rfp_margin(int depth)
{
    return (Score)(90 * depth);
}

/* SEARCH_ASPIRATION: from this depth, a window of +-AB_ASP_DELTA around the last score,
 * widened fourfold on each failure, the full window past AB_ASP_MAX. */
#define AB_ASP_DEPTH 4
#define AB_ASP_DELTA 30
#define AB_ASP_MAX 1000
