/* The static evaluation of a chess position. */
#include "eval.h"

/* Material and a little centralisation; enough for random play and shallow search. */
int chess_eval(const struct chess_pos *p)
{
    static const int value[7] = {0, 100, 320, 330, 500, 900, 0};
    static const int centre[64] = {
        0, 1, 2, 3, 3, 2, 1, 0, 1, 3, 4, 5, 5, 4, 3, 1, 2, 4, 6, 7, 7, 6,
        4, 2, 3, 5, 7, 8, 8, 7, 5, 3, 3, 5, 7, 8, 8, 7, 5, 3, 2, 4, 6, 7,
        7, 6, 4, 2, 1, 3, 4, 5, 5, 4, 3, 1, 0, 1, 2, 3, 3, 2, 1, 0,
    };
    int score = 0;
    for (int sq = 0; sq < 64; sq++) {
        int pc = p->board[sq];
        if (!pc)
            continue;
        int t = PIECE_TYPE(pc);
        int v = value[t] + (t == KNIGHT || t == BISHOP ? 2 * centre[sq] : 0);
        if (t == PAWN)
            v += PIECE_COLOR(pc) == SIDE_WHITE ? 3 * (SQ_RANK(sq) - 1) : 3 * (6 - SQ_RANK(sq));
        score += PIECE_COLOR(pc) == SIDE_WHITE ? v : -v;
    }
    return (p->side == SIDE_WHITE ? score : -score);
}

