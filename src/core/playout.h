/* Random playouts: the workload of `agora bench`, the generic tests and MCTS. */
#pragma once

#include "game.h"
#include "rng.h"

/* Play uniformly random legal moves from `st` until the game is over or `max_plies`
 * were made; the moves made are stored in `line` (room for max_plies) and the state is
 * left at the end.  Returns the number of plies made. */
int playout(const struct game *g, void *st, struct rng *r, int max_plies, Move *line, Move *buf);

/* Take back the `n` moves of `line` made by playout. */
void playout_undo(const struct game *g, void *st, const Move *line, int n);
