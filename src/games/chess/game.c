/* Chess's entry in the table of games. */
#include "chess.h"
#include "state.h"
#include <stddef.h>

static const struct game_word reasons[] = {
    {CHESS_REASON_CHECKMATE, "checkmate", "checkmate"},
    {CHESS_REASON_STALEMATE, "stalemate", "stalemate: no legal move, not in check"},
    {CHESS_REASON_FIVEFOLD, "fivefold-repetition", "the same position occurred five times"},
    {CHESS_REASON_SEVENTY_FIVE, "seventy-five-moves",
     "75 moves each without a capture or pawn move"},
    {CHESS_REASON_DEAD_POSITION, "dead-position", "neither side can checkmate"},
    {CHESS_REASON_CLAIM_THREEFOLD, "threefold-claim", "draw claimed: threefold repetition"},
    {CHESS_REASON_CLAIM_FIFTY, "fifty-move-claim",
     "draw claimed: fifty moves without a capture or pawn move"},
    {0, NULL, NULL},
};
static const struct game_word move_flags[] = {
    {CHESS_MOVE_CASTLE, "castle", NULL},
    {CHESS_MOVE_EN_PASSANT, "en-passant", NULL},
    {CHESS_MOVE_PROMOTION, "promotion", NULL},
    {CHESS_MOVE_CHECK, "check", NULL},
    {0, NULL, NULL},
};
static const struct game_word claims[] = {
    {CHESS_CLAIM_THREEFOLD, "threefold", NULL},
    {CHESS_CLAIM_FIFTY_MOVES, "fifty-moves", NULL},
    {0, NULL, NULL},
};

const struct game chess_game = {
    .name = "chess",
    .title = "Chess",
    .aliases = NULL,
    .state_size = sizeof(struct chess_state),
    .history_offset = offsetof(struct chess_state, hist),
    .history_entry = sizeof(((struct chess_state *)0)->hist[0]),
    .history_size = sizeof(((struct chess_state *)0)->hist),
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
    .history_move = chess_history_move,
    .status = chess_status,
    .move_text = chess_move_text,
    .parse_move = chess_parse_move,
    .move_display = chess_move_display,
    .describe_move = chess_describe_move,
    .evaluate = chess_evaluate,
    .is_noisy = chess_is_noisy,
    .layout = chess_layout,
    .piece_at = chess_piece_at,
    .render = chess_render,
    .check = chess_check,
    .perft = chess_perft,
    .claim_draw = chess_claim,
    .reasons = reasons,
    .move_flag_names = move_flags,
    .claim_names = claims,
    .record_variant = NULL,
    .write_record = chess_pgn_write,
    .read_record = chess_pgn_read,
    .can_win = chess_can_win,
};
