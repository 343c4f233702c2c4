/* Agon (Queen's Guard), the 1842 hexagonal race to the throne (rules/agon.md). */
#pragma once

#include "core/game.h"

extern const struct game agon_game;

/* Agon's own words (agon_game.reasons, .move_flag_names, the layout's flag_names).
 * The reasons' numbers are stored with finished games. */
enum agon_reason {
    AGON_REASON_FORMATION = 5,      /* guards on ring 1 with the queen on the throne */
    AGON_REASON_FORMATION_LOSS = 6, /* guards on ring 1 with the queen elsewhere */
};
#define AGON_MOVE_RETURN (1u << 1) /* a captured piece goes back */
#define AGON_CELL_THRONE (1u << 1)
