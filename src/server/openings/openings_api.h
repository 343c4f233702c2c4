/* The opening trainer's side of the API (issue 18): a position's book moves with their
 * weights and the name of its opening (POST /api/positions with "book": true), and
 * every name a game's names file gives (GET /api/openings/GAME).  Everything comes
 * through the engine profile (its book and its names file), so no game is named here.
 * A game's names are read on first use. */
#pragma once

#include "core/game.h"
#include "server/common/route.h"

struct jout;
struct move_rec;
struct server;

void openings_init(struct server *srv);
void openings_free(struct server *srv);

/* The "book" field of a position: {"moves": [{"move", "display", "weight"}], "name":
 * {"code", "name", "ply"} or null}: the book's moves in `st`, and the name of the last
 * named position on the way from `start` (NULL or "": the game's start) through `moves`. */
void openings_book_out(struct server *srv, const struct game *g, const char *start,
                       const struct move_rec *moves, int n_moves, const void *st, struct jout *j);

/* GET /api/openings/{game}. */
route_handler openings_names;
