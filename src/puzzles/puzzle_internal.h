/* What the puzzle judge's files share (puzzle.c, puzzle_tables.c); not for callers. */
#pragma once

#include "puzzle.h"

/* Judge st by the game's endgame tables (puzzle_tables.c): 0 when the tables do not
 * hold it (the search judges then), else 1 with *why (PUZZLE_OK with the line in *out,
 * which the caller cleared; st is left at the line's end).  mv: room for the game's
 * max_moves. */
int puzzle_solve_by_tables(const struct game *g, void *st, Move *mv, struct puzzle_solution *out,
                           enum puzzle_reject *why);
