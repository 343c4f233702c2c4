/* The puzzle routes (API.md "Puzzles"): the next puzzle near the player's rating, an
 * attempt judged against the solution, and the list of games and themes. */
#pragma once

#include <stdbool.h>

#include "server/common/api_types.h"

/* Handles `path` when it is a puzzle route (true), filling r. */
bool puzzles_route(struct server *srv, const struct api_request *req, const char *path,
                   struct api_response *r);
