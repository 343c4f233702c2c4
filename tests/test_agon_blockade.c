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
#include "search/proof.h"

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

/* The proof search (search/proof.h) finds Agon's forced formations at their length:
 * one move, two moves (three plies) against every defence, and none where the
 * formation needs more moves than allowed. */
TEST(agon_proof_search_finds_formations)
{
    const struct game *g = game_find("agon");
    void *st = game_state_new(g);
    char err[256];
    static const struct {
        const char *position;
        int plies, limit;
    } cases[] = {
        {"qggggg/g6/8/9/4GG4/4GQG4/4G5/5G3/8/7/6 w", 1, 9},
        {"qggggg/g6/8/9/4GG4/4GQG4/4G5/9/5G2/7/6 w", 3, 9},
        {"qggggg/g6/8/9/4GG4/4GQG4/4G5/9/5G2/7/6 w", 0, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(g->parse_position(st, cases[i].position, err, sizeof err) == 0);
        struct proof_result r;
        CHECK(proof_search(g, st, cases[i].limit, 200000, &r) == 0);
        CHECK_MSG(r.proven == (cases[i].plies > 0) && r.plies == cases[i].plies,
                  "%s: proven %d in %d, want %d", cases[i].position, r.proven, r.plies,
                  cases[i].plies);
        if (!r.proven)
            continue;
        /* the first move keeps the proof one move shorter, or wins at once */
        g->make_move(st, r.first);
        struct game_status gs;
        g->status(st, &gs);
        if (cases[i].plies == 1)
            CHECK(gs.result == RESULT_WHITE_WINS);
        else
            CHECK(gs.result == RESULT_ONGOING);
        g->unmake_move(st, r.first);
    }
    free(st);
}

/* The proof search against alpha-beta on the last positions of seeded level-3 games:
 * where either finds a forced win within five plies, both find it, at the same length. */
TEST(agon_proof_search_agrees_with_alphabeta)
{
    const struct game *g = game_find("agon");
    void *st = game_state_new(g);
    struct rng r;
    rng_seed(&r, 41);
    int checked = 0, wins = 0;
    Move line[400];
    for (int game = 0; game < 12; game++) {
        g->start(st);
        int n = 0;
        for (struct game_status gs; n < 400; n++) {
            g->status(st, &gs);
            if (gs.result != RESULT_ONGOING)
                break;
            line[n] = engine_think(g, st, 3, NULL, rng_next(&r), NULL);
            g->make_move(st, line[n]);
        }
        /* back over the last ten plies */
        for (int k = 0; k < 10 && n > 0; k++) {
            g->unmake_move(st, line[--n]);
            struct proof_result pr;
            CHECK(proof_search(g, st, 5, 300000, &pr) == 0);
            struct engine_limits lim = {.depth = 6};
            struct engine_result er;
            engine_think(g, st, 0, &lim, 1, &er);
            int ab = er.score >= SCORE_WIN - 5 ? SCORE_WIN - er.score : 0;
            if (pr.nodes < 300000 || pr.proven)
                CHECK_MSG(ab == (pr.proven ? pr.plies : 0), "game %d ply %d: proof %d, search %d",
                          game, n, pr.proven ? pr.plies : 0, ab);
            wins += pr.proven;
            checked++;
        }
    }
    CHECK(checked == 120);
    CHECK(wins >= 10);
    free(st);
}

/* Level 8 plays a forced formation the proof search finds at once, the shortest: from
 * a formation in three plies, level 8 on both sides ends the game in three plies. */
TEST(agon_level8_forms_soonest)
{
    const struct game *g = game_find("agon");
    void *st = game_state_new(g);
    char err[256];
    CHECK(g->parse_position(st, "qggggg/g6/8/9/4GG4/4GQG4/4G5/9/5G2/7/6 w", err, sizeof err) == 0);
    struct engine_result er;
    Move m = engine_think(g, st, 8, NULL, 1, &er);
    CHECK_MSG(er.score == SCORE_WIN - 3, "score %d", er.score);
    int plies = 0;
    struct game_status gs;
    for (g->make_move(st, m), plies = 1; plies < 10; plies++) {
        g->status(st, &gs);
        if (gs.result != RESULT_ONGOING)
            break;
        g->make_move(st, engine_think(g, st, 8, NULL, 1, NULL));
    }
    g->status(st, &gs);
    CHECK(gs.result == RESULT_WHITE_WINS && plies == 3);
    free(st);
}
