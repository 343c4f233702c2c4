/* PGN: export (the standard's export format) and import of ordinary PGN files, in
 * the PGN syntax of core/record.h with chess's own parts: moves in SAN (read: SAN or
 * UCI, castling with O or zero), positions in FEN, the Variant tag absent (read:
 * absent, "standard" or "chess"). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chess.h"
#include "core/error.h"
#include "core/record.h"
#include "state.h"

int chess_pgn_write(const void *st, const struct record_header *h, const struct game_status *final,
                    char *buf, size_t size)
{
    struct chess_state *s = malloc(sizeof *s);
    if (!s)
        return -1;
    memcpy(s, st, sizeof *s);
    struct game_status end;
    if (final)
        end = *final;
    else
        chess_status(st, &end);
    int plies = s->ply;
    Move *moves = malloc(sizeof(Move) * (size_t)(plies ? plies : 1));
    if (!moves) {
        free(s);
        return -1;
    }
    for (int i = plies - 1; i >= 0; i--) {
        moves[i] = s->hist[i].move;
        chess_unmake_move(s, moves[i]);
    }
    char fen[POSITION_TEXT_MAX];
    chess_write_fen(&s->pos, fen, sizeof fen);

    struct record_writer w;
    record_writer_init(&w, buf, size);
    record_write_tags(&w, h, NULL, strcmp(fen, CHESS_START_FEN) ? fen : NULL, &end);
    for (int i = 0; i < plies; i++) {
        char san[MOVE_TEXT_MAX];
        chess_san(&s->pos, moves[i], san, sizeof san);
        record_write_move(&w, s->pos.fullmove, s->pos.side, i == 0, san);
        chess_make_move(s, moves[i]);
    }
    free(moves);
    free(s);
    return record_write_end(&w, &chess_game, &end);
}

/* ---- Import ------------------------------------------------------------------ */

static int read_begin(void *ctx, const struct record_header *h, char *err, size_t err_size)
{
    const char *variant = record_tag(h, "Variant");
    if (variant && strcasecmp(variant, "standard") && strcasecmp(variant, "chess"))
        return fail(err, err_size, "unsupported variant '%s'", variant);
    const char *fen = record_tag(h, "FEN");
    if (fen) {
        char fen_err[ERROR_TEXT_MAX];
        if (chess_parse_position(ctx, fen, fen_err, sizeof fen_err))
            return fail(err, err_size, "bad FEN tag: %s", fen_err);
    } else {
        chess_start(ctx);
    }
    return 0;
}

static int read_move(void *ctx, const char *san, int ply, char *err, size_t err_size)
{
    struct chess_state *s = ctx;
    (void)ply;
    Move m;
    char merr[ERROR_TEXT_MAX];
    if (s->ply >= CHESS_MAX_PLIES)
        return fail(err, err_size, "game longer than %d plies", CHESS_MAX_PLIES);
    struct game_status gs; /* a record goes on past the game's end (issue 25): refused */
    chess_status(s, &gs);
    if (gs.result != RESULT_ONGOING)
        return fail(err, err_size, "move %d%s %s: the game is already over (%s)", s->pos.fullmove,
                    s->pos.side == SIDE_WHITE ? "." : "...", san,
                    reason_text(&chess_game, gs.reason));
    if (chess_parse_any(&s->pos, san, &m, merr, sizeof merr))
        return fail(err, err_size, "move %d%s %s: %s", s->pos.fullmove,
                    s->pos.side == SIDE_WHITE ? "." : "...", san, merr);
    chess_make_move(s, m);
    return 0;
}

long chess_pgn_read(const char *text, void *st, struct record_header *h, char *result,
                    size_t result_size, char *err, size_t err_size)
{
    struct record_reader rd = {.begin = read_begin, .move = read_move, .ctx = st};
    return record_parse(text, &rd, h, result, result_size, err, err_size);
}

Move chess_history_move(const void *st, int i)
{
    return ((const struct chess_state *)st)->hist[i].move;
}
