/* Levels 1..8 of every game as search limits, and each game's search profile. */
#pragma once

#include "engine.h"

/* One level: the search, its limits and its deliberate noise.  Node and depth limits
 * make a level play the same on any machine; the time cap only guards a slow one. */
struct level_plan {
    enum engine_algo algo;
    int depth;
    uint64_t nodes;
    int64_t movetime_ms;
    int noise;      /* centipawns of root noise */
    int blunder;    /* per mille of moves replaced by a random move that does not lose
                     * at once: the mistakes that decide games between solid players */
    int book_plies; /* plies played from an opening book when one is given (chess) */
};

void levels_plan(const struct game *g, int level, struct level_plan *out);
