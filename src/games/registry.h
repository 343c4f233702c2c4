/* The table of games, above the games: every game in the order they are offered to
 * people, its lookup by name and its initialisation.  Core defines the interface
 * (core/game.h) and knows no game; each game knows only core; adding a game is one
 * line here and its folder beside this file. */
#pragma once

#include "core/game.h"

/* NULL-terminated, in the order games are listed to people. */
extern const struct game *const game_registry[];

/* Build every game's tables; call once before anything else. */
void games_init(void);

/* The game named `name` or one of its aliases, or NULL. */
const struct game *game_find(const char *name);

/* The game that reads the next record of `text`: the one its Variant tag names
 * (core/record.h's record_names_game), else the game whose record_variant is NULL
 * (standard PGN; it then reports a variant it does not know), else the first game. */
const struct game *game_of_record(const char *text);
