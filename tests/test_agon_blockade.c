/* Agon: a side with no legal move loses, so a search must see a blockade coming
 * (src/games/agon/rules.c, blockade).  Positions from seeded level-3 games where some
 * moves walk into a block and some do not: a move "walks into a block" when after it
 * the other side can leave it without a legal move at once.  A one-ply search sees that
 * only through the evaluation: before the blockade term it walked into 28 of 40 such
 * blocks, with it 11. */
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "engines/engine.h"
#include "games/registry.h"
#include "harness.h"

/* A block one ply past a one-ply search's horizon: the rules alone (the game's status
 * at the leaves) cannot show it, only an evaluation that sees the blockade coming. */
#define BLOCK_PLIES 1
#define SEARCH_DEPTH 1

/* Is `loser` (not to move in st) blocked: no legal move on its turn? */
static int blocked_now(const struct game *g, void *st)
{
    struct game_status gs;
    g->status(st, &gs);
    return gs.reason == REASON_BLOCKED;
}

/* The side to move in st can force the other (who just moved) to be blocked within
 * `plies` plies (1 or 3). */
static int can_block(const struct game *g, void *st, int plies)
{
    Move mv[256], rep[256];
    struct game_status gs;
    g->status(st, &gs);
    if (gs.result != RESULT_ONGOING)
        return 0;
    int n = g->gen_moves(st, mv), found = 0;
    for (int i = 0; i < n && !found; i++) {
        g->make_move(st, mv[i]);
        if (blocked_now(g, st)) {
            found = 1;
        } else if (plies >= 3) {
            g->status(st, &gs);
            int k = gs.result == RESULT_ONGOING ? g->gen_moves(st, rep) : 0, all = k > 0;
            for (int j = 0; j < k && all; j++) {
                g->make_move(st, rep[j]);
                all = can_block(g, st, plies - 2);
                g->unmake_move(st, rep[j]);
            }
            found = all;
        }
        g->unmake_move(st, mv[i]);
    }
    return found;
}

TEST(agon_search_sees_a_blockade_coming)
{
    const struct game *g = game_find("agon");
    void *st = game_state_new(g);
    struct rng r;
    rng_seed(&r, 29);
    int positions = 0, walked = 0;
    Move mv[256];
    for (int game = 0; game < 60 && positions < 40; game++) {
        g->start(st);
        struct game_status gs;
        for (int p = 0; p < 300 && positions < 40; p++) {
            g->status(st, &gs);
            int n = gs.result == RESULT_ONGOING ? g->gen_moves(st, mv) : 0;
            if (!n)
                break;
            /* a position where some moves walk into a block and some do not */
            int into = 0;
            for (int i = 0; i < n && p >= 30 && n <= 30; i++) {
                g->make_move(st, mv[i]);
                into += can_block(g, st, BLOCK_PLIES);
                g->unmake_move(st, mv[i]);
            }
            if (into > 0 && into < n) {
                positions++;
                struct engine_limits lim = {.depth = SEARCH_DEPTH};
                Move m = engine_think(g, st, 0, &lim, 1, NULL);
                g->make_move(st, m);
                walked += can_block(g, st, BLOCK_PLIES);
                g->unmake_move(st, m);
            }
            /* the game goes on by a seeded level-3 move: crowded, human-like boards */
            g->make_move(st, engine_think(g, st, 3, NULL, rng_next(&r), NULL));
        }
    }
    CHECK(positions == 40);
    CHECK_MSG(walked <= 16, "the one-ply search walked into %d blocks of %d", walked, positions);
    free(st);
}
