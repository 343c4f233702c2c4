/* Static exchange evaluation: the material a move wins or loses when both sides
 * then capture on its target square, least valuable attacker first, each free to
 * stop when going on would lose.  Sliders behind a capturer join in (x-rays); pins
 * and checks are ignored, as usual. */
#pragma once

#include "games/chess/chess_position.h"

/* Piece values of the exchange, indexed by piece type (king: large). */
extern const int cs_see_value[7];

/* The exchange's result for the side to move, in centipawns (a promotion counts
 * the new piece less the pawn; castling is 0). */
int cs_see(const struct chess_pos *p, Move m);
/* cs_see(p, m) >= threshold, often decided without the whole exchange. */
int cs_see_ge(const struct chess_pos *p, Move m, int threshold);
