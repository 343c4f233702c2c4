/* Pawn structure: doubled, isolated, backward and connected pawns, and passed pawns by
 * rank with their free path and the distances of both kings (endgame terms). */
#include "eval_internal.h"

static void pawns_of(const struct chess_pos *p, int us, struct eval_acc *a)
{
    int them = us ^ 1;
    Bitboard ours = chess_pieces(p, us, PAWN), theirs = chess_pieces(p, them, PAWN);
    Bitboard our_att = eval_pawn_attacks(ours, us), their_att = eval_pawn_attacks(theirs, them);
    int our_king = chess_king_sq(p, us), their_king = chess_king_sq(p, them);
    for (Bitboard b = ours; b; b &= b - 1) {
        int sq = chess_lsb(b), file = SQ_FILE(sq), rank = eval_rel_rank(sq, us);
        Bitboard adjacent = eval_adjacent_files(file);
        Bitboard stop = eval_forward(BIT(sq), us);
        if (eval_front(sq, them) & ours)
            eval_add(a, us, EW_PAWN_DOUBLED, 1);
        if (!(adjacent & ours)) {
            eval_add(a, us, EW_PAWN_ISOLATED, 1);
        } else if ((stop & their_att) && !(adjacent & ours & ~eval_front_span(sq, us))) {
            /* Every own pawn beside it stands ahead: none can come to its support. */
            eval_add(a, us, EW_PAWN_BACKWARD, 1);
        }
        Bitboard beside = ((BIT(sq) & ~FILE_A) >> 1) | ((BIT(sq) & ~FILE_H) << 1);
        if ((our_att & BIT(sq)) || (beside & ours))
            eval_add(a, us, EW_PAWN_CONNECTED + rank, 1);
        if (eval_front_span(sq, us) & theirs)
            continue;
        if (eval_front(sq, us) & ours)
            continue; /* the rear of doubled passers: the front one counts */
        eval_add(a, us, EW_PASSED + rank, 1);
        if (!(eval_front(sq, us) & p->by_type[0]))
            eval_add(a, us, EW_PASSED_FREE + rank, 1);
        int s = chess_lsb(stop); /* a passer is never on the last rank */
        int own = eval_distance(our_king, s), their = eval_distance(their_king, s);
        eval_add(a, us, EW_PASSED_KING_OWN + rank, own < 5 ? own : 5);
        eval_add(a, us, EW_PASSED_KING_THEIR + rank, their < 5 ? their : 5);
    }
}

void eval_pawns(const struct chess_pos *p, struct eval_acc *a)
{
    pawns_of(p, SIDE_WHITE, a);
    pawns_of(p, SIDE_BLACK, a);
}
