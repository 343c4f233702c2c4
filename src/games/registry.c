/* The table of games, in the order they are offered to people. */
#include "core/registry.h"
#include "agon/agon.h"
#include "chess/chess.h"
#include "egara/egara.h"

const struct game *const game_registry[] = {
    &egara_game,
    &chess_game,
    &agon_game,
    NULL,
};
