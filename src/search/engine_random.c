/* PLACEHOLDER UNTIL THE SEARCH LANDS; REMOVED AT MERGE.
 *
 * A seeded random legal mover behind the engine API, so the server branch builds and
 * its tests run before the real search (another branch) is merged.  It honours the
 * contract of engine.h: never an illegal move, 0 only when the game is over, `st`
 * returned unchanged.  The integrator deletes this file when the real engine lands. */
#include <stdlib.h>

#include "core/rng.h"
#include "search/engine.h"

Move engine_think(const struct game *g, void *st, int level, const struct engine_limits *limits,
                  uint64_t seed, struct engine_result *out)
{
    (void)level;
    (void)limits;
    Move *moves = malloc(sizeof(Move) * (size_t)g->max_moves);
    Move best = 0;
    int n = moves ? game_legal_moves(g, st, moves) : 0;
    if (n > 0) {
        struct rng r;
        rng_seed(&r, seed ^ g->key(st));
        best = moves[rng_below(&r, (uint32_t)n)];
    }
    free(moves);
    if (out) {
        out->best = best;
        out->score = 0;
        out->depth = 0;
        out->nodes = (uint64_t)n;
        out->time_ms = 0;
    }
    return best;
}
