/* Endgame scaling: material that cannot win, or wins only rarely, shrinks the endgame
 * part of the evaluation towards a draw. */
#include "eval_internal.h"

/* Non-pawn material in minor-piece units: knight and bishop 3, rook 5, queen 9. */
static int minor_units(const struct chess_pos *p, int color)
{
    return 3 * chess_popcount(chess_pieces(p, color, KNIGHT) | chess_pieces(p, color, BISHOP)) +
           5 * chess_popcount(chess_pieces(p, color, ROOK)) +
           9 * chess_popcount(chess_pieces(p, color, QUEEN));
}

static bool opposite_bishops_only(const struct chess_pos *p)
{
    Bitboard wb = chess_pieces(p, SIDE_WHITE, BISHOP), bb = chess_pieces(p, SIDE_BLACK, BISHOP);
    Bitboard others = p->by_type[KNIGHT] | p->by_type[ROOK] | p->by_type[QUEEN];
    if (others || chess_popcount(wb) != 1 || chess_popcount(bb) != 1)
        return false;
    return !(wb & LIGHT_SQUARES) != !(bb & LIGHT_SQUARES);
}

int eval_scale(const struct chess_pos *p, int strong)
{
    int weak = strong ^ 1;
    int strong_units = minor_units(p, strong), weak_units = minor_units(p, weak);
    int strong_pawns = chess_popcount(chess_pieces(p, strong, PAWN));
    if (strong_pawns == 0) {
        if (strong_units < 5)
            return 0; /* a lone minor (or nothing) cannot mate */
        if (strong_units == 6 && !chess_pieces(p, strong, BISHOP) &&
            !chess_pieces(p, strong, ROOK) && !chess_pieces(p, strong, QUEEN))
            return 4; /* two knights */
        if (strong_units - weak_units <= 3)
            return 8; /* KR v KB, KR v KN, KRB v KR, ... */
    }
    if (opposite_bishops_only(p)) {
        int diff = strong_pawns - chess_popcount(chess_pieces(p, weak, PAWN));
        return diff <= 1 ? 22 : 34;
    }
    if (strong_pawns == 1 && strong_units <= weak_units + 3 && weak_units > 0)
        return 40; /* one pawn against a piece that may give itself for it */
    return CHESS_EVAL_SCALE_FULL;
}
