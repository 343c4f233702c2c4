/* A proof search over the game interface (proof.c): does the side to move force a win
 * (by the game's own status: Agon's formation, a block, ...) within a number of
 * plies?  Proof-number search on a tree kept in memory, with a depth limit: the limits
 * 1, 3, 5, ... are tried in turn, so the first proof found is a shortest forced win. */
#pragma once

#include <stdint.h>

#include "core/game.h"

struct proof_result {
    int proven;     /* 1: the side to move wins within `plies`, whatever the other does */
    int plies;      /* the length of the forced win (odd: the winner makes the last move) */
    Move first;     /* the move that starts it */
    uint64_t nodes; /* tree nodes made, all limits together */
};

/* Prove a forced win of the side to move of st (left unchanged) within max_plies plies,
 * making at most max_nodes tree nodes in all.  0 with *out (proven 0 when no proof was
 * found within the limits: not a proof that none exists), -1 without memory. */
int proof_search(const struct game *g, void *st, int max_plies, uint64_t max_nodes,
                 struct proof_result *out);
