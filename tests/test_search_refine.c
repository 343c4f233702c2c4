/* Alpha-beta's refinements (SEARCH_* in search/search_types.h, search/ab_refine.c): each
 * alone and all together still find the forced wins at their exact distance, never play
 * an illegal move or leave the state changed, and the beginners' levels ignore them. */
#include <stdlib.h>

#include "core/rng.h"
#include "engines/engine.h"
#include "games/registry.h"
#include "harness.h"
#include "search/ab_refine.h"

static const unsigned feature_sets[] = {
    SEARCH_LMR_TABLE, SEARCH_COUNTER, SEARCH_ASPIRATION, SEARCH_RFP, SEARCH_FEATURES_ALL,
};
#define NSETS (sizeof feature_sets / sizeof feature_sets[0])

struct win_case {
    const char *game, *text;
    int plies;
};

/* Forced wins the brute-force judge of test_search.c proves (the same positions). */
static const struct win_case wins[] = {
    {"egara-guti", "5/3/3/B/2W/1B1/2W2 w 0", 1},
    {"egara-guti", "2W2/3/3/1/3/B1W/3WW w 7", 3},
    {"egara-guti", "5/B2/3/1/W2/1W1/WWW1W w 4", 3},
    {"egara-guti", "B1BBB/1B1/3/B/3/W2/5 b 11", 3},
    {"egara-guti", "3B1/3/3/B/3/2W/W1W2 w 2", 5},
    {"egara-guti", "5/B2/3/W/3/2W/3W1 w 5", 5},
    {"egara-guti", "BB1B1/BBB/3/B/3/W2/1W3 b 5", 5},
    {"agon", "qggggg/g6/8/9/4GG4/4GQG4/4G5/5G3/8/7/6 w", 1},
    {"agon", "qggggg/g6/8/9/4GG4/4GQG4/4G5/9/5G2/7/6 w", 3},
};

static void *parsed(const struct game *g, const char *text)
{
    void *st = game_state_new(g);
    char err[ERROR_TEXT_MAX];
    if (st && g->parse_position(st, text, err, sizeof err) != 0) {
        free(st);
        return NULL;
    }
    return st;
}

static Score search_with(const struct game *g, void *st, int depth, unsigned features, Move *m)
{
    struct engine_limits lim = {.depth = depth,
                                .nodes = 200000,
                                .algo = ENGINE_ALGO_ALPHABETA,
                                .features = SEARCH_FEATURES_SET | features};
    struct engine_result r;
    *m = engine_think(g, st, 0, &lim, 1, &r);
    return r.score;
}

TEST(search_refinements_find_wins)
{
    for (size_t i = 0; i < sizeof wins / sizeof wins[0]; i++) {
        const struct game *g = game_find(wins[i].game);
        if (!g)
            continue;
        void *st = parsed(g, wins[i].text);
        CHECK_MSG(st != NULL, "cannot parse %s", wins[i].text);
        if (!st)
            continue;
        int plies = wins[i].plies;
        for (size_t k = 0; k < NSETS; k++) {
            Move m;
            Score s = search_with(g, st, plies + 2, feature_sets[k], &m);
            CHECK_MSG(s == SCORE_WIN - plies, "%s, features %#x: score %d for a win in %d",
                      wins[i].text, feature_sets[k], s, plies);
            /* The plain search (proven by the brute-force judge elsewhere) agrees that the
             * move played leaves the opponent lost in plies - 1. */
            enum side us = g->side_to_move(st);
            g->make_move(st, m);
            if (plies == 1) {
                struct game_status gs;
                g->status(st, &gs);
                CHECK_MSG(gs.result == (us == SIDE_WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS),
                          "%s, features %#x: the move does not win at once", wins[i].text,
                          feature_sets[k]);
            } else {
                Move reply;
                Score after = search_with(g, st, plies + 1, 0, &reply);
                CHECK_MSG(after == -(SCORE_WIN - (plies - 1)),
                          "%s, features %#x: not a winning move (the reply scores %d)",
                          wins[i].text, feature_sets[k], after);
            }
            g->unmake_move(st, m);
        }
        free(st);
    }
}

/* Random positions of every alpha-beta game: each refinement set answers a legal move
 * and gives the state back as it was. */
TEST(search_refinements_legal_and_restoring)
{
    for (int gi = 0; game_registry[gi]; gi++) {
        const struct game *g = game_registry[gi];
        void *st = game_state_new(g);
        Move *mv = malloc(sizeof(Move) * (size_t)g->max_moves);
        struct rng r;
        rng_seed(&r, 2929);
        int positions = 0;
        for (int game = 0; positions < 150 && game < 50; game++) {
            g->start(st);
            for (int ply = 0; ply < 120 && positions < 150; ply++) {
                int n = game_legal_moves(g, st, mv);
                if (n == 0)
                    break;
                if (ply % 7 == 3) {
                    char before[POSITION_TEXT_MAX], after[POSITION_TEXT_MAX];
                    g->write_position(st, before, sizeof before);
                    Key key = g->key(st);
                    struct engine_limits lim = {.nodes = 3000,
                                                .algo = ENGINE_ALGO_ALPHABETA,
                                                .features = SEARCH_FEATURES_SET |
                                                            feature_sets[positions % NSETS]};
                    Move m = engine_think(g, st, 0, &lim, (uint64_t)positions, NULL);
                    positions++;
                    g->write_position(st, after, sizeof after);
                    CHECK_STR(after, before);
                    CHECK(g->key(st) == key);
                    int legal = 0;
                    for (int k = 0; k < n && !legal; k++)
                        legal = mv[k] == m;
                    CHECK_MSG(legal, "%s: illegal move at %s", g->name, before);
                    if (t__->failures)
                        break;
                }
                g->make_move(st, mv[rng_below(&r, (uint32_t)n)]);
            }
        }
        CHECK(positions >= 100);
        free(mv);
        free(st);
    }
}

/* The beginners' levels (plain in the profile) play the same whatever the profile's
 * refinements; a level that uses them plays as the profile's set asked explicitly. */
TEST(search_refinements_follow_the_levels)
{
    static const char *const games[] = {"egara-guti", "agon"};
    for (size_t gi = 0; gi < sizeof games / sizeof games[0]; gi++) {
        const struct game *g = game_find(games[gi]);
        if (!g)
            continue;
        const struct engine_profile *prof = engine_profile_of(g);
        void *st = game_state_new(g);
        Move *mv = malloc(sizeof(Move) * (size_t)g->max_moves);
        struct rng r;
        rng_seed(&r, 29);
        g->start(st);
        for (int ply = 0; ply < 24; ply++) {
            int n = game_legal_moves(g, st, mv);
            if (n == 0)
                break;
            for (int level = ENGINE_LEVEL_MIN; level <= 5; level++) {
                struct level_plan plan;
                engine_level_plan(prof, level, &plan);
                unsigned explicit_set = plan.plain ? 0 : prof->search_features;
                struct engine_limits by_profile = {.nodes = 2000};
                struct engine_limits by_hand = {.nodes = 2000,
                                                .features = SEARCH_FEATURES_SET | explicit_set};
                struct engine_result a, b;
                engine_think(g, st, level, &by_profile, 7, &a);
                engine_think(g, st, level, &by_hand, 7, &b);
                CHECK_MSG(a.best == b.best && a.score == b.score && a.nodes == b.nodes,
                          "%s level %d ply %d: %llu nodes by the profile, %llu by hand", g->name,
                          level, ply, (unsigned long long)a.nodes, (unsigned long long)b.nodes);
                if (level <= 4)
                    CHECK_MSG(plan.plain, "%s level %d: a beginner's level is not plain", g->name,
                              level);
            }
            g->make_move(st, mv[rng_below(&r, (uint32_t)n)]);
        }
        free(mv);
        free(st);
    }
}

/* The reduction table: none for the first moves or shallow depths, growing with both,
 * and never so deep that the reduced search starts below depth 1. */
TEST(search_refinements_lmr_table)
{
    struct ab_lmr t;
    ab_lmr_init(&t);
    CHECK(ab_lmr_reduction(&t, 3, 1, 1, 0) == 0);
    CHECK(ab_lmr_reduction(&t, 2, 40, 0, 0) == 0);
    for (int d = 3; d < 70; d++)
        for (int i = 1; i < 70; i++) {
            int r = ab_lmr_reduction(&t, d, i, 0, 0);
            CHECK(r >= 0 && r <= d - 2);
            CHECK(ab_lmr_reduction(&t, d, i, 1, 0) <= r);
            CHECK(ab_lmr_reduction(&t, d, i, 0, 1) <= r);
            if (d + 1 < 70)
                CHECK(ab_lmr_reduction(&t, d + 1, i, 0, 0) >= r);
            if (i + 1 < 70)
                CHECK(ab_lmr_reduction(&t, d, i + 1, 0, 0) >= r);
        }
    CHECK(ab_lmr_reduction(&t, 20, 30, 0, 0) >= 3);
}
