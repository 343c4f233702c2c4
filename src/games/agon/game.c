/* Agon's entry in the table of games. */
#include "agon.h"
#include "state.h"

static const struct game_word reasons[] = {
    {AGON_REASON_FORMATION, "formation", "the guards surround the queen on the throne"},
    {AGON_REASON_FORMATION_LOSS, "formation-loss",
     "the guards fill ring 1 with the queen off the throne"},
    {0, NULL, NULL},
};
static const struct game_word move_flags[] = {{AGON_MOVE_RETURN, "return", NULL}, {0, NULL, NULL}};

const struct game agon_game = {
    .name = "agon",
    .title = "Agon",
    .aliases = NULL,
    .state_size = sizeof(struct agon_state),
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
};
