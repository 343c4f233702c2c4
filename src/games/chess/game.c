/* Chess's entry in the table of games. */
#include "chess.h"
#include "state.h"

const struct game chess_game = {
    .name = "chess",
    .title = "Chess",
    .aliases = NULL,
    .state_size = sizeof(struct chess_state),
    .max_moves = CHESS_MAX_MOVES,
    .max_plies = CHESS_MAX_PLIES,
    .init = chess_init,
    .start = chess_start,
    .parse_position = chess_parse_position,
    .write_position = chess_write_position,
    .side_to_move = chess_side_to_move,
    .ply = chess_ply,
    .key = chess_key,
    .gen_moves = chess_gen_moves,
    .make_move = chess_make_move,
    .unmake_move = chess_unmake_move,
    .status = chess_status,
    .move_text = chess_move_text,
    .parse_move = chess_parse_move,
    .move_display = chess_move_display,
    .describe_move = chess_describe_move,
    .evaluate = chess_evaluate,
    .is_noisy = chess_is_noisy,
    .render = chess_render,
    .check = chess_check,
    .perft = chess_perft,
    .claim_draw = chess_claim,
};
