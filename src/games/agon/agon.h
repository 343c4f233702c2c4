/* Agon (Queen's Guard), the 1842 hexagonal race to the throne (rules/agon.md). */
#pragma once

#include "core/game.h"

extern const struct game agon_game;
