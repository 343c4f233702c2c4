/* The position: Zobrist keys, placing pieces, make and unmake, the consistency check. */
#include <stdio.h>
#include <stdlib.h>

#include "core/debug_check.h"
#include "core/error.h"
#include "state.h"

/* Polyglot's keys (polyglot.c), so a position's key is its Polyglot book key.
 * Polyglot's rule is kept for en passant: the file counts only when a capture there is
 * possible (here: legally possible, see chess_set_ep, which differs from Polyglot's
 * "a pawn stands beside" only when that pawn is pinned), and the turn key is applied
 * when White is to move. */
Key chess_zobrist[781];
static void init_castle_keep(void);

void chess_init(void)
{
    chess_init_tables();
    chess_layout_init();
    init_castle_keep();
    for (int i = 0; i < 781; i++)
        chess_zobrist[i] = chess_polyglot_random[i];
}

Key chess_castle_key(int castle)
{
    Key k = 0;
    for (int i = 0; i < 4; i++)
        if (castle & (1 << i))
            k ^= chess_zobrist[ZOBRIST_CASTLE + i];
    return k;
}

Key chess_compute_key(const struct chess_pos *p)
{
    Key k = 0;
    for (int sq = 0; sq < 64; sq++)
        if (p->board[sq])
            k ^= chess_zobrist_piece(p->board[sq], sq);
    k ^= chess_castle_key(p->castle);
    if (p->ep != SQ_NONE)
        k ^= chess_zobrist[ZOBRIST_EP + SQ_FILE(p->ep)];
    if (p->side == SIDE_WHITE)
        k ^= chess_zobrist[ZOBRIST_TURN];
    return k;
}

void chess_pos_clear(struct chess_pos *p)
{
    *p = (struct chess_pos){.ep = SQ_NONE, .fullmove = 1};
}

void chess_put(struct chess_pos *p, int pc, int sq)
{
    p->board[sq] = (uint8_t)pc;
    p->by_type[0] |= BIT(sq);
    p->by_type[PIECE_TYPE(pc)] |= BIT(sq);
    p->by_color[PIECE_COLOR(pc)] |= BIT(sq);
}

static inline void remove_piece(struct chess_pos *p, int sq)
{
    int pc = p->board[sq];
    p->board[sq] = EMPTY;
    p->by_type[0] ^= BIT(sq);
    p->by_type[PIECE_TYPE(pc)] ^= BIT(sq);
    p->by_color[PIECE_COLOR(pc)] ^= BIT(sq);
}

static inline void move_piece(struct chess_pos *p, int from, int to)
{
    int pc = p->board[from];
    Bitboard ft = BIT(from) | BIT(to);
    p->board[to] = (uint8_t)pc;
    p->board[from] = EMPTY;
    p->by_type[0] ^= ft;
    p->by_type[PIECE_TYPE(pc)] ^= ft;
    p->by_color[PIECE_COLOR(pc)] ^= ft;
}

void chess_set_ep(struct chess_pos *p, int sq)
{
    int us = p->side;
    int victim = us == SIDE_WHITE ? sq - 8 : sq + 8;
    Bitboard capturers = chess_pawn_att[us ^ 1][sq] & chess_pieces(p, us, PAWN);
    int ksq = chess_king_sq(p, us);
    while (capturers) {
        int from = chess_lsb(capturers);
        capturers &= capturers - 1;
        Bitboard occ = (p->by_type[0] ^ BIT(from) ^ BIT(victim)) | BIT(sq);
        Bitboard att = chess_attackers(p, ksq, occ, us ^ 1) & ~BIT(victim);
        if (!att) {
            p->ep = (uint8_t)sq;
            p->key ^= chess_zobrist[ZOBRIST_EP + SQ_FILE(sq)];
            return;
        }
    }
}

/* The castling rights that survive a move from or to each square. */
static uint8_t castle_keep[64];

static void init_castle_keep(void)
{
    for (int sq = 0; sq < 64; sq++)
        castle_keep[sq] = 15;
    castle_keep[0] &= (uint8_t)~CASTLE_WQ; /* a1 */
    castle_keep[7] &= (uint8_t)~CASTLE_WK; /* h1 */
    castle_keep[4] &= (uint8_t) ~(CASTLE_WK | CASTLE_WQ);
    castle_keep[56] &= (uint8_t)~CASTLE_BQ; /* a8 */
    castle_keep[63] &= (uint8_t)~CASTLE_BK; /* h8 */
    castle_keep[60] &= (uint8_t) ~(CASTLE_BK | CASTLE_BQ);
}

/* The debug consistency check (core/debug_check.h) of the position a make or unmake
 * leaves: the check of chess's game interface less the history's length, which
 * chess_make_move and chess_unmake_move keep in range themselves. */
#ifdef AGORA_DEBUG_CHECK
static void debug_check_pos(const struct chess_pos *p, const char *op, Move m)
{
    char err[ERROR_TEXT_MAX], text[MOVE_TEXT_MAX];
    if (chess_pos_check(p, err, sizeof err) == 0)
        return;
    chess_uci(m, text, sizeof text);
    debug_check_failed("chess", op, text, m, err);
}
#define DEBUG_CHECK_POS(p, op, m) debug_check_pos((p), (op), (m))
#else
#define DEBUG_CHECK_POS(p, op, m) ((void)0)
#endif

void chess_pos_make(struct chess_pos *p, Move m, struct chess_undo *u)
{
    int from = MV_FROM(m), to = MV_TO(m), kind = MV_KIND(m);
    int us = p->side, pc = p->board[from];
    Key k = p->key;
    u->key = k;
    u->move = (uint16_t)m;
    u->halfmove = p->halfmove;
    u->castle = p->castle;
    u->ep = p->ep;
    u->captured = p->board[to];

    if (p->ep != SQ_NONE) {
        k ^= chess_zobrist[ZOBRIST_EP + SQ_FILE(p->ep)];
        p->ep = SQ_NONE;
    }
    p->halfmove++;
    if (kind == MK_CASTLING) {
        int rank = SQ_RANK(from) * 8;
        int rfrom = to > from ? rank + 7 : rank, rto = to > from ? rank + 5 : rank + 3;
        int rook = PIECE(us, ROOK);
        move_piece(p, from, to);
        move_piece(p, rfrom, rto);
        k ^= chess_zobrist_piece(pc, from) ^ chess_zobrist_piece(pc, to) ^
             chess_zobrist_piece(rook, rfrom) ^ chess_zobrist_piece(rook, rto);
    } else {
        if (u->captured) {
            remove_piece(p, to);
            k ^= chess_zobrist_piece(u->captured, to);
            p->halfmove = 0;
        }
        move_piece(p, from, to);
        k ^= chess_zobrist_piece(pc, from) ^ chess_zobrist_piece(pc, to);
        if (PIECE_TYPE(pc) == PAWN) {
            p->halfmove = 0;
            if (kind == MK_PROMOTION) {
                int promo = PIECE(us, MV_PROMO(m));
                remove_piece(p, to);
                chess_put(p, promo, to);
                k ^= chess_zobrist_piece(pc, to) ^ chess_zobrist_piece(promo, to);
            } else if (kind == MK_EN_PASSANT) {
                int victim = us == SIDE_WHITE ? to - 8 : to + 8;
                k ^= chess_zobrist_piece(p->board[victim], victim);
                remove_piece(p, victim);
            }
        }
    }
    int castle = p->castle & castle_keep[from] & castle_keep[to];
    if (castle != p->castle) {
        k ^= chess_castle_key(p->castle ^ castle);
        p->castle = (uint8_t)castle;
    }
    p->side = (uint8_t)(us ^ 1);
    k ^= chess_zobrist[ZOBRIST_TURN];
    if (us == SIDE_BLACK)
        p->fullmove++;
    p->key = k;
    /* A double step leaves an en-passant right only if the enemy can use it. */
    if (PIECE_TYPE(pc) == PAWN && (to ^ from) == 16 &&
        (chess_pawn_att[us][(from + to) / 2] & chess_pieces(p, us ^ 1, PAWN)))
        chess_set_ep(p, (from + to) / 2);
    DEBUG_CHECK_POS(p, "make", m);
}

void chess_pos_unmake(struct chess_pos *p, Move m, const struct chess_undo *u)
{
    int from = MV_FROM(m), to = MV_TO(m), kind = MV_KIND(m);
    int us = p->side ^ 1;
    p->side = (uint8_t)us;
    if (us == SIDE_BLACK)
        p->fullmove--;
    if (kind == MK_CASTLING) {
        int rank = SQ_RANK(from) * 8;
        int rfrom = to > from ? rank + 7 : rank, rto = to > from ? rank + 5 : rank + 3;
        move_piece(p, to, from);
        move_piece(p, rto, rfrom);
    } else {
        if (kind == MK_PROMOTION) {
            remove_piece(p, to);
            chess_put(p, PIECE(us, PAWN), to);
        }
        move_piece(p, to, from);
        if (u->captured)
            chess_put(p, u->captured, to);
        else if (kind == MK_EN_PASSANT)
            chess_put(p, PIECE(us ^ 1, PAWN), us == SIDE_WHITE ? to - 8 : to + 8);
    }
    p->key = u->key;
    p->halfmove = u->halfmove;
    p->castle = u->castle;
    p->ep = u->ep;
    DEBUG_CHECK_POS(p, "unmake", m);
}

int chess_pos_check(const struct chess_pos *p, char *err, size_t err_size)
{
    struct chess_pos q;
    chess_pos_clear(&q);
    for (int sq = 0; sq < 64; sq++) {
        int pc = p->board[sq];
        if (!pc)
            continue;
        if (PIECE_TYPE(pc) < PAWN || PIECE_TYPE(pc) > KING || PIECE_COLOR(pc) > 1)
            return fail(err, err_size, "bad piece code %d on square %d", pc, sq);
        chess_put(&q, pc, sq);
    }
    for (int t = 0; t < 7; t++)
        if (q.by_type[t] != p->by_type[t])
            return fail(err, err_size, "piece-type bitboard %d disagrees with the board", t);
    for (int c = 0; c < 2; c++)
        if (q.by_color[c] != p->by_color[c])
            return fail(err, err_size, "colour bitboard %d disagrees with the board", c);
    for (int c = 0; c < 2; c++)
        if (chess_popcount(chess_pieces(p, c, KING)) != 1)
            return fail(err, err_size, "%s has %d kings", c ? "Black" : "White",
                        chess_popcount(chess_pieces(p, c, KING)));
    if (p->by_type[PAWN] & (RANK_1 | RANK_8))
        return fail(err, err_size, "a pawn stands on the first or last rank");
    if (p->side > 1)
        return fail(err, err_size, "bad side to move %d", p->side);
    int them = p->side ^ 1;
    if (chess_attackers(p, chess_king_sq(p, them), p->by_type[0], p->side))
        return fail(err, err_size, "the side not to move is in check");
    static const struct {
        int right, king, rook, color;
    } rights[4] = {
        {CASTLE_WK, 4, 7, 0}, {CASTLE_WQ, 4, 0, 0}, {CASTLE_BK, 60, 63, 1}, {CASTLE_BQ, 60, 56, 1}};
    if (p->castle > 15)
        return fail(err, err_size, "bad castling rights %d", p->castle);
    for (int i = 0; i < 4; i++)
        if ((p->castle & rights[i].right) &&
            (p->board[rights[i].king] != PIECE(rights[i].color, KING) ||
             p->board[rights[i].rook] != PIECE(rights[i].color, ROOK)))
            return fail(err, err_size, "castling right without king and rook at home");
    if (p->ep != SQ_NONE) {
        struct chess_pos e = *p;
        e.ep = SQ_NONE;
        int ep_rank = p->side == SIDE_WHITE ? 5 : 2;
        if (p->ep > 63 || SQ_RANK(p->ep) != ep_rank)
            return fail(err, err_size, "bad en-passant square %d", p->ep);
        int victim = p->side == SIDE_WHITE ? p->ep - 8 : p->ep + 8;
        if (p->board[victim] != PIECE(them, PAWN))
            return fail(err, err_size, "en-passant square without a pawn to take");
        e.key = 0;
        chess_set_ep(&e, p->ep);
        if (e.ep != p->ep)
            return fail(err, err_size, "en-passant square without a legal capture");
    }
    Key k = chess_compute_key(p);
    if (k != p->key)
        return fail(err, err_size, "incremental key %016llx, recomputed %016llx",
                    (unsigned long long)p->key, (unsigned long long)k);
    return 0;
}
