/* The table of games.  Core declares it; src/games/registry.c defines it, so core
 * knows no game and each game knows only core. */
#pragma once

#include "game.h"

/* NULL-terminated, in the order games are listed to people. */
extern const struct game *const game_registry[];

/* Build every game's tables; call once before anything else. */
void games_init(void);

/* The game named `name` or one of its aliases, or NULL. */
const struct game *game_find(const char *name);
