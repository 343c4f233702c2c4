/* Chess internals shared by the files of this module: the state with its history and
 * the functions collected in chess_game.  Everything about the position is public, in
 * chess_position.h. */
#pragma once

#include "chess_position.h"

struct chess_state {
    struct chess_pos pos;
    int ply; /* entries in hist */
    struct chess_undo hist[CHESS_MAX_PLIES];
};

/* How often the current position occurred in the history (itself included). */
int chess_repetitions(const struct chess_state *s);

/* The module's functions collected in chess_game (game.c). */
void chess_init(void);
void chess_start(void *st);
int chess_parse_position(void *st, const char *text, char *err, size_t err_size);
void chess_write_position(const void *st, char *buf, size_t size);
enum side chess_side_to_move(const void *st);
int chess_ply(const void *st);
Key chess_key(const void *st);
int chess_gen_moves(const void *st, Move *moves);
void chess_make_move(void *st, Move m);
void chess_unmake_move(void *st, Move m);
void chess_status(const void *st, struct game_status *out);
void chess_move_text(const void *st, Move m, char *buf, size_t size);
int chess_parse_move(const void *st, const char *text, Move *out, char *err, size_t err_size);
void chess_move_display(const void *st, Move m, char *buf, size_t size);
void chess_describe_move(const void *st, Move m, struct move_desc *out);
Score chess_evaluate(const void *st);
int chess_is_noisy(const void *st, Move m);
void chess_render(const void *st, char *buf, size_t size);
int chess_check(const void *st, char *err, size_t err_size);
uint64_t chess_perft(void *st, int depth);
int chess_claim(const void *st, unsigned which, struct game_status *out);
int chess_can_win(const void *st, enum side side);
Move chess_history_move(const void *st, int i);
void chess_layout_init(void);
const struct board_layout *chess_layout(void);
char chess_piece_at(const void *st, int cell, unsigned *marks);
