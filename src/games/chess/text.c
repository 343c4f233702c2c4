/* The state's texts: move text (UCI) and display (SAN), move descriptions for the
 * browser, and the terminal board. */
#include <stdio.h>
#include <string.h>

#include "chess.h"
#include "core/error.h"
#include "state.h"

void chess_move_text(const void *st, Move m, char *buf, size_t size)
{
    (void)st;
    chess_uci(m, buf, size);
}

void chess_move_display(const void *st, Move m, char *buf, size_t size)
{
    chess_san(&((const struct chess_state *)st)->pos, m, buf, size);
}

int chess_parse_move(const void *st, const char *text, Move *out, char *err, size_t err_size)
{
    struct game_status status;
    chess_status(st, &status);
    if (status.result != RESULT_ONGOING)
        return fail(err, err_size, "no move is possible: the game is over (%s)",
                    reason_text(&chess_game, status.reason));
    return chess_parse_any(&((const struct chess_state *)st)->pos, text, out, err, err_size);
}

void chess_describe_move(const void *st, Move m, struct move_desc *out)
{
    const struct chess_pos *p = &((const struct chess_state *)st)->pos;
    int from = MV_FROM(m), to = MV_TO(m), kind = MV_KIND(m);
    memset(out, 0, sizeof *out);
    chess_square_name(from, out->from);
    chess_square_name(to, out->to);
    out->path_len = 1;
    chess_square_name(to, out->path[0]);
    if (p->board[to]) {
        out->flags |= MOVE_FLAG_CAPTURE;
        out->captured_len = 1;
        chess_square_name(to, out->captured[0]);
    }
    if (kind == MK_EN_PASSANT) {
        out->flags |= MOVE_FLAG_CAPTURE | CHESS_MOVE_EN_PASSANT;
        out->captured_len = 1;
        chess_square_name(p->side == SIDE_WHITE ? to - 8 : to + 8, out->captured[0]);
    } else if (kind == MK_PROMOTION) {
        out->flags |= CHESS_MOVE_PROMOTION;
        out->promotion = "nbrq"[MV_PROMO(m) - KNIGHT];
    } else if (kind == MK_CASTLING) {
        int rank = SQ_RANK(from) * 8;
        out->flags |= CHESS_MOVE_CASTLE;
        chess_square_name(to > from ? rank + 7 : rank, out->also_from);
        chess_square_name(to > from ? rank + 5 : rank + 3, out->also_to);
    }
    struct chess_pos after = *p;
    struct chess_undo u;
    chess_pos_make(&after, m, &u);
    if (chess_in_check(&after))
        out->flags |= CHESS_MOVE_CHECK;
}

void chess_render(const void *st, char *buf, size_t size)
{
    /* White pieces U+2654.., black U+265A.., by piece type */
    static const char *const glyph[2][7] = {
        {"", "\u2659", "\u2658", "\u2657", "\u2656", "\u2655", "\u2654"},
        {"", "\u265F", "\u265E", "\u265D", "\u265C", "\u265B", "\u265A"},
    };
    const struct chess_state *s = st;
    const struct chess_pos *p = &s->pos;
    char text[RENDER_TEXT_MAX];
    size_t n = 0;
#define PUT(...) n += (size_t)snprintf(text + n, n < sizeof text ? sizeof text - n : 0, __VA_ARGS__)
    for (int rank = 7; rank >= 0; rank--) {
        PUT("%d ", rank + 1);
        for (int file = 0; file < 8; file++) {
            int pc = p->board[SQ(file, rank)];
            PUT(" %s",
                pc ? glyph[PIECE_COLOR(pc)][PIECE_TYPE(pc)] : ((file + rank) & 1 ? "\u00B7" : "."));
        }
        PUT("\n");
    }
    PUT("   a b c d e f g h\n");
    struct game_status status;
    chess_status(st, &status);
    PUT("%s to move, move %d", p->side == SIDE_WHITE ? "White" : "Black", p->fullmove);
    if (status.result != RESULT_ONGOING)
        PUT(". Game over: %s (%s)", result_name(status.result),
            reason_text(&chess_game, status.reason));
    else if (chess_in_check(p))
        PUT(", in check");
    if (status.claims & CHESS_CLAIM_THREEFOLD)
        PUT(". A draw may be claimed: threefold repetition");
    if (status.claims & CHESS_CLAIM_FIFTY_MOVES)
        PUT(". A draw may be claimed: fifty moves without a capture or pawn move");
    PUT(".");
#undef PUT
    snprintf(buf, size, "%s", text);
}
