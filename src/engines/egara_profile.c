/* Egara-guti's engine profile: alpha-beta (it beat MCTS, src/engines/NOTES.md).
 *
 * The levels, as in every game:
 *   levels 1-4  alpha-beta at a fixed shallow depth, with root noise that blurs
 *               judgement and frequent blunders a beginner can punish;
 *   levels 5-7  node budgets growing 4-5x a level, rarer blunders;
 *   level 8     the full search at about one second a move on the reference
 *               machine, no deliberate mistakes.
 * Why blunders: Egara-guti between two solid searches is drawish, and more nodes
 * alone stop making a level stronger well before level 8, while a rate of mistakes
 * keeps every step measurable.  Every level has a time cap so a slow machine still
 * answers.  Each row: algorithm, depth, nodes, time cap (ms), root noise
 * (centipawns), blunders (per mille of moves), book plies, plain (1: alpha-beta
 * without the profile's search_features: levels 1-4 play as they were measured). */
#include "egara_tablebase.h"
#include "games/egara/egara.h"
#include "profile.h"

#define AB ENGINE_ALGO_ALPHABETA

/* The levels' ratings on their own ladder (not UCI_Elo: no outside scale): each adjacent
 * pair played against each other at the levels' own budgets, level 1 anchored at 400,
 * rounded to 5 (scripts/level-ladder, src/engines/NOTES.md "The levels' own ladder"):
 * 100 games a pair, 40 for 8 v 7; level 8's 95% bar from level 1 is +-154. */
static const int egara_level_elo[ENGINE_LEVEL_MAX] = {400, 525, 610, 750, 860, 975, 1045, 1095};
extern const struct puzzle_rules egara_puzzle_rules; /* egara_puzzles.c */

const struct engine_profile egara_profile = {
    .game = &egara_game,
    .algo = AB,
    .bench_depth = 16,
    .levels =
        {
            {AB, 1, 0, 1000, 300, 350, 0, 1},
            {AB, 2, 0, 1000, 150, 250, 0, 1},
            {AB, 3, 0, 1000, 60, 200, 0, 1},
            {AB, 5, 0, 1000, 30, 100, 0, 1},
            {AB, 0, 3000, 1000, 0, 80, 0, 0},
            {AB, 0, 20000, 1000, 0, 40, 0, 0},
            {AB, 0, 100000, 1000, 0, 20, 0, 0},
            {AB, 0, 1000000, 2000, 0, 0, 0, 0},
        },
    .level_elo = egara_level_elo,
    .level_elo_own_scale = 1,
    .random_plies = 8,
    /* The win chance of a score: fitted by tools/winfit on 1200 self-play games at mixed
     * levels 3-7 (71 374 positions scored at 5000 nodes): k 0.00837, 95% 0.00769-0.00910,
     * log-loss 0.489 against 0.693 for always 1/2 (src/engines/NOTES.md). */
    .win_k = 0.00837,
    /* An 80-ply review: 8.5 s of CPU here (2026-12, a shared 2-core machine: 15 s). */
    .review_nodes = 800000,
    .puzzles = &egara_puzzle_rules,
    .tablebase_moves = egara_tablebase_moves,
    .tablebase_oracle = egara_tablebase_oracle,
    .tablebase_verdict = egara_tablebase_verdict,
    .tablebase_dir = egara_tablebase_dir,
};
