/* Egara-guti's entry in the table of games. */
#include "core/record.h"
#include "egara.h"
#include "state.h"
#include <stddef.h>

/* Records in PGN's shape with the game's own move texts (core/record.h). */
static int write_record(const void *st, const struct record_header *h,
                        const struct game_status *final, char *buf, size_t size)
{
    return record_write(&egara_game, st, h, final, buf, size);
}

static long read_record(const char *text, void *st, struct record_header *h, char *result,
                        size_t result_size, char *err, size_t err_size)
{
    return record_read(&egara_game, text, st, h, result, result_size, err, err_size);
}

static const char *const aliases[] = {"egara", NULL};

static const struct game_word reasons[] = {
    {EGARA_REASON_ELIMINATION, "elimination", "the last piece was captured"},
    {EGARA_REASON_QUIET_LIMIT, "quiet-limit",
     "40 plies without a capture: the piece counts decide"},
    {0, NULL, NULL},
};
static const struct game_word move_flags[] = {{EGARA_MOVE_CHAIN, "chain", NULL}, {0, NULL, NULL}};

const struct game egara_game = {
    .name = "egara-guti",
    .title = "Egara-guti",
    .aliases = aliases,
    .state_size = sizeof(struct egara_state),
    .history_offset = offsetof(struct egara_state, history),
    .history_entry = sizeof(((struct egara_state *)0)->history[0]),
    .history_size = sizeof(((struct egara_state *)0)->history),
    .max_moves = EGARA_MAX_MOVES,
    .max_plies = EGARA_MAX_PLIES,
    .init = egara_init,
    .start = egara_start,
    .parse_position = egara_parse_position,
    .write_position = egara_write_position,
    .side_to_move = egara_side_to_move,
    .ply = egara_ply,
    .key = egara_key,
    .gen_moves = egara_gen_moves,
    .make_move = egara_make_move,
    .unmake_move = egara_unmake_move,
    .history_move = egara_history_move,
    .status = egara_status,
    .move_text = egara_move_text,
    .parse_move = egara_parse_move,
    .move_display = NULL,
    .describe_move = egara_describe_move,
    .evaluate = egara_evaluate,
    .is_noisy = egara_is_noisy,
    .layout = egara_layout,
    .piece_at = egara_piece_at,
    .render = egara_render,
    .check = egara_check,
    .perft = NULL,
    .reasons = reasons,
    .move_flag_names = move_flags,
    .record_variant = "egara-guti",
    .write_record = write_record,
    .read_record = read_record,
};
