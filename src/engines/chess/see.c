#include "see.h"

const int cs_see_value[7] = {0, 100, 320, 330, 500, 900, 20000};

/* The least valuable piece of `color` among `attackers`: its square, and its type in
 * *type; SQ_NONE when there is none. */
static int least_valuable(const struct chess_pos *p, Bitboard attackers, int color, int *type)
{
    Bitboard mine = attackers & p->by_color[color];
    for (int t = PAWN; t <= KING; t++) {
        Bitboard b = mine & p->by_type[t];
        if (b) {
            *type = t;
            return chess_lsb(b);
        }
    }
    return SQ_NONE;
}

static Bitboard all_attackers(const struct chess_pos *p, int sq, Bitboard occ)
{
    return ((chess_pawn_att[SIDE_BLACK][sq] & chess_pieces(p, SIDE_WHITE, PAWN)) |
            (chess_pawn_att[SIDE_WHITE][sq] & chess_pieces(p, SIDE_BLACK, PAWN)) |
            (chess_knight_att[sq] & p->by_type[KNIGHT]) | (chess_king_att[sq] & p->by_type[KING]) |
            (chess_bishop_att(sq, occ) & (p->by_type[BISHOP] | p->by_type[QUEEN])) |
            (chess_rook_att(sq, occ) & (p->by_type[ROOK] | p->by_type[QUEEN]))) &
           occ;
}

/* The sliders behind a capturer of `type` that see `to` once it has left (occ). */
static Bitboard xray_attackers(int to, Bitboard occ, int type, Bitboard diag, Bitboard orth)
{
    Bitboard more = 0;
    if (type == PAWN || type == BISHOP || type == QUEEN)
        more |= chess_bishop_att(to, occ) & diag;
    if (type == ROOK || type == QUEEN)
        more |= chess_rook_att(to, occ) & orth;
    return more;
}

int cs_see(const struct chess_pos *p, Move m)
{
    int from = MV_FROM(m), to = MV_TO(m), kind = MV_KIND(m);
    if (kind == MK_CASTLING)
        return 0;
    /* gain[d]: what the side making capture d has won if the exchange stops after it. */
    int gain[40], d = 0;
    int moved = PIECE_TYPE(p->board[from]);
    Bitboard occ = p->by_type[0] ^ BIT(from);
    if (kind == MK_EN_PASSANT) {
        gain[0] = cs_see_value[PAWN];
        occ ^= BIT(p->side == SIDE_WHITE ? to - 8 : to + 8);
    } else {
        gain[0] = cs_see_value[PIECE_TYPE(p->board[to])];
    }
    if (kind == MK_PROMOTION) {
        moved = MV_PROMO(m);
        gain[0] += cs_see_value[moved] - cs_see_value[PAWN];
    }
    occ |= BIT(to);
    const Bitboard diag = p->by_type[BISHOP] | p->by_type[QUEEN];
    const Bitboard orth = p->by_type[ROOK] | p->by_type[QUEEN];
    Bitboard attackers = all_attackers(p, to, occ) & ~BIT(to);
    int side = p->side ^ 1;
    /* `moved` stands on the target; each step the other side may take it. */
    while (d < 38) {
        int type = KING;
        int sq = least_valuable(p, attackers & occ, side, &type);
        if (sq == SQ_NONE)
            break;
        d++;
        gain[d] = cs_see_value[moved] - gain[d - 1];
        /* A king may take only if nothing defends the square. */
        if (type == KING && (attackers & occ & p->by_color[side ^ 1] & ~BIT(sq))) {
            d--;
            break;
        }
        occ ^= BIT(sq);
        attackers |= xray_attackers(to, occ, type, diag, orth);
        attackers &= occ;
        moved = type;
        side ^= 1;
    }
    /* Back from the end: each side takes only when taking is better than stopping. */
    while (d > 0) {
        if (-gain[d] < gain[d - 1])
            gain[d - 1] = -gain[d];
        d--;
    }
    return gain[0];
}

/* The threshold form walks the same exchange but keeps only whether the balance,
 * from the side making each capture, can still stay at or above the threshold: most
 * moves are decided after a step or two. */
int cs_see_ge(const struct chess_pos *p, Move m, int threshold)
{
    int from = MV_FROM(m), to = MV_TO(m), kind = MV_KIND(m);
    if (kind == MK_CASTLING)
        return threshold <= 0;
    int moved = PIECE_TYPE(p->board[from]);
    int victim =
        kind == MK_EN_PASSANT ? cs_see_value[PAWN] : cs_see_value[PIECE_TYPE(p->board[to])];
    if (kind == MK_PROMOTION) {
        moved = MV_PROMO(m);
        victim += cs_see_value[moved] - cs_see_value[PAWN];
    }
    /* swap: what the side to capture next must win back for the mover to miss the
     * threshold. */
    int swap = victim - threshold;
    if (swap < 0)
        return 0; /* even unanswered, the capture is not enough */
    swap = cs_see_value[moved] - swap;
    if (swap <= 0)
        return 1; /* even losing the mover, the threshold holds */
    Bitboard occ = (p->by_type[0] ^ BIT(from)) | BIT(to);
    if (kind == MK_EN_PASSANT)
        occ ^= BIT(p->side == SIDE_WHITE ? to - 8 : to + 8);
    const Bitboard diag = p->by_type[BISHOP] | p->by_type[QUEEN];
    const Bitboard orth = p->by_type[ROOK] | p->by_type[QUEEN];
    Bitboard attackers = all_attackers(p, to, occ);
    int side = p->side, res = 1;
    for (;;) {
        side ^= 1;
        attackers &= occ;
        if (!(attackers & p->by_color[side]))
            break;
        res ^= 1;
        int type = KING;
        int sq = least_valuable(p, attackers, side, &type);
        if (type == KING) /* it may take only if nothing defends the square */
            return (attackers & p->by_color[side ^ 1]) ? res ^ 1 : res;
        if ((swap = cs_see_value[type] - swap) < res)
            break;
        occ ^= BIT(sq);
        attackers |= xray_attackers(to, occ, type, diag, orth);
    }
    return res;
}
