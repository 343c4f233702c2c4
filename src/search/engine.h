/* The engine API: what the CLI (play, match, uci) and the server call to get a
 * computer move for any registered game.  src/search implements it over the game
 * interface (alpha-beta and MCTS), with levels 1..8 mapped onto search limits.
 *
 * engine_think searches a copy of nothing: it makes and unmakes moves on `st` and
 * returns it unchanged.  It never returns an illegal move, and returns 0 (no move)
 * only when the game is over. */
#pragma once

#include <stdatomic.h>

#include "core/game.h"

#define ENGINE_LEVEL_MIN 1
#define ENGINE_LEVEL_MAX 8

struct engine_limits {
    int depth;           /* 0: no depth limit */
    uint64_t nodes;      /* 0: no node limit */
    int64_t movetime_ms; /* 0: none; otherwise a hard cap on this move */
    /* A clock (0 when not playing on a clock), by side. */
    int64_t time_ms[2], inc_ms[2];
    int movestogo;
    /* Set to non-zero by another thread to stop the search soon. */
    const atomic_int *stop;
};

struct engine_result {
    Move best;
    Score score; /* side to move's view */
    int depth;
    uint64_t nodes;
    int64_t time_ms;
};

/* Think at `level` (1..8; 0 means: full strength within `limits` alone).  `limits`
 * may tighten the level's own limits (e.g. the server's per-move time cap) and may
 * be NULL.  The seed makes the low levels' deliberate mistakes reproducible. */
Move engine_think(const struct game *g, void *st, int level, const struct engine_limits *limits,
                  uint64_t seed, struct engine_result *out);
