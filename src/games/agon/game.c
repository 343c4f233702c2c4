/* Agon's entry in the table of games. */
#include "agon.h"
#include "core/record.h"
#include "state.h"
#include <stddef.h>

static const struct game_word reasons[] = {
    {AGON_REASON_FORMATION, "formation", "the guards surround the queen on the throne"},
    {AGON_REASON_FORMATION_LOSS, "formation-loss",
     "the guards fill ring 1 with the queen off the throne"},
    {0, NULL, NULL},
};
static const struct game_word move_flags[] = {{AGON_MOVE_RETURN, "return", NULL}, {0, NULL, NULL}};
/* Records in PGN's shape with the game's own move texts (core/record.h). */
static int write_record(const void *st, const struct record_header *h,
                        const struct game_status *final, char *buf, size_t size)
{
    return record_write(&agon_game, st, h, final, buf, size);
}

static long read_record(const char *text, void *st, struct record_header *h, char *result,
                        size_t result_size, char *err, size_t err_size)
{
    return record_read(&agon_game, text, st, h, result, result_size, err, err_size);
}

const struct game agon_game = {
    .name = "agon",
    .title = "Agon",
    .aliases = NULL,
    .state_size = sizeof(struct agon_state),
    .history_offset = offsetof(struct agon_state, history),
    .history_entry = sizeof(((struct agon_state *)0)->history[0]),
    .history_size = sizeof(((struct agon_state *)0)->history),
    .max_moves = AGON_MAX_MOVES,
    .max_plies = AGON_MAX_PLIES,
    .init = agon_init,
    .start = agon_start,
    .parse_position = agon_parse_position,
    .write_position = agon_write_position,
    .side_to_move = agon_side_to_move,
    .ply = agon_ply,
    .key = agon_key,
    .gen_moves = agon_gen_moves,
    .make_move = agon_make_move,
    .unmake_move = agon_unmake_move,
    .history_move = agon_history_move,
    .status = agon_status,
    .move_text = agon_move_text,
    .parse_move = agon_parse_move,
    .move_display = NULL,
    .describe_move = agon_describe_move,
    .evaluate = agon_evaluate,
    .is_noisy = agon_is_noisy,
    .layout = agon_layout,
    .piece_at = agon_piece_at,
    .render = agon_render,
    .check = agon_check,
    .perft = agon_perft,
    .reasons = reasons,
    .move_flag_names = move_flags,
    .record_variant = "agon",
    .write_record = write_record,
    .read_record = read_record,
};
