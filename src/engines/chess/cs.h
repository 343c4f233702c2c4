/* The chess search's shared declarations: one search thread's state, the state all
 * threads share, and the functions between the files of src/engines/chess.
 * Private to this folder; the chess profile (profile.c) sees only chess_search.h. */
#pragma once

#include <stdatomic.h>

#include "games/chess/chess_position.h"
#include "games/chess/eval.h"
#include "search/search.h"
#include "table.h"

#define CS_MAX_PLY ENGINE_MAX_PLY
#define CS_MAX_THREADS 64
#define CS_HISTORY_MAX 16384
/* Positions before the root that repetition detection can look back on. */
#define CS_ROOT_HISTORY 128

/* Correction history: how far searches found the static evaluation off, by side to
 * move and pawn structure, in 1/CS_CORRECTION_GRAIN centipawns within
 * +-CS_CORRECTION_LIMIT centipawns. */
#define CS_CORRECTION_SIZE 16384 /* a power of two */
#define CS_CORRECTION_GRAIN 16
#define CS_CORRECTION_LIMIT 128

/* A score no search returns: "no static evaluation" (in check). */
#define CS_NO_EVAL (-SCORE_INFINITE - 1)

/* One root move: its score in the last search of it (-SCORE_INFINITE when it was
 * only proven worse than the best), and its principal variation. */
struct cs_root_move {
    Move move;
    Score score, prev_score;
    int pv_len;
    Move pv[CS_MAX_PLY];
};

/* What every thread shares. */
struct cs_shared {
    struct cs_tt tt;
    struct search_ctl *ctl; /* polled by the main thread only */
    const struct search_params *params;
    atomic_int stop;
    _Atomic uint64_t helper_nodes; /* published by helpers in batches */
    uint64_t node_limit;
    int nthreads;
    int root_side;
    int contempt;
    /* The keys of positions before the root, oldest first (repetitions). */
    Key root_keys[CS_ROOT_HISTORY];
    int nroot_keys;
};

/* Per ply of the current line. */
struct cs_frame {
    Move move;       /* the move made from this ply (0: a null move) */
    int moved_piece; /* its piece, for the countermove table */
    Score eval;      /* static evaluation here, CS_NO_EVAL in check */
    Move killers[2];
    Move excluded; /* a move this ply's search leaves out (singular extension) */
    int pv_len;
    Move pv[CS_MAX_PLY];
};

/* One search thread. */
struct cs_thread {
    struct cs_shared *sh;
    int id; /* 0: the main thread, which keeps time and reports */
    struct chess_pos pos;
    uint64_t nodes, published;
    int seldepth, root_depth;
    /* Repetition keys: sh->root_keys, then this thread's line (keys[nroot + ply]). */
    Key keys[CS_ROOT_HISTORY + CS_MAX_PLY + 2];
    struct chess_undo undo[CS_MAX_PLY + 2];
    struct cs_frame frame[CS_MAX_PLY + 2];
    Move moves[CS_MAX_PLY + 2][CHESS_MAX_MOVES];
    int32_t order[CS_MAX_PLY + 2][CHESS_MAX_MOVES];
    int16_t history[2][64][64]; /* side, from, to */
    Move countermove[16][64];   /* previous moved piece, its target */
    /* Continuation history: how a quiet move (piece, target) fared after the move one
     * and two plies before it (piece, target): 16 * 64 * 16 * 64 entries. */
    int16_t *cont_hist;
    struct chess_pawn_table pawns; /* the evaluation's, this thread's own */
    int16_t correction[2][CS_CORRECTION_SIZE];
    struct cs_root_move *root; /* this thread's root moves */
    int nroot, pv_index;       /* multipv: lines before pv_index are done */
};

/* search.c */
Score cs_negamax(struct cs_thread *t, Score alpha, Score beta, int depth, int ply, int pv, int cut);
Score cs_qsearch(struct cs_thread *t, Score alpha, Score beta, int ply, int pv);
void cs_init_reductions(void);
/* The static evaluation of the thread's position, clamped below the win scores. */
Score cs_static_score(struct cs_thread *t);
static inline int cs_stop(const struct cs_thread *t)
{
    return atomic_load_explicit(&t->sh->stop, memory_order_relaxed);
}

/* order.c: scores the moves at a ply; picks the best remaining. */
#define CS_ORDER_TT 2000000000
#define CS_ORDER_GOOD_CAPTURE 1000000000
#define CS_ORDER_KILLER1 900000000
#define CS_ORDER_KILLER2 890000000
#define CS_ORDER_COUNTER 880000000
#define CS_ORDER_BAD_CAPTURE (-1000000000)
/* Keys for the moves [from, n) of a ply. */
void cs_order_moves(struct cs_thread *t, int ply, int from, int n, Move tt_move);
void cs_order_noisy(struct cs_thread *t, int ply, int n);
Move cs_pick(struct cs_thread *t, int ply, int i, int n, int *key);
int cs_is_quiet(const struct chess_pos *p, Move m);
void cs_reward_quiet(struct cs_thread *t, int ply, Move best, int depth, const Move *tried,
                     int ntried);
/* The history of a quiet move at a ply: its own, and after the last two moves. */
int cs_quiet_history(const struct cs_thread *t, int ply, Move m);
#define CS_CONT_ENTRIES (16 * 64 * 16 * 64)
