/* The puzzle routes (API.md "Puzzles"): the next puzzle near the player's rating, an
 * attempt judged against the solution, and the list of games and themes. */
#pragma once

#include <stdbool.h>

#include "server/common/route.h"

/* GET /api/puzzles, GET /api/puzzles/next, POST /api/puzzles/{id}/attempts. */
route_handler puzzles_list, puzzles_next, puzzles_attempt;
