/* perft: the number of leaves of the legal-move tree, the standard test of a move
 * generator.  Uses the game's own fast perft where it has one. */
#pragma once

#include "game.h"

uint64_t perft(const struct game *g, void *st, int depth);

/* The generic version over the interface (tests compare it with a game's own). */
uint64_t perft_generic(const struct game *g, void *st, int depth);
