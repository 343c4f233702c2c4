/* The levels of each game.  A game without its own row uses the default row until
 * it is measured.  Each row: algorithm, depth, nodes, time cap (ms), root noise
 * (centipawns), blunders (per mille of moves).
 *   levels 1-4  alpha-beta at a fixed shallow depth, with root noise that blurs
 *               judgement and frequent blunders a beginner can punish;
 *   levels 5-7  node budgets growing 4-5x a level, rarer blunders;
 *   level 8     the full search at about one second a move on the reference
 *               machine, no deliberate mistakes.
 * Why blunders: in a drawish game (Egara-guti between two solid searches is) more
 * nodes alone stop making a level stronger well before level 8, while a rate of
 * mistakes keeps every step measurable.  Every level has a time cap so a slow
 * machine still answers.  Chess levels also play their first plies from an opening
 * book when the caller has one (the server and `agora play` open Debian's): real
 * openings at every level and a different game each time, deeper at higher levels. */
#include <string.h>

#include "levels.h"

struct game_profile {
    const char *game;
    enum engine_algo algo; /* the stronger search for this game, by measurement */
    int bench_depth;
    struct level_plan levels[ENGINE_LEVEL_MAX];
};

#define AB ENGINE_ALGO_ALPHABETA
#define MC ENGINE_ALGO_MCTS
#define CS ENGINE_ALGO_CHESS

static const struct game_profile profiles[] = {
    {"egara-guti",
     AB,
     16,
     {
         {AB, 1, 0, 1000, 300, 350, 0},
         {AB, 2, 0, 1000, 150, 250, 0},
         {AB, 3, 0, 1000, 60, 200, 0},
         {AB, 5, 0, 1000, 30, 100, 0},
         {AB, 0, 3000, 1000, 0, 80, 0},
         {AB, 0, 20000, 1000, 0, 40, 0},
         {AB, 0, 100000, 1000, 0, 20, 0},
         {AB, 0, 1000000, 2000, 0, 0, 0},
     }},
    /* Agon: 3000 nodes searched no deeper than level 4's fixed depth 4 (5 v 4 scored
     * 54.5% in 200 games), so the node budgets start higher. */
    {"agon",
     AB,
     5,
     {
         {AB, 1, 0, 1000, 300, 350, 0},
         {AB, 2, 0, 1000, 150, 250, 0},
         {AB, 3, 0, 1000, 60, 200, 0},
         {AB, 4, 0, 1000, 30, 100, 0},
         {AB, 0, 15000, 1000, 0, 80, 0},
         {AB, 0, 60000, 1000, 0, 55, 0},
         {AB, 0, 250000, 1000, 0, 35, 0},
         {AB, 0, 1000000, 2000, 0, 0, 0},
     }},
    /* Chess: the dedicated chess search at every level (measured: src/search/NOTES.md,
     * "The ladder at the end of session 2").  Level 4's depth 4 is a few hundred nodes
     * and level 5's 3000 nodes about depth 8, so each step stays large. */
    {"chess",
     CS,
     12,
     {
         {CS, 1, 0, 1000, 300, 350, 6},
         {CS, 2, 0, 1000, 150, 250, 6},
         {CS, 3, 0, 1000, 60, 200, 8},
         {CS, 4, 0, 1000, 30, 100, 8},
         {CS, 0, 3000, 1000, 0, 80, 10},
         {CS, 0, 12000, 1000, 0, 55, 12},
         {CS, 0, 60000, 1000, 0, 35, 14},
         {CS, 0, 1000000, 2000, 0, 0, 16},
     }},
};

/* Games without their own row until it is measured: the same shape (alpha-beta
 * beat MCTS in both, see NOTES.md). */
static const struct game_profile default_profile = {NULL,
                                                    AB,
                                                    5,
                                                    {
                                                        {AB, 1, 0, 1000, 300, 350, 0},
                                                        {AB, 2, 0, 1000, 150, 250, 0},
                                                        {AB, 3, 0, 1000, 60, 200, 0},
                                                        {AB, 4, 0, 1000, 30, 100, 0},
                                                        {AB, 0, 3000, 1000, 0, 80, 0},
                                                        {AB, 0, 12000, 1000, 0, 55, 0},
                                                        {AB, 0, 60000, 1000, 0, 35, 0},
                                                        {AB, 0, 1000000, 2000, 0, 0, 0},
                                                    }};

static const struct game_profile *profile_of(const struct game *g)
{
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
        if (!strcmp(profiles[i].game, g->name))
            return &profiles[i];
    return &default_profile;
}

void levels_plan(const struct game *g, int level, struct level_plan *out)
{
    if (level < ENGINE_LEVEL_MIN)
        level = ENGINE_LEVEL_MIN;
    if (level > ENGINE_LEVEL_MAX)
        level = ENGINE_LEVEL_MAX;
    *out = profile_of(g)->levels[level - 1];
}

enum engine_algo engine_game_algo(const struct game *g)
{
    return profile_of(g)->algo;
}

int engine_bench_depth(const struct game *g)
{
    return profile_of(g)->bench_depth;
}

const char *engine_algo_name(enum engine_algo a)
{
    switch (a) {
    case ENGINE_ALGO_AUTO: return "auto";
    case ENGINE_ALGO_ALPHABETA: return "alphabeta";
    case ENGINE_ALGO_MCTS: return "mcts";
    case ENGINE_ALGO_CHESS: return "chess";
    }
    return "?";
}
