/* Agon's engine profile: alpha-beta (it beat MCTS, src/engines/NOTES.md), levels shaped
 * as Egara-guti's (egara_profile.c explains the shape).  3000 nodes searched no deeper than
 * level 4's fixed depth 4 (5 v 4 scored 54.5% in 200 games), so the node budgets
 * start higher.  Each row: algorithm, depth, nodes, time cap (ms), root noise
 * (centipawns), blunders (per mille of moves), book plies, plain (1: alpha-beta
 * without the profile's search_features, as the levels were measured before them). */
#include "games/agon/agon.h"
#include "profile.h"

#define AB ENGINE_ALGO_ALPHABETA

/* The levels' ratings on their own ladder (not UCI_Elo: no outside scale): each adjacent
 * pair played against each other at the levels' own budgets, level 1 anchored at 400,
 * rounded to 5 (scripts/level-ladder, src/engines/NOTES.md "The levels' own ladder"):
 * 100 games a pair, 67 for 7 v 6, 30 for 8 v 7; level 8's 95% bar from level 1 is +-180. */
static const int agon_level_elo[ENGINE_LEVEL_MAX] = {400, 595, 895, 1060, 1240, 1415, 1505, 1615};
extern const struct puzzle_rules agon_puzzle_rules; /* agon_puzzles.c */

const struct engine_profile agon_profile = {
    .game = &agon_game,
    .algo = AB,
    .bench_depth = 5,
    .levels =
        {
            {AB, 1, 0, 1000, 300, 350, 0, 1},
            {AB, 2, 0, 1000, 150, 250, 0, 1},
            {AB, 3, 0, 1000, 60, 200, 0, 1},
            {AB, 4, 0, 1000, 30, 100, 0, 1},
            {AB, 0, 15000, 1000, 0, 80, 0, 0},
            {AB, 0, 60000, 1000, 0, 55, 0, 0},
            {AB, 0, 250000, 1000, 0, 35, 0, 0},
            {AB, 0, 1000000, 2000, 0, 0, 0, 0},
        },
    .level_elo = agon_level_elo,
    .level_elo_own_scale = 1,
    .random_plies = 8,
    /* The win chance of a score: fitted by tools/winfit on 800 self-play games at mixed
     * levels 3-7 (146 197 positions scored at 5000 nodes): k 0.00478, 95% 0.00418-0.00544,
     * log-loss 0.641 against 0.693 for always 1/2 (src/engines/NOTES.md). */
    .win_k = 0.00478,
    /* An 80-ply review: 9 s of CPU here (2026-12, a shared 2-core machine: 14 s). */
    .review_nodes = 400000,
    .puzzles = &agon_puzzle_rules,
    /* Forced formations up to four moves deep (at most 40 000 tree nodes a depth limit,
     * a few ms): level 8 plays the shortest at once, the analysis board says "formation
     * in N". */
    .proof_plies = 7,
    .proof_nodes = 40000,
    .proof_word = "formation",
};
