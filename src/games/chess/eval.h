/* The chess evaluation, called directly by the chess search and through the game
 * interface (chess_evaluate) by everything else. */
#pragma once

#include "state.h"

/* Centipawns from the side to move's view; no mate scores, no side effects. */
int chess_eval(const struct chess_pos *p);
