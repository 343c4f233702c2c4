/* Egara-guti positions as two point sets, for the endgame tables (src/tablebase/):
 * the points of the side to move and those of the other side.  Colours do not matter
 * to the rules (both sides move alike), so a position is the same for either colour
 * to move, and a table stores it once. */
#pragma once

#include <stdint.h>

/* No position has more legal moves (the game's own bound). */
#define EGARA_CHILDREN_MAX 256

/* A position after one legal move, seen from its new side to move: `own` is what was
 * the other side (less what the move captured), `other` the side that moved. */
struct egara_child {
    uint32_t own, other;
    int captured; /* pieces the move took: 0 for a step */
};

/* The children of the position (own to move, other waiting) by the game's own move
 * generation and make: compulsory captures and chains as the rules say.  Returns
 * their number (0: the side to move is blocked).  Both sets must be disjoint points
 * of the board; `own` not empty. */
int egara_children(uint32_t own, uint32_t other, struct egara_child *out);

/* The point sets of a state (struct game's opaque Egara-guti state): the side to
 * move's, the other side's, and the quiet count. */
void egara_position_sets(const void *st, uint32_t *own, uint32_t *other, int *quiet);
