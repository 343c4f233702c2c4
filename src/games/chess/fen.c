/* FEN in and out, with strict validation: one clear message per kind of mistake.
 *
 * Accepted: the six fields of FEN, or the first four (EPD style; the counters are then
 * 0 and 1).  Rejected: ranks of the wrong length, unknown letters, two digits in a row,
 * a missing or second king, pawns on the first or last rank, more than 16 pieces or 8
 * pawns a side, castling rights whose king or rook is not at home, an en-passant square
 * that no double step could have made, the side not to move in check, bad counters.
 *
 * Written: the en-passant square only when a legal en-passant capture exists (as the
 * key does), so equal positions have equal FEN. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "state.h"

static const char piece_letters[] = " PNBRQK";

static int piece_from_letter(char c)
{
    const char *hit = strchr("PNBRQKpnbrqk", c);
    if (!c || !hit)
        return -1;
    int i = (int)(hit - "PNBRQKpnbrqk");
    return PIECE(i / 6, i % 6 + 1);
}

static int parse_placement(struct chess_pos *p, const char *s, size_t len, char *err,
                           size_t err_size)
{
    int rank = 7, file = 0, prev_digit = 0;
    for (size_t i = 0; i <= len; i++) {
        char c = i < len ? s[i] : '/';
        if (c == '/') {
            if (file != 8)
                return fail(err, err_size, "rank %d has %d squares, expected 8", rank + 1, file);
            if (--rank < -1)
                return fail(err, err_size, "more than 8 ranks in the placement");
            file = 0;
            prev_digit = 0;
            continue;
        }
        if (rank < 0)
            return fail(err, err_size, "more than 8 ranks in the placement");
        if (c >= '1' && c <= '8') {
            if (prev_digit)
                return fail(err, err_size, "two digits in a row on rank %d", rank + 1);
            file += c - '0';
            prev_digit = 1;
            if (file > 8)
                return fail(err, err_size, "rank %d has more than 8 squares", rank + 1);
            continue;
        }
        int pc = piece_from_letter(c);
        if (pc < 0)
            return fail(err, err_size, "unknown piece letter '%c' in the placement", c);
        if (file >= 8)
            return fail(err, err_size, "rank %d has more than 8 squares", rank + 1);
        chess_put(p, pc, SQ(file, rank));
        file++;
        prev_digit = 0;
    }
    if (rank != -1)
        return fail(err, err_size, "the placement has %d ranks, expected 8", 7 - rank);
    return 0;
}

static int validate_material(const struct chess_pos *p, char *err, size_t err_size)
{
    static const char *const names[2] = {"White", "Black"};
    for (int c = 0; c < 2; c++) {
        int kings = chess_popcount(chess_pieces(p, c, KING));
        if (kings != 1)
            return fail(err, err_size, "%s has %d kings, expected one", names[c], kings);
        if (chess_popcount(p->by_color[c]) > 16)
            return fail(err, err_size, "%s has more than 16 pieces", names[c]);
        if (chess_popcount(chess_pieces(p, c, PAWN)) > 8)
            return fail(err, err_size, "%s has more than 8 pawns", names[c]);
    }
    if (p->by_type[PAWN] & (RANK_1 | RANK_8))
        return fail(err, err_size, "a pawn stands on the first or last rank");
    return 0;
}

static int parse_castling(struct chess_pos *p, const char *s, size_t len, char *err,
                          size_t err_size)
{
    if (len == 1 && s[0] == '-')
        return 0;
    static const char order[] = "KQkq";
    static const struct {
        int king, rook, color;
        const char *name;
    } need[4] = {{4, 7, 0, "K needs the white king on e1 and a rook on h1"},
                 {4, 0, 0, "Q needs the white king on e1 and a rook on a1"},
                 {60, 63, 1, "k needs the black king on e8 and a rook on h8"},
                 {60, 56, 1, "q needs the black king on e8 and a rook on a8"}};
    int last = -1;
    for (size_t i = 0; i < len; i++) {
        const char *hit = strchr(order, s[i]);
        if (!s[i] || !hit)
            return fail(err, err_size, "bad castling field '%.*s' (expected '-' or KQkq)", (int)len,
                        s);
        int r = (int)(hit - order);
        if (r <= last)
            return fail(err, err_size, "castling field '%.*s' repeats or is out of KQkq order",
                        (int)len, s);
        last = r;
        if (p->board[need[r].king] != PIECE(need[r].color, KING) ||
            p->board[need[r].rook] != PIECE(need[r].color, ROOK))
            return fail(err, err_size, "impossible castling right: %s", need[r].name);
        p->castle |= (uint8_t)(1 << r);
    }
    return 0;
}

static int parse_ep(struct chess_pos *p, const char *s, size_t len, int *ep, char *err,
                    size_t err_size)
{
    *ep = SQ_NONE;
    if (len == 1 && s[0] == '-')
        return 0;
    if (len != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return fail(err, err_size, "bad en-passant field '%.*s' (expected '-' or a square)",
                    (int)len, s);
    int sq = SQ(s[0] - 'a', s[1] - '1');
    int want_rank = p->side == SIDE_WHITE ? 5 : 2;
    if (SQ_RANK(sq) != want_rank)
        return fail(err, err_size,
                    "impossible en-passant square %.2s: with %s to move it must "
                    "be on rank %d",
                    s, p->side == SIDE_WHITE ? "White" : "Black", want_rank + 1);
    int them = p->side ^ 1;
    int pawn_sq = p->side == SIDE_WHITE ? sq - 8 : sq + 8;
    int origin = p->side == SIDE_WHITE ? sq + 8 : sq - 8;
    if (p->board[pawn_sq] != PIECE(them, PAWN))
        return fail(err, err_size, "impossible en-passant square %.2s: no %s pawn in front of it",
                    s, them == SIDE_WHITE ? "white" : "black");
    if (p->board[sq] || p->board[origin])
        return fail(err, err_size,
                    "impossible en-passant square %.2s: the pawn could not have "
                    "passed it",
                    s);
    *ep = sq;
    return 0;
}

static int parse_counter(const char *s, size_t len, long lo, long hi, const char *what, long *out,
                         char *err, size_t err_size)
{
    long v = 0;
    if (len == 0 || len > 5)
        return fail(err, err_size, "bad %s '%.*s'", what, (int)(len > 10 ? 10 : len), s);
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return fail(err, err_size, "bad %s '%.*s' (expected a number)", what, (int)len, s);
        v = v * 10 + (s[i] - '0');
    }
    if (v < lo || v > hi)
        return fail(err, err_size, "%s %ld out of range %ld..%ld", what, v, lo, hi);
    *out = v;
    return 0;
}

int chess_parse_fen(struct chess_pos *out, const char *text, char *err, size_t err_size)
{
    const char *field[7];
    size_t flen[7];
    int n = 0;
    const char *s = text;
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        if (n == 6)
            return fail(err, err_size, "too many fields: FEN has six");
        field[n] = s;
        while (*s && *s != ' ' && *s != '\t')
            s++;
        flen[n] = (size_t)(s - field[n]);
        n++;
    }
    if (n != 4 && n != 6)
        return fail(err, err_size, "FEN needs six fields (or the first four), got %d", n);
    struct chess_pos p;
    chess_pos_clear(&p);
    if (parse_placement(&p, field[0], flen[0], err, err_size) ||
        validate_material(&p, err, err_size))
        return -1;
    if (flen[1] != 1 || (field[1][0] != 'w' && field[1][0] != 'b'))
        return fail(err, err_size, "bad side to move '%.*s' (expected w or b)",
                    (int)(flen[1] > 10 ? 10 : flen[1]), field[1]);
    p.side = field[1][0] == 'w' ? SIDE_WHITE : SIDE_BLACK;
    if (chess_attackers(&p, chess_king_sq(&p, p.side ^ 1), p.by_type[0], p.side))
        return fail(err, err_size, "the side not to move (%s) is in check",
                    p.side == SIDE_WHITE ? "Black" : "White");
    int checkers =
        chess_popcount(chess_attackers(&p, chess_king_sq(&p, p.side), p.by_type[0], p.side ^ 1));
    if (checkers > 2)
        return fail(err, err_size, "the king is attacked by %d pieces, impossible", checkers);
    int ep;
    if (parse_castling(&p, field[2], flen[2], err, err_size) ||
        parse_ep(&p, field[3], flen[3], &ep, err, err_size))
        return -1;
    long halfmove = 0, fullmove = 1;
    if (n == 6 &&
        (parse_counter(field[4], flen[4], 0, 60000, "halfmove clock", &halfmove, err, err_size) ||
         parse_counter(field[5], flen[5], 1, 60000, "move number", &fullmove, err, err_size)))
        return -1;
    p.halfmove = (uint16_t)halfmove;
    p.fullmove = (uint16_t)fullmove;
    p.key = chess_compute_key(&p);
    if (ep != SQ_NONE)
        chess_set_ep(&p, ep);
    *out = p;
    return 0;
}

void chess_write_fen(const struct chess_pos *p, char *buf, size_t size)
{
    char text[POSITION_TEXT_MAX];
    size_t n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            int pc = p->board[SQ(file, rank)];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                text[n++] = (char)('0' + empty);
            empty = 0;
            char c = piece_letters[PIECE_TYPE(pc)];
            text[n++] = PIECE_COLOR(pc) ? (char)tolower((unsigned char)c) : c;
        }
        if (empty)
            text[n++] = (char)('0' + empty);
        if (rank)
            text[n++] = '/';
    }
    text[n++] = ' ';
    text[n++] = p->side == SIDE_WHITE ? 'w' : 'b';
    text[n++] = ' ';
    if (!p->castle)
        text[n++] = '-';
    for (int i = 0; i < 4; i++)
        if (p->castle & (1 << i))
            text[n++] = "KQkq"[i];
    text[n++] = ' ';
    if (p->ep == SQ_NONE) {
        text[n++] = '-';
    } else {
        text[n++] = (char)('a' + SQ_FILE(p->ep));
        text[n++] = (char)('1' + SQ_RANK(p->ep));
    }
    snprintf(text + n, sizeof text - n, " %d %d", p->halfmove, p->fullmove);
    snprintf(buf, size, "%s", text);
}
