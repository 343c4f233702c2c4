/* The chess position, public: squares, bitboards, pieces, the move encoding, the
 * position (everything FEN says) with make/unmake, move generation, FEN and move
 * notation.  The chess engine (src/engines/chess/) and tools work on this directly;
 * the state with its history (state.h) stays private to this module. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"

typedef uint64_t Bitboard;

/* Squares: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
 *
 *   rank 8 | 56 57 58 59 60 61 62 63
 *   ...
 *   rank 1 |  0  1  2  3  4  5  6  7
 *             a  b  c  d  e  f  g  h      bit n of a Bitboard is square n
 */
#define SQ(file, rank) ((rank)*8 + (file))
#define SQ_FILE(sq) ((sq)&7)
#define SQ_RANK(sq) ((sq) >> 3)
#define SQ_NONE 64
#define BIT(sq) (1ULL << (sq))

#define RANK_1 0x00000000000000FFULL
#define RANK_3 0x0000000000FF0000ULL
#define RANK_6 0x0000FF0000000000ULL
#define RANK_8 0xFF00000000000000ULL
#define FILE_A 0x0101010101010101ULL
#define FILE_H 0x8080808080808080ULL
#define LIGHT_SQUARES 0x55AA55AA55AA55AAULL

/* Piece types 1..6; a piece is its type with the colour in bit 3:
 *
 *   bit 3    colour (0 White, 1 Black)
 *   bits 2..0 type: 1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king; 0 empty
 */
enum { PAWN = 1, KNIGHT, BISHOP, ROOK, QUEEN, KING };
#define PIECE(color, type) ((uint8_t)(((color) << 3) | (type)))
#define PIECE_TYPE(pc) ((pc)&7)
#define PIECE_COLOR(pc) ((pc) >> 3)
#define EMPTY 0

/* Castling rights, one bit each. */
enum { CASTLE_WK = 1, CASTLE_WQ = 2, CASTLE_BK = 4, CASTLE_BQ = 8 };

/* Move layout (the low 16 bits of a Move; the rest are zero):
 *
 *   15..14  promotion piece: 0 knight, 1 bishop, 2 rook, 3 queen (kind PROMOTION only)
 *   13..12  kind: 0 normal, 1 promotion, 2 en passant, 3 castling
 *   11..6   to square   (castling: the king's target, g1/c1/g8/c8, as UCI writes it)
 *    5..0   from square
 *
 * a1a1 (0) is never legal, so 0 keeps meaning "no move".
 */
#define MV_FROM(m) ((int)((m)&63))
#define MV_TO(m) ((int)(((m) >> 6) & 63))
#define MV_KIND(m) ((int)(((m) >> 12) & 3))
#define MV_PROMO(m) ((int)(((m) >> 14) & 3) + KNIGHT)
enum { MK_NORMAL = 0, MK_PROMOTION = 1, MK_EN_PASSANT = 2, MK_CASTLING = 3 };
#define MV_MAKE(from, to, kind) ((Move)((from) | ((to) << 6) | ((kind) << 12)))
#define MV_MAKE_PROMO(from, to, type)                                                              \
    ((Move)((from) | ((to) << 6) | (MK_PROMOTION << 12) | (((type)-KNIGHT) << 14)))

/* Legal moves never exceed 218 in any chess position. */
#define CHESS_MAX_MOVES 256
/* History policy: one state holds every legal game.  The seventy-five-move rule ends a
 * game within 8848.5 moves (17697 plies) from the start, and no position reached by a
 * FEN allows more; gen_moves ignores the history-based ends, so a caller that plays on
 * after status said the game is over must stop at CHESS_MAX_PLIES (make_move then
 * refuses to record and aborts: a programming error, never a result of input). */
#define CHESS_MAX_PLIES 18000

/* The board and the rights: everything FEN says.  Perft works on this alone. */
struct chess_pos {
    Bitboard by_type[7]; /* [0] every piece, [PAWN..KING] both colours */
    Bitboard by_color[2];
    uint8_t board[64]; /* a piece or EMPTY */
    uint8_t side;      /* to move: SIDE_WHITE or SIDE_BLACK */
    uint8_t castle;    /* CASTLE_* bits */
    uint8_t ep;        /* en-passant target square, or SQ_NONE; set only when a legal
                          en-passant capture exists (so equal positions have equal keys) */
    uint16_t halfmove; /* plies since the last capture or pawn move */
    uint16_t fullmove;
    Key key;
};

/* What unmake needs that the move does not say. */
struct chess_undo {
    Key key;
    uint16_t move;
    uint16_t halfmove;
    uint8_t captured;
    uint8_t castle;
    uint8_t ep;
};

/* bitboard.c: attack tables, built by chess_init_tables. */
extern Bitboard chess_knight_att[64], chess_king_att[64], chess_pawn_att[2][64];
extern Bitboard chess_between[64][64]; /* squares strictly between two aligned squares */
extern Bitboard chess_line[64][64];    /* the whole line through two aligned squares */
struct chess_magic {
    Bitboard mask, magic;
    const Bitboard *attacks;
    unsigned shift;
};
extern struct chess_magic chess_rook_magic[64], chess_bishop_magic[64];
void chess_init_tables(void);

static inline Bitboard chess_rook_att(int sq, Bitboard occ)
{
    const struct chess_magic *m = &chess_rook_magic[sq];
    return m->attacks[((occ & m->mask) * m->magic) >> m->shift];
}
static inline Bitboard chess_bishop_att(int sq, Bitboard occ)
{
    const struct chess_magic *m = &chess_bishop_magic[sq];
    return m->attacks[((occ & m->mask) * m->magic) >> m->shift];
}
static inline int chess_lsb(Bitboard b)
{
    return __builtin_ctzll(b);
}
static inline int chess_popcount(Bitboard b)
{
    return __builtin_popcountll(b);
}
static inline Bitboard chess_pieces(const struct chess_pos *p, int color, int type)
{
    return p->by_type[type] & p->by_color[color];
}
static inline int chess_king_sq(const struct chess_pos *p, int color)
{
    return chess_lsb(chess_pieces(p, color, KING));
}
/* Pieces of `color` attacking `sq` with the given occupancy. */
static inline Bitboard chess_attackers(const struct chess_pos *p, int sq, Bitboard occ, int color)
{
    Bitboard them = p->by_color[color];
    return ((chess_pawn_att[color ^ 1][sq] & p->by_type[PAWN]) |
            (chess_knight_att[sq] & p->by_type[KNIGHT]) | (chess_king_att[sq] & p->by_type[KING]) |
            (chess_bishop_att(sq, occ) & (p->by_type[BISHOP] | p->by_type[QUEEN])) |
            (chess_rook_att(sq, occ) & (p->by_type[ROOK] | p->by_type[QUEEN]))) &
           them;
}
static inline bool chess_in_check(const struct chess_pos *p)
{
    return chess_attackers(p, chess_king_sq(p, p->side), p->by_type[0], p->side ^ 1) != 0;
}

/* position.c */
extern const Key chess_polyglot_random[781]; /* polyglot.c */
extern Key chess_zobrist[781]; /* Polyglot's layout: 64 * kind + square, castle, ep, turn */
#define ZOBRIST_CASTLE 768
#define ZOBRIST_EP 772
#define ZOBRIST_TURN 780
static inline Key chess_zobrist_piece(int pc, int sq)
{
    /* Polyglot kinds: black pawn 0, white pawn 1, black knight 2, ... white king 11 */
    return chess_zobrist[64 * (2 * (PIECE_TYPE(pc) - 1) + (PIECE_COLOR(pc) == 0)) + sq];
}
Key chess_castle_key(int castle);
Key chess_compute_key(const struct chess_pos *p);
void chess_put(struct chess_pos *p, int pc, int sq);
void chess_pos_clear(struct chess_pos *p);
/* Set p->ep to `sq` when the side to move has a legal en-passant capture there. */
void chess_set_ep(struct chess_pos *p, int sq);
void chess_pos_make(struct chess_pos *p, Move m, struct chess_undo *u);
void chess_pos_unmake(struct chess_pos *p, Move m, const struct chess_undo *u);
/* Recompute bitboards and key from the board; 0 if consistent. */
int chess_pos_check(const struct chess_pos *p, char *err, size_t err_size);

/* movegen.c */
int chess_gen_legal(const struct chess_pos *p, Move *moves);
int chess_count_legal(const struct chess_pos *p);
/* The legal captures (en passant included) and promotions only. */
int chess_gen_noisy(const struct chess_pos *p, Move *moves);
bool chess_has_legal_move(const struct chess_pos *p);
uint64_t chess_perft_pos(struct chess_pos *p, int depth);

/* fen.c */
int chess_parse_fen(struct chess_pos *p, const char *text, char *err, size_t err_size);
void chess_write_fen(const struct chess_pos *p, char *buf, size_t size);
#define CHESS_START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* notation.c */
void chess_uci(Move m, char *buf, size_t size);
void chess_san(const struct chess_pos *p, Move m, char *buf, size_t size);
int chess_parse_san(const struct chess_pos *p, const char *text, Move *out, char *err,
                    size_t err_size);
int chess_parse_any(const struct chess_pos *p, const char *text, Move *out, char *err,
                    size_t err_size);
void chess_square_name(int sq, char *buf);

/* rules.c */
bool chess_dead_position(const struct chess_pos *p);

/* A chess game's state (a `void *` of chess_game): its position, and the keys of the
 * positions since the last capture or pawn move, oldest first, at most `max` of them
 * (the current position not included), for a search's repetition detection. */
const struct chess_pos *chess_state_pos(const void *st);
int chess_state_recent_keys(const void *st, Key *out, int max);
