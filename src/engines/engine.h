/* The engine API: what the CLI (play, match, uci) and the server call to get a
 * computer move for any registered game.  The engine front (engine.c) merges a level
 * of the game's engine profile (profile.h) with the caller's limits and runs the
 * profile's search: alpha-beta or MCTS (src/search/) or the game's own.
 *
 * engine_think searches a copy of nothing: it makes and unmakes moves on `st` and
 * returns it unchanged.  It never returns an illegal move, and returns 0 (no move)
 * only when the game is over.
 *
 * Thread safety: nothing here has mutable global state.  engine_think may run on
 * many threads at once on different states; one `struct engine` serves one thread
 * at a time. */
#pragma once

#include "profile.h"
#include "search/search_types.h"

/* Think at `level` (1..8; 0 means: full strength within `limits` alone).  `limits`
 * may tighten the level's own limits (e.g. the server's per-move time cap) and may
 * be NULL.  The seed makes the low levels' deliberate mistakes reproducible. */
Move engine_think(const struct game *g, void *st, int level, const struct engine_limits *limits,
                  uint64_t seed, struct engine_result *out);

/* A persistent engine: its transposition table lives across moves of one game (UCI,
 * match).  NULL without memory. */
struct engine;
struct engine *engine_new(size_t hash_mb);
void engine_free(struct engine *e);
/* Forget everything learnt (a new game). */
void engine_clear(struct engine *e);
/* engine_think with this engine's table. */
Move engine_go(struct engine *e, const struct game *g, void *st, int level,
               const struct engine_limits *limits, uint64_t seed, struct engine_result *out);

/* A draw offer to the computer (playing `computer`): accepted when a short search
 * scores the position below ENGINE_DRAW_ACCEPT_BELOW centipawns for it.  Returns 1
 * to accept; 0 to decline, and always once the game is over. */
#define ENGINE_DRAW_ACCEPT_BELOW (-50)
int engine_accepts_draw(const struct game *g, void *st, enum side computer, uint64_t seed);
