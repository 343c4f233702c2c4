/* The Agon state and move encoding, shared by the files of this module. */
#pragma once

#include <stdbool.h>

#include "agon.h"
#include "board.h"
#include "core/game.h"

#define AGON_PIECES 7 /* a side: the queen (index 0) and six guards (1..6) */
/* Random play can go on for a long time; the history holds 4096 plies, and status
 * reports a draw by REASON_ADJUDICATION only when it is full (never in real play). */
#define AGON_MAX_PLIES 4096
/* Six captured guards may each return to any of up to 30 outer cells. */
#define AGON_MAX_MOVES 192

/* One board byte:
 *
 *   bit  5     captured mark
 *   bits 4..2  piece index of its side: 0 the queen, 1..6 the guards
 *   bits 1..0  owner: 0 empty, 1 White, 2 Black, 3 the off-board sentinel
 *
 * The index ties the cell to the side's piece list; it is not part of the
 * position (guards are alike), so neither the key nor the text sees it. */
#define AG_OWNER_MASK 3u
#define AG_OFFBOARD 3u
#define AG_INDEX_SHIFT 2
#define AG_CAPTURED 0x20u
#define AG_OWNER(b) ((unsigned)(b)&AG_OWNER_MASK)
#define AG_INDEX(b) (((unsigned)(b) >> AG_INDEX_SHIFT) & 7u)
#define AG_CODE(side) ((unsigned)(side) + 1u) /* owner bits of a side */
#define AG_PIECE(side, index) ((uint8_t)(AG_CODE(side) | ((unsigned)(index) << AG_INDEX_SHIFT)))

/* Move layout (a uint64_t):
 *
 *   bit  15      always 1, so no move is 0
 *   bit  14      return: a captured piece goes from `from` to `to`
 *   bits 13..7   to cell     (cell numbers of board.h: 0..120, 91 of them used)
 *   bits  6..0   from cell
 */
#define AG_MOVE_FROM(m) ((int)((m)&127))
#define AG_MOVE_TO(m) ((int)(((m) >> 7) & 127))
#define AG_MOVE_RETURN ((Move)1 << 14)
#define AG_MOVE_VALID ((Move)1 << 15)
#define AG_IS_RETURN(m) (((m)&AG_MOVE_RETURN) != 0)

static inline Move ag_step(int from, int to)
{
    return AG_MOVE_VALID | (Move)from | ((Move)to << 7);
}

static inline Move ag_return(int from, int to)
{
    return AG_MOVE_VALID | AG_MOVE_RETURN | (Move)from | ((Move)to << 7);
}

/* What unmake needs that the move does not tell. */
struct agon_undo {
    Key key;
    uint16_t move;    /* the move made (every agon move fits in 16 bits) */
    uint8_t captures; /* the step's captures: bit d for the piece at to + direction d */
};

/* Occurrence counts of keys by their low bits, kept by make/unmake: a bucket below
 * three proves the current position has not occurred three times, so status scans
 * the history only in the rare case it might have. */
#define AGON_SEEN_SIZE 8192

struct agon_state {
    Cells occupied[2];             /* by side: its cells, captured pieces included */
    uint8_t board[AGON_SLOTS + 1]; /* by cell, the sentinel last */
    uint8_t pos[2][AGON_PIECES];   /* by side and piece index: the cell it stands on */
    uint8_t captured[2];           /* by side: bit i when piece i is captured */
    enum side side;                /* to move */
    int ply;                       /* entries in history */
    Key key;
    struct agon_undo history[AGON_MAX_PLIES];
    uint16_t seen[AGON_SEEN_SIZE];
};

/* Zobrist keys by cell and kind: kind = side * 4 + queen * 2 + captured. */
extern Key agon_zobrist[AGON_SLOTS][8];
extern Key agon_zobrist_black;

static inline int ag_kind(unsigned b)
{
    return (int)((AG_OWNER(b) - 1) * 4 + (AG_INDEX(b) == 0) * 2 + ((b & AG_CAPTURED) != 0));
}

Key agon_compute_key(const struct agon_state *s);
/* Reset the repetition counts to the current position alone (after start/parse). */
void agon_reset_seen(struct agon_state *s);
/* Does the side that just moved have its six guards on ring 1? */
bool agon_formation(const struct agon_state *s);
bool agon_sandwiched(const struct agon_state *s, int cell, enum side side);
/* The directions in which a step from..to by the side to move captures. */
unsigned agon_step_captures(const struct agon_state *s, int from, int to);
bool agon_has_move(const struct agon_state *s);
uint64_t agon_perft(void *st, int depth);

/* The rest of the module's functions, collected in agon_game. */
void agon_init(void);
void agon_start(void *st);
int agon_parse_position(void *st, const char *text, char *err, size_t err_size);
void agon_write_position(const void *st, char *buf, size_t size);
enum side agon_side_to_move(const void *st);
int agon_ply(const void *st);
Key agon_key(const void *st);
int agon_gen_moves(const void *st, Move *moves);
void agon_make_move(void *st, Move m);
void agon_unmake_move(void *st, Move m);
Move agon_history_move(const void *st, int i);
void agon_status(const void *st, struct game_status *out);
void agon_move_text(const void *st, Move m, char *buf, size_t size);
int agon_parse_move(const void *st, const char *text, Move *out, char *err, size_t err_size);
void agon_describe_move(const void *st, Move m, struct move_desc *out);
Score agon_evaluate(const void *st);
int agon_is_noisy(const void *st, Move m);
void agon_render(const void *st, char *buf, size_t size);
void agon_layout_init(void);
const struct board_layout *agon_layout(void);
char agon_piece_at(const void *st, int cell, unsigned *marks);
int agon_check(const void *st, char *err, size_t err_size);
