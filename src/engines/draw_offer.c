/* Whether the computer accepts a draw offered by its opponent: it searches the
 * position briefly and accepts only when it judges itself worse. */
#include "engine.h"

/* A short search: enough to see through a pending capture and cheap enough (about a
 * millisecond) for the server to run on the request's own thread. */
#define OFFER_NODES 3000
#define OFFER_MS 50

int engine_accepts_draw(const struct game *g, void *st, enum side computer, uint64_t seed)
{
    struct game_status gs;
    g->status(st, &gs);
    if (gs.result != RESULT_ONGOING)
        return 0;
    struct engine_limits lim = {.nodes = OFFER_NODES, .movetime_ms = OFFER_MS, .contempt = -1};
    struct engine_result r = {0};
    engine_think(g, st, 0, &lim, seed, &r);
    Score mine = g->side_to_move(st) == computer ? r.score : -r.score;
    return mine < ENGINE_DRAW_ACCEPT_BELOW;
}
