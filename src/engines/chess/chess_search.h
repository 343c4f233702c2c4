/* The dedicated chess search, the chess profile's own search (profile.c): it works on the
 * chess module's position directly (no game interface in the hot path). */
#pragma once

#include "search/search.h"

/* Search `st` (a state of chess_game, given back unchanged) with the engine's table
 * memory `tt` under `ctl`'s limits.  Returns a legal move (0 only when there is none)
 * and fills `out`.  Deterministic for one thread. */
Move chess_search(void *st, const struct search_params *p, struct search_ctl *ctl, struct tt *tt,
                  struct engine_result *out);
