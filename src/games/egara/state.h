/* The Egara-guti state and move encoding, shared by the files of this module. */
#pragma once

#include <stdbool.h>

#include "board.h"
#include "core/game.h"
#include "egara.h"

#define EGARA_PIECES 11
#define EGARA_QUIET_LIMIT 40
/* Captures end a game within 21 x 40 + 40 plies; perft and search stay far below. */
#define EGARA_MAX_PLIES 1024
/* Generous: the most legal moves seen in random play is far lower. */
#define EGARA_MAX_MOVES 256
#define EGARA_MAX_LANDINGS 11

/* Move layout (a uint64_t):
 *
 *   63..60  n, the number of jumps: 0 for a step, 1..11 for a capture
 *   59..5   landing points, 5 bits each: landing k (1-based) at bits 5k..5k+4;
 *           a step keeps its target point in landing 1
 *    4..0   the point the piece starts from
 */
#define EG_MOVE_FROM(m) ((int)((m)&31))
#define EG_MOVE_JUMPS(m) ((int)((m) >> 60))
#define EG_MOVE_LANDING(m, k) ((int)(((m) >> (5 * (k))) & 31))
#define EG_MOVE_TO_SLOT(k) (5 * (k))
/* The final point: landing n, or landing 1 for a step. */
#define EG_MOVE_TO(m) EG_MOVE_LANDING((m), EG_MOVE_JUMPS(m) ? EG_MOVE_JUMPS(m) : 1)

static inline Move eg_step(int from, int to)
{
    return (Move)from | ((Move)to << 5);
}

/* What unmake needs that the move does not tell. */
struct egara_undo {
    Key key;
    Move move; /* the move made */
    uint16_t quiet;
};

struct egara_state {
    uint32_t pieces[2]; /* by side: the points its pieces stand on */
    enum side side;     /* to move */
    int quiet;          /* plies since the last capture */
    int ply;            /* entries in history */
    Key key;
    struct egara_undo history[EGARA_MAX_PLIES];
};

extern Key egara_zobrist_piece[2][EGARA_POINTS];
extern Key egara_zobrist_black;
extern Key egara_zobrist_quiet[EGARA_QUIET_LIMIT + 1];

Key egara_compute_key(const struct egara_state *s);
int egara_gen_moves(const void *st, Move *moves);
bool egara_has_move(const struct egara_state *s);
void egara_make_move(void *st, Move m);
void egara_unmake_move(void *st, Move m);
Move egara_history_move(const void *st, int i);

/* The rest of the module's functions, collected in egara_game. */
void egara_init(void);
void egara_start(void *st);
int egara_parse_position(void *st, const char *text, char *err, size_t err_size);
void egara_write_position(const void *st, char *buf, size_t size);
enum side egara_side_to_move(const void *st);
int egara_ply(const void *st);
Key egara_key(const void *st);
void egara_status(const void *st, struct game_status *out);
void egara_move_text(const void *st, Move m, char *buf, size_t size);
int egara_parse_move(const void *st, const char *text, Move *out, char *err, size_t err_size);
void egara_describe_move(const void *st, Move m, struct move_desc *out);
Score egara_evaluate(const void *st);
int egara_is_noisy(const void *st, Move m);
void egara_render(const void *st, char *buf, size_t size);
int egara_check(const void *st, char *err, size_t err_size);
void egara_layout_init(void);
const struct board_layout *egara_layout(void);
char egara_piece_at(const void *st, int cell, unsigned *marks);
