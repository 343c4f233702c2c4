/* The searches over the game interface (alpha-beta, MCTS) and what every search
 * shares: the parameters the engine front (src/engines/engine.c) hands a search, the
 * result scores, root restriction and move picking.  A game's own search (its engine
 * profile's, e.g. src/engines/chess/) is written against this header too. */
#pragma once

#include "oracle.h"
#include "search_types.h"
#include "timeman.h"
#include "tt.h"

struct search_params {
    int depth;               /* alpha-beta: the last iteration (1..ENGINE_MAX_PLY - 1) */
    int noise;               /* centipawns of root noise: the low levels' deliberate mistakes */
    uint64_t seed;           /* for the noise and MCTS's playouts */
    int infinite;            /* keep searching until stopped, even after a proven result */
    int contempt;            /* centipawns a draw is worth less than 0 to the side to move at
                              * the root: a stronger side plays on instead of repeating */
    int multipv;             /* lines to report (0 or 1: one) */
    int threads;             /* search threads (0 or 1: one) */
    int mate;                /* stop once a mate in this many moves is found (0: no) */
    unsigned features;       /* alpha-beta's refinements, SEARCH_* (search_types.h) */
    const Move *searchmoves; /* the root moves to search (nsearchmoves > 0), else all */
    int nsearchmoves;
    int prove; /* a null window at prove_beta (engine_limits.prove) */
    Score prove_beta;
    void (*on_info)(void *ctx, const struct engine_info *info);
    void *info_ctx;
    /* Exact values from outside the search, asked at every node past the root
     * (alpha-beta; oracle.h), or NULL. */
    const struct search_oracle *oracle;
};

/* Both return a legal move of a game in progress (never 0 there) and fill `out`. */
Move ab_search(const struct game *g, void *st, const struct search_params *p,
               struct search_ctl *ctl, struct tt *tt, struct engine_result *out);
Move mcts_search(const struct game *g, void *st, const struct search_params *p,
                 struct search_ctl *ctl, struct engine_result *out);

/* The low levels' mistakes: each root move's exact score gets a seeded random
 * offset, and the best noisy score is played (alphabeta.c). */
Move search_noisy_choice(const Move *mv, const Score *sc, int n, int noise, uint64_t seed);

/* The score of a finished game for the side to move, `ply` plies from the root:
 * a win sooner is better, a loss later is better. */
static inline Score search_result_score(enum result r, enum side to_move, int ply)
{
    if (r == RESULT_DRAW)
        return 0;
    enum result mine = to_move == SIDE_WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
    return r == mine ? SCORE_WIN - ply : -(SCORE_WIN - ply);
}

/* A static score clamped below the win scores, so it is never taken for a proven
 * result. */
static inline Score search_clamp_static(Score s)
{
    if (s >= ENGINE_WIN_BOUND)
        return ENGINE_WIN_BOUND - 1;
    if (s <= -ENGINE_WIN_BOUND)
        return -ENGINE_WIN_BOUND + 1;
    return s;
}

/* The evaluation, clamped. */
static inline Score search_evaluate(const struct game *g, const void *st)
{
    return search_clamp_static(g->evaluate(st));
}

/* The principal variation from the table as move texts, moves checked legal. */
void search_pv_text(const struct game *g, void *st, const struct tt *tt, Move first, int max_len,
                    char *buf, size_t size);

/* Keep those of the root moves mv[0..n) that are among only[0..nonly), in order:
 * their count, or n (all kept) when nonly is 0 or none of them is there. */
static inline int search_restrict_root(Move *mv, int n, const Move *only, int nonly)
{
    int kept = 0;
    for (int i = 0; i < n && nonly > 0; i++)
        for (int k = 0; k < nonly; k++)
            if (mv[i] == only[k]) {
                Move m = mv[i];
                mv[i] = mv[kept];
                mv[kept++] = m;
                break;
            }
    return kept ? kept : n;
}

/* Selection sort step: bring the move with the highest key from [i, n) to index i
 * (moves and keys swap together) and return it. */
static inline Move search_pick(Move *mv, int32_t *key, int i, int n)
{
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (key[j] > key[best])
            best = j;
    Move m = mv[best];
    int32_t k = key[best];
    mv[best] = mv[i];
    key[best] = key[i];
    mv[i] = m;
    key[i] = k;
    return m;
}
