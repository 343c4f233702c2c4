/* The debug consistency check after every make and unmake.
 *
 * In a build with -DAGORA_DEBUG_CHECK (the sanitizer build of `make test`), each game's
 * make and unmake run the game's own check (struct game's `check`: everything
 * derivable recomputed from scratch) on the state they leave; the first inconsistency
 * aborts with the game, the move and the check's message.  Chess checks in
 * chess_pos_make and chess_pos_unmake, which its game interface, its search and its
 * perft all go through.  Without the define no check is compiled: the optimised build
 * pays nothing. */
#pragma once

#include "game.h"

/* Print "agora: debug check failed after GAME OP MOVE (0xMOVE): WHY" on stderr and
 * abort.  `op` is "make" or "unmake". */
_Noreturn void debug_check_failed(const char *game, const char *op, const char *move_text, Move m,
                                  const char *why);

/* g->check on `st` after `op` of `m`; debug_check_failed when it fails.  The move is
 * named by g->move_text, which for every game reads only the move, not the state. */
void debug_check_state(const struct game *g, const void *st, const char *op, Move m);

#ifdef AGORA_DEBUG_CHECK
#define DEBUG_CHECK_STATE(g, st, op, m) debug_check_state((g), (st), (op), (m))
#else
#define DEBUG_CHECK_STATE(g, st, op, m) ((void)0)
#endif
