/* The chess evaluation, called directly by the chess search and through the game
 * interface (chess_evaluate) by everything else. */
#pragma once

#include "chess_position.h"

/* Centipawns from the side to move's view; no mate scores, no side effects. */
int chess_eval(const struct chess_pos *p);

/* The pawn-structure terms of recent positions, by the pawns' own key: one search
 * thread's, so a position's pawns are scored once while the search meets them again
 * and again.  Zeroed memory is an empty table. */
#define CHESS_PAWN_TABLE_SIZE 4096 /* a power of two */
struct chess_pawn_entry {
    Key key;              /* of both colours' pawns; 0 for none yet */
    Bitboard passers[2];  /* by colour: the passed pawns the terms count */
    int32_t mg[2], eg[2]; /* by colour: the terms that depend on the pawns alone */
};
struct chess_pawn_table {
    struct chess_pawn_entry entry[CHESS_PAWN_TABLE_SIZE];
};

/* Both colours' pawns as one key, never 0 (a mix of the two bitboards). */
Key chess_pawn_key(const struct chess_pos *p);

/* chess_eval, reading and filling `pawns`: the same score, sooner. */
int chess_eval_cached(const struct chess_pos *p, struct chess_pawn_table *pawns);
