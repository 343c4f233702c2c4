/* Legal move generation and the bulk-counting perft.
 *
 * Moves are generated legal from the start, not filtered afterwards: the king avoids
 * attacked squares (tested with the king lifted off the board, so it cannot hide
 * behind itself), a check is answered only inside the check mask (the checker and the
 * squares between it and the king), and a pinned piece moves only along its pin line.
 * En passant, the one move that takes a piece from a square it does not land on, is
 * tested by looking at the king from the board after the capture (this catches the
 * horizontal pin of both pawns and the discovered check).
 *
 * One body, `generate`, writes moves, or only counts them (perft counts the leaves
 * with popcounts and never makes the last ply), or only asks whether there is one
 * (status: it stops at the first legal move, usually a king or knight move). */
#include "state.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

static ALWAYS_INLINE Bitboard shift_up(Bitboard b, int us)
{
    return us == SIDE_WHITE ? b << 8 : b >> 8;
}

/* Emit every move from `from` to the squares of `targets`. */
static ALWAYS_INLINE Move *emit(Move *out, int from, Bitboard targets)
{
    while (targets) {
        *out++ = MV_MAKE(from, chess_lsb(targets), MK_NORMAL);
        targets &= targets - 1;
    }
    return out;
}

/* Emit pawn moves to `targets`, each from the square `delta` behind it. */
static ALWAYS_INLINE Move *emit_pawns(Move *out, Bitboard targets, int delta)
{
    while (targets) {
        int to = chess_lsb(targets);
        *out++ = MV_MAKE(to - delta, to, MK_NORMAL);
        targets &= targets - 1;
    }
    return out;
}

static ALWAYS_INLINE Move *emit_promotions(Move *out, Bitboard targets, int delta)
{
    while (targets) {
        int to = chess_lsb(targets);
        for (int t = QUEEN; t >= KNIGHT; t--)
            *out++ = MV_MAKE_PROMO(to - delta, to, t);
        targets &= targets - 1;
    }
    return out;
}

/* Squares attacked by the enemy's pawns, knights and king: these do not depend on the
 * occupancy, so one set serves every king target; sliders are then asked per square. */
static ALWAYS_INLINE Bitboard leaper_attacks(const struct chess_pos *p, int them)
{
    Bitboard pawns = chess_pieces(p, them, PAWN);
    Bitboard att = them == SIDE_WHITE ? ((pawns & ~FILE_A) << 7) | ((pawns & ~FILE_H) << 9)
                                      : ((pawns & ~FILE_A) >> 9) | ((pawns & ~FILE_H) >> 7);
    att |= chess_king_att[chess_king_sq(p, them)];
    for (Bitboard n = chess_pieces(p, them, KNIGHT); n; n &= n - 1)
        att |= chess_knight_att[chess_lsb(n)];
    return att;
}

/* Is `sq` attacked by an enemy slider with the occupancy `occ`? */
static ALWAYS_INLINE int slider_attacked(int sq, Bitboard occ, Bitboard diag, Bitboard orth)
{
    return (diag && (chess_bishop_att(sq, occ) & diag)) ||
           (orth && (chess_rook_att(sq, occ) & orth));
}

/* GEN_NOISY writes only captures, en passant and promotions (the quiescence moves of
 * a side not in check). */
enum { GEN_MOVES, GEN_COUNT, GEN_ANY, GEN_NOISY };

static ALWAYS_INLINE int generate(const struct chess_pos *p, Move *moves, const int mode)
{
    const int count_only = mode == GEN_COUNT || mode == GEN_ANY;
    const int noisy = mode == GEN_NOISY;
    const int us = p->side, them = us ^ 1;
    const Bitboard occ = p->by_type[0], own = p->by_color[us], enemy = p->by_color[them];
    const int ksq = chess_king_sq(p, us);
    const Bitboard queens = p->by_type[QUEEN];
    const Bitboard diag = (p->by_type[BISHOP] | queens) & enemy;
    const Bitboard orth = (p->by_type[ROOK] | queens) & enemy;
    int count = 0;
    Move *out = moves;

    /* 1. King moves, each target tested with the king lifted (so that it cannot hide
     * behind itself from a slider). */
    const Bitboard leapers = leaper_attacks(p, them);
    Bitboard targets = chess_king_att[ksq] & (noisy ? enemy : ~own) & ~leapers;
    const Bitboard occ_noking = occ ^ BIT(ksq);
    while (targets) {
        int to = chess_lsb(targets);
        targets &= targets - 1;
        if (!slider_attacked(to, occ_noking, diag, orth)) {
            if (count_only)
                count++;
            else
                *out++ = MV_MAKE(ksq, to, MK_NORMAL);
        }
    }

    if (mode == GEN_ANY && count)
        return 1;

    /* 2. Checkers: two mean only the king may move. */
    const Bitboard checkers = chess_attackers(p, ksq, occ, them);
    Bitboard mask = ~own;
    if (checkers) {
        if (checkers & (checkers - 1))
            return count_only ? count : (int)(out - moves);
        mask = checkers | chess_between[ksq][chess_lsb(checkers)];
    }

    /* 3. Pins: enemy sliders that see the king through exactly one of our pieces. */
    Bitboard pinned = 0;
    Bitboard snipers = (chess_rook_att(ksq, enemy) & orth) | (chess_bishop_att(ksq, enemy) & diag);
    while (snipers) {
        int s = chess_lsb(snipers);
        snipers &= snipers - 1;
        Bitboard b = chess_between[ksq][s] & occ;
        if (b && !(b & (b - 1)) && (b & own))
            pinned |= b;
    }
    /* A pinned piece cannot answer a check: its line never crosses the check line. */
    const Bitboard movable = checkers ? own & ~pinned : own;
    const Bitboard pawn_mask = mask;
    if (noisy)
        mask &= enemy;

    /* 4. Knights (a pinned knight never moves), bishops, rooks and queens. */
    Bitboard pieces = p->by_type[KNIGHT] & own & ~pinned;
    while (pieces) {
        int from = chess_lsb(pieces);
        pieces &= pieces - 1;
        Bitboard t = chess_knight_att[from] & mask;
        if (count_only)
            count += chess_popcount(t);
        else
            out = emit(out, from, t);
    }
    if (mode == GEN_ANY && count)
        return 1;
    pieces = (p->by_type[BISHOP] | queens) & movable;
    while (pieces) {
        int from = chess_lsb(pieces);
        pieces &= pieces - 1;
        Bitboard t = chess_bishop_att(from, occ) & mask;
        if (BIT(from) & pinned)
            t &= chess_line[ksq][from];
        if (count_only)
            count += chess_popcount(t);
        else
            out = emit(out, from, t);
    }
    pieces = (p->by_type[ROOK] | queens) & movable;
    while (pieces) {
        int from = chess_lsb(pieces);
        pieces &= pieces - 1;
        Bitboard t = chess_rook_att(from, occ) & mask;
        if (BIT(from) & pinned)
            t &= chess_line[ksq][from];
        if (count_only)
            count += chess_popcount(t);
        else
            out = emit(out, from, t);
    }

    if (mode == GEN_ANY && count)
        return 1;

    /* 5. Pawns: the free ones set-wise; pinned ones one by one along their line. */
    const Bitboard pawns = p->by_type[PAWN] & movable;
    const Bitboard last = us == SIDE_WHITE ? RANK_8 : RANK_1;
    const Bitboard third = us == SIDE_WHITE ? RANK_3 : RANK_6;
    const int up = us == SIDE_WHITE ? 8 : -8;
    const int left = us == SIDE_WHITE ? 7 : -9, right = us == SIDE_WHITE ? 9 : -7;
    Bitboard free_pawns = pawns & ~pinned;
    Bitboard single = shift_up(free_pawns, us) & ~occ;
    Bitboard dbl = noisy ? 0 : shift_up(single & third, us) & ~occ & pawn_mask;
    single &= noisy ? pawn_mask & last : pawn_mask;
    Bitboard cap_l = shift_up(free_pawns & ~FILE_A, us);
    cap_l = (cap_l >> 1) & enemy & pawn_mask;
    Bitboard cap_r = shift_up(free_pawns & ~FILE_H, us);
    cap_r = (cap_r << 1) & enemy & pawn_mask;
    if (count_only) {
        count += chess_popcount(single & ~last) + chess_popcount(dbl) +
                 chess_popcount(cap_l & ~last) + chess_popcount(cap_r & ~last) +
                 4 * (chess_popcount(single & last) + chess_popcount(cap_l & last) +
                      chess_popcount(cap_r & last));
    } else {
        out = emit_pawns(out, single & ~last, up);
        out = emit_pawns(out, dbl, 2 * up);
        out = emit_pawns(out, cap_l & ~last, left);
        out = emit_pawns(out, cap_r & ~last, right);
        out = emit_promotions(out, single & last, up);
        out = emit_promotions(out, cap_l & last, left);
        out = emit_promotions(out, cap_r & last, right);
    }
    Bitboard pinned_pawns = pawns & pinned;
    while (pinned_pawns) {
        int from = chess_lsb(pinned_pawns);
        pinned_pawns &= pinned_pawns - 1;
        Bitboard b = BIT(from);
        Bitboard push = shift_up(b, us) & ~occ;
        Bitboard t =
            push | (shift_up(push & third, us) & ~occ) | (chess_pawn_att[us][from] & enemy);
        t &= pawn_mask & chess_line[ksq][from];
        if (noisy)
            t &= enemy | last;
        if (count_only) {
            count += chess_popcount(t & ~last) + 4 * chess_popcount(t & last);
        } else {
            while (t) {
                int to = chess_lsb(t);
                t &= t - 1;
                if (BIT(to) & last)
                    for (int pt = QUEEN; pt >= KNIGHT; pt--)
                        *out++ = MV_MAKE_PROMO(from, to, pt);
                else
                    *out++ = MV_MAKE(from, to, MK_NORMAL);
            }
        }
    }

    /* 6. En passant: judged on the board after the capture. */
    if (p->ep != SQ_NONE) {
        const int victim = p->ep - up;
        Bitboard cap = chess_pawn_att[them][p->ep] & p->by_type[PAWN] & own;
        while (cap) {
            int from = chess_lsb(cap);
            cap &= cap - 1;
            Bitboard after = (occ ^ BIT(from) ^ BIT(victim)) | BIT(p->ep);
            if (chess_attackers(p, ksq, after, them) & ~BIT(victim))
                continue;
            if (count_only)
                count++;
            else
                *out++ = MV_MAKE(from, p->ep, MK_EN_PASSANT);
        }
    }

    /* 7. Castling: not in check, the path empty, the king's squares not attacked. */
    if (!noisy && !checkers &&
        (p->castle & (us == SIDE_WHITE ? CASTLE_WK | CASTLE_WQ : CASTLE_BK | CASTLE_BQ))) {
        const int base = us == SIDE_WHITE ? 0 : 56;
        const int king_side = us == SIDE_WHITE ? CASTLE_WK : CASTLE_BK;
        const int queen_side = us == SIDE_WHITE ? CASTLE_WQ : CASTLE_BQ;
        if ((p->castle & king_side) && !(occ & (BIT(base + 5) | BIT(base + 6))) &&
            !(leapers & (BIT(base + 5) | BIT(base + 6))) &&
            !slider_attacked(base + 5, occ, diag, orth) &&
            !slider_attacked(base + 6, occ, diag, orth)) {
            if (count_only)
                count++;
            else
                *out++ = MV_MAKE(base + 4, base + 6, MK_CASTLING);
        }
        if ((p->castle & queen_side) && !(occ & (BIT(base + 1) | BIT(base + 2) | BIT(base + 3))) &&
            !(leapers & (BIT(base + 3) | BIT(base + 2))) &&
            !slider_attacked(base + 3, occ, diag, orth) &&
            !slider_attacked(base + 2, occ, diag, orth)) {
            if (count_only)
                count++;
            else
                *out++ = MV_MAKE(base + 4, base + 2, MK_CASTLING);
        }
    }
    return count_only ? count : (int)(out - moves);
}

int chess_gen_legal(const struct chess_pos *p, Move *moves)
{
    return generate(p, moves, GEN_MOVES);
}

int chess_count_legal(const struct chess_pos *p)
{
    return generate(p, NULL, GEN_COUNT);
}

int chess_gen_noisy(const struct chess_pos *p, Move *moves)
{
    return generate(p, moves, GEN_NOISY);
}

bool chess_has_legal_move(const struct chess_pos *p)
{
    return generate(p, NULL, GEN_ANY) != 0;
}

static uint64_t perft_rec(struct chess_pos *p, int depth)
{
    Move moves[CHESS_MAX_MOVES];
    int n = chess_gen_legal(p, moves);
    uint64_t total = 0;
    struct chess_undo u;
    if (depth == 2) {
        for (int i = 0; i < n; i++) {
            chess_pos_make(p, moves[i], &u);
            total += (uint64_t)chess_count_legal(p);
            chess_pos_unmake(p, moves[i], &u);
        }
        return total;
    }
    for (int i = 0; i < n; i++) {
        chess_pos_make(p, moves[i], &u);
        total += perft_rec(p, depth - 1);
        chess_pos_unmake(p, moves[i], &u);
    }
    return total;
}

uint64_t chess_perft_pos(struct chess_pos *p, int depth)
{
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return (uint64_t)chess_count_legal(p);
    return perft_rec(p, depth);
}
