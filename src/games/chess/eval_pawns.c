/* Pawn structure: doubled, isolated, backward and connected pawns, and passed pawns by
 * rank (terms of the pawns alone, kept in the search's pawn table), then each passer's
 * free path and the distances of both kings (endgame terms, scored every time). */
#include "eval_internal.h"

/* The terms of `us`'s pawns that depend on the pawns alone.  Returns the passers that
 * count: of doubled passers, the front one. */
static Bitboard structure_of(const struct chess_pos *p, int us, struct eval_acc *a)
{
    int them = us ^ 1;
    Bitboard ours = chess_pieces(p, us, PAWN), theirs = chess_pieces(p, them, PAWN);
    Bitboard our_att = eval_pawn_attacks(ours, us), their_att = eval_pawn_attacks(theirs, them);
    Bitboard passers = 0;
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
        if ((eval_front_span(sq, us) & theirs) || (eval_front(sq, us) & ours))
            continue;
        eval_add(a, us, EW_PASSED + rank, 1);
        passers |= BIT(sq);
    }
    return passers;
}

/* The terms of `us`'s passers that depend on the other pieces too. */
static void passers_of(const struct chess_pos *p, int us, Bitboard passers, struct eval_acc *a)
{
    int our_king = chess_king_sq(p, us), their_king = chess_king_sq(p, us ^ 1);
    for (; passers; passers &= passers - 1) {
        int sq = chess_lsb(passers), rank = eval_rel_rank(sq, us);
        if (!(eval_front(sq, us) & p->by_type[0]))
            eval_add(a, us, EW_PASSED_FREE + rank, 1);
        int s = chess_lsb(eval_forward(BIT(sq), us)); /* a passer is never on the last rank */
        int own = eval_distance(our_king, s), their = eval_distance(their_king, s);
        eval_add(a, us, EW_PASSED_KING_OWN + rank, own < 5 ? own : 5);
        eval_add(a, us, EW_PASSED_KING_THEIR + rank, their < 5 ? their : 5);
    }
}

Key chess_pawn_key(const struct chess_pos *p)
{
    Key w = chess_pieces(p, SIDE_WHITE, PAWN), b = chess_pieces(p, SIDE_BLACK, PAWN);
    Key bm = b * 0xc2b2ae3d27d4eb4fULL;
    Key k = w * 0x9e3779b97f4a7c15ULL ^ (bm << 31 | bm >> 33);
    k ^= k >> 29;
    k *= 0xbf58476d1ce4e5b9ULL;
    k ^= k >> 32;
    return k | 1;
}

void eval_pawns(const struct chess_pos *p, struct eval_acc *a, struct chess_pawn_table *table)
{
    Bitboard passers[2];
    if (!table || a->trace) {
        passers[SIDE_WHITE] = structure_of(p, SIDE_WHITE, a);
        passers[SIDE_BLACK] = structure_of(p, SIDE_BLACK, a);
    } else {
        Key key = chess_pawn_key(p);
        struct chess_pawn_entry *e = &table->entry[key & (CHESS_PAWN_TABLE_SIZE - 1)];
        if (e->key != key) {
            struct eval_acc fresh = {{0, 0}, {0, 0}, a->w, NULL};
            e->passers[SIDE_WHITE] = structure_of(p, SIDE_WHITE, &fresh);
            e->passers[SIDE_BLACK] = structure_of(p, SIDE_BLACK, &fresh);
            for (int c = 0; c < 2; c++) {
                e->mg[c] = fresh.mg[c];
                e->eg[c] = fresh.eg[c];
            }
            e->key = key;
        }
        for (int c = 0; c < 2; c++) {
            a->mg[c] += e->mg[c];
            a->eg[c] += e->eg[c];
            passers[c] = e->passers[c];
        }
    }
    passers_of(p, SIDE_WHITE, passers[SIDE_WHITE], a);
    passers_of(p, SIDE_BLACK, passers[SIDE_BLACK], a);
}
