/* Shared by the evaluation's files (eval.c, eval_pawns.c, eval_endgame.c): the running
 * sums, and the bitboard helpers the terms are written with. */
#pragma once

#include "eval.h"
#include "eval_params.h"

/* The sums of one evaluation: middlegame and endgame per colour, the weights read and
 * the trace written (NULL when nobody asked for one). */
struct eval_acc {
    int mg[2], eg[2];
    const struct chess_eval_pair *w;
    struct chess_eval_trace *trace;
};

/* Term `index` occurs `n` times for `color`. */
static inline void eval_add(struct eval_acc *a, int color, int index, int n)
{
    a->mg[color] += a->w[index].mg * n;
    a->eg[color] += a->w[index].eg * n;
    if (a->trace)
        a->trace->coef[index] += color == SIDE_WHITE ? n : -n;
}

/* One square forward for `color` (north for White, south for Black). */
static inline Bitboard eval_forward(Bitboard b, int color)
{
    return color == SIDE_WHITE ? b << 8 : b >> 8;
}

/* Every square attacked by the pawns `b` of `color`. */
static inline Bitboard eval_pawn_attacks(Bitboard b, int color)
{
    Bitboard f = eval_forward(b, color);
    return ((f & ~FILE_A) >> 1) | ((f & ~FILE_H) << 1);
}

/* The rank of `sq` as `color` sees it: 0 its first rank, 7 its last. */
static inline int eval_rel_rank(int sq, int color)
{
    return color == SIDE_WHITE ? SQ_RANK(sq) : 7 - SQ_RANK(sq);
}

static inline Bitboard eval_file_mask(int file)
{
    return FILE_A << file;
}

static inline Bitboard eval_adjacent_files(int file)
{
    return (file > 0 ? FILE_A << (file - 1) : 0) | (file < 7 ? FILE_A << (file + 1) : 0);
}

/* The squares strictly in front of `sq` on its file, as `color` moves. */
static inline Bitboard eval_front(int sq, int color)
{
    Bitboard file = eval_file_mask(SQ_FILE(sq));
    int r = SQ_RANK(sq);
    Bitboard ahead = color == SIDE_WHITE ? (r == 7 ? 0 : ~0ULL << (8 * (r + 1)))
                                         : (r == 0 ? 0 : ~0ULL >> (8 * (8 - r)));
    return file & ahead;
}

/* The squares strictly in front of `sq` on its file and the two beside it. */
static inline Bitboard eval_front_span(int sq, int color)
{
    Bitboard f = eval_front(sq, color);
    return f | ((f & ~FILE_A) >> 1) | ((f & ~FILE_H) << 1);
}

static inline int eval_distance(int a, int b)
{
    int df = SQ_FILE(a) - SQ_FILE(b), dr = SQ_RANK(a) - SQ_RANK(b);
    df = df < 0 ? -df : df;
    dr = dr < 0 ? -dr : dr;
    return df > dr ? df : dr;
}

/* eval_pawns.c: pawn structure and passed pawns of both colours; `table` (may be
 * NULL) keeps the pawns-only terms for the default weights when no trace is taken. */
void eval_pawns(const struct chess_pos *p, struct eval_acc *a, struct chess_pawn_table *table);

/* eval_endgame.c: the factor 0..64 on the endgame part when `strong` is ahead. */
int eval_scale(const struct chess_pos *p, int strong);
